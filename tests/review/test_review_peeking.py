"""No verdict of a review depends on cards the reviewed player could not know, in every game (issue 46;
issue 47: a review that valued decisions with the hands the player could not see was caught only in
Kierki, by chance).

For each of the five games a match is played, and the reviewed seat's decisions of the first deal are
taken up to one in its middle. Then a second deal is planted: every card the seat had not seen by then
and that still lay where it was dealt (an opponent's hand, the stock, the undealt cards) is dealt
elsewhere at random among those places, suit for suit (so every action up to the decision stays legal),
and the second match is played on from the decision by bots with other dice. The test checks that the
seat saw exactly the same at each of those decisions in both matches, that the hidden cards did lie
differently, and that the review of each of those decisions is identical, value for value. And it checks
that it can fail: a review that peeks (its sampler hands the search the true state instead of one drawn
from the observation) is told apart by the same comparison in every game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import cardhall
from cardhall.bots import make_bot
from cardhall.bots.search import SearchBot
from cardhall.core import Game, Observation, Record, State
from cardhall.errors import CardhallError
from cardhall.review import review

SEAT = 0
BUDGET = 4
GAMES = [
    "hokm(max_hands=1)",
    "svara(players=3,max_deals=1)",
    "gin(max_hands=1)",  # three-hand gin in the box: the seat may be box, captain or advisor
    "hearts(max_hands=1)",  # Cancellation Hearts: six players, two decks
    "kierki(first_deal=1,last_deal=1)",
]


def play_on(state: State, seed: int) -> None:
    """Rules bots play ``state`` to the end of the match, each seat on its own dice."""
    game = state.game
    bots = [make_bot("rules", game) for _ in range(game.num_players)]
    rngs = [random.Random(f"{seed}:{s}") for s in range(game.num_players)]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(
            seat, bots[seat].act(state.observation(seat, ints=True), state.legal_actions(seat), rngs[seat])
        )


def where_is(state: State) -> dict[int, str]:
    return {card: zone for zone, cards in state.zones().items() for card in cards}


def views(game: Game, deck: list[int], actions: list[list[int]], upto: int) -> list[Observation] | None:
    """What the seat saw at each of its turns among ``actions[:upto + 1]``, dealt ``deck``; None when one
    of the actions is illegal with that deal."""
    state = game.new_game(seed=9, deck=deck)
    seen = []
    for seat, action in actions[: upto + 1]:
        if seat == SEAT:
            seen.append(state.observation(SEAT, ints=True))
        try:
            state.apply(seat, action)
        except CardhallError:
            return None
    return seen


def plant(game: Game, deck: list[int], record: Record, upto: int) -> list[int]:
    """Another deal the seat cannot tell from ``deck`` up to action ``upto``: the cards it had not seen and
    that never moved, dealt again at random among their places, suit for suit. (Where a game's rules
    make a card's place matter to an action's legality, a permutation that breaks one is drawn again,
    over fewer cards.)"""
    start = game.new_game(seed=9, deck=deck)
    now = cardhall.replay({**record, "actions": record["actions"][:upto]})
    first, then, hidden = where_is(start), where_is(now), now.hidden_cards(SEAT)
    movable = [c for c in hidden if first[c] == then[c] != f"hand {SEAT}"]
    wanted = views(game, deck, record["actions"], upto)
    rng = random.Random(str(game))
    found: list[tuple[int, list[int]]] = []  # (cards moved, the deal)
    for attempt in range(200):
        share = 1.0 if attempt < 50 else 0.5 if attempt < 150 else 0.25
        chosen = [c for c in movable if rng.random() < share]
        planted = list(deck)
        for suit in range(4):
            cards = [c for c in chosen if c % 52 // 13 == suit]
            places = [planted.index(c) for c in cards]
            rng.shuffle(cards)
            for place, card in zip(places, cards, strict=True):
                planted[place] = card
        moved = sum(first[c] != where_is(game.new_game(seed=9, deck=planted))[c] for c in movable)
        if moved >= 4 and views(game, planted, record["actions"], upto) == wanted:
            found.append((moved, planted))
            if len(found) == 20:
                break
    assert found, f"{game}: no other deal the seat cannot tell apart"
    return max(found, key=lambda f: f[0])[1]  # the one that moves most


@contextmanager
def peeking() -> Iterator[Callable[[Record], None]]:
    """A review that peeks: its sampler hands the search the true state of the record it is told of."""
    truth: dict[str, State] = {}

    def knows(record: Record) -> None:
        truth.clear()
        state = cardhall.replay({**record, "actions": []})
        for seat, action in record["actions"]:
            if seat == SEAT and not state.is_over:
                truth[json.dumps(state.observation(SEAT, ints=True), sort_keys=True, default=str)] = (
                    state.clone()
                )
            state.apply(seat, action)

    def sampler(self: SearchBot) -> Callable[[Observation, random.Random], State]:
        return lambda observation, rng: truth[json.dumps(observation, sort_keys=True, default=str)].clone()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SearchBot, "_fresh_sampler", sampler)
        yield knows


def first_deal_decisions(record: Record) -> list[int]:
    """The indices in the record of the seat's decisions (more than one legal action) in the first deal."""
    state = cardhall.replay({**record, "actions": []})
    out = []
    for i, (seat, action) in enumerate(record["actions"]):
        if state.deals_finished:
            break
        if seat == SEAT and len(state.legal_actions(SEAT)) > 1:
            out.append(i)
        state.apply(seat, action)
    return out


@pytest.mark.parametrize("game_text", GAMES)
def test_a_deal_the_player_cannot_tell_apart_gets_the_same_review(game_text: str) -> None:
    game = cardhall.load_game(game_text)
    deck = game.deck()
    random.Random(f"{game_text}:1").shuffle(deck)
    a = game.new_game(seed=9, deck=deck)
    play_on(a, seed=1)
    record_a = a.record()
    decisions = first_deal_decisions(record_a)
    assert len(decisions) >= 2, "a deal with decisions to compare"
    upto = decisions[len(decisions) // 2]
    planted = plant(game, deck, record_a, upto)
    b = game.new_game(seed=9, deck=planted)
    for seat, action in record_a["actions"][: upto + 1]:
        b.apply(seat, action)
    play_on(b, seed=2)  # and after the decision, everything else differs too
    record_b = b.record()
    before_a = cardhall.replay({**record_a, "actions": record_a["actions"][:upto]})
    before_b = cardhall.replay({**record_b, "actions": record_b["actions"][:upto]})
    assert where_is(before_a) != where_is(before_b), "the hidden cards lie differently"
    assert views(game, deck, record_a["actions"], upto) == views(game, planted, record_b["actions"], upto)

    def compared(reviews: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        return [[d for d in r["decisions"] if d["index"] <= upto] for r in reviews]

    honest_a, honest_b = compared([review(r, SEAT, budget=BUDGET, seed=3) for r in (record_a, record_b)])
    assert [d["index"] for d in honest_a] == decisions[: len(decisions) // 2 + 1]
    assert honest_a == honest_b
    # The comparison catches a review that peeks, in this game too.
    with peeking() as knows:
        peeked = []
        for r in (record_a, record_b):
            knows(r)
            peeked.append(review(r, SEAT, budget=BUDGET, seed=3))
    peek_a, peek_b = compared(peeked)
    told = sum(x != y for x, y in zip(peek_a, peek_b, strict=True))
    assert told >= len(peek_a) / 2, f"a review that sees the hidden cards differs at {told} of {len(peek_a)}"
