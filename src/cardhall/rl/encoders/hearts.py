"""The Hearts encoder (Cancellation Hearts with two decks, or ordinary Hearts with one): one seat's
observation as a fixed-size array (n = players, 3 to 11, relative to the observing seat; conventions in
:mod:`cardhall.rl.encoders.base`: with two decks a face held twice counts 1, once 0.5).

| field | size | meaning |
|---|---|---|
| `phase` | 5 | pass, play, moon, over, other |
| `pass_direction` | 5 | left, right, across, hold, other |
| `hand` | 52 | this seat's cards |
| `passing` | 52 | the cards this seat has chosen to pass so far (before the exchange) |
| `passed_cards` | 52 | the cards this seat passed (after the exchange) |
| `received_cards` | 52 | the cards this seat received (after the exchange) |
| `trick` | 52 n | the current trick: the cards each relative seat played to it |
| `played` | 52 n | this hand's closed tricks: the cards each relative seat played |
| `to_act` | n | the seats to act |
| `dealer` | n | who dealt this hand |
| `leader` | n | who leads (or led) the current trick |
| `passed_to` | n | who received this seat's pass |
| `received_from` | n | who passed to this seat |
| `widow_taker` | n | who has taken the (face-down) widow |
| `passes_chosen` | n | cards each seat has chosen to pass so far / 3 |
| `hand_sizes` | n | cards held / 26 |
| `trick_points` | n | points taken in tricks this hand / (26 x decks) |
| `scores` | n | running totals / target |
| `numbers` | 3 | hearts broken (0/1), widow size / 8, set-aside tricks / 4 |

Hearts counts penalty points (the lowest total wins), so its rewards are the negated score changes.
"""

from __future__ import annotations

from cardhall.core import Observation
from cardhall.games.hearts.rules import MOON, OVER, PLAY
from cardhall.rl.encoders.base import Array, Encoder

PHASES = ("pass", "play", "moon", "over")
DIRECTIONS = ("left", "right", "across", "hold")


class HeartsEncoder(Encoder):
    def _define(self) -> None:
        self.copies = int(self.game.option("decks"))
        self.phase = self._enum("phase", PHASES, "the phase")
        self.direction = self._enum("pass_direction", DIRECTIONS, "where the passes go this hand")
        self.hand = self._cards("hand", "this seat's cards")
        self.passing = self._cards("passing", "the cards this seat has chosen to pass so far")
        self.passed = self._cards("passed_cards", "the cards this seat passed (after the exchange)")
        self.received = self._cards("received_cards", "the cards this seat received (after the exchange)")
        self.trick = self._seat_cards("trick", "the current trick: the cards each seat played to it")
        self.played = self._seat_cards("played", "this hand's closed tricks: the cards each seat played")
        self.to_act = self._per_seat("to_act", "the seats to act")
        self.dealer = self._seat("dealer", "who dealt this hand")
        self.leader = self._seat("leader", "who leads (or led) the current trick")
        self.passed_to = self._seat("passed_to", "who received this seat's pass")
        self.received_from = self._seat("received_from", "who passed to this seat")
        self.widow_taker = self._seat("widow_taker", "who has taken the widow")
        self.passes_chosen = self._per_seat("passes_chosen", "cards each seat has chosen to pass / 3")
        self.hand_sizes = self._per_seat("hand_sizes", "cards held / 26")
        self.trick_points = self._per_seat("trick_points", "points taken in tricks this hand / (26 x decks)")
        self.scores = self._per_seat("scores", "running totals / target")
        self.numbers = self._add("numbers", 3, "hearts broken (0/1), widow size / 8, set-aside tricks / 4")

    def _fill(self, out: Array, cards: list[int], flags: list[int], obs: Observation, me: int) -> None:
        self.put_enum(flags, self.phase, PHASES, obs["phase"])
        self.put_enum(flags, self.direction, DIRECTIONS, obs["pass_direction"])
        self.put_cards(cards, self.hand, obs["hand"])
        self.put_cards(cards, self.passing, obs["passing"])
        self.put_cards(cards, self.passed, obs["passed_cards"])
        self.put_cards(cards, self.received, obs["received_cards"])
        self.put_plays(cards, self.trick, obs["trick"], me)
        for trick in obs["tricks"]:
            self.put_plays(cards, self.played, trick["cards"], me)
        self.put_seats(flags, self.to_act, obs["to_act"], me)
        self.put_seat(flags, self.dealer, obs["dealer"], me)
        self.put_seat(flags, self.leader, obs["leader"], me)
        self.put_seat(flags, self.passed_to, obs["passed_to"], me)
        self.put_seat(flags, self.received_from, obs["received_from"], me)
        self.put_seat(flags, self.widow_taker, obs["widow_taker"], me)
        self.put_per_seat(out, self.passes_chosen, obs["passes_chosen"], me, 3)
        self.put_per_seat(out, self.hand_sizes, obs["hand_sizes"], me, 26)
        self.put_per_seat(out, self.trick_points, obs["trick_points"], me, 26 * self.copies)
        self.put_per_seat(out, self.scores, obs["scores"], me, obs["target"])
        self.put_value(out, self.numbers, float(obs["hearts_broken"]))
        self.put_value(out, self.numbers, obs["widow_size"], 8, 1)
        self.put_value(out, self.numbers, obs["set_aside_tricks"], 4, 2)

    # --- display ---------------------------------------------------------------------------------

    def describe(self, observation: Observation) -> list[str]:
        """The table in a few lines, for ``render``."""
        o = observation
        lines = [
            f"Hand {o['hand_number']}, dealer seat {o['dealer']}, phase: {o['phase']}, "
            f"passing {o['pass_direction']}, hearts {'broken' if o['hearts_broken'] else 'not broken'}"
        ]
        if o["passing"]:
            lines.append("Chosen to pass: " + " ".join(o["passing"]))
        if o["passed_to"] is not None:
            lines.append(f"Passed to seat {o['passed_to']}: " + " ".join(o["passed_cards"]))
        if o["received_from"] is not None:
            lines.append(f"Received from seat {o['received_from']}: " + " ".join(o["received_cards"]))
        if o["phase"] in (PLAY, MOON, OVER) and o["tricks"]:
            last = o["tricks"][-1]
            shown = " ".join(f"{p['seat']}:{p['card']}" for p in last["cards"])
            who = "nobody (set aside)" if last["winner"] is None else f"seat {last['winner']}"
            lines.append(f"Last trick: {shown} -> {who}")
        if o["phase"] == PLAY:
            lines.append("Trick: " + (" ".join(f"{p['seat']}:{p['card']}" for p in o["trick"]) or "(empty)"))
            lines.append("Points taken: " + ", ".join(map(str, o["trick_points"])))
        if o["widow_size"]:
            taker = "not taken" if o["widow_taker"] is None else f"taken by seat {o['widow_taker']}"
            lines.append(f"Widow: {o['widow_size']} cards, {taker}")
        return lines


ENCODER = HeartsEncoder
