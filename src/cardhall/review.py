"""The review of a match: what each decision of one seat cost, judged only from what that seat could know.

``review(record, seat, budget, seed, progress)`` is a pure function of its arguments (a record as
:mod:`cardhall.records` describes it, ints, and an optional ``progress(done, total)`` callback) and returns
a JSON-ready dict, so a server can run it as an offline job in a worker process (the arguments pickle) and
store what it returns. The same arguments give the same review on any machine: the budget counts
determinizations, never time.

How a decision is valued (the decisions made):

- **Which decisions**: every action of the seat in the record that had more than one legal action;
  forced ones (one legal action) are skipped and only counted, per deal. The record is replayed whole,
  every action checked, before anything is searched.
- **From the observation alone**: at each decision the record is replayed to just before the action and
  only ``state.observation(seat, ints=True)`` and the legal actions are kept; nothing else of the true
  state reaches the search. Determinizations are drawn from that observation by the search bot's sampler
  (``game.sample_state``, or the rules module's ``make_sampler`` opponent model, made fresh for each
  decision so nothing learnt at one decision reaches another), and the review's randomness for a decision
  is keyed on (review seed, seat, the seat's own turn number): two records the seat cannot tell apart up
  to a decision get the identical review of it (``tests/review/test_review.py`` checks it).
- **Candidates**: the search bot's (the rules module's ``search_candidates``: every legal action in Hokm
  and Kierki, a short list in Hearts, Svara and gin), plus the move played and the rules bot's move.
  Where the game leaves a decision to the rules player (gin's take-or-draw, plain discards,
  suggestions, layouts: one candidate) and the player played that move, it is valued but has nothing to
  be compared with: loss 0, ``good``, ``searched: false``; a different move played is compared with it.
- **Values**: perfect-information Monte Carlo as the search bot plays (:meth:`SearchBot.evaluate`):
  ``budget`` determinizations, each candidate played on each of them and rolled out by the rules bot in
  every seat to the end of the deal, every candidate of a determinization on the same rollout dice
  (common random numbers), so the differences between candidates are paired. A candidate's **value** is
  the expected **deal value** after it: the seat's points minus the mean of the other seats' at the end of
  the deal, less the same at the start of the deal (negated in penalty-point games, Hearts), so higher is
  better in every game and the value is what the whole deal is expected to give the seat. ``se``: the
  standard error of that mean over the determinizations.
- **Best and loss**: the best move is the candidate with the highest mean (ties: the lowest action); the
  loss of a candidate is the best's value minus its own, with the standard error of the paired
  difference (``loss_se``; 0 for the best itself). The loss of the decision is the loss of the move played.
- **A better move** is named only where it is better: the best candidate, when its advantage over the move
  played is clear of zero (``loss - Z se > 0``); a best candidate whose lead is inside the noise (or none:
  ``0 ± 0``) is not a better move, and the review says nothing of it beside the move played.
- **The interval** of a loss is ``loss ± Z se`` (about 95%, over ``samples`` sampled deals: the
  determinizations); where every sampled deal gave the same difference (``agree``: a standard error of
  exactly 0) the review says so instead of an interval of width 0.
- **Verdict**, only where the loss is clear of the noise (``Z`` = 2 standard errors, about 98% one-sided):
  ``blunder``, ``mistake`` or ``inaccuracy`` when ``loss - 2 se`` reaches that class's threshold (the worst
  class the review is sure of), ``good`` when even ``loss + 2 se`` stays under the inaccuracy threshold,
  and None (*unclear*) otherwise: the estimate cannot tell a small loss from an inaccuracy.
- **Thresholds**, in points of the deal value (``thresholds(game)``, given by the game's rules module,
  ``review_thresholds``; inaccuracy / mistake / blunder):

  ======  =====================  ==========================================================================
  game    thresholds             why
  ======  =====================  ==========================================================================
  hokm    5 / 15 / 40            contracts score 10 a trick bid: 15 is a one-in-four chance of failing a
                                 contract of 3 (a 60-point swing), 40 two chances in three
  kierki  10 / 25 / 60           a trick of deal 1 costs 20 (26.7 against the others' mean), a queen 60
  hearts  1.5 / 4 / 10           a heart is a point; 10 is most of the Q♠'s 13
  gin     3 / 8 / 20             a few points of deadwood; 20 about a gin or undercut bonus
  svara   2 / 6 / 20 antes       chips scale with the table's stakes, so in antes (20 / 60 / 200 at ante 10)
  ======  =====================  ==========================================================================

- **Accuracy**, the headline figure, made as lichess makes its accuracy from the winning chances each move
  gave away, with the deal's expected result in the place of chess's winning chances (issue 51: the mean
  of a per-decision score on a fixed scale let a seat that played at random score 86%):

  - a decision's **stake** is what it could swing: the best candidate's expected deal result minus the
    worst candidate's, at least the blunder threshold (a decision where every move is worth about the
    same is not made to look momentous by a small loss);
  - the **chances** it gave away, in points of 100: ``lost = 100 * counted / stake``, where
    ``counted = max(0, loss - 2 se)`` is the part of the loss clear of the noise (0 for a good decision);
  - its accuracy is lichess's curve of them, ``103.1668 * exp(-0.04354 * lost) - 2.1669`` (lichess's
    constants and its "uncertainty bonus" of 1) within 0..100: 100 for nothing given away, 81 for a
    twentieth of the stake, 65 for a tenth, 41 for a fifth, 9.5 for half, 0 from 89 points of 100;
  - a deal's and the match's accuracy (over their reviewed decisions; forced ones excluded) is, as
    lichess's game accuracy, the mean of two means of the decisions' accuracies: weighted by their
    stakes (lichess weighs each move by how much the position's chances swing) and harmonic (each at
    least 1 there), so the decisions that mattered count most, and a few gross errors are not averaged
    away by the many decisions where any card would do.

  Measured on the bots (``benchmarks/review-accuracy.md``, the default budget): a seat that plays at
  random scores far below the ``normal`` (rules) bot's in every game, and the ``hard`` (search) bot,
  which plays as the review values, close to 100. ``tests/review/test_review.py`` holds the first at a small
  budget.

  ``loss`` of a deal and of the match is the sum of the counted losses: the points the seat *left on the
  table*, what the better moves the search found would have added at least (measured against those moves,
  not against the other players: a match won has them too). Both depend a little on the budget (less
  noise, less forgiven).
- **Budget**: ``DEFAULT_BUDGET`` (200) determinizations a decision: a whole Hokm match (to 500, some 300
  decisions of a seat) is reviewed in about half a minute on one core, Kierki (12 deals) in about 15 s;
  ``benchmarks/review.md`` has the cost per game and the calibration.

- **Units**: every value and loss is in the game's own points, which the review names (``unit``): chips in
  Svara (its scores are the players' chip stacks), points in the other games.

What the values assume: every seat plays the rest of the deal as the rules bot would, and the hidden cards
lie as the game's sampler draws them (uniformly given what the seat saw; gin and Svara weigh the
opponents' hands by what they did). A move is judged by what it gains against such players, and by a
search that is stronger than the rules bot but not perfect.

The result (``REVIEW_VERSION`` 3; version 2's ``accuracy`` was the mean of ``100 * exp(-counted / scale)``,
``scale`` the mistake threshold / ln 2, which meant something else, and it had no ``stake``; version 1
also lacked ``unit``, ``samples``, ``better``, ``interval``, ``agree`` and the candidates' ``move``):

- ``game``, ``seat``, ``seed`` (the review's), ``budget``, ``z``, ``unit`` (``"points"`` or ``"chips"``),
  ``thresholds`` (``{"inaccuracy", "mistake", "blunder"}``), ``record`` (``{"seed", "actions", "over"}``);
- ``match`` and each of ``deals`` (with its 1-based ``deal`` number and ``result``, the seat's real deal
  value, null for a deal not finished): ``decisions`` (reviewed), ``forced``, ``verdicts`` (a count per
  verdict), ``unclear``, ``loss`` (the counted losses: points left on the table), ``accuracy`` (percent,
  null without decisions);
- ``decisions``, in record order: ``index`` (of the action in the record), ``turn`` (the seat's, from 0,
  forced ones counted), ``deal``, ``legal`` (how many legal actions), ``searched``, ``samples`` (the
  sampled deals it was valued over), ``played`` and ``best`` (each a candidate), ``better`` (the best
  candidate where it is clearly better than the move played, else null), ``rules`` (``{"action",
  "label", "move"}``: the rules bot's move), ``candidates`` (best first: ``{"action", "label", "move",
  "value", "se", "loss", "loss_se"}``; ``move`` is the action as data, :meth:`Game.action_info`, which a
  client words as its own button for that move), ``loss``, ``loss_se``, ``interval`` (``[low, high]``
  of the loss), ``agree``, ``verdict`` (one of ``VERDICTS`` or null), ``stake`` (what the decision could
  swing, for its accuracy: see above), ``accuracy``. Numbers are rounded to 3 decimals.

Bad input is refused before any search, naming what was wrong: a record that does not replay
(:class:`InvalidRecordError`, as :func:`cardhall.records.replay` words it), a seat not at the table, a
budget or seed out of range (:class:`InvalidOptionError`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from cardhall.bots.rules import rules_bot_class, rules_module
from cardhall.bots.search import SearchBot, rollout_value
from cardhall.core import Game, Observation, Record
from cardhall.errors import CardhallError, InvalidOptionError, InvalidRecordError
from cardhall.records import actions as record_actions
from cardhall.records import check_record
from cardhall.registry import entry

REVIEW_VERSION: Final = 3
DEFAULT_BUDGET: Final = 200
MAX_BUDGET: Final = 100_000
Z: Final = 2.0


class Verdict(StrEnum):
    """A decision's class, best first (a StrEnum: the review's JSON holds its value, ``"mistake"``)."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


VERDICTS: Final = tuple(Verdict)

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Thresholds:
    """The losses, in the game's points, from which a decision is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float

    def as_dict(self) -> dict[str, float]:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}


def thresholds(game: Game) -> Thresholds:
    """The verdict thresholds of ``game`` (in its points): its rules module's ``review_thresholds``
    (what a point is worth is knowledge of the game, kept with its bots; see the docstring)."""
    module = rules_module(game)
    if not hasattr(module, "review_thresholds"):
        raise InvalidOptionError(f"{game}: the review has no verdict thresholds for {game.name} yet")
    inaccuracy, mistake, blunder = module.review_thresholds(game)
    return Thresholds(float(inaccuracy), float(mistake), float(blunder))


def verdict(loss: float, se: float, limits: Thresholds, z: float = Z) -> Verdict | None:
    """The worst class whose threshold the loss clears by ``z`` standard errors; ``good`` when even
    ``z`` standard errors above the loss stay under the inaccuracy threshold; None (unclear) otherwise."""
    low, high = loss - z * se, loss + z * se
    if low >= limits.blunder:
        return Verdict.BLUNDER
    if low >= limits.mistake:
        return Verdict.MISTAKE
    if low >= limits.inaccuracy:
        return Verdict.INACCURACY
    if high < limits.inaccuracy:
        return Verdict.GOOD
    return None


def clearly_positive(loss: float, se: float, z: float = Z) -> bool:
    """Whether a loss is clear of zero by ``z`` standard errors: the best move is then really better."""
    return loss - z * se > 0


def unit(game: Game) -> str:
    """What the game's points are called (its entry's ``unit``: Svara's are chips)."""
    return entry(game.name).unit


def counted_loss(loss: float, se: float, z: float = Z) -> float:
    """The part of a loss clear of the estimate's noise: ``max(0, loss - z * se)``."""
    return max(0.0, loss - z * se)


def stake(spread: float, limits: Thresholds) -> float:
    """What a decision could swing, for its accuracy: the spread of its candidates' expected deal results
    (the best's minus the worst's), at least the blunder threshold."""
    return max(spread, limits.blunder)


def chances_lost(loss: float, se: float, spread: float, limits: Thresholds, z: float = Z) -> float:
    """The chances a decision gave away, in points of 100: ``100 * counted / stake`` (at most 100)."""
    return min(100.0, 100.0 * counted_loss(loss, se, z) / stake(spread, limits))


def accuracy(loss: float, se: float, spread: float, limits: Thresholds, z: float = Z) -> float:
    """A decision's accuracy in percent: lichess's curve of the chances it gave away."""
    lost = chances_lost(loss, se, spread, limits, z)
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * lost) - 2.1669))


def aggregate(accuracies: list[float], stakes: list[float]) -> float | None:
    """Many decisions' accuracy: the mean of their stake-weighted mean and their harmonic mean (each
    accuracy at least 1 there); None without decisions."""
    if not accuracies:
        return None
    weighted = sum(a * w for a, w in zip(accuracies, stakes, strict=True)) / sum(stakes)
    harmonic = len(accuracies) / sum(1.0 / max(1.0, a) for a in accuracies)
    return (weighted + harmonic) / 2


def match_accuracy(game: Game, decisions: list[dict[str, Any]]) -> float | None:
    """The accuracy of some reviewed decisions of ``game``, each with its ``loss``, ``loss_se`` and the
    ``spread`` of its candidates' values (or, as a review's decisions, its ``stake``)."""
    limits = thresholds(game)
    spreads = [d["spread"] if "spread" in d else d["stake"] for d in decisions]
    accuracies = [
        accuracy(d["loss"], d["loss_se"], s, limits) for d, s in zip(decisions, spreads, strict=True)
    ]
    return aggregate(accuracies, [stake(s, limits) for s in spreads])


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat, as the record holds it, with what the seat could see."""

    index: int  # position of the action in the record's actions
    turn: int  # the seat's turn, counting its every action from 0 (forced ones too)
    deal: int  # 1-based
    observation: Observation  # the seat's, in the bots' form (ints)
    legal: list[int]
    played: int
    base: float  # the seat's margin (rollout_value) when the deal began


@dataclass
class _Replayed:
    game: Game
    decisions: list[Decision]
    forced: dict[int, int]  # deal -> forced decisions of the seat
    results: dict[int, float]  # deal -> the seat's real deal value, for the deals finished
    over: bool
    actions: int


def check_seat(game: Game, seat: object) -> int:
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise InvalidOptionError(f"{game}: the seat to review must be 0..{n - 1}, got {seat!r}")
    return seat


def check_budget(budget: object) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise InvalidOptionError(
            f"review budget (determinizations per decision) must be an int in 1..{MAX_BUDGET}, got {budget!r}"
        )
    return budget


def check_review_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise InvalidOptionError(f"review seed must be an int in 0..2**63-1, got {seed!r}")
    return seed


def _replay(record: Record, seat: int) -> tuple[Game, _Replayed]:
    """Replay the whole record, every action checked, keeping the reviewed seat's decisions."""
    game = check_record(record)
    seat = check_seat(game, seat)
    state = game.new_game(seed=record["seed"], deck=record.get("deck"))
    decisions: list[Decision] = []
    forced: dict[int, int] = {}
    results: dict[int, float] = {}
    deal = state.deals_finished
    base = rollout_value(state, seat)
    turn = 0
    pairs = record_actions(record)
    for i, (s, action) in enumerate(pairs):
        if s == seat and not state.is_over and s in state.to_act:
            legal = state.legal_actions(s)
            number = state.deals_finished + 1
            if len(legal) > 1:
                observation = state.observation(s, ints=True)
                decisions.append(Decision(i, turn, number, observation, legal, action, base))
            else:
                forced[number] = forced.get(number, 0) + 1
            turn += 1
        try:
            state.apply(s, action)
        except CardhallError as e:
            raise InvalidRecordError(f"record action {i} {[s, action]!r} is illegal: {e}") from e
        if state.deals_finished != deal:
            margin = rollout_value(state, seat)
            results[deal + 1] = margin - base
            deal, base = state.deals_finished, margin
    last = deal + 1
    played_in_last = last in forced or any(d.deal == last for d in decisions)
    if state.is_over and played_in_last and last not in results:
        # A match that ends without ``deals_finished`` moving (a one-deal game): its end closes the deal.
        results[last] = rollout_value(state, seat) - base
    return game, _Replayed(game, decisions, forced, results, state.is_over, len(pairs))


def count_decisions(record: Record, seat: int) -> int:
    """How many decisions :func:`review` values (the seat's actions with more than one legal choice)."""
    return len(_replay(record, seat)[1].decisions)


def _rng(seed: int, seat: int, turn: int, purpose: str) -> random.Random:
    # Keyed on the seat's own turn count, which the seat knows: two records the seat cannot tell apart
    # draw the same determinizations.
    return random.Random(f"cardhall-review:{seed}:{seat}:{turn}:{purpose}")


def _agree(xs: list[float]) -> bool:
    """Whether every sampled deal gave the same number (to float rounding)."""
    return max(xs) - min(xs) < 1e-9


def _mean_se(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, math.sqrt(var / n)


def _r(x: float) -> float:
    return round(x, 3)


def review_decision(
    game: Game, decision: Decision, seat: int, budget: int, seed: int, bot: SearchBot | None = None
) -> dict[str, Any]:
    """One decision valued from its observation alone (see the module docstring)."""
    bot = bot or SearchBot(game, iterations=budget)
    observation, legal, played = decision.observation, decision.legal, decision.played
    rules = rules_bot_class(game)(game).act(observation, legal, _rng(seed, seat, decision.turn, "rules"))
    candidates = sorted({*bot.candidates(game, observation, legal), played, rules})
    values = bot.evaluate(observation, candidates, _rng(seed, seat, decision.turn, "search"), budget)
    means = [_mean_se([row[i] for row in values])[0] for i in range(len(candidates))]
    best = max(range(len(candidates)), key=lambda i: (means[i], -i))
    limits = thresholds(game)
    rows: list[dict[str, Any]] = []
    agree = True
    for i, action in enumerate(candidates):
        mean, se = _mean_se([row[i] for row in values])
        diffs = [row[best] - row[i] for row in values]
        loss, loss_se = _mean_se(diffs)
        if action == played:
            agree = _agree(diffs)
        rows.append(
            {
                "action": action,
                "label": game.action_label(action),
                "move": game.action_info(action),
                "value": _r(mean - decision.base),
                "se": _r(se),
                "loss": _r(loss),
                "loss_se": _r(loss_se),
            }
        )
    rows.sort(key=lambda r: (-r["value"], r["action"]))
    mine = next(r for r in rows if r["action"] == played)
    top = next(r for r in rows if r["action"] == candidates[best])
    loss, loss_se = mine["loss"], mine["loss_se"]
    spread = max(means) - min(means)
    return {
        "index": decision.index,
        "turn": decision.turn,
        "deal": decision.deal,
        "legal": len(legal),
        "searched": len(candidates) > 1,
        "samples": len(values),
        "played": mine,
        "best": top,
        "better": top if top is not mine and clearly_positive(loss, loss_se) else None,
        "rules": {"action": rules, "label": game.action_label(rules), "move": game.action_info(rules)},
        "candidates": rows,
        "loss": loss,
        "loss_se": loss_se,
        "interval": [_r(loss - Z * loss_se), _r(loss + Z * loss_se)],
        "agree": agree,
        "verdict": verdict(loss, loss_se, limits),
        "stake": _r(stake(spread, limits)),
        "accuracy": _r(accuracy(loss, loss_se, spread, limits)),
    }


def review(
    record: Record,
    seat: int,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The review of ``seat``'s decisions in ``record`` (JSON-ready; the shape is in the module
    docstring). ``budget``: determinizations per decision; ``seed``: the review's own randomness (the
    same arguments give the same review); ``progress(done, total)`` after each decision valued."""
    seat = check_seat(check_record(record), seat)
    budget = check_budget(budget)
    seed = check_review_seed(seed)
    game, replayed = _replay(record, seat)
    total = len(replayed.decisions)
    if progress is not None:
        progress(0, total)
    bot = SearchBot(game, iterations=budget)
    reviewed = []
    for k, decision in enumerate(replayed.decisions, 1):
        reviewed.append(review_decision(game, decision, seat, budget, seed, bot))
        if progress is not None:
            progress(k, total)
    limits = thresholds(game)
    numbers = sorted({*replayed.forced, *(d["deal"] for d in reviewed)})
    deals = []
    for number in numbers:
        mine = [d for d in reviewed if d["deal"] == number]
        deals.append({"deal": number, **_summary(mine, replayed.forced.get(number, 0))})
        deals[-1]["result"] = _maybe(replayed.results.get(number))
    return {
        "review_version": REVIEW_VERSION,
        "game": str(game),
        "seat": seat,
        "seed": seed,
        "budget": budget,
        "z": Z,
        "unit": unit(game),
        "thresholds": limits.as_dict(),
        "record": {
            "seed": record["seed"],
            "actions": replayed.actions,
            "over": replayed.over,
        },
        "match": _summary(reviewed, sum(replayed.forced.values())),
        "deals": deals,
        "decisions": reviewed,
    }


def _maybe(x: float | None) -> float | None:
    return None if x is None else _r(x)


def _summary(decisions: list[dict[str, Any]], forced: int) -> dict[str, Any]:
    counts = {v.value: 0 for v in VERDICTS}
    unclear = 0
    for d in decisions:
        if d["verdict"] is None:
            unclear += 1
        else:
            counts[d["verdict"]] += 1
    return {
        "decisions": len(decisions),
        "forced": forced,
        "verdicts": counts,
        "unclear": unclear,
        "loss": _r(sum(counted_loss(d["loss"], d["loss_se"]) for d in decisions)),
        "accuracy": _maybe(aggregate([d["accuracy"] for d in decisions], [d["stake"] for d in decisions])),
    }
