"""Reinforcement-learning environments for every game: PettingZoo (every seat an agent) and Gymnasium
(one seat against our bots), with one encoder per game from the observation to a fixed-size array.

```python
import cardhall.rl
env = cardhall.rl.env("hearts(players=8)")                      # PettingZoo AEC, rewards per deal
gym_env = cardhall.rl.gym_env("gin(players=2)", seat=0, opponents="rules")
```

Needs the ``rl`` extra (pettingzoo, gymnasium, numpy); without it the import ends in one sentence
naming the extra and the command that installs it, as ``cardhall serve`` does for the server's.
``docs/rl.md`` documents the spaces, the rewards and every encoder's layout (``python -m cardhall.rl GAME``
prints one).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardhall.core import Game

# What the rl extra brings (pyproject.toml); a missing module of these is the extra not installed.
EXTRA = ("numpy", "gymnasium", "pettingzoo")

try:
    from cardhall.rl.aec import CardhallAEC
    from cardhall.rl.encoders import Encoder, make_encoder
    from cardhall.rl.single import CardhallGym
except ModuleNotFoundError as e:
    if (e.name or "").split(".")[0] not in EXTRA:
        raise
    raise ModuleNotFoundError(
        f"cardhall.rl needs its extra: pip install 'cardhall[rl]' (in a clone: .venv/bin/pip install -e "
        f"'.[rl]'); {e.name} is not installed",
        name=e.name,
    ) from None


def env(game: Game | str, rewards: str = "deal", render_mode: str | None = None) -> CardhallAEC:
    """A PettingZoo AEC environment of ``game`` (a game string with options, or a Game); ``rewards``
    is ``"deal"`` or ``"match"``."""
    return CardhallAEC(game, rewards=rewards, render_mode=render_mode)


def gym_env(
    game: Game | str,
    seat: int = 0,
    opponents: str | Sequence[str] = "rules",
    rewards: str = "deal",
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
) -> CardhallGym:
    """A Gymnasium environment: ``seat`` learns, the other seats are bots (one bot string for all, or
    one per other seat in seat order)."""
    return CardhallGym(game, seat, opponents, rewards, illegal_reward, render_mode)


__all__ = ["CardhallAEC", "CardhallGym", "Encoder", "env", "gym_env", "make_encoder"]
