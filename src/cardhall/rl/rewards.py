"""Rewards from a match's scores, per deal or per match, for every seat.

- ``rewards="deal"``: when a deal ends (``State.deals_finished`` grows) or the match does, each seat is
  rewarded with the change of its score since the last deal ended. Scores change only then in every
  game but Svara, whose scores are the chip stacks, which move with every bet: counting at the deals'
  ends rewards a deal's outcome, not the chips put into a pot still undecided. Over a match a seat's
  rewards add up to its final score less its first one.
- ``rewards="match"``: nothing until the match ends; then each winner gets ``1 / len(winners)`` (a tie
  shares the win) and everyone else 0, so the rewards of a match add up to 1.
- **Penalty-point games** (``Game.lowest_score_wins``: Hearts, where points taken are bad) reward the
  *negative* of the score change: a seat that takes 13 penalty points in a deal gets -13. Kierki keeps
  its scores as points won (its penalties are already negative) and is rewarded as they are.
"""

from __future__ import annotations

from cardhall.core import State
from cardhall.errors import InvalidOptionError

REWARD_MODES = ("deal", "match")


def check_mode(game: object, mode: object) -> str:
    if mode not in REWARD_MODES:
        raise InvalidOptionError(f"{game}: rewards must be 'deal' or 'match', got {mode!r}")
    assert isinstance(mode, str)
    return mode


class Rewards:
    """Follows one state and tells, after each action, what each seat earned by it."""

    def __init__(self, state: State, mode: str) -> None:
        self.mode = check_mode(state.game, mode)
        self.sign = -1.0 if state.game.lowest_score_wins else 1.0
        self.deals = state.deals_finished
        self.scores = tuple(state.scores)
        self.over = state.is_over

    def after_action(self, state: State) -> list[float] | None:
        """The reward of each seat for what has happened since the last call, or None when nothing
        was earned (no deal or match ended)."""
        if self.over:
            return None
        deals = state.deals_finished
        over = state.is_over
        if deals == self.deals and not over:
            return None
        self.deals = deals
        self.over = over
        if self.mode == "match":
            if not over:
                return None
            winners = state.winners
            share = 1.0 / len(winners) if winners else 0.0
            return [share if s in winners else 0.0 for s in range(state.game.num_players)]
        scores = tuple(state.scores)
        earned = [self.sign * (after - before) for after, before in zip(scores, self.scores, strict=True)]
        self.scores = scores
        return earned
