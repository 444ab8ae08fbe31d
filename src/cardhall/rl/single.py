"""The Gymnasium environment: one seat learns, every other seat is one of our bots, by name.

It drives a :class:`~cardhall.table.Table` with the learner's seat as a person and the opponents as
bots (``opponents="rules"`` for every other seat, or one bot string per other seat in seat order); the
bots play their turns inside :meth:`step` (and :meth:`reset`) until the learner must act or the match
is over, drawing from RNGs the Table derives from the match seed, so a seeded reset reproduces the match.

Decisions:

- **Observation**: the seat's encoded observation alone, a ``float32`` array (the game's encoder,
  :mod:`cardhall.rl.encoders`). The legal actions are a mask over ``Discrete(game.num_distinct_actions)``,
  given the ways the two maintained conventions read it: ``info["action_mask"]`` (Gymnasium) and
  :meth:`action_masks` (sb3-contrib's ``MaskablePPO``).
- **An illegal action** is refused and changes nothing: the learner stays to act in the same position,
  the step's reward is ``illegal_reward`` (-1 by default) and ``info["illegal_action"]`` holds the
  game's message. (Gymnasium's ``check_env`` and unmasked learners send any action of the space; an
  error would stop them, and a silent substitute would hide the mistake.)
- **Rewards** per deal or per match for the learner's seat (:mod:`cardhall.rl.rewards`; penalty-point
  games reward the negative of the penalty points); the step that ends the match has ``terminated``.
  ``info["rewards"]`` has every seat's reward for the step, for a learner that wants its margin over
  the others rather than its own points (gin scores only the winner of a hand).
- **Seeding**: ``reset(seed=s)`` deals the match from seed ``s``; a reset without a seed draws the match
  seed from the environment's generator (``np_random``), so a seeded sequence of resets reproduces.
- **A match the bots end before the learner's first decision** (two-player gin: the non-dealer takes the
  up-card and knocks at once; once in 2,000 resets against ``rules`` in one run) is skipped:
  Gymnasium's ``reset`` cannot end an episode, and an episode without a decision teaches nothing.
  ``reset`` deals the next match from the generator and lists the skipped seeds in
  ``info["skipped_seeds"]``; the deal is then no longer the seed's own, but a seeded reset still
  reproduces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cardhall.core import Game, State
from cardhall.errors import IllegalActionError, InvalidOptionError
from cardhall.registry import load_game
from cardhall.rl.aec import action_mask
from cardhall.rl.encoders import make_encoder
from cardhall.rl.rewards import Rewards, check_mode
from cardhall.table import Occupant, Table

Array = np.ndarray[Any, Any]
MAX_SKIPPED = 1000  # matches in a row the bots may end before the learner acts, before reset gives up


class CardhallGym(gym.Env[Array, Any]):
    """One seat of one game against bots, as a Gymnasium environment; see the module's notes."""

    def __init__(
        self,
        game: Game | str,
        seat: int = 0,
        opponents: str | Sequence[str] = "rules",
        rewards: str = "deal",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.metadata = {"render_modes": ["ansi"]}
        self.game = load_game(game)
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOptionError(f"{self.game}: seat must be 0..{n - 1}, got {seat!r}")
        self.seat = seat
        bots = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(bots) != n - 1 or not all(isinstance(b, str) for b in bots):
            raise InvalidOptionError(
                f"{self.game}: opponents must be one bot string, or {n - 1} (one per other seat), "
                f"got {opponents!r}"
            )
        seats: list[Occupant | str] = list(bots)
        seats.insert(seat, Occupant.person("learner"))
        # A Table built now refuses a bad bot string with its own message, before any reset.
        Table(self.game, seats, seed=0, events=False)
        self._seats = seats
        self.reward_mode = check_mode(self.game, rewards)
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, "ansi"):
            raise InvalidOptionError(f"{self.game}: render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.encoder = make_encoder(self.game)
        self.observation_space = spaces.Box(-1.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.table: Table | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Array, dict[str, Any]]:
        super().reset(seed=seed)
        match_seed = seed if seed is not None else self._draw_seed()
        skipped: list[int] = []
        while True:
            self.table = Table(self.game, self._seats, seed=match_seed, events=False)
            self._rewards = Rewards(self.table.state, self.reward_mode)
            # What is earned before the learner's first action (a hand the bots ended, in a match of
            # several) comes with the reward of that action.
            self._carried = self._play_bots()
            if not self.table.state.is_over:
                break
            # The bots ended the match before the learner had a decision (gin's non-dealer can take
            # the up-card and knock at once): Gymnasium's reset cannot end an episode, and there is
            # nothing to learn from it, so the next match is dealt, from the environment's generator.
            skipped.append(match_seed)
            if len(skipped) >= MAX_SKIPPED:
                raise InvalidOptionError(
                    f"{self.game}: the bots ended {MAX_SKIPPED} matches in a row before seat {self.seat} "
                    "had a decision"
                )
            match_seed = self._draw_seed()
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if skipped:
            info["skipped_seeds"] = skipped
        return self._observe(), info

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(2**63 - 1))

    def step(self, action: int) -> tuple[Array, float, bool, bool, dict[str, Any]]:
        table = self._table()
        if table.state.is_over:
            raise InvalidOptionError(f"{self.game}: the match is over; call reset()")
        try:
            table.apply(self.seat, int(action))
        except IllegalActionError as e:
            info = {"action_mask": self.action_masks(), "illegal_action": str(e)}
            return self._observe(), self.illegal_reward, False, False, info
        earned = [a + b for a, b in zip(self._carried, self._earned(), strict=True)]
        earned = [a + b for a, b in zip(earned, self._play_bots(), strict=True)]
        self._carried = [0.0] * len(earned)
        info = {"action_mask": self.action_masks(), "rewards": earned}
        return self._observe(), earned[self.seat], table.state.is_over, False, info

    def action_masks(self) -> Array:
        """The legal actions of the learner now, as a mask (all zeros once the match is over)."""
        return action_mask(self._table().state, self.seat).astype(bool)

    # --- helpers ---------------------------------------------------------------------------------

    def _table(self) -> Table:
        if self.table is None:
            raise InvalidOptionError(f"{self.game}: call reset() before using the environment")
        return self.table

    def _earned(self) -> list[float]:
        earned = self._rewards.after_action(self._table().state)
        return [0.0] * self.game.num_players if earned is None else earned

    def _play_bots(self) -> list[float]:
        """Let the bots play until the learner must act (or the match ends); what every seat earned
        meanwhile."""
        table = self._table()
        total = [0.0] * self.game.num_players
        while True:
            bots = table.bots_to_act()
            if not bots:
                return total
            table.play_bot(bots[0])
            total = [a + b for a, b in zip(total, self._earned(), strict=True)]

    def _observe(self) -> Array:
        state: State = self._table().state
        return self.encoder.encode_state(state, self.seat)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._table().state
        lines = self.encoder.describe(state.observation(self.seat))
        lines.append("scores: " + " ".join(map(str, state.scores)))
        return "\n".join(lines)
