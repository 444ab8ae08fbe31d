"""Train a gin player with sb3-contrib's MaskablePPO on cardhall's Gymnasium environment, on CPU, then
measure it in a duplicate-deal tournament against the ``random`` and ``rules`` bots.

    pip install 'cardhall[train]'      # sb3-contrib and torch: heavy, so not in `all`
    python examples/train_gin.py [--steps 200000] [--opponent random] [--deals 500] [--save gin_ppo.zip]

The run docs/rl.md reports (about six minutes on one core):

    nice python examples/train_gin.py --steps 300000 --opponent rules --deals 500

- **Game**: ``gin(players=2,max_hands=1)``, one hand a match, so an episode is one hand.
- **Training**: the learner sits in seat 0 (the deal decides who deals, so it plays both roles), the
  opponent is the bot ``--opponent``; the reward of a step is the learner's points minus the opponent's
  (``info["rewards"]``): gin scores only the hand's winner, and losing a hand by much should cost.
  Illegal actions never happen: MaskablePPO reads ``env.action_masks()``.
- **Tournament**: each deal (seed) is played twice with the seats swapped, the policy against the bot
  (duplicate deals: the luck of the cards cancels out), and the policy's margin (its points minus the
  bot's, per deal, averaged over the two seatings) is reported with a 95% confidence interval over the
  deals, with its win rate (``cardhall.sim``'s statistics, as ``cardhall simulate --rotate`` reports).
  The policy acts greedily (the most likely legal action).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium as gym
import numpy as np

import cardhall.rl
from cardhall.rl.encoders import make_encoder
from cardhall.sim.simulate import MatchResult, SimulationReport, rotated
from cardhall.table import Occupant, Table

GAME = "gin(players=2,max_hands=1)"


class Margin(gym.Wrapper[Any, Any, Any, Any]):
    """The learner's reward as its margin over the other seats (their mean)."""

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if "rewards" in info:  # an illegal action's step has none (it cannot happen under masks)
            mine = info["rewards"][self.env.unwrapped.seat]
            others = [r for s, r in enumerate(info["rewards"]) if s != self.env.unwrapped.seat]
            reward = mine - sum(others) / len(others)
        return obs, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def train(steps: int, opponent: str, seed: int) -> Any:
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # a small MLP: more threads only contend for the cores

    env = Margin(cardhall.rl.gym_env(GAME, seat=0, opponents=opponent))
    env.reset(seed=seed)
    model = MaskablePPO(
        "MlpPolicy", env, seed=seed, verbose=0, n_steps=2048, batch_size=256, n_epochs=5, ent_coef=0.01
    )
    model.learn(total_timesteps=steps)
    return model


def tournament(model: Any, opponent: str, deals: int, first_seed: int) -> dict[str, Any]:
    """The policy against ``opponent`` on ``deals`` duplicate deals (seats swapped)."""
    encoder = make_encoder(cardhall.load_game(GAME))
    names = ["ppo", opponent]
    report = SimulationReport(GAME, names, rotate=True)
    for seed in range(first_seed, first_seed + deals):
        for rotation in range(2):
            seats = rotated(names, rotation)
            occupants = [Occupant.person("ppo") if name == "ppo" else name for name in seats]
            table = Table(GAME, occupants, seed=seed, events=False)
            me = seats.index("ppo")
            while True:
                table.run_bots()
                state = table.state
                if state.is_over:
                    break
                obs = encoder.encode(state.observation(me, ints=True))
                mask = np.zeros(state.game.num_distinct_actions, dtype=bool)
                mask[state.legal_actions(me)] = True
                action, _ = model.predict(obs, action_masks=mask, deterministic=True)
                table.apply(me, int(action))
            report.results.append(
                MatchResult(seed, tuple(state.scores), tuple(state.winners), len(state.history), None, seats)
            )
    (ppo,) = [row for row in report.by_bot() if row["bot"] == "ppo"]
    return {"opponent": opponent, "deals": deals, "games": len(report.results), **ppo}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200_000, help="training timesteps (learner actions)")
    parser.add_argument("--opponent", default="random", help="the bot the learner trains against")
    parser.add_argument("--deals", type=int, default=500, help="tournament deals per opponent (x2 seatings)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="save the trained model here (a .zip)")
    args = parser.parse_args()
    start = time.process_time()
    model = train(args.steps, args.opponent, args.seed)
    trained = time.process_time() - start
    print(f"trained {args.steps:,} steps against {args.opponent} in {trained:.0f} s of CPU")
    if args.save:
        model.save(args.save)
    # Tournament deals come after every seed the training could have used (it draws its own seeds).
    for opponent in ("random", "rules"):
        row = tournament(model, opponent, args.deals, first_seed=10**9)
        margin, win = row["margin"], row["win_rate"]
        print(
            f"ppo vs {opponent}: margin {margin['value']:+.2f} [{margin['low']:+.2f}, {margin['high']:+.2f}] "
            f"points a hand, win rate {win['value']:.3f} [{win['low']:.3f}, {win['high']:.3f}] "
            f"({row['games']} hands, {args.deals} deals x 2 seatings)"
        )
        print(json.dumps(row))


if __name__ == "__main__":
    main()
