"""The conformance suite every game runs.

A game's test module subclasses :class:`ConformanceSuite` and sets ``game_strings`` (and may override
``check_invariants`` for rules such as zero-sum scores or chip conservation):

    class TestHokmConformance(ConformanceSuite):
        game_strings = ["hokm(max_hands=2)", "hokm(max_hands=2,bidding=auction)"]

It plays random seeded matches to the end through a :class:`~cardhall.table.Table` (a random seat
among those to act, a random legal action) and checks at every step: card conservation, legal actions
sorted, unique and in range, illegal actions and wrong seats refused with the state and the events
unchanged, replay and same-seed reproduction (events included), every observation and every event of
every seat's stream valid against the game's schema (the game's ``schema.json``), the bots' form of the
observation equal to the text form card for card, no hidden card in any observation (also in its JSON
text) nor in any event a seat sees (against what was hidden from it when the event happened),
``resample`` keeping the observing seat's observation, and ``clone`` independence.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from functools import cache
from typing import Any, ClassVar

import pytest

import cardhall
from cardhall.cards import face, format_card
from cardhall.core import State
from cardhall.table import Table
from tests.games import schemas

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([CDHS♣♦♥♠])(?![0-9A-Za-z])")
_SYMBOL_TO_SUIT = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def card_tokens(text: str) -> set[str]:
    """Every card named in a text, in canonical form ("10H"), whatever spelling it used."""
    out = set()
    for rank, suit in _CARD_TOKEN.findall(text):
        out.add(("10" if rank == "T" else rank) + _SYMBOL_TO_SUIT.get(suit, suit))
    return out


def fingerprint(state: State) -> str:
    """Everything observable about a state, as one string: equal fingerprints, same state."""
    seats: list[int | None] = [*range(state.game.num_players), None]
    return json.dumps(
        {
            "record": state.record(),
            "obs": [state.observation(s) for s in seats],
            "to_act": list(state.to_act),
            "legal": [state.legal_actions(s) for s in range(state.game.num_players)],
            "scores": list(state.scores),
            "zones": {k: sorted(v) for k, v in state.zones().items()},
        },
        sort_keys=True,
        default=str,
    )


def random_step(state: State, rng: random.Random) -> tuple[int, int]:
    seat = rng.choice(state.to_act)
    action = rng.choice(state.legal_actions(seat))
    state.apply(seat, action)
    return seat, action


def secret_faces(state: State, hidden: set[int]) -> set[str]:
    """The card texts a seat must not see when ``hidden`` are the physical cards hidden from it: the
    faces of which it can see no copy."""
    all_cards = set(state.game.deck())
    seen_faces = {face(c) for c in all_cards - hidden}
    return {format_card(f) for f in {face(c) for c in hidden} - seen_faces}


class ConformanceSuite:
    game_strings: ClassVar[list[str]] = []
    seeds: ClassVar[tuple[int, ...]] = (0, 1, 2)
    # The schema check is the costliest (seconds per match): the full run makes it on every game string
    # and the first two seeds, the quick run (-m "not slow") on this one string's first seed (None: the
    # first game string). tests/conftest.py parametrizes it so.
    quick_game_string: ClassVar[str | None] = None
    # Expensive checks run on every k-th step of a match.
    check_every: ClassVar[int] = 7
    # A match still going after this many actions fails (the longest here, six hands of three-hand gin,
    # take under 900): a rule bug that never ends a match fails in seconds, in bounded memory.
    max_actions: ClassVar[int] = 5_000
    # Observation keys that describe finished deals only (a showdown's cards, now back in the deck): the
    # leak scan skips them, since the same card texts may be hidden again in the new deal.
    past_deal_keys: ClassVar[tuple[str, ...]] = ()

    def check_invariants(self, state: State) -> None:
        """Game-specific invariants held after every action (override)."""

    # --- helpers ---------------------------------------------------------------------------------

    @staticmethod
    @cache
    def match_length(game_string: str, seed: int, limit: int) -> int | None:
        """The number of actions of :meth:`play_table`'s match (the same random choices, played on a
        bare state without any check), or None if it is still going after ``limit``."""
        state = cardhall.load_game(game_string).new_game(seed=seed)
        rng = random.Random(seed * 7919 + 1)
        for step in range(limit):
            if state.is_over:
                return step
            seat = rng.choice(state.to_act)
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
        return None if not state.is_over else limit

    def play_table(self, game_string: str, seed: int, visit: Any = None) -> Table:
        """A random match through a Table with audited events; ``visit(state, step, table)`` before
        every action and at the end. A match that does not end within ``max_actions`` fails at once,
        before any check: found by :meth:`match_length` (once per match), not after as many steps of
        checks, whose cost grows with the match (observations carry the whole deal)."""
        if self.match_length(game_string, seed, self.max_actions) is None:
            pytest.fail(
                f"{game_string} seed {seed}: still going after {self.max_actions} actions; never ends?"
            )
        table = Table(game_string, seed=seed, audit=True)
        state = table.state
        rng = random.Random(seed * 7919 + 1)
        step = 0
        while not state.is_over:
            if step == self.max_actions:
                pytest.fail(f"{game_string} seed {seed}: still going after {step} actions; never ends?")
            if visit is not None:
                visit(state, step, table)
            seat = rng.choice(state.to_act)
            table.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        if visit is not None:
            visit(state, step, table)
        return table

    def play(self, game_string: str, seed: int, visit: Any = None) -> State:
        """The state of :meth:`play_table`; ``visit(state, step)``."""
        hook = None if visit is None else (lambda state, step, table: visit(state, step))
        return self.play_table(game_string, seed, hook).state

    # --- the checks ------------------------------------------------------------------------------

    def test_game_string_round_trips(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)
        assert cardhall.load_game(str(game)) == game
        assert str(cardhall.load_game(str(game))) == str(game)
        with pytest.raises(cardhall.InvalidOptionError, match="no_such_option"):
            cardhall.load_game(f"{game.name}(no_such_option=1)")

    def test_labels_round_trip(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)
        labels = [game.action_label(a) for a in range(game.num_distinct_actions)]
        assert len(set(labels)) == len(labels), "two actions share a label"
        for a, label in enumerate(labels):
            assert game.parse_action(label) == a, label
        for bad in (-1, game.num_distinct_actions):
            with pytest.raises(cardhall.InvalidActionError):
                game.action_label(bad)
        with pytest.raises(cardhall.InvalidActionError):
            game.parse_action("no such move")

    def test_every_action_says_what_it_means(self, game_string: str) -> None:
        """``action_info`` (the legal entries' structured fields) follows the schema's ``$defs.action_info``,
        tells every action apart, and names the card its label names."""
        game = cardhall.load_game(game_string)
        seen = set()
        for action in range(game.num_distinct_actions):
            info = game.action_info(action)
            assert not schemas.errors(game.name, "action_info", info), (
                action,
                schemas.errors(game.name, "action_info", info),
            )
            key = json.dumps(info, sort_keys=True)
            assert key not in seen, f"two actions mean {key}"
            seen.add(key)
            label = game.action_label(action)
            card = info.get("card") or info.get("suggestion", {}).get("card")
            if card is not None:
                assert label.endswith(" " + card), (label, info)
            if "amount" in info:
                assert label == f"{info['kind']} {info['amount']}", (label, info)
        for bad in (-1, game.num_distinct_actions, True):
            with pytest.raises(cardhall.InvalidActionError):
                game.action_info(bad)

    def test_random_matches_keep_the_rules(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)
        deck = Counter(game.deck())
        n = game.num_players

        def visit(state: State, step: int) -> None:
            zones = Counter(c for cards in state.zones().values() for c in cards)
            assert zones == deck, f"cards not conserved at step {step}"
            self.check_invariants(state)
            if state.is_over:
                assert state.to_act == ()
                assert all(state.legal_actions(s) == [] for s in range(n))
                assert state.winners and set(state.winners) <= set(range(n))
                return
            assert state.to_act and len(set(state.to_act)) == len(state.to_act)
            assert state.winners == ()
            for s in range(n):
                legal = state.legal_actions(s)
                if s in state.to_act:
                    assert legal, f"seat {s} to act with no legal action"
                    assert legal == sorted(set(legal))
                    assert all(0 <= a < game.num_distinct_actions for a in legal)
                else:
                    assert legal == []
            assert len(state.scores) == n

        for seed in self.seeds:
            self.play(game_string, seed, visit)

    def test_illegal_actions_are_refused_and_change_nothing(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)

        def visit(state: State, step: int) -> None:
            if state.is_over or step % self.check_every:
                return
            before = fingerprint(state)
            for seat in state.to_act:
                legal = set(state.legal_actions(seat))
                for a in [*range(-2, game.num_distinct_actions + 2), 10**9]:
                    if a not in legal:
                        with pytest.raises(cardhall.IllegalActionError):
                            state.apply(seat, a)
            acting = state.to_act[0]
            some_legal = state.legal_actions(acting)[0]
            for seat in [*range(game.num_players), -1, game.num_players]:
                if seat not in state.to_act:
                    with pytest.raises(cardhall.IllegalActionError):
                        state.apply(seat, some_legal)
            with pytest.raises(cardhall.IllegalActionError):
                state.apply(acting, str(some_legal))  # type: ignore[arg-type]
            assert fingerprint(state) == before

        state = self.play(game_string, self.seeds[0], visit)
        with pytest.raises(cardhall.IllegalActionError):
            state.apply(0, 0)

    def test_the_table_refuses_bad_actions_and_keeps_its_events(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)

        def visit(state: State, step: int, table: Table) -> None:
            if state.is_over or step % (self.check_every * 3):
                return
            before, events = fingerprint(state), table.number
            acting = state.to_act[0]
            legal = state.legal_actions(acting)
            illegal = next((a for a in range(game.num_distinct_actions) if a not in legal), None)
            bad: list[Any] = [10**9, "no such move", True]
            if illegal is not None:
                bad += [illegal, game.action_label(illegal)]
            for action in bad:
                with pytest.raises(cardhall.InvalidActionError):
                    table.apply(acting, action)
            with pytest.raises(cardhall.IllegalActionError):
                table.apply(acting, legal[0], expect=table.number + 1)  # answers an event not yet seen
            assert fingerprint(state) == before and table.number == events

        self.play_table(game_string, self.seeds[0], visit)

    def test_replay_and_same_seed_reproduce(self, game_string: str) -> None:
        for seed in self.seeds[:2]:
            checkpoints: list[tuple[dict[str, Any], str]] = []

            def visit(
                state: State, step: int, checkpoints: list[tuple[dict[str, Any], str]] = checkpoints
            ) -> None:
                if step % (self.check_every * 5) == 0 or state.is_over:
                    checkpoints.append((json.loads(json.dumps(state.record())), fingerprint(state)))

            first = self.play_table(game_string, seed, lambda s, k, t: visit(s, k))
            second = self.play(game_string, seed)
            assert fingerprint(first.state) == fingerprint(second), "same seed, different match"
            for record, print_ in checkpoints:
                assert fingerprint(cardhall.replay(record)) == print_
            again = Table.from_record(first.record())
            for seat in [*range(first.game.num_players), None]:
                assert again.events(seat) == first.events(seat), "a replayed table told another story"

    def test_no_hidden_card_in_any_observation(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)
        all_cards = set(game.deck())

        def visit(state: State, step: int) -> None:
            for seat in [*range(game.num_players), None]:
                obs = state.observation(seat)
                text = json.dumps(obs, ensure_ascii=False)  # fails on anything not JSON-ready
                assert json.loads(text) == obs, "observation does not survive JSON"
                current = {k: v for k, v in obs.items() if k not in self.past_deal_keys}
                text = json.dumps(current, ensure_ascii=False)
                hidden = state.hidden_cards(seat)
                assert hidden <= all_cards
                leaked = card_tokens(text) & secret_faces(state, hidden)
                assert not leaked, f"seat {seat} sees hidden {sorted(leaked)} at step {step}"

        for seed in self.seeds[:2]:
            self.play(game_string, seed, visit)

    def test_observations_and_events_follow_the_schema(self, game_string: str, schema_seed: int) -> None:
        game = cardhall.load_game(game_string)
        seats: list[int | None] = [*range(game.num_players), None]
        seen = 0

        def visit(state: State, step: int, table: Table) -> None:
            nonlocal seen
            if step % self.check_every == 0 or state.is_over:
                for seat in seats:
                    obs = state.observation(seat)
                    assert not schemas.errors(game.name, "observation", obs), (
                        f"seat {seat} step {step}: {schemas.errors(game.name, 'observation', obs)[:5]}"
                    )
                    ints = state.observation(seat, ints=True)
                    assert json.loads(json.dumps(ints)) == ints, "the bots' observation is not JSON-ready"
                    assert schemas.to_text(game, ints) == obs, f"seat {seat} step {step}: ints != text"
            for seat in seats:
                for event in table.events(seat, since=seen):
                    problems = schemas.errors(game.name, "event", event)
                    assert not problems, f"seat {seat} event {event}: {problems[:5]}"
            seen = table.number

        self.play_table(game_string, schema_seed, visit)

    def test_events_tell_the_match(self, game_string: str) -> None:
        """One action event per action, numbered in order; deals dealt and scored; the match's end."""
        game = cardhall.load_game(game_string)
        table = self.play_table(game_string, self.seeds[0])
        state = table.state
        for seat in [*range(game.num_players), None]:
            events = table.events(seat)
            assert [e["n"] for e in events] == list(range(1, len(events) + 1))
            acted = [(e["seat"], e["action"]) for e in events if e["type"] == "action" and not e["hidden"]]
            if seat is None:
                assert len([e for e in events if e["type"] == "action"]) == len(state.history)
            mine = [(s, game.action_label(a)) for s, a in state.history]
            assert all(pair in mine for pair in acted)
            kinds = Counter(e["type"] for e in events)
            assert kinds["deal"] == kinds["deal_scored"] == state.deals_finished
            assert events[-1] == {
                "n": len(events),
                "type": "match_over",
                "scores": list(state.scores),
                "winners": list(state.winners),
            }
            assert table.events(seat, since=len(events) - 3) == events[-3:]
        for seat in range(game.num_players):
            for e in table.events(seat):
                if e["type"] == "action" and e["seat"] == seat:
                    assert not e["hidden"], "a seat must always see its own action"

    def test_no_hidden_card_in_any_event(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)
        seats: list[int | None] = [*range(game.num_players), None]
        audited = 0

        def visit(state: State, step: int, table: Table) -> None:
            nonlocal audited
            for n, hidden in table.audit(since=audited):
                if hidden is None:
                    continue
                for seat in seats:
                    event = table.events(seat, since=n - 1)[0]
                    secret = secret_faces(state, hidden[seat])
                    leaked = card_tokens(json.dumps(event, ensure_ascii=False)) & secret
                    assert not leaked, f"seat {seat} sees hidden {sorted(leaked)} in event {event}"
            audited = table.number

        for seed in self.seeds[:2]:
            audited = 0
            self.play_table(game_string, seed, visit)

    def test_resample_is_indistinguishable_for_the_seat(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)
        deck = Counter(game.deck())
        rng = random.Random(99)
        continued = 0

        def visit(state: State, step: int) -> None:
            nonlocal continued
            if state.is_over or step % self.check_every:
                return
            before = fingerprint(state)
            for seat in range(game.num_players):
                other = state.resample(seat, rng)
                assert other.observation(seat) == state.observation(seat)
                assert Counter(c for cs in other.zones().values() for c in cs) == deck
                assert other.to_act == state.to_act
                if continued < 3 and seat == state.to_act[0]:
                    continued += 1
                    play_rng = random.Random(step)
                    for _ in range(200):
                        if other.is_over:
                            break
                        random_step(other, play_rng)
            assert fingerprint(state) == before, "resample changed the original"

        self.play(game_string, self.seeds[0], visit)

    def test_clone_is_independent(self, game_string: str) -> None:
        game = cardhall.load_game(game_string)
        state = game.new_game(seed=5)
        rng = random.Random(5)
        for _ in range(40):
            if state.is_over:
                break
            random_step(state, rng)
        before = fingerprint(state)
        copy = state.clone()
        assert fingerprint(copy) == before
        for _ in range(60):
            if copy.is_over:
                break
            random_step(copy, rng)
        assert fingerprint(state) == before
