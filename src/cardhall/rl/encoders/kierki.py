"""The Kierki encoder: one seat's observation as a fixed-size array (n = 4 seats, relative to the
observing seat; conventions in :mod:`cardhall.rl.encoders.base`).

| field | size | meaning |
|---|---|---|
| `phase` | 5 | trump, play, lottery, over, other |
| `deal` | 12 | which of the 12 deals is in progress (1-7 negative, 8-11 trumps, 12 the lottery) |
| `hand` | 52 | this seat's cards (while trump is named: its first 5) |
| `trick` | 52 n | the current trick: the card each relative seat played to it |
| `played` | 52 n | this deal's closed tricks: the cards each relative seat played |
| `layout` | 52 | the lottery's layout: every card laid |
| `to_act` | n | the seats to act |
| `dealer` | n | who dealt this deal |
| `leader` | n | who leads (or led) the current trick |
| `trump_chooser` | n | who names trump in deals 8-11 |
| `trump` | 4 | the trump suit C, D, H, S (zeros if none) |
| `out` | n | the seats gone out in the lottery |
| `hand_sizes` | n | cards held / 13 |
| `tricks_won` | n | tricks taken this deal / 13 |
| `deal_points` | n | points made this deal / 500 |
| `scores` | n | running totals / 2000 |

Kierki's scores are points won (penalties are negative), so its rewards are the score changes as they are.
"""

from __future__ import annotations

from cardhall.cards import SUITS
from cardhall.core import Observation
from cardhall.games.kierki.rules import DEALS, LOTTERY, OVER, PLAY, TRUMP
from cardhall.rl.encoders.base import Array, Encoder

PHASES = ("trump", "play", "lottery", "over")


class KierkiEncoder(Encoder):
    def _define(self) -> None:
        self.phase = self._enum("phase", PHASES, "the phase")
        self.deal = self._add("deal", 12, "which of the 12 deals is in progress (one-hot)")
        self.hand = self._cards("hand", "this seat's cards")
        self.trick = self._seat_cards("trick", "the current trick: the card each seat played to it")
        self.played = self._seat_cards("played", "this deal's closed tricks: the cards each seat played")
        self.layout = self._cards("layout", "the lottery's layout: every card laid")
        self.to_act = self._per_seat("to_act", "the seats to act")
        self.dealer = self._seat("dealer", "who dealt this deal")
        self.leader = self._seat("leader", "who leads (or led) the current trick")
        self.trump_chooser = self._seat("trump_chooser", "who names trump in deals 8-11")
        self.trump = self._add("trump", 4, "the trump suit C, D, H, S (zeros if none)")
        self.out = self._per_seat("out", "the seats gone out in the lottery")
        self.hand_sizes = self._per_seat("hand_sizes", "cards held / 13")
        self.tricks_won = self._per_seat("tricks_won", "tricks taken this deal / 13")
        self.deal_points = self._per_seat("deal_points", "points made this deal / 500")
        self.scores = self._per_seat("scores", "running totals / 2000")

    def _fill(self, out: Array, cards: list[int], flags: list[int], obs: Observation, me: int) -> None:
        self.put_enum(flags, self.phase, PHASES, obs["phase"])
        flags.append(self.deal.start + obs["deal_number"] - 1)
        self.put_cards(cards, self.hand, obs["hand"])
        self.put_plays(cards, self.trick, obs["trick"], me)
        for trick in obs["tricks"]:
            self.put_plays(cards, self.played, trick["cards"], me)
        for row in obs["layout"]:
            if row is not None:
                self.put_cards(cards, self.layout, range(row["low"], row["high"] + 1))
        self.put_seats(flags, self.to_act, obs["to_act"], me)
        self.put_seat(flags, self.dealer, obs["dealer"], me)
        self.put_seat(flags, self.leader, obs["leader"], me)
        self.put_seat(flags, self.trump_chooser, obs["trump_chooser"], me)
        self.put_suit(flags, self.trump, obs["trump"])
        self.put_seats(flags, self.out, obs["out"], me)
        self.put_per_seat(out, self.hand_sizes, obs["hand_sizes"], me, 13)
        self.put_per_seat(out, self.tricks_won, obs["tricks_won"], me, 13)
        self.put_per_seat(out, self.deal_points, obs["deal_points"], me, 500)
        self.put_per_seat(out, self.scores, obs["scores"], me, 2000)

    # --- display ---------------------------------------------------------------------------------

    def describe(self, observation: Observation) -> list[str]:
        """The table in a few lines, for ``render``."""
        o = observation
        if o["phase"] == OVER:
            lines = ["The match is over."]
        else:
            lines = [
                f"Deal {o['deal_number']} of {DEALS}: {o['deal_name']} ({o['deal_rule']}); "
                f"dealer seat {o['dealer']}"
            ]
        if o["phase"] == TRUMP:
            lines.append(f"Seat {o['trump_chooser']} names trump after seeing 5 cards")
        if o["phase"] == PLAY:
            if o["trump"]:
                lines.append(f"Trump: {o['trump']} (named by seat {o['trump_chooser']})")
            lines.append("Tricks taken: " + ", ".join(map(str, o["tricks_won"])))
            lines.append("Points this deal: " + ", ".join(map(str, o["deal_points"])))
            if o["tricks"]:
                last = o["tricks"][-1]
                shown = " ".join(f"{p['seat']}:{p['card']}" for p in last["cards"])
                lines.append(f"Last trick: {shown} -> seat {last['winner']} ({last['points']})")
            lines.append("Trick: " + (" ".join(f"{p['seat']}:{p['card']}" for p in o["trick"]) or "(empty)"))
        if o["phase"] == LOTTERY:
            rows = []
            for suit, row in zip(SUITS, o["layout"], strict=True):
                rows.append(f"{suit}: {row['low']}..{row['high']}" if row else f"{suit}: -")
            lines.append("Layout: " + "  ".join(rows))
            lines.append("Cards left: " + ", ".join(map(str, o["hand_sizes"])))
            if o["out"]:
                lines.append("Out: " + ", ".join(f"seat {s}" for s in o["out"]))
        if o["score_sheet"]:
            last_row = o["score_sheet"][-1]
            lines.append(f"Deal {last_row['deal']} ({last_row['name']}) scored: {last_row['points']}")
        return lines


ENCODER = KierkiEncoder
