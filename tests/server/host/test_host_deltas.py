"""Updates that carry only what changed (cardhall.server.host.frames, ``hello``'s ``deltas``), driven on
the pure machine: a connection that takes deltas, its observations put back together from ``delta`` as
the page does (web/link.js ``whole``), sees exactly what a connection of the same seat that takes whole
frames sees, frame after frame through a match (a seat, a spectator, a change of seat on the way), in
fewer bytes; a connection that did not ask gets every observation whole. And the same over the
server's websocket, from the ``hello`` on."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import msgspec

from cardhall.server.host.frames import delta
from cardhall.server.host.machine import TableMachine, drive
from cardhall.server.protocol import ServerFrame, TableFrame, UpdateFrame, encode_bytes
from cardhall.server.settings import table_settings
from cardhall.store import PlayerRow, SeatKind, SeatRow, TableRow
from tests.server_helpers import attach, new_player, new_table, server

ANN = PlayerRow(1, "Ann")
BOB = PlayerRow(2, "Bob")


@dataclass(eq=False)
class Conn:
    player: PlayerRow | None
    deltas: bool = False
    sent: list[ServerFrame] = field(default_factory=list)

    def send(self, frame: ServerFrame) -> None:
        self.sent.append(frame)


def whole(frames: list[ServerFrame]) -> list[dict[str, Any]]:
    """The table's frames (``table`` and ``update``) as the page gets them from its link: see
    :func:`as_whole`."""
    sent = [msgspec.json.decode(encode_bytes(frame)) for frame in frames]
    return as_whole([data for data in sent if data["type"] in ("table", "update")])


def play(game: str, seats: int) -> tuple[TableMachine, dict[str, Conn]]:
    rows = [SeatRow(0, SeatKind.PERSON, "Ann", ANN.id)] + [
        SeatRow(k, SeatKind.BOT, "rules", None, "rules") for k in range(1, seats)
    ]
    m = TableMachine(TableRow("t1", game, "1", 7, dict(table_settings({})), rows))
    conns = {
        "ann whole": Conn(ANN),
        "ann deltas": Conn(ANN, deltas=True),
        "bob whole": Conn(BOB),
        "bob deltas": Conn(BOB, deltas=True),
    }
    drive(m.open())
    drive(m.join(conns["ann whole"], 0, 0, None))
    drive(m.watch(conns["ann deltas"], 0))  # (watching first: it joins the seat half way)
    drive(m.watch(conns["bob whole"], 0))
    drive(m.watch(conns["bob deltas"], 0))
    moves = 0
    while m.table is not None and not m.table.is_over and moves < 400:
        if moves == 30:
            drive(m.join(conns["ann deltas"], 0, m.number, None))
        if 0 in m.table.to_act:
            drive(m.act(conns["ann whole"], m.table.legal_actions(0)[0], m.number, None))
        else:
            m.bot_busy = True
            drive(m.bot_step())
        moves += 1
        for listener, frame in m.take().frames:
            listener.send(frame)  # type: ignore[arg-type]
    assert moves > 30
    return m, conns


def test_a_connection_that_takes_deltas_sees_what_one_that_takes_whole_frames_sees() -> None:
    for game, seats in (("hearts(decks=1,players=4,target=10)", 4), ("hokm", 3)):
        _, conns = play(game, seats)
        for who in ("ann", "bob"):
            plain, deltas = conns[f"{who} whole"], conns[f"{who} deltas"]
            got, expected = whole(deltas.sent), whole(plain.sent)
            if who == "ann":  # (watching until its join: from there on, Ann's seat's frames)
                start = next(k for k, f in enumerate(deltas.sent) if isinstance(f, TableFrame) and f.you == 0)
                got = whole(deltas.sent[start:])
            # (the one attached later has fewer frames: the other's attach sent it none)
            expected = expected[-len(got) :]
            assert [f["observation"] for f in got] == [f["observation"] for f in expected]
            assert [f["n"] for f in got] == [f["n"] for f in expected]
            updates = [f for f in deltas.sent if isinstance(f, UpdateFrame)]
            assert sum(f.delta is not msgspec.UNSET for f in updates) > len(updates) // 2, game
            assert any(f.grown is not msgspec.UNSET for f in updates), game  # (the tricks taken)
            assert sum(len(encode_bytes(f)) for f in deltas.sent) < 0.8 * sum(
                len(encode_bytes(f)) for f in plain.sent
            )
            assert all(not isinstance(f, UpdateFrame) or f.delta is msgspec.UNSET for f in plain.sent)


def test_an_entry_is_left_out_only_when_its_json_would_be_the_same() -> None:
    base = {"a": 1, "b": [1, 2], "c": 0, "d": 1.0, "e": [1], "f": [2, 3], "gone": 3}
    new = {"a": 1, "b": [1, 2], "c": False, "d": 1, "e": [1, 4, 5], "f": [3, 3, 3], "new": None}
    got = delta(new, base)
    assert got is not None
    assert list(got.changed) == ["c", "d", "e", "f", "new"]  # (1 and True, 1.0 and 1: not the same)
    assert got.changed["e"] == [4, 5] and got.grown == ["e"]  # (only grew: its new entries)
    assert got.changed["f"] == [3, 3, 3] and got.gone == ["gone"]
    assert delta({"a": 2}, base) is None  # (nothing the same: the whole observation)


def test_a_connection_that_leaves_forgets_its_last_observation() -> None:
    m, conns = play("hokm", 3)
    assert conns["bob deltas"] in m.audience.shown and conns["bob whole"] not in m.audience.shown
    drive(m.detach(conns["bob deltas"]))
    assert conns["bob deltas"] not in m.audience.shown


def test_a_hello_with_deltas_gets_updates_that_leave_out_what_is_unchanged() -> None:
    """Over the server's websocket (in-process): the same seat on two connections, one that said hello
    with deltas; its updates name what they left out, and put back together they are the other's."""
    with server() as client:
        ann = new_player(client, "Ann")
        table = new_table(client, ann, "hokm", {1: "normal", 2: "normal"})
        with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
            plain = attach(ws1, ann)
            ws2.send_text(json.dumps({"type": "hello", "token": ann, "deltas": True}))
            deltas = attach(ws2, None)
            assert deltas.until("welcome")
            plain.send(type="join", table=table, seat=0)
            plain.until("table", status="playing")
            deltas.send(type="join", table=table, seat=0)
            first = deltas.until("table", status="playing")
            frames, kept = [first], 0
            while len(frames) < 12:
                frame = deltas.until("update")
                kept += "delta" in frame
                frames.append(frame)
                if frame["legal"]:
                    deltas.send(type="act", table=table, action=frame["legal"][0]["label"], n=frame["n"])
            rebuilt = {f["n"]: f["observation"] for f in as_whole(frames)}
            seen = {}
            while len(seen) < len(rebuilt) or max(seen) < max(rebuilt):
                frame = plain.receive()
                if frame["type"] in ("table", "update"):
                    assert "delta" not in frame
                    seen[frame["n"]] = frame["observation"]
            assert kept > 5
            assert all(rebuilt[n] == seen[n] for n in rebuilt)


def as_whole(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Frames as JSON values made whole again, as the page's link does (web/link.js ``whole``): an
    update's ``delta`` over the previous frame's observation, its ``grown`` lists appended to."""
    out: list[dict[str, Any]] = []
    shown: dict[str, Any] = {}
    for data in frames:
        data = dict(data)
        gone = data.pop("delta", None)
        grown = data.pop("grown", [])
        if gone is not None:
            observation = {k: v for k, v in shown.items() if k not in gone}
            for k, v in data["observation"].items():
                observation[k] = shown[k] + v if k in grown else v
            data["observation"] = observation
        shown = data["observation"]
        out.append(data)
    return out
