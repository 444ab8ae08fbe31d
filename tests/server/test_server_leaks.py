"""No client of the server ever receives a card hidden from its seat: whole matches of every game, played
through the websocket by two people beside easy (random) bots with a spectator watching; afterwards every
frame each client received is checked against a replay of the match's record.

Driving a match: TestClient websockets are synchronous, so a session is read only when a frame is sure
to come. Every action is broadcast to every connection with the table's new event number ``n`` and whose
turn it is (``to_act``). When only bots are to act, the spectator reads until ``n`` moves; when people
are, the first of them in seat order catches up with the newest ``n`` anyone has seen, plays a random
legal action (his own seeded ``random.Random``; in gin a knock whenever one is offered, so that the hands
get spread) on that frame, and reads until his action comes back (or a ``stale`` refusal: a bot moved
first); then every session catches up. Sends are paced under the server's rate limit. The table's seed
is pinned (the lobby's ``secrets``), so each match plays the same way every run and a failure replays;
the seeds are chosen so the matches reach the moments that show cards (a gin knock, with lay-offs and a
person as the advisor in three-hand gin; Svara showdowns and a svara re-deal; Kierki's trump deal and
lottery; the Hearts exchange and widow), and the test says so if a match stops reaching them.

Three checks of every ``table``/``update`` frame of the table, for each person and the spectator:

1. **The engine's own view** (:func:`exact_problems`): the record is replayed one action at a time
   through a :class:`~cardhall.table.Table` with the same seats, and each frame must carry exactly what
   that Table gives the frame's seat at the frame's event number: the events since the seat's previous
   frame (``table.events(seat, since=...)``), the observation, the legal actions and ``to_act``; every
   event of the seat's stream arrives once. This catches the server showing a seat anything but its own
   view; the conformance suite proves those views leak-free. A redaction bug in the engine would be on
   both sides of this comparison: checks 2 and 3 are for that.
2. **The rules' hidden cards** (:func:`rules_problems`): no card text (any spelling, as
   ``tests.games.conformance.card_tokens`` reads it in the JSON) of a received event names a card hidden from
   the seat when that event happened, by the audited Table (``State.hidden_cards`` at the moment the
   rules logged the event, as in ``tests/games/conformance.py``); nor does the rest of the frame (observation,
   legal actions, seats...) at the frame's event number.
3. **The hands themselves** (:func:`hands_problems`), relying neither on the redaction code nor on
   ``hidden_cards``: what is hidden from a seat is read from the state's card fields (:func:`concealed`):
   the other seats' hands, and

   - Hokm: nothing else (no card of a hand is ever shown);
   - Kierki: also every seat's cards not yet dealt in a trump deal (his own too);
   - Hearts: also the widow and the other seats' chosen passes; the faces the seat passed are known to it;
   - Gin: also the stock; a card taken from the discard pile is known; the advisor sees his captain's
     hand; nothing is hidden of the hands once they are spread (after the knock);
   - Svara: also the stock, and the seat's own cards until the players have looked; cards shown at a
     showdown are known.

   A face is secret when no copy of it is out of those hiding places (Hearts plays with two decks). The
   frame (observation, legal actions, ...) is checked at its event number, each event at the end of the
   action that produced it. The events of a deal that ended within that same action, before the new
   ``deal`` (or ``svara_deal``), have no state between two actions to check against: for those check 2
   alone applies.

Svara observations keep a ``deal_log`` of past showdowns, whose cards are back in play: checks 2 and 3
leave it out, as the conformance suite does. Each test also proves that its detectors work: a card
hidden from the seat, slipped into a copy of a frame (its observation, then one of its events), must be
flagged by all three checks, for a person and for the spectator.
"""

from __future__ import annotations

import copy
import json
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from cardhall.cards import cards_of, format_card
from cardhall.core import State
from cardhall.records import actions as record_actions
from cardhall.registry import load_game
from cardhall.server import lobby
from cardhall.table import Occupant, Table
from tests.games.conformance import card_tokens, secret_faces
from tests.server_helpers import Session, new_player, new_table, server, session

Frame = dict[str, Any]
Seat = int | None
FRAMES = ("table", "update")
PEOPLE = (0, 1)  # the seats of the two people; bots ("easy": random) everywhere else
MAX_STEPS = 20_000

# (game, table seed, event types the match must show: the moments that show cards; see the docstring).
GAMES = [
    pytest.param("hokm(max_hands=1)", 1, {"declarer", "trick"}, id="hokm"),
    pytest.param("svara(players=4,stack=60,max_deals=6)", 8, {"showdown", "svara_deal"}, id="svara"),
    pytest.param("gin(max_hands=1)", 18, {"knock"}, id="gin-3"),
    pytest.param("gin(players=2,max_hands=1)", 2, {"knock"}, id="gin-2"),
    pytest.param("hearts(max_hands=1)", 1, {"passes", "widow"}, id="hearts-6"),
    pytest.param("hearts(decks=1,players=4,max_hands=2)", 1, {"passes", "deal_scored"}, id="hearts-1deck"),
    pytest.param("kierki(first_deal=11,last_deal=12)", 1, {"trump", "out"}, id="kierki"),
]

# Observation keys about finished deals only (their cards are back in play): left out of the card scan.
PAST_DEAL_KEYS = {"svara": ("deal_log",)}


# --- the hidden cards, from the state's card fields ------------------------------------------------


def _cards(*masks: int) -> set[int]:
    out: set[int] = set()
    for mask in masks:
        out.update(cards_of(mask))
    return out


def concealed(state: State, seat: Seat) -> set[int]:
    """The physical cards whose place ``seat`` cannot know, read from the game's card fields."""
    name = state.game.name
    others = [s for s in range(state.game.num_players) if s != seat]
    s: Any = state  # each game's own fields
    if name == "hokm":
        return _cards(*(s.hands[o] for o in others))
    if name == "kierki":
        return _cards(*(s.hands[o] for o in others), *s.pending)
    if name == "hearts":
        return _cards(*(s.hands[o] for o in others), s.widow) | {c for o in others for c in s.pass_sel[o]}
    if name == "gin":
        hidden = set(s.stock)
        if not s.spread:
            for holder in (s.dealer, s.nondealer):
                sees = seat == holder or (seat is not None and seat == s.advisor and holder == s.nondealer)
                if not sees:
                    hidden |= _cards(s.hands[holder] & ~s.known[holder])
        return hidden
    if name == "svara":
        known = s.revealed | (s.hands[seat] if seat is not None and s.looked else 0)
        return _cards(*s.hands, s.stock) - _cards(known)
    raise AssertionError(f"no hand-field definition of hidden cards for {name}")


def hand_secrets(state: State, seat: Seat) -> set[str]:
    """The card texts ``seat`` must not see: faces of concealed cards of which no copy is in the open
    (nor, in Hearts, passed by the seat itself)."""
    hidden = concealed(state, seat)
    known = {format_card(c) for c in set(state.game.deck()) - hidden}
    s: Any = state
    if state.game.name == "hearts" and seat is not None:
        known |= {format_card(c) for c in s.passed[seat]}
    return {format_card(c) for c in hidden} - known


# --- the match as the engine tells it, replayed from the record ------------------------------------


@dataclass
class Point:
    """The match at one event number (after an action, or as dealt): each seat's view and secrets."""

    observation: dict[Seat, Any]
    legal: dict[Seat, list[dict[str, Any]]]
    to_act: list[int]
    rules_secret: dict[Seat, set[str]]
    hands_secret: dict[Seat, set[str]]


@dataclass
class Replay:
    table: Table
    seats: list[Seat]
    points: dict[int, Point] = field(default_factory=dict)
    events: dict[Seat, list[Frame]] = field(default_factory=dict)
    # Per event number: the secret card texts per seat, None where the check does not apply.
    rules_secret: dict[int, dict[Seat, set[str]] | None] = field(default_factory=dict)
    hands_secret: dict[int, dict[Seat, set[str]] | None] = field(default_factory=dict)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _point(table: Table, seats: list[Seat]) -> Point:
    state, label = table.state, table.game.action_label
    legal: dict[Seat, list[dict[str, Any]]] = {None: []}
    for s in range(table.game.num_players):
        acts = table.legal_actions(s) if s in table.to_act else []
        legal[s] = [{"action": a, "label": label(a), **table.game.action_info(a)} for a in acts]
    return Point(
        observation={s: _json(table.observation(s)) for s in seats},
        legal=legal,
        to_act=list(table.to_act),
        rules_secret={s: secret_faces(state, state.hidden_cards(s)) for s in seats},
        hands_secret={s: hand_secrets(state, s) for s in seats},
    )


def _note(out: Replay, since: int, acted: bool) -> None:
    """The match after the events since ``since`` (an action's, or the deal as the Table starts)."""
    table = out.table
    point = out.points[table.number] = _point(table, out.seats)
    batch = table.events(None, since=since)
    # Events before a new deal within one action belong to a deal that no state between actions shows.
    redeal = max((e["n"] for e in batch if e["type"] in ("deal", "svara_deal")), default=0) if acted else 0
    for e in batch:
        out.hands_secret[e["n"]] = point.hands_secret if e["n"] >= redeal else None


def replay(record: dict[str, Any], occupants: list[Occupant]) -> Replay:
    """The record replayed one action at a time through an audited Table seated as the server's was."""
    table = Table(record["game"], occupants, record["seed"], deck=record.get("deck"), audit=True)
    out = Replay(table, [*range(table.game.num_players), None])
    _note(out, 0, acted=False)
    for seat, action in record_actions(record):
        since = table.number
        table.apply(seat, action)
        _note(out, since, acted=True)
    assert table.record() == record, "the replayed match differs from its record"
    state = table.state
    for n, hidden in table.audit():
        out.rules_secret[n] = (
            None if hidden is None else {s: secret_faces(state, hidden[s]) for s in out.seats}
        )
    out.events = {s: _json(table.events(s)) for s in out.seats}
    return out


# --- the checks ------------------------------------------------------------------------------------


def _where(who: str, i: int, frame: Frame) -> str:
    return f"{who} frame {i} ({frame['type']} n={frame['n']})"


def exact_problems(who: str, seat: Seat, frames: list[Frame], match: Replay) -> list[str]:
    """Each frame against the replayed Table's own view of ``seat`` at its event number."""
    problems: list[str] = []
    stream = match.events[seat]
    previous = 0
    delivered: list[int] = []
    for i, frame in enumerate(frames):
        where, n = _where(who, i, frame), frame["n"]
        if frame["status"] == "waiting":
            if (n, frame["events"], frame["observation"], frame["legal"]) != (0, [], None, []):
                problems.append(f"{where}: a waiting table shows a match")
            previous = 0
            continue
        if frame["type"] == "table":
            previous = 0  # a full frame tells everything since 0 (join and watch ask for that)
            if frame["you"] != seat:
                problems.append(f"{where}: you={frame['you']}, expected {seat}")
        point = match.points.get(n)
        if point is None:
            problems.append(f"{where}: no action of the record ends at event {n}")
            continue
        expected = stream[previous:n]
        if frame["events"] != expected:
            wrong = next(
                ((got, want) for got, want in zip(frame["events"], expected, strict=False) if got != want),
                (frame["events"][len(expected) :], expected[len(frame["events"]) :]),
            )
            problems.append(f"{where}: events differ from the Table's: got {wrong[0]}, expected {wrong[1]}")
        if frame["type"] == "table":
            delivered = []
        delivered += [e["n"] for e in frame["events"]]
        for key, want in (
            ("observation", point.observation[seat]),
            ("legal", point.legal[seat]),
            ("to_act", point.to_act),
        ):
            if frame[key] != want:
                problems.append(f"{where}: {key} differs from the Table's: got {frame[key]}, expected {want}")
        previous = n
    if delivered != list(range(1, len(stream) + 1)):
        problems.append(f"{who}: received events {delivered}, not each of 1..{len(stream)} once")
    if not frames or frames[-1]["status"] != "finished":
        problems.append(f"{who}: the last frame is not the finished match")
    return problems


def _scan(text_of: Any, secret: set[str]) -> set[str]:
    return card_tokens(json.dumps(text_of, ensure_ascii=False)) & secret


def _frame_rest(frame: Frame, game: str) -> Frame:
    """The frame without its events and table id (random text), nor an observation's past deals."""
    rest = {k: v for k, v in frame.items() if k not in ("events", "table")}
    skip = PAST_DEAL_KEYS.get(game, ())
    if isinstance(rest.get("observation"), dict) and skip:
        rest["observation"] = {k: v for k, v in rest["observation"].items() if k not in skip}
    return rest


def _secret_problems(
    kind: str,
    who: str,
    seat: Seat,
    frames: list[Frame],
    match: Replay,
    at_event: dict[int, dict[Seat, set[str]] | None],
    at_point: Callable[[Point], dict[Seat, set[str]]],
) -> list[str]:
    problems: list[str] = []
    game = match.table.game.name
    for i, frame in enumerate(frames):
        where = _where(who, i, frame)
        point = match.points.get(frame["n"])
        if point is not None and frame["status"] != "waiting":
            leaked = _scan(_frame_rest(frame, game), at_point(point)[seat])
            if leaked:
                problems.append(f"{where}: {kind}: hidden {sorted(leaked)} outside the events")
        for event in frame["events"]:
            secrets_then = at_event.get(event.get("n", -1))
            leaked = set() if secrets_then is None else _scan(event, secrets_then[seat])
            if leaked:
                problems.append(f"{where}: {kind}: hidden {sorted(leaked)} in event {event}")
    return problems


def rules_problems(who: str, seat: Seat, frames: list[Frame], match: Replay) -> list[str]:
    """Card texts hidden from ``seat`` by the rules (``hidden_cards``, the Table's audit)."""
    return _secret_problems("rules", who, seat, frames, match, match.rules_secret, lambda p: p.rules_secret)


def hands_problems(who: str, seat: Seat, frames: list[Frame], match: Replay) -> list[str]:
    """Card texts hidden from ``seat`` by the hands themselves (:func:`concealed`)."""
    return _secret_problems("hands", who, seat, frames, match, match.hands_secret, lambda p: p.hands_secret)


CHECKS = (exact_problems, rules_problems, hands_problems)


# --- driving the match through the websocket -------------------------------------------------------


class Client:
    """One session at the table: a person's seat, or the spectator (seat None)."""

    def __init__(self, s: Session, table: str, seat: Seat, who: str, seed: int) -> None:
        self.s, self.table, self.seat, self.who = s, table, seat, who
        self.newest: Frame | None = None
        self.acted = -1  # the event number of the frame it last acted on
        self.stale = 0
        self.rng = random.Random(f"{seed}:{seat}")

    def send(self, **message: Any) -> None:
        # No pacing: the test's server has no rates (server_helpers.server), a setting, not a sleep.
        self.s.send(**message)

    def read(self) -> Frame:
        frame = self.s.receive()
        if frame["type"] == "error":
            assert frame["code"] == "stale", f"{self.who} got {frame}"
            self.stale += 1
        elif frame["type"] in FRAMES and frame.get("table") == self.table:
            assert self.newest is None or frame["n"] >= self.newest["n"], f"{self.who}: n went back"
            self.newest = frame
        return frame

    def read_until(self, done: Callable[[Frame], bool]) -> Frame:
        while True:
            frame = self.read()
            if done(frame):
                return frame

    @property
    def n(self) -> int:
        return -1 if self.newest is None else int(self.newest["n"])

    def read_past(self, n: int) -> None:
        """Read until a frame after event number ``n`` (only when the table is sure to move on)."""
        self.read_until(lambda _: self.n > n)

    def catch_up(self, n: int) -> None:
        """Read until a frame of event number ``n`` or later (every connection gets every number)."""
        if self.n < n:
            self.read_until(lambda _: self.n >= n)

    def finish(self) -> None:
        if self.newest is None or self.newest["status"] != "finished":
            self.read_until(lambda _: self.newest is not None and self.newest["status"] == "finished")

    def act(self) -> None:
        """A random legal action on the newest frame (a knock when gin offers one); then read until
        it is applied (its own action event) or refused as stale."""
        frame = self.newest
        assert frame is not None and frame["legal"]
        legal = frame["legal"]
        knocks = [a for a in legal if a["label"].startswith("knock")]  # gin: reach the spread hands
        choice = self.rng.choice(knocks or legal)
        self.send(type="act", table=self.table, action=choice["label"], n=frame["n"])
        self.acted = frame["n"]
        self.read_until(
            lambda f: (
                f["type"] == "error"
                or (
                    f["type"] in FRAMES
                    and any(e["type"] == "action" and e["seat"] == self.seat for e in f["events"])
                )
            )
        )

    def frames(self) -> list[Frame]:
        return [f for f in self.s.frames if f["type"] in FRAMES and f.get("table") == self.table]


def play_match(people: list[Client], spectator: Client) -> None:
    everyone = [*people, spectator]
    started = time.monotonic()
    for _ in range(MAX_STEPS):
        latest = max((c.newest for c in everyone if c.newest is not None), key=lambda f: f["n"])
        if latest["status"] == "finished":
            break
        assert time.monotonic() - started < 60, "the match takes too long"
        waiting = [c for c in people if c.seat in latest["to_act"]]
        if not waiting:  # only bots to act: one of them will
            spectator.read_past(latest["n"])
            continue
        person = waiting[0]
        person.catch_up(latest["n"])
        frame = person.newest
        assert frame is not None
        if frame["legal"] and person.acted < frame["n"]:
            person.act()
            for c in everyone:
                c.catch_up(person.n)
        else:  # its action on this frame was refused as stale: the table has moved on
            assert person.acted == frame["n"] and person.stale, f"{person.who} to act on {frame}"
            person.read_past(frame["n"])
    else:
        pytest.fail(f"the match did not finish within {MAX_STEPS} steps")
    for c in everyone:
        c.finish()


class _PinnedSeed:
    """The lobby's ``secrets`` with a fixed table seed, so a failing match replays."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randbelow(self, _: int) -> int:
        return self.seed

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


@dataclass
class Played:
    game: str
    people: list[Client]
    spectator: Client
    match: Replay

    @property
    def clients(self) -> list[Client]:
        return [*self.people, self.spectator]


def play_and_replay(game: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> Played:
    monkeypatch.setattr(lobby, "secrets", _PinnedSeed(seed))
    with server() as client:
        tokens = [new_player(client, name) for name in ("Ann", "Bob", "Cy")]
        players = load_game(game).num_players
        bots = {s: "easy" for s in range(players) if s not in PEOPLE}
        table = new_table(client, tokens[0], game, bots, turn_seconds=0)
        with (
            session(client, tokens[0]) as a,
            session(client, tokens[1]) as b,
            session(client, tokens[2]) as w,
        ):
            ann = Client(a, table, 0, "Ann (seat 0)", seed)
            bob = Client(b, table, 1, "Bob (seat 1)", seed)
            spectator = Client(w, table, None, "Cy (spectator)", seed)
            ann.send(type="join", table=table, seat=0)
            ann.read_until(lambda f: f["type"] == "table")
            spectator.send(type="watch", table=table)
            spectator.read_until(lambda f: f["type"] == "table")
            bob.send(type="join", table=table, seat=1)
            for c in (ann, bob, spectator):
                c.read_until(lambda f: f["type"] == "table" and f["status"] == "playing")
            assert bob.newest is not None
            seats_shown = bob.newest["seats"]  # the full frame of the start: the seats the match has
            play_match([ann, bob], spectator)
            # Nothing more comes: every frame sent so far is read (a ping's answer comes after them).
            for c in (ann, bob, spectator):
                c.send(type="ping", id="end")
                c.read_until(lambda f: f["type"] == "pong")
        record = client.get(f"/api/tables/{table}/record").json()
    assert record["game"] == str(load_game(game))
    occupants = [
        Occupant.for_bot(s["bot"], s["name"]) if s["kind"] == "bot" else Occupant.remote(s["name"])
        for s in seats_shown
    ]
    return Played(game, [ann, bob], spectator, replay(record, occupants))


def all_problems(played: Played) -> list[str]:
    return [
        problem
        for c in played.clients
        for check in CHECKS
        for problem in check(c.who, c.seat, c.frames(), played.match)
    ]


# --- the detectors detect --------------------------------------------------------------------------


def _planted(played: Played, c: Client) -> tuple[int, int, str]:
    """A frame of ``c`` in mid-match (its index), one of its events (its index) and a card text hidden
    from ``c``'s seat, by both definitions, at that frame and at that event."""
    frames, match = c.frames(), played.match
    for i in range(len(frames) // 3, len(frames)):
        point = match.points.get(frames[i]["n"])
        if point is None or frames[i]["status"] != "playing":
            continue
        for j, event in enumerate(frames[i]["events"]):
            rules, hands = match.rules_secret.get(event["n"]), match.hands_secret.get(event["n"])
            if rules and hands:
                both = point.rules_secret[c.seat] & point.hands_secret[c.seat] & rules[c.seat] & hands[c.seat]
                if both:
                    return i, j, min(both)
    raise AssertionError(f"{c.who}: no frame in mid-match with a card hidden from it")


def assert_detectors_catch_a_planted_card(played: Played) -> None:
    for c in (played.people[0], played.spectator):
        i, j, card = _planted(played, c)
        for target in ("observation", "event"):
            tampered = copy.deepcopy(c.frames())
            if target == "observation":
                obs = tampered[i]["observation"]
                obs["hand"] = [*(obs.get("hand") or []), card]
            else:
                tampered[i]["events"][j]["cards"] = [card]
            for check in CHECKS:
                found = check(c.who, c.seat, tampered, played.match)
                assert found, f"{check.__name__} missed {card} planted in {c.who}'s {target}"
                named = check is exact_problems or any(card in p for p in found)
                assert named, f"{check.__name__} did not name {card}: {found}"


# --- the test --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "seed", "shows"), GAMES)
def test_no_client_ever_receives_a_card_hidden_from_its_seat(
    game: str, seed: int, shows: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    played = play_and_replay(game, seed, monkeypatch)
    seen = {e["type"] for e in played.match.events[None]}
    assert shows <= seen, f"{game} seed {seed} no longer shows {shows - seen}: choose another seed"
    problems = all_problems(played)
    assert not problems, f"{game}: {len(problems)} problems, first:\n" + "\n".join(problems[:10])
    assert_detectors_catch_a_planted_card(played)
