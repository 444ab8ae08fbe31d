"""The RL environments: PettingZoo's api_test and seed_test on every game (and option variants),
Gymnasium's check_env, rewards that add up to the scores, seeding, simultaneous choices in AEC order
without leaking, and bad input refused with a clear error."""

from __future__ import annotations

import random
import warnings

import pytest

from tests.helpers import steps

# `make setup` installs both (the `all` extra holds `rl`); only a bare install skips these tests.
pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install -e '.[rl]'")
pytest.importorskip("gymnasium", reason="needs the rl extra: pip install -e '.[rl]'")

import numpy as np
from gymnasium.utils.env_checker import check_env

import cardhall
import cardhall.rl
from cardhall.errors import IllegalActionError, InvalidOptionError

with warnings.catch_warnings():
    # pettingzoo.test imports its own connect_four_v3 through the API it deprecates, warning as it does.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test

# Every game with its defaults, and option variants: two-player gin, eight-player Hearts, one deck.
GAMES = [
    "hokm",
    "kierki",
    "hearts",
    "hearts(players=8)",
    "hearts(decks=1,players=4)",
    "gin",
    "gin(players=2)",
    "svara",
    "svara(players=2)",
]
# Short matches, played to the end.
SHORT = [
    "hokm(max_hands=2)",
    "kierki(first_deal=11)",
    "hearts(max_hands=1)",
    "hearts(decks=1,players=4,max_hands=2)",
    "gin(max_hands=2)",
    "gin(players=2,max_hands=2)",
    "svara(max_deals=4)",
]
FEW = ["hokm(max_hands=1)", "hearts(decks=1,players=4,max_hands=1)", "svara(max_deals=3)"]
# PettingZoo warns about every dict observation (its own classic games have them too, named in a list).
DICT_OBS = [
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
]


@pytest.mark.filterwarnings(*DICT_OBS)
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_and_seed_test(game: str) -> None:
    api_test(cardhall.rl.env(game, render_mode="ansi"), num_cycles=60)
    seed_test(lambda: cardhall.rl.env(game), num_cycles=30)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game: str) -> None:
    check_env(cardhall.rl.gym_env(game, seat=1), skip_render_check=True)


@pytest.mark.filterwarnings(*DICT_OBS)
@pytest.mark.parametrize("game", SHORT)
def test_per_deal_rewards_add_up_to_the_score_changes(game: str) -> None:
    env = cardhall.rl.env(game)
    bot = cardhall.make_bot("rules", env.game)  # random gin never knocks: every hand would be void
    rng = random.Random(5)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=5)
    state = env.table.state
    first = state.scores
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            seat = env.possible_agents.index(agent)
            env.step(bot.act(state.observation(seat, ints=True), state.legal_actions(seat), rng))
    assert state.is_over
    sign = -1 if state.game.lowest_score_wins else 1
    expected = [sign * (last - before) for last, before in zip(state.scores, first, strict=True)]
    assert [rewards[a] for a in env.possible_agents] == expected
    assert any(expected)


@pytest.mark.filterwarnings(*DICT_OBS)
def test_hearts_rewards_are_the_negated_penalty_points_of_each_deal() -> None:
    env = cardhall.rl.env("hearts(decks=1,players=4,max_hands=1)")
    totals = dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=2)
    rng = random.Random(2)
    for agent in env.agent_iter():
        obs, reward, terminated, _, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert [totals[a] for a in env.possible_agents] == [-p for p in env.table.state.scores]
    assert min(totals.values()) < 0


@pytest.mark.filterwarnings(*DICT_OBS)
@pytest.mark.parametrize("game", FEW)
def test_per_match_rewards_go_to_the_winners_only_at_the_end(game: str) -> None:
    env = cardhall.rl.env(game, rewards="match")
    env.reset(seed=9)
    rng = random.Random(9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, _, _ = env.last()
        totals[agent] += reward
        if not terminated:
            assert reward == 0.0  # nothing before the match ends
        env.step(None if terminated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    winners = env.table.state.winners
    assert sum(totals.values()) == pytest.approx(1.0)
    assert {a for a, r in totals.items() if r > 0} == {f"player_{w}" for w in winners}


@pytest.mark.filterwarnings(*DICT_OBS)
def test_a_seeded_reset_reproduces_the_match_and_another_seed_deals_another() -> None:
    def trajectory(seed: int) -> list[np.ndarray]:
        env = cardhall.rl.env("gin(players=2,max_hands=1)")
        env.reset(seed=seed)
        rng = random.Random(0)
        seen = []
        for _ in env.agent_iter():
            obs, _, terminated, _, _ = env.last()
            seen.append(obs["observation"])
            env.step(None if terminated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        return seen

    one, again, other = trajectory(3), trajectory(3), trajectory(4)
    assert len(one) == len(again) and all(np.array_equal(a, b) for a, b in zip(one, again, strict=True))
    assert not np.array_equal(one[0], other[0])


@pytest.mark.filterwarnings(*DICT_OBS)
def test_an_unseeded_reset_follows_the_last_seeded_one() -> None:
    a, b = cardhall.rl.env("hokm"), cardhall.rl.env("hokm")
    a.reset(seed=11)
    b.reset(seed=11)
    a.reset()
    b.reset()
    assert a.table.seed == b.table.seed != 11


@pytest.mark.filterwarnings(*DICT_OBS)
def test_hearts_passing_goes_one_passer_at_a_time_and_shows_no_one_anothers_choice() -> None:
    game = "hearts(decks=1,players=4,max_hands=1)"
    envs = [cardhall.rl.env(game), cardhall.rl.env(game)]
    for env in envs:
        env.reset(seed=1)
    first = envs[0].agent_selection
    state = envs[0].table.state
    assert len(state.to_act) == 4  # everyone passes at once
    legal = np.flatnonzero(envs[0].observe(first)["action_mask"]).tolist()
    # The same seat chooses different cards in the two matches...
    envs[0].step(legal[0])
    envs[1].step(legal[-1])
    assert envs[0].agent_selection == envs[1].agent_selection == first  # he finishes his own passes first
    for env in envs:
        for _ in steps():
            if env.agent_selection != first:
                break
            env.step(np.flatnonzero(env.observe(first)["action_mask"]).tolist()[0])
    nxt = envs[0].agent_selection
    assert nxt == envs[1].agent_selection != first
    # ...and the next passer (and everyone else) sees the same thing in both.
    for agent in envs[0].possible_agents:
        if agent != first:
            a, b = envs[0].observe(agent), envs[1].observe(agent)
            assert np.array_equal(a["observation"], b["observation"])
            assert np.array_equal(a["action_mask"], b["action_mask"])
    assert not np.array_equal(envs[0].observe(first)["observation"], envs[1].observe(first)["observation"])


@pytest.mark.filterwarnings(*DICT_OBS)
def test_the_gin_advisor_speaks_before_his_captain_and_only_his_team_sees_what_he_said() -> None:
    envs = [cardhall.rl.env("gin(max_hands=1)"), cardhall.rl.env("gin(max_hands=1)")]
    for env in envs:
        env.reset(seed=0)
    state = envs[0].table.state
    assert len(state.to_act) == 2  # the captain's first decision, the advisor beside him
    roles = state.observation(0, ints=True)["roles"]
    advisor, captain, box = (f"player_{roles[r]}" for r in ("advisor", "captain", "box"))
    assert envs[0].agent_selection == advisor
    suggestions = np.flatnonzero(envs[0].observe(advisor)["action_mask"]).tolist()
    envs[0].step(suggestions[0])
    envs[1].step(suggestions[-1])
    assert envs[0].agent_selection == envs[1].agent_selection == captain
    seen = [(env.observe(box)["observation"], env.observe(captain)["observation"]) for env in envs]
    assert np.array_equal(seen[0][0], seen[1][0])  # the box cannot tell what was suggested
    assert not np.array_equal(seen[0][1], seen[1][1])  # the captain can


@pytest.mark.filterwarnings(*DICT_OBS)
def test_an_illegal_action_in_the_aec_env_is_refused_and_changes_nothing() -> None:
    env = cardhall.rl.env("hokm")
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.table.record()
    with pytest.raises(IllegalActionError, match="may not"):
        env.step(illegal)
    assert env.table.record() == before and env.agent_selection == agent


def test_the_gym_env_refuses_an_illegal_action_without_changing_anything() -> None:
    env = cardhall.rl.gym_env("gin(players=2)", seat=0, opponents="random", illegal_reward=-2.0)
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    before = env.table.record()
    after, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -2.0 and not terminated and not truncated
    assert "may not" in info["illegal_action"]
    assert np.array_equal(after, obs) and env.table.record() == before
    assert np.array_equal(info["action_mask"], env.action_masks())


@pytest.mark.parametrize("game", ["gin(max_hands=1)", *FEW[1:]])
@pytest.mark.parametrize("rewards", ["deal", "match"])
def test_the_gym_env_plays_every_seat_to_the_end_and_its_rewards_add_up(game: str, rewards: str) -> None:
    n = cardhall.load_game(game).num_players
    for seat in range(n):
        env = cardhall.rl.gym_env(game, seat=seat, opponents="rules", rewards=rewards)
        env.reset(seed=seat)
        first = cardhall.load_game(game).new_game(seed=env.table.seed).scores  # before the bots' moves
        rng = np.random.default_rng(seat)
        total, every, terminated = 0.0, [0.0] * n, False
        for _ in steps(f"{game} seat {seat}"):
            if terminated:
                break
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, reward, terminated, _, info = env.step(action)
            total += reward
            every = [a + b for a, b in zip(every, info["rewards"], strict=True)]
        state = env.table.state
        if rewards == "match":
            expected = [1 / len(state.winners) if s in state.winners else 0.0 for s in range(n)]
        else:
            sign = -1 if state.game.lowest_score_wins else 1
            expected = [sign * (last - before) for last, before in zip(state.scores, first, strict=True)]
        assert total == pytest.approx(expected[seat])
        assert every == pytest.approx(expected)
        assert not env.action_masks().any()


# A deal of two-player gin where the rules bot, not dealing, takes the up-card and knocks at once.
KNOCKED_BEFORE_SEAT_0_ACTS = 3102847083982095640


def test_a_match_the_bots_end_before_the_learner_acts_is_skipped_reproducibly() -> None:
    def reset() -> tuple[cardhall.rl.CardhallGym, dict]:
        env = cardhall.rl.gym_env("gin(players=2,max_hands=1)", seat=0, opponents="rules")
        _, info = env.reset(seed=KNOCKED_BEFORE_SEAT_0_ACTS)
        return env, info

    (env, info), (again, _) = reset(), reset()
    assert info["skipped_seeds"] == [KNOCKED_BEFORE_SEAT_0_ACTS]
    assert not env.table.state.is_over and info["action_mask"].any()
    assert env.table.seed == again.table.seed != KNOCKED_BEFORE_SEAT_0_ACTS
    _, info = cardhall.rl.gym_env("gin(players=2,max_hands=1)", seat=0, opponents="random").reset(seed=5)
    assert "skipped_seeds" not in info


def test_the_gym_env_reproduces_a_seeded_match_with_its_bots() -> None:
    def run(seed: int) -> list[float]:
        env = cardhall.rl.gym_env("hearts(decks=1,players=4,max_hands=1)", seat=2, opponents="rules")
        obs, _ = env.reset(seed=seed)
        out = [float(obs.sum())]
        terminated = False
        for _ in steps(f"seed {seed}"):
            if terminated:
                break
            obs, reward, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            out += [float(obs.sum()), reward]
        return out

    assert run(7) == run(7) != run(8)


def test_bad_input_is_refused_with_a_clear_error() -> None:
    with pytest.raises(InvalidOptionError, match="unknown game 'nosuch'"):
        cardhall.rl.env("nosuch")
    with pytest.raises(InvalidOptionError, match="players"):
        cardhall.rl.env("hearts(players=99)")
    with pytest.raises(InvalidOptionError, match="unknown bot 'nosuchbot'"):
        cardhall.rl.gym_env("gin", opponents="nosuchbot")
    with pytest.raises(InvalidOptionError, match="opponents must be one bot string, or 2"):
        cardhall.rl.gym_env("gin", opponents=["rules"])
    with pytest.raises(InvalidOptionError, match=r"seat must be 0\.\.1"):
        cardhall.rl.gym_env("gin(players=2)", seat=2)
    with pytest.raises(InvalidOptionError, match="rewards must be 'deal' or 'match'"):
        cardhall.rl.env("hokm", rewards="win")
    with pytest.raises(InvalidOptionError, match="render_mode"):
        cardhall.rl.gym_env("hokm", render_mode="human")
    with pytest.raises(InvalidOptionError, match=r"call reset\(\)"):
        cardhall.rl.gym_env("hokm").step(0)


@pytest.mark.filterwarnings(*DICT_OBS)
def test_ansi_rendering_shows_the_public_table_and_whose_turn_it_is() -> None:
    env = cardhall.rl.env("hokm", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and f"to act: {env.agent_selection}" in text
    hand = env.table.state.observation(0)["hand"]
    assert not any(f" {card} " in f" {text} " for card in hand)  # no seat's hand in a spectator's view
    gym = cardhall.rl.gym_env("hokm", render_mode="ansi")
    gym.reset(seed=3)
    assert "scores" in str(gym.render())


@pytest.mark.filterwarnings(*DICT_OBS)
@pytest.mark.parametrize("game", [*FEW, "gin(players=2,max_hands=1)"])
def test_every_agents_mask_is_its_legal_actions_in_a_buffer_of_its_own(game: str) -> None:
    env = cardhall.rl.env(game)
    env.reset(seed=5)
    rng = random.Random(5)
    masks = []
    for _ in env.agent_iter():
        state = env.table.state
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            seat = env.possible_agents.index(other)
            assert mask.dtype == np.int8 and mask.shape == (state.game.num_distinct_actions,)
            assert np.flatnonzero(mask).tolist() == state.legal_actions(seat)
            assert mask.flags.writeable and not any(np.shares_memory(mask, m) for m in masks[-4:])
            masks.append(mask)
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert len(masks) > 20
