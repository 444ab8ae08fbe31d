"""The Hokm encoder: one seat's observation as a fixed-size array (n = 3 seats, relative to the
observing seat; conventions in :mod:`cardhall.rl.encoders.base`).

| field | size | meaning |
|---|---|---|
| `phase` | 5 | bidding, trump, play, over, other |
| `hand` | 52 | this seat's cards |
| `trick` | 52 n | the current trick: the card each relative seat played to it |
| `played` | 52 n | this hand's closed tricks: the cards each relative seat played |
| `to_act` | n | the seats to act |
| `dealer` | n | who dealt this hand |
| `leader` | n | who leads (or led) the current trick |
| `declarer` | n | who names trump (zeros while bidding) |
| `trump` | 4 | the trump suit C, D, H, S (zeros until named) |
| `bids` | n | each seat's contract / 10 (0: not announced yet) |
| `tricks_won` | n | tricks taken this hand / 10 |
| `scores` | n | running totals / target |
"""

from __future__ import annotations

from cardhall.core import Observation
from cardhall.rl.encoders.base import Array, Encoder

PHASES = ("bidding", "trump", "play", "over")


class HokmEncoder(Encoder):
    def _define(self) -> None:
        self.phase = self._enum("phase", PHASES, "the phase")
        self.hand = self._cards("hand", "this seat's cards")
        self.trick = self._seat_cards("trick", "the current trick: the card each seat played to it")
        self.played = self._seat_cards("played", "this hand's closed tricks: the cards each seat played")
        self.to_act = self._per_seat("to_act", "the seats to act")
        self.dealer = self._seat("dealer", "who dealt this hand")
        self.leader = self._seat("leader", "who leads (or led) the current trick")
        self.declarer = self._seat("declarer", "who names trump")
        self.trump = self._add("trump", 4, "the trump suit C, D, H, S (zeros until named)")
        self.bids = self._per_seat("bids", "each seat's contract / 10 (0: not announced yet)")
        self.tricks_won = self._per_seat("tricks_won", "tricks taken this hand / 10")
        self.scores = self._per_seat("scores", "running totals / target")

    def _fill(self, out: Array, cards: list[int], flags: list[int], obs: Observation, me: int) -> None:
        self.put_enum(flags, self.phase, PHASES, obs["phase"])
        self.put_cards(cards, self.hand, obs["hand"])
        self.put_plays(cards, self.trick, obs["trick"], me)
        for trick in obs["tricks"]:
            self.put_plays(cards, self.played, trick["cards"], me)
        self.put_seats(flags, self.to_act, obs["to_act"], me)
        self.put_seat(flags, self.dealer, obs["dealer"], me)
        self.put_seat(flags, self.leader, obs["leader"], me)
        self.put_seat(flags, self.declarer, obs["declarer"], me)
        self.put_suit(flags, self.trump, obs["trump"])
        for bid in obs["bids"]:
            self.put_value(out, self.bids, bid["contract"], 10, self.rel(bid["seat"], me))
        self.put_per_seat(out, self.tricks_won, obs["tricks_won"], me, 10)
        self.put_per_seat(out, self.scores, obs["scores"], me, obs["target"])


ENCODER = HokmEncoder
