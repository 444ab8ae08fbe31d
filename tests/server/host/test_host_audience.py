"""Who watches a table (cardhall.server.host.audience): the count of people watching follows every
connection that starts or stops watching, takes a seat or leaves, and a player's several tabs count
once."""

from __future__ import annotations

from cardhall.server.host.audience import Audience
from cardhall.store import PlayerRow, SeatKind, SeatRow


class Tab:
    def __init__(self, player: int) -> None:
        self.player = PlayerRow(id=player, name=f"p{player}")
        self.frames: list[object] = []

    def send(self, frame: object) -> None:
        self.frames.append(frame)


def test_the_people_watching_follow_every_connection_that_comes_and_goes() -> None:
    rows = [SeatRow(0, SeatKind.PERSON, "p1", player_id=1), SeatRow(1), SeatRow(2), SeatRow(3)]
    audience = Audience(4)
    seated, watcher, second_tab, other = Tab(1), Tab(2), Tab(2), Tab(3)
    audience.attach(seated, 0)
    assert audience.spectators(rows) == 0
    audience.attach(watcher, None)
    audience.attach(second_tab, None)
    assert audience.spectators(rows) == 1  # (one person in two tabs)
    audience.attach(other, None)
    assert audience.spectators(rows) == 2
    audience.attach(other, 1)  # (he sits down: no longer a spectator)
    assert audience.spectators(rows) == 1
    audience.detach(watcher)
    assert audience.spectators(rows) == 1  # (his other tab still watches)
    audience.detach(second_tab)
    audience.detach(second_tab)  # (twice: nothing more changes)
    assert audience.spectators(rows) == 0
    audience.attach(other, None)  # (up again, to watch)
    audience.attach(seated, None)  # (the seated player watching from his seat's connection: seated)
    assert audience.spectators(rows) == 1
    assert audience.connected == [0, 0, 0, 0]
