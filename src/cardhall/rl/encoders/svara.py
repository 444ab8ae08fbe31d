"""The Svara encoder: one seat's observation as a fixed-size array (n = players, 2 to 8, relative to the
observing seat; S = the option ``stack``, the chips each seat starts with; conventions in
:mod:`cardhall.rl.encoders.base`).

| field | size | meaning |
|---|---|---|
| `phase` | 5 | blind, open, svara join, over, other |
| `hand` | 52 | this seat's three cards, once it has looked (zeros before) |
| `showdown` | 52 n | the hands shown at the last showdown, per relative seat, while they lie on the table |
| `to_act` | n | the seats to act |
| `dealer` | n | the dealer of the deal in hand |
| `in_deal` | n | dealt into the deal in hand (0/1) |
| `folded` | n | folded in the deal in hand (0/1) |
| `to_respond` | n | still has to act in the open round (0/1) |
| `svara_players` | n | tied players of the svara in hand |
| `joined` | n | players who paid to join the svara in hand |
| `blinds` | n | chips each seat bet blind this deal / S |
| `bets` | n | chips each seat bet this deal / S |
| `contributions` | n | chips each seat put into this deal's pot, antes included / S |
| `stacks` | n | chips each seat holds / (S x n) |
| `numbers` | 8 | looked, opened, in a svara (0/1 each), hand value / 40, pot, bet, min raise, fee / S |

Svara's scores are the chip stacks; per-deal rewards are the stack changes from one deal's end to the
next (chips in the pot are not lost until the deal is decided).
"""

from __future__ import annotations

from cardhall.core import Observation
from cardhall.rl.encoders.base import Array, Encoder

PHASES = ("blind", "open", "svara join", "over")


class SvaraEncoder(Encoder):
    def _define(self) -> None:
        self.stack = float(self.game.option("stack"))
        self.phase = self._enum("phase", PHASES, "the phase")
        self.hand = self._cards("hand", "this seat's three cards, once it has looked")
        self.showdown = self._seat_cards("showdown", "the hands shown at the last showdown")
        self.to_act = self._per_seat("to_act", "the seats to act")
        self.dealer = self._seat("dealer", "the dealer of the deal in hand")
        self.in_deal = self._per_seat("in_deal", "dealt into the deal in hand (0/1)")
        self.folded = self._per_seat("folded", "folded in the deal in hand (0/1)")
        self.to_respond = self._per_seat("to_respond", "still has to act in the open round (0/1)")
        self.svara_players = self._per_seat("svara_players", "tied players of the svara in hand")
        self.joined = self._per_seat("joined", "players who paid to join the svara in hand")
        self.blinds = self._per_seat("blinds", "chips each seat bet blind this deal / S (S: option stack)")
        self.bets = self._per_seat("bets", "chips each seat bet this deal / S")
        self.contributions = self._per_seat("contributions", "chips put into this deal's pot / S")
        self.stacks = self._per_seat("stacks", "chips each seat holds / (S x n)")
        self.numbers = self._add(
            "numbers",
            8,
            "looked, opened, in a svara (0/1 each), hand value / 40, pot / S, current bet / S, "
            "smallest raise / S, svara fee / S",
        )

    def _fill(self, out: Array, cards: list[int], flags: list[int], obs: Observation, me: int) -> None:
        stack = self.stack
        self.put_enum(flags, self.phase, PHASES, obs["phase"])
        self.put_cards(cards, self.hand, obs["hand"])
        for shown in obs["showdown"]:
            self.put_seat_cards(cards, self.showdown, shown["seat"], me, shown["cards"])
        self.put_seats(flags, self.to_act, obs["to_act"], me)
        self.put_seat(flags, self.dealer, obs["dealer"], me)
        self.put_per_seat(out, self.in_deal, obs["in_deal"], me, 1)
        self.put_per_seat(out, self.folded, obs["folded"], me, 1)
        self.put_per_seat(out, self.to_respond, obs["to_respond"], me, 1)
        self.put_seats(flags, self.svara_players, obs["svara_players"], me)
        self.put_seats(flags, self.joined, obs["joined"], me)
        for blind in obs["blinds"]:
            self.put_value(out, self.blinds, blind["amount"], stack, self.rel(blind["seat"], me))
        self.put_per_seat(out, self.bets, obs["bets"], me, stack)
        self.put_per_seat(out, self.contributions, obs["contributions"], me, stack)
        self.put_per_seat(out, self.stacks, obs["stacks"], me, stack * self.players)
        numbers = self.numbers.start
        out[numbers : numbers + 8] = (
            float(obs["looked"]),
            float(obs["opened"]),
            float(obs["svara"] > 0),
            (obs["hand_value"] or 0) / 40,
            obs["pot"] / stack,
            obs["current_bet"] / stack,
            obs["min_raise"] / stack,
            (obs["svara_fee"] or 0) / stack,
        )


ENCODER = SvaraEncoder
