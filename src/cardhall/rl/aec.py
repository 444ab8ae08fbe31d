"""The PettingZoo AEC environment: every seat of a match is an agent (``player_0`` .. ``player_{n-1}``).

It drives a :class:`~cardhall.table.Table` whose seats are all people (the agents), keeping no events;
the rules check every action (the state's ``apply``), and the observation of an agent is its seat's
observation, encoded by the game's encoder (:mod:`cardhall.rl.encoders`): ``{"observation": float32
array, "action_mask": int8 array}``, the mask over ``Discrete(game.num_distinct_actions)`` with a 1 for
each legal action (all zeros for an agent that may not act now).

Decisions:

- **Simultaneous choices in AEC order**: where the rules let several seats act at once (Hearts passing,
  the gin advisor beside his captain), the agent to act is the first of them, in the order of play,
  whose action would not end or change another's pending choice, as the Table orders its bots: the gin
  advisor advises, then his captain plays; each Hearts passer chooses all his cards, then the next. An
  agent's observation is its seat's own, so what it sees of an earlier agent's pending choice is what the
  rules show (how many cards a seat has chosen to pass, never which; the suggestion to the team only).
- **Rewards** per deal or per match, as :mod:`cardhall.rl.rewards` says; penalty-point games (Hearts)
  reward the negative of the penalty points.
- **Seeding**: ``reset(seed=s)`` deals the match from seed ``s``; ``reset()`` without a seed draws the
  match seed from the environment's own generator (seeded by the last seeded reset), so a seeded run of
  resets reproduces.
- **An illegal action** (one the mask forbids) raises :class:`~cardhall.errors.IllegalActionError` with
  the game's message and changes nothing: an AEC agent always has the mask.
- ``render_mode="ansi"``: :meth:`render` returns the table as a spectator sees it (no hidden card) and
  whose turn it is.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardhall.core import Game, State
from cardhall.errors import InvalidOptionError
from cardhall.registry import load_game
from cardhall.rl.encoders import Encoder, make_encoder
from cardhall.rl.rewards import Rewards, check_mode
from cardhall.table import Occupant, Table

Obs = dict[str, np.ndarray[Any, Any]]


def acting_seat(state: State) -> int:
    """The seat that acts next in AEC order (see the module's notes): the first seat to act whose
    action changes no other seat's pending choice, else the first."""
    to_act = state.to_act
    if len(to_act) == 1:
        return to_act[0]
    for seat in to_act:
        copy = state.clone()
        copy.apply_unchecked(seat, copy.legal_actions(seat)[0])
        if all(copy.legal_actions(s) == state.legal_actions(s) for s in to_act if s != seat):
            return seat
    return to_act[0]


def observation_space(encoder: Encoder) -> spaces.Dict:
    actions = encoder.game.num_distinct_actions
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 1.0, (encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }
    )


def action_mask(state: State, seat: int) -> np.ndarray[Any, Any]:
    # The engine's bytes seen as an array: a fraction of the time of numpy's zeros and a fancy index
    # (a few legal actions among 190 or so). The buffer is new each call, so no mask is ever shared.
    return np.frombuffer(state.legal_mask(seat), np.int8)


class CardhallAEC(AECEnv[str, Obs, int]):  # type: ignore[misc]
    """One game (with its options) as a PettingZoo AEC environment; see the module's notes."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "cardhall",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(self, game: Game | str, rewards: str = "deal", render_mode: str | None = None) -> None:
        super().__init__()
        self.game = load_game(game)
        self.reward_mode = check_mode(self.game, rewards)
        if render_mode not in (None, "ansi"):
            raise InvalidOptionError(f"{self.game}: render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.encoder = make_encoder(self.game)
        n = self.game.num_players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        obs_space = observation_space(self.encoder)
        act_space = spaces.Discrete(self.game.num_distinct_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._np_random = np.random.default_rng()
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the match -------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            match_seed = seed
        else:
            match_seed = int(self._np_random.integers(2**63 - 1))
        people = [Occupant.person(agent) for agent in self.possible_agents]
        self.table = Table(self.game, people, seed=match_seed, events=False)
        self._rewards = Rewards(self.table.state, self.reward_mode)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewarded = False  # whether self.rewards holds any reward (else every one is 0.0)
        self.agent_selection = self.possible_agents[acting_seat(self.table.state)]

    def _state(self) -> State:
        if self.table is None:
            raise InvalidOptionError(f"{self.game}: call reset() before using the environment")
        return self.table.state

    def observe(self, agent: str) -> Obs:
        # Called at every step (by `last`): _state and action_mask written out, a call each saved.
        table = self.table
        if table is None:
            raise InvalidOptionError(f"{self.game}: call reset() before using the environment")
        state = table.state
        seat = self._seat_of[agent]
        return {
            "observation": self.encoder.encode_state(state, seat),
            "action_mask": np.frombuffer(state.legal_mask(seat), np.int8),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        if table is None:
            raise InvalidOptionError(f"{self.game}: call reset() before using the environment")
        state = table.state
        # The Table keeps no events here, so its apply would only call the state's, which checks the
        # action (an illegal one raises and changes nothing).
        state.apply(self._seat_of[agent], int(action) if action is not None else action)
        self._cumulative_rewards[agent] = 0.0
        earned = self._rewards.after_action(state)
        # Most actions earn nothing: then the rewards stay all 0.0 and adding them changes nothing.
        if earned is not None or self._rewarded:
            for a in self.agents:
                self.rewards[a] = 0.0 if earned is None else earned[self._seat_of[a]]
            self._rewarded = earned is not None
        if state.is_over:
            for a in self.agents:
                self.terminations[a] = True
        else:
            to_act = state.to_act  # one seat but for simultaneous choices: no call for the common case
            self.agent_selection = self.possible_agents[to_act[0] if len(to_act) == 1 else acting_seat(state)]
        if self._rewarded:
            self._accumulate_rewards()

    # --- display ---------------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._state()
        lines = self.encoder.describe(state.observation(None))
        lines.append("scores: " + " ".join(map(str, state.scores)))
        lines.append("over" if state.is_over else f"to act: {self.agent_selection}")
        return "\n".join(lines)

    def close(self) -> None:
        self.table = None
