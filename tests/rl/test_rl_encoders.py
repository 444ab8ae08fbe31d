"""The encoders: documented layouts that match the code, arrays in range, the fields that say what they
claim, and the leak check on the arrays (re-dealing every hidden card changes nothing)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="needs the rl extra: pip install -e '.[rl]'")
pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install -e '.[rl]'")

import numpy as np

import cardhall
import cardhall.rl
from cardhall.core import State
from cardhall.registry import game_classes
from cardhall.rl.__main__ import write_docs
from cardhall.rl.encoders import Encoder, make_encoder
from cardhall.rl.encoders.gin_bits import card_bits
from tests.helpers import playing

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
# Short matches of every game and the variants, played to their end.
GAMES = [
    "hokm(max_hands=2)",
    "kierki(first_deal=7,last_deal=8)",
    "kierki(first_deal=12)",
    "hearts(max_hands=1)",
    "hearts(decks=1,players=4,max_hands=1)",
    "hearts(players=8,max_hands=1)",
    "gin(max_hands=2)",
    "gin(players=2,max_hands=2)",
    "svara(max_deals=4)",
    "svara(players=2,max_deals=4)",
]


def states_of(game_string: str, seed: int):
    """Every state of a seeded match between rules bots (with an occasional random move)."""
    game = cardhall.load_game(game_string)
    bot = cardhall.make_bot("rules", game)
    rng = random.Random(seed)
    state = game.new_game(seed=seed)
    for _ in playing(state):
        yield state
        seat = rng.choice(state.to_act)  # with several to act (the gin advisor, passers), any of them
        legal = state.legal_actions(seat)
        obs = state.observation(seat, ints=True)
        action = rng.choice(legal) if rng.random() < 0.2 else bot.act(obs, legal, rng)
        state.apply(seat, action)
    yield state


def assert_blind_to_hidden_cards(encode, state: State, seat: int, rng: random.Random) -> None:
    """The array for ``seat`` is the same in a state whose hidden cards are re-dealt (one the seat
    cannot tell apart)."""
    seen = encode(state, seat)
    for _ in range(2):
        other = state.resample(seat, rng)
        assert np.array_equal(encode(other, seat), seen), f"seat {seat} of {state.game}: the array moved"


def encode_observation(encoder: Encoder):
    return lambda state, seat: encoder.encode(state.observation(seat, ints=True))


@pytest.mark.parametrize("game_string", GAMES)
def test_no_array_carries_a_hidden_card(game_string: str) -> None:
    encoder = make_encoder(cardhall.load_game(game_string))
    encode = encode_observation(encoder)
    rng = random.Random(0)
    for i, state in enumerate(states_of(game_string, seed=1)):
        if state.is_over or i % 3:
            continue
        for seat in range(state.game.num_players):
            assert_blind_to_hidden_cards(encode, state, seat, rng)


def test_the_leak_check_catches_an_encoding_of_hidden_cards() -> None:
    """The check above can fail: an encoding that also writes another seat's cards is caught."""
    encoder = make_encoder(cardhall.load_game("hokm"))

    def leaky(state: State, seat: int) -> np.ndarray:
        out = encoder.encode(state.observation(seat, ints=True))
        other = state.observation((seat + 1) % 3, ints=True)["hand"]
        return np.concatenate([out, np.isin(np.arange(52), other).astype(np.float32)])

    state = cardhall.load_game("hokm").new_game(seed=3)
    with pytest.raises(AssertionError, match="the array moved"):
        assert_blind_to_hidden_cards(leaky, state, 0, random.Random(1))


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("game_string", ["gin(max_hands=1)", "hearts(decks=1,players=4,max_hands=1)"])
def test_the_aec_env_shows_an_agent_nothing_more_than_its_observation(game_string: str) -> None:
    """Through the environment too: the real state swapped for a re-dealt one, every agent's array
    (and mask) for the seat it was re-dealt for stays the same."""
    env = cardhall.rl.env(game_string)
    env.reset(seed=2)
    rng = random.Random(2)
    steps = 0
    for _ in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        if steps % 5 == 0:
            for s, a in enumerate(env.possible_agents):
                real = env.table.state
                seen = env.observe(a)
                env.table.state = real.resample(s, rng)
                other = env.observe(a)
                env.table.state = real
                assert np.array_equal(seen["observation"], other["observation"])
                assert np.array_equal(seen["action_mask"], other["action_mask"])
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1


@pytest.mark.parametrize("game_string", GAMES)
def test_arrays_are_float32_in_range_and_the_hand_is_where_the_layout_says(game_string: str) -> None:
    game = cardhall.load_game(game_string)
    encoder = make_encoder(game)
    copies = int(game.options.get("decks", 1))
    for state in states_of(game_string, seed=4):
        for seat in state.to_act or range(game.num_players):
            obs = state.observation(seat, ints=True)
            array = encoder.encode(obs)
            assert array.dtype == np.float32 and array.shape == (encoder.size,)
            assert array.min() >= -1.0 and array.max() <= 1.0
            hand = encoder.field("hand")
            counts = np.bincount([c % 52 for c in obs["hand"]], minlength=52) / copies
            assert np.array_equal(array[hand.start : hand.stop], counts.astype(np.float32))
            to_act = encoder.field("to_act")
            relative = sorted((s - seat) % game.num_players for s in obs["to_act"])
            assert np.flatnonzero(array[to_act.start : to_act.stop]).tolist() == relative


def test_seats_are_relative_to_the_observer() -> None:
    game = cardhall.load_game("hokm")
    encoder = make_encoder(game)
    state = game.new_game(seed=1)
    dealer = state.observation(0, ints=True)["dealer"]
    field = encoder.field("dealer")
    for seat in range(3):
        array = encoder.encode(state.observation(seat, ints=True))
        assert np.flatnonzero(array[field.start : field.stop]).tolist() == [(dealer - seat) % 3]


def test_a_phase_the_encoder_does_not_know_reads_as_other() -> None:
    game = cardhall.load_game("gin(players=2)")
    encoder = make_encoder(game)
    obs = game.new_game(seed=1).observation(0, ints=True)
    phase = encoder.field("phase")
    known = encoder.encode(obs)[phase.start : phase.stop]
    obs["phase"] = "show"  # e.g. a phase a later version of the rules adds
    unknown = encoder.encode(obs)[phase.start : phase.stop]
    assert known[-1] == 0 and known.sum() == 1
    assert unknown.tolist() == [0.0] * (phase.size - 1) + [1.0]


def test_a_spectator_observation_is_refused() -> None:
    game = cardhall.load_game("hokm")
    with pytest.raises(ValueError, match="not a spectator's"):
        make_encoder(game).encode(game.new_game(seed=1).observation(None, ints=True))


@pytest.mark.parametrize("name", sorted(game_classes()))
def test_every_game_has_an_encoder_whose_fields_are_documented(name: str) -> None:
    encoder = make_encoder(cardhall.load_game(name))
    assert [f.start for f in encoder.fields] == [0, *(f.stop for f in encoder.fields[:-1])]
    assert encoder.fields[-1].stop == encoder.size
    doc = type(encoder).__module__
    docstring = __import__(doc, fromlist=["_"]).__doc__
    for field in encoder.fields:
        assert f"| `{field.name}` |" in docstring, f"{doc} does not table field {field.name}"


def test_docs_rl_md_shows_the_layouts_as_the_code_has_them() -> None:
    text = DOCS.read_text(encoding="utf-8")
    documented = re.findall(r"^Encoder for `([^`]+)`", text, flags=re.M)
    assert set(documented) >= set(game_classes())
    for game_string in documented:
        assert make_encoder(cardhall.load_game(game_string)).table() in text, game_string


# Games whose hand sizes differ by seat during play, with the scale each encoder divides them by.
HAND_SIZES = {
    "gin(players=2,max_hands=1)": 11,
    "hearts(players=8,max_hands=1)": 26,
    "kierki(last_deal=1)": 13,
}


@pytest.mark.parametrize("game_string", HAND_SIZES)
def test_per_seat_numbers_are_written_by_relative_seat(game_string: str) -> None:
    encoder = make_encoder(cardhall.load_game(game_string))
    field, scale = encoder.field("hand_sizes"), HAND_SIZES[game_string]
    uneven = 0
    for state in states_of(game_string, seed=2):
        n = state.game.num_players
        for seat in range(n):
            obs = state.observation(seat, ints=True)
            sizes = obs["hand_sizes"]
            uneven += len(set(sizes)) > 1
            written = encoder.encode(obs)[field.start : field.stop] * scale
            assert written.tolist() == pytest.approx([sizes[(seat + i) % n] for i in range(n)])
    assert uneven  # some states tell the seats apart


@pytest.mark.parametrize(
    "game_string",
    ["gin(max_hands=2)", "gin(players=2,max_hands=3)", "gin(players=2,allow_same_discard=true)"],
)
def test_the_gin_fast_path_gives_the_same_array_as_the_observation(game_string: str) -> None:
    """``encode_state`` (from the state's card masks) and ``encode`` (from the observation) agree for
    every seat at every step, so the fast path carries what the observation does and nothing more."""
    encoder = make_encoder(cardhall.load_game(game_string))
    knocked = suggested = arranging = 0
    for seed in (3, 4):
        for state in states_of(game_string, seed=seed):
            knocked += state.observation(0, ints=True)["knock"] is not None
            arranging += state.observation(0, ints=True)["phase"] == "arrange"
            seats = range(state.game.num_players)
            suggested += any(state.observation(s, ints=True)["suggestion"] is not None for s in seats)
            for seat in range(state.game.num_players):
                fast = encoder.encode_state(state, seat)
                slow = encoder.encode(state.observation(seat, ints=True))
                assert fast.dtype == slow.dtype == np.float32
                assert np.array_equal(fast, slow), [
                    f.name for f in encoder.fields if (fast != slow)[f.start : f.stop].any()
                ]
    assert knocked and arranging  # the knock's fields and the knocker's layouts were compared too
    assert suggested or cardhall.load_game(game_string).num_players == 2  # and the advisor's suggestion
    with pytest.raises(ValueError, match="seat"):
        card_bits(cardhall.load_game(game_string).new_game(seed=1), 7, encoder._layout)


def test_the_docs_command_writes_every_games_layout(tmp_path: Path) -> None:
    """``python -m cardhall.rl --docs docs/rl.md`` rewrites the document as it is, and adds the layout of
    a registered game it does not show yet (here svara's, cut from a copy)."""
    text = DOCS.read_text(encoding="utf-8")
    copy = tmp_path / "rl.md"
    copy.write_text(text, encoding="utf-8")
    write_docs(copy)
    assert copy.read_text(encoding="utf-8") == text
    copy.write_text(text[: text.index("Encoder for `svara`")].rstrip() + "\n", encoding="utf-8")
    assert write_docs(copy)[-1] == "svara" and copy.read_text(encoding="utf-8") == text
