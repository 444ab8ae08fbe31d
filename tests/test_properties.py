"""Property tests: card and action text round-trips, game strings with random option values."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import cardhall
from cardhall.cards import RANKS, SUIT_SYMBOLS, SUITS, cards_of, format_card, mask_of, parse_card
from cardhall.options import Option, format_value
from cardhall.registry import game_classes

cards = st.integers(min_value=0, max_value=51)


@given(cards)
def test_card_text_round_trips_in_every_spelling(c: int) -> None:
    text = format_card(c)
    assert parse_card(text) == c
    assert parse_card(format_card(c, pretty=True)) == c
    assert parse_card(text.lower()) == c
    rank, suit = RANKS[c % 13], SUITS[c // 13]
    assert parse_card(("T" if rank == "10" else rank) + SUIT_SYMBOLS["CDHS".index(suit)]) == c
    assert parse_card(f"  {text} ") == c


@given(st.text(max_size=4))
def test_parse_card_accepts_only_cards(text: str) -> None:
    try:
        c = parse_card(text)
    except cardhall.InvalidCardError as e:
        assert repr(text) in str(e) or "card" in str(e)
    else:
        assert 0 <= c < 52
        assert parse_card(format_card(c)) == c


@given(st.sets(cards))
def test_bitmask_sets_round_trip(s: set[int]) -> None:
    assert cards_of(mask_of(s)) == sorted(s)


GAMES = sorted(game_classes())


def option_values(opt: Option) -> st.SearchStrategy[object]:
    if opt.choices is not None:
        return st.sampled_from(opt.choices)
    if isinstance(opt.default, bool):
        return st.booleans()
    if isinstance(opt.default, int):
        lo = opt.minimum if opt.minimum is not None else -1000
        hi = opt.maximum if opt.maximum is not None else lo + 1000
        return st.integers(min_value=lo, max_value=hi)
    return st.just(opt.default)


@st.composite
def game_strings(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    name = draw(st.sampled_from(GAMES))
    spec = game_classes()[name].option_spec
    chosen = draw(st.lists(st.sampled_from(spec), unique_by=lambda o: o.name)) if spec else []
    values = {o.name: draw(option_values(o)) for o in chosen}
    body = ",".join(f"{k}={format_value(v)}" for k, v in values.items())  # type: ignore[arg-type]
    return (f"{name}({body})" if body else name), values


@settings(max_examples=200, deadline=None)
@given(game_strings())
def test_game_strings_round_trip(case: tuple[str, dict[str, object]]) -> None:
    text, values = case
    try:
        game = cardhall.load_game(text)
    except cardhall.InvalidOptionError:
        return  # a combination the game refuses (e.g. too many players for one deck), with a message
    for key, value in values.items():
        assert game.options[key] == value
    again = cardhall.load_game(str(game))
    assert again == game and str(again) == str(game)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_action_labels_round_trip(name: str, data: st.DataObject) -> None:
    game = cardhall.load_game(name)
    action = data.draw(st.integers(min_value=0, max_value=game.num_distinct_actions - 1))
    label = game.action_label(action)
    assert game.parse_action(label) == action
    assert game.parse_action(label.upper()) == action
    assert game.parse_action(f"  {label}  ") == action


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAMES), st.text(max_size=12))
def test_parse_action_refuses_with_a_clear_error(name: str, text: str) -> None:
    game = cardhall.load_game(name)
    try:
        action = game.parse_action(text)
    except cardhall.InvalidActionError as e:
        assert name in str(e)
    else:
        assert 0 <= action < game.num_distinct_actions


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(GAMES), st.integers(min_value=0, max_value=2**63 - 1))
def test_records_are_json_and_same_seed_same_deal(name: str, seed: int) -> None:
    game = cardhall.load_game(name)
    a, b = game.new_game(seed=seed), game.new_game(seed=seed)
    assert json.dumps(a.observation(None)) == json.dumps(b.observation(None))
    assert cardhall.replay(json.loads(json.dumps(a.record()))).record() == a.record()
