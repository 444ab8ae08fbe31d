"""A table's frames built without asyncio (cardhall.server.host.frames): what they repeat is encoded
once (the legal entries, the observation's shared entries: Hearts' finished tricks), and the JSON a
seat gets is exactly what encoding its view afresh gives, through hands and matches."""

from __future__ import annotations

from typing import Any

import msgspec

from cardhall.server.host.frames import Encoded, legal_entry, seat_view
from cardhall.store import TableStatus
from cardhall.table import Occupant, Table

ME = Occupant.person("Ann")


def as_sent(value: object) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def test_a_seats_view_is_the_same_json_with_what_repeats_encoded_once() -> None:
    table = Table("hearts(decks=1,players=4,target=40)", [ME, "rules", "rules", "rules"], seed=12)
    encoded = Encoded()
    hands = set()
    reused = 0
    while not table.is_over:
        for seat in (0, 1, None):
            view = seat_view(table, TableStatus.PLAYING, seat, encoded)
            fresh = table.observation(seat)
            assert as_sent(view.observation) == as_sent(fresh)
            legal = [legal_entry(table, a) for a in table.legal_actions(seat)] if seat in table.to_act else []
            assert as_sent(view.legal) == as_sent(legal)
            tricks = view.observation["tricks"] if view.observation else []
            assert all(isinstance(t, msgspec.Raw) for t in tricks)
            # (the cache holds the entries of the hand's observation alone: a new hand lets the old go)
            assert len(encoded.shared.get("tricks", {})) <= len(fresh["tricks"])
            reused += sum(id(t) in encoded.shared.get("tricks", {}) for t in fresh["tricks"])
        hands.add(table.observation(0)["hand_number"])
        bots = table.bots_to_act()
        if bots:
            table.play_bot(bots[0])
        else:
            table.apply(0, table.legal_actions(0)[0])
    assert len(hands) > 1 and reused > 0


def test_a_game_that_shares_no_entries_keeps_its_observation_as_it_is() -> None:
    table = Table("hokm", [ME, "rules", "rules"], seed=3)
    table.run_bots()
    encoded = Encoded()
    view = seat_view(table, TableStatus.PLAYING, 0, encoded)
    assert view.observation == table.observation(0)
    assert encoded.shared == {}
    assert as_sent(view.legal) == as_sent([legal_entry(table, a) for a in table.legal_actions(0)])
