"""Table frames built from a match played here (the engine's own observations, events and legal moves,
the rules bot playing every seat), for the browser tests that draw the table page from a crafted frame
(``tests/web/test_web_layout.py``, ``tests/web/test_web_table_defects.py``): a position is reached on
demand (a bid to make, a trick half played, a deal just scored, Kierki's lottery) instead of by playing to it
through the page, which would be slow and random."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import cardhall
from cardhall.table import Table

# The page's table view, built in a page of the real server from a frame (``window.frameIn``); the
# messages it sends are kept in ``window.sent``, and the view in ``window.view``.
RENDER = """async ([lang, frame]) => {
    const { setLanguage } = await import("/static/i18n.js");
    await setLanguage(lang);
    const { TableView } = await import("/static/table.js");
    const main = document.getElementById("main");
    window.sent = [];
    const hooks = {
        send: (m) => window.sent.push(m), leave() {}, lobby() {}, open() {}, rules() {}, replay() {},
    };
    if (window.view) window.view.forget();
    window.view = new TableView(main, frame.table, "join", hooks);
    window.view.frame(frame);
}"""

# One more frame for the view drawn by RENDER.
FRAME = "frame => window.view.frame(frame)"


def seat_entries(players: int, you: int | None = 0, name: str = "Ann") -> list[dict[str, Any]]:
    """The seats of a table where ``you`` is a person and the others rules bots."""
    seats: list[dict[str, Any]] = [
        {
            "seat": s,
            "kind": "bot",
            "name": "rules",
            "bot": "rules",
            "connected": None,
            "stand_in": None,
            "left": False,
        }
        for s in range(players)
    ]
    if you is not None:
        seats[you] = {
            "seat": you,
            "kind": "person",
            "name": name,
            "bot": None,
            "connected": True,
            "stand_in": None,
            "left": False,
        }
    return seats


def frame_of(table: Table, you: int = 0, table_id: str = "t1", **extra: Any) -> dict[str, Any]:
    """The ``table`` frame the server would send seat ``you`` of ``table`` (played here), the other seats
    bots; ``extra`` replaces fields (``status``, ``seats``, ...). A seat with a decision has a turn
    timer of a minute, as at a real table."""
    game, state = table.game, table.state
    legal = state.legal_actions(you) if you in state.to_act and not state.is_over else []
    frame = {
        "type": "table",
        "table": table_id,
        "n": table.number,
        "game": str(game),
        "status": "finished" if state.is_over else "playing",
        "you": you,
        "settings": {"stand_in": "rules", "away_seconds": 20},
        "deadlines": {str(you): int(time.time() * 1000) + 60_000} if legal else {},
        "spectators": 0,
        "rematch_of": None,
        "to_act": [] if state.is_over else list(state.to_act),
        "seats": seat_entries(game.num_players, you),
        "events": table.events(you),
        "observation": table.observation(you),
        "legal": [{"action": a, "label": game.action_label(a), **game.action_info(a)} for a in legal],
    }
    frame.update(extra)
    result: dict[str, Any] = json.loads(json.dumps(frame))
    return result


def update_of(table: Table, since: int, you: int = 0, table_id: str = "t1", **extra: Any) -> dict[str, Any]:
    """The ``update`` frame the server would send seat ``you`` after event ``since``: the events since,
    the observation, the legal moves and whose turn it is now."""
    whole = frame_of(table, you, table_id)
    frame = {
        "type": "update",
        "table": table_id,
        "n": whole["n"],
        "status": whole["status"],
        "events": [e for e in whole["events"] if e["n"] > since],
        "observation": whole["observation"],
        "legal": whole["legal"],
        "to_act": whole["to_act"],
        "deadlines": whole["deadlines"],
    }
    frame.update(extra)
    return frame


class Match:
    """A match played here by the rules bot at every seat, stepped until a position is reached."""

    def __init__(self, game: str, seed: int = 1) -> None:
        self.table = Table(game, seed=seed)
        self.rng = random.Random(seed)
        self.bots: dict[int, Any] = {}

    def step(self) -> None:
        state = self.table.state
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        bot = self.bots.setdefault(seat, cardhall.make_bot("rules", self.table.game))
        self.table.apply(seat, bot.act(state.observation(seat, ints=True), legal, self.rng))

    def until(self, reached: Callable[[Match], bool], limit: int = 5000) -> Match:
        """Play on until ``reached`` (checked before each move); fails if the match ends first."""
        for _ in range(limit):
            if reached(self):
                return self
            assert not self.table.state.is_over, "the match ended before the position was reached"
            self.step()
        raise AssertionError("the position was not reached")

    def to_end(self) -> Match:
        while not self.table.state.is_over:
            self.step()
        return self

    # --- what a position is ------------------------------------------------------------------------

    def kinds(self, seat: int = 0) -> set[str]:
        """The kinds of the legal moves of ``seat`` (none unless it is to act)."""
        state = self.table.state
        if state.is_over or seat not in state.to_act:
            return set()
        return {str(self.table.game.action_info(a)["kind"]) for a in state.legal_actions(seat)}

    def phase(self, seat: int = 0) -> str:
        return str(self.table.observation(seat).get("phase"))

    def scored(self) -> int:
        """How many deal_scored events the match has had."""
        return sum(1 for e in self.table.events(None) if e["type"] == "deal_scored")

    def moved_since_scored(self, seat: int = 0) -> bool:
        """Whether ``seat`` has moved since the last deal was scored (its summary then closes)."""
        events = self.table.events(None)
        last = max((e["n"] for e in events if e["type"] == "deal_scored"), default=0)
        return any(e["type"] == "action" and e["seat"] == seat and e["n"] > last for e in events)

    def rows(self) -> int:
        """Kierki's lottery: how many of its rows have cards."""
        return sum(1 for row in self.table.observation(0).get("layout") or [] if row)

    def frame(self, you: int = 0, **extra: Any) -> dict[str, Any]:
        return frame_of(self.table, you, **extra)

    def update(self, since: int, you: int = 0, **extra: Any) -> dict[str, Any]:
        return update_of(self.table, since, you, **extra)


# --- the positions the layout test draws: each game at a few of its phases ------------------------------


def mid_trick(m: Match) -> bool:
    """Seat 0 is to play a card to a trick already led."""
    return "play" in m.kinds() and bool(m.table.observation(0).get("trick"))


def positions(game: str, seed: int = 1) -> list[tuple[str, dict[str, Any]]]:
    """Frames of one match of ``game`` for seat 0, each named by its position: its first decisions (a
    bid, a pass, a bet, a draw...), a card to play to a trick already led, the next deal's first
    decision with the last deal's summary still open, and gin's laying off on a knock. Kierki is started
    at deal 11 (trump chosen), so that its lottery (deal 12) comes after a deal of tricks."""
    m = Match(game, seed)
    out: list[tuple[str, dict[str, Any]]] = []
    name = game.split("(")[0]

    def take(label: str, reached: Callable[[Match], bool]) -> None:
        m.until(reached)
        out.append((label, m.frame()))

    if name == "hokm":
        take("bid", lambda m: "bid" in m.kinds())
        take("trick", mid_trick)
    elif name == "svara":
        take("blind", lambda m: m.phase() == "blind" and bool(m.kinds()))
        take(
            "open",
            lambda m: m.phase() == "open" and bool(m.kinds()) and bool(m.table.observation(0).get("hand")),
        )
    elif name == "gin":
        take("draw", lambda m: m.phase() == "draw" and bool(m.kinds()))
        take("discard", lambda m: "discard" in m.kinds())
    elif name == "hearts":
        take("pass", lambda m: "pass" in m.kinds())
        take("trick", mid_trick)
    elif name == "kierki":
        take("trump", lambda m: m.phase() == "trump")
        take("trick", mid_trick)
        take("lottery", lambda m: m.phase() == "lottery" and bool(m.kinds()) and not m.moved_since_scored())
        take("lottery-later", lambda m: m.phase() == "lottery" and bool(m.kinds()) and m.rows() >= 3)
        return out
    take("summary", lambda m: m.scored() >= 1 and bool(m.kinds()) and not m.moved_since_scored())
    if name == "gin":  # the knock laid out above the table while he lays off cards on its melds
        take("layoff", lambda m: bool(m.kinds() & {"lay_off", "done"}))
    return out
