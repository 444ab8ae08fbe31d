"""Svara (Svarka): 2-8 players, 32 cards, three cards each, chips, blind bets and the svara replay.

Rules: ``rulebook.en.md`` (beside it). Hand values live in :mod:`cardhall.games.svara.hands`;
:func:`hand_value` is re-exported here. Choices this module makes where the rules leave room:

- Seats are numbered in the order of play: seat ``s + 1`` is on ``s``'s left and acts after ``s``. The
  first dealer is drawn from the seed; the deal passes to the next seat that can pay the ante. Cards are
  dealt one at a time, three rounds, starting left of the dealer, to the players in the deal only.
- ``state.scores`` are the chip stacks. A player whose stack is below the ante sits the deal out. The match
  ends when fewer than two players can pay the ante (in particular when one holds all the chips) or after
  ``max_deals`` deals (0 = no limit); a deal counts once with all the svaras it causes, which are always
  played out. Winners: the largest stack(s). ``max_deals`` is 20 by default (rules version 3): the rules
  of record play until one player holds every chip, which took rules bots 660 to 4,017 deals (ten
  four-player matches) and would take people hours; 20 deals are some ten minutes at a table, the
  length of a match of the other games.
- Blind round: nobody has looked. Starting left of the dealer each player in turn may ``blind X`` (at least
  ``min_blind`` antes for the first blind, at least double the previous blind after that) or ``look``.
  ``look`` ends the blind round. Each player bets blind at most once: when the turn comes back to a player
  who already bet blind, the blind round ends too. When the blind round ends every player looks at his
  cards (before that a player's own cards are hidden from him as well).
- Open round: starts with the player after the last blind bettor (the one who said ``look``, or the first
  blind bettor when everybody bet blind). While nobody has bet over the blinds, a player who did not bet
  blind must raise by at least the last blind (to double it) or fold; a blind bettor may also call (pay up
  to the current bet). Afterwards each player may fold, call, raise by at least the previous raise (and at
  least one ante), or check when he owes nothing. With no blinds the first bet is ``bet X`` (at least one
  ante). Fold is offered only when a player owes chips. The last blind bettor has acted with his blind:
  when everybody else still in has paid up to it (or is all in), the round ends in a showdown without
  another turn for him; only an increase of the highest bet gives him one. ``blind_option=true`` (off by
  default, not in the rules of record) gives him that turn anyway, to check or raise, as a poker big blind.
- Any increase of the highest bet (also an all-in short of a full raise) gives every other player with
  chips another turn; only a full raise sets the new minimum raise. The round ends when all who can act
  have acted since the last increase. When at most one player with chips remains and he owes nothing, the
  betting stops. When fewer than two players of a deal have chips there is no betting at all.
- Nobody bets (no blind, everybody checks) in an ordinary deal: the dealer takes the pot. In a svara deal
  the players show down instead (the pot is theirs, not the dealer's).
- All-in: ``all in`` puts in the whole stack and is always offered to a player with chips; amount actions
  only list amounts that leave chips behind. Side pots are formed from the players' contributions to the
  deal (antes included); each pot goes to the best hand among the players in it; chips nobody else could
  match come back to their owner as a pot of his own.
- Svara: a pot whose best hand is tied becomes a svara for the tied players; pots with the same tied
  players make one svara; several svaras are played one after another. The same dealer deals. Joiners
  (``svara_join=anyone``): every other player with chips enough, asked in turn from the dealer's left, may
  ``join svara`` by paying the fee, ``svara_fee=share``: pot / number of tied players, or ``half_pot``: pot /
  2, rounded up to a whole chip; he cannot join for less. Tied players with no chips left play the svara
  all in. A svara deal has no antes and otherwise plays like any deal.
- Hidden cards: a player's own cards after he looked; the contenders' cards at a showdown, shown until the
  next deal is dealt (during the svara join round and at the end of the match). Folded cards are never
  shown. The deal log keeps every past showdown: the contenders' cards, hand values and payouts (those
  cards are back in the deck, so the log is about finished deals only).
- The observation also names the public betting state a search bot needs to rebuild the deal
  (``to_respond``: who still has to act since the last increase, ``opened``, ``join_order``), so
  ``Svara.sample_state`` works from the observation alone (an opponent model, such as the search bot's
  in ``bots/rules_svara.py``, may deal some hands first). ``observation(seat, ints=True)`` holds the
  same data with every card (the hand, the showdown, the deal log's shown hands) and every action
  (``actions``) as its int.
- Events (while a Table listens; ``schema.json`` (beside it) has every field): ``deal`` when an ordinary
  deal is dealt (``deal``, 1-based, svaras are not new deals; ``dealer``, ``ante``, ``min_blind``,
  ``players``, ``pot``, ``stacks``; ``hand`` is null publicly and ``[]`` privately for each player dealt
  in: his cards lie face down); ``looked`` when the blind round ends and the players see their cards
  (``hand`` and ``hand_value`` private to each); ``showdown`` (the contenders' ``hands`` with their
  values, each ``pot`` with its amount, ``eligible`` players, ``winner`` or the ``tied`` players);
  ``pot_won`` when a round ends without a showdown (everybody else folded, or nobody bet and the dealer
  takes the pot); ``svara`` when a tie is to be replayed (``pot``, ``players`` tied, ``fee``,
  ``may_join`` in the order they are asked) and ``svara_deal`` when its cards are dealt;
  ``deal_scored`` once per deal after all of its svaras (``points`` and ``totals`` per seat, ``won``
  and ``paid`` per seat, and every round of the deal); ``busted`` after it for players who can no
  longer pay the ante. Folded cards appear in no event.
- Actions (dense ints): 0 fold, 1 check, 2 call, 3 all in, 4 look, 5 join svara, 6 pass svara, then
  ``blind X``, ``bet X`` and ``raise X`` (raise BY X over the highest bet) for X = 1..K antes, where
  K = players x stack // ante (no bet can be larger). ``stack`` may be at most 500 antes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final, Self

from cardhall.cards import Card, cards_of, format_card, mask_of, sort_for_display
from cardhall.core import Action, Game, Observation, Seat, State, derived_rng
from cardhall.errors import InvalidOptionError
from cardhall.games._deal import deal_constrained, shuffle_deck
from cardhall.games.svara.hands import DECK, DECK_MASK, JOKER_MODES, VALUES, hand_value
from cardhall.options import Option

__all__ = ["Svara", "SvaraState", "hand_value"]

FOLD, CHECK, CALL, ALL_IN, LOOK, JOIN, PASS = range(7)
SIMPLE_LABELS: Final = ("fold", "check", "call", "all in", "look", "join svara", "pass svara")
BLIND_BASE: Final = len(SIMPLE_LABELS)
# Each simple action's kind in ``action_info`` (``pass svara`` declines a svara: kind "decline").
SIMPLE_KINDS: Final = ("fold", "check", "call", "all_in", "look", "join", "decline")
MAX_STACK_IN_ANTES: Final = 500

BLIND, OPEN, JOINING, OVER = "blind", "open", "svara join", "over"
BIT: Final = tuple(1 << c for c in range(52))

# An opponent model for ``Svara.sample_state``: given a seat's observation, the seats whose cards it
# cannot know, the cards it knows (a mask) and the RNG, the hands (masks) it deals some of those seats.
HandPrior = Callable[[Observation, list[int], int, random.Random], dict[int, int]]

# A hand (a bitmask) in display order, as ints and as labels, memoised: there are 4,960 hands.
_HAND_CARDS: Final[dict[int, tuple[int, ...]]] = {}
_HAND_LABELS: Final[dict[int, tuple[str, ...]]] = {}


def hand_cards(mask: int) -> list[int]:
    """The cards of a hand (a bitmask) in display order."""
    cards = _HAND_CARDS.get(mask)
    if cards is None:
        cards = _HAND_CARDS[mask] = tuple(sort_for_display(cards_of(mask)))
    return list(cards)


def hand_labels(mask: int) -> list[str]:
    """The labels of a hand (a bitmask) in display order."""
    labels = _HAND_LABELS.get(mask)
    if labels is None:
        labels = _HAND_LABELS[mask] = tuple(format_card(c) for c in hand_cards(mask))
    return list(labels)


def text_row(row: dict[str, Any]) -> dict[str, Any]:
    """A deal-log row with its shown cards as labels (a row without a showdown is the same row)."""
    if not row["shown"]:
        return row
    shown = [{**r, "cards": [format_card(c) for c in r["cards"]]} for r in row["shown"]]
    return {**row, "shown": shown}


class Svara(Game):
    name = "svara"
    title = "Svara"
    rules_version = "3"  # 3: a match is 20 deals by default (max_deals; issue 24)
    min_players = 2
    max_players = 8
    option_spec = (
        Option("players", 4, "number of players", None, 2, 8),
        Option("ante", 10, "chips each player pays into the pot before a deal", None, 1, 10_000),
        Option("stack", 1000, "chips each player starts with (at most 500 antes)", None, 1, 5_000_000),
        Option("min_blind", 1, "smallest first blind bet, in antes", None, 1, 10),
        Option("max_deals", 20, "end the match after this many deals (0 = no limit)", None, 0),
        Option(
            "svara_join", "anyone", "anyone: others may join a svara for the fee; none", ("anyone", "none")
        ),
        Option("svara_fee", "share", "share: pot / tied players; half_pot: pot / 2", ("share", "half_pot")),
        Option("joker", "standard", "standard: 7C worth 11; substitute: 7C stands for any card", JOKER_MODES),
        Option("blind_option", False, "the last blind bettor, his blind met, may still check or raise"),
    )

    def _configure(self) -> None:
        ante = int(self.options["ante"])
        stack = int(self.options["stack"])
        if stack < ante:
            raise InvalidOptionError(f"{self}: stack={stack} is less than the ante {ante}; nobody could play")
        if stack > MAX_STACK_IN_ANTES * ante:
            raise InvalidOptionError(
                f"{self}: stack={stack} is more than {MAX_STACK_IN_ANTES} antes of {ante}; "
                "raise the ante or lower the stack"
            )
        self.players = int(self.options["players"])
        self.ante = ante
        self.stack = stack
        self.units = self.players * stack // ante
        self.values = VALUES[str(self.options["joker"])]
        self.blind_option = bool(self.options["blind_option"])
        self.bet_base = BLIND_BASE + self.units
        self.raise_base = self.bet_base + self.units
        n = self.players
        # orders[s]: every seat clockwise starting after s.
        self.orders = tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))
        # Every action's label, and every action as itself: the observation picks one of the two.
        self.labels: tuple[str, ...] = tuple(self._action_label(a) for a in range(self.num_distinct_actions))
        self.action_ints: tuple[int, ...] = tuple(range(self.num_distinct_actions))
        self.game_string = str(self)  # every observation names the game

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def num_distinct_actions(self) -> int:
        return BLIND_BASE + 3 * self.units

    def deck(self) -> list[Card]:
        return list(DECK)

    def _blank_state(self, seed: int) -> SvaraState:
        return SvaraState(self, seed)

    def blind(self, amount: int) -> int:
        """The action ``blind amount`` (chips, a multiple of the ante)."""
        return BLIND_BASE + amount // self.ante - 1

    def bet(self, amount: int) -> int:
        return self.bet_base + amount // self.ante - 1

    def raise_by(self, amount: int) -> int:
        return self.raise_base + amount // self.ante - 1

    def _action_label(self, action: Action) -> str:
        if action < BLIND_BASE:
            return SIMPLE_LABELS[action]
        family, unit = divmod(action - BLIND_BASE, self.units)
        return f"{('blind', 'bet', 'raise')[family]} {(unit + 1) * self.ante}"

    def _action_info(self, action: Action) -> dict[str, Any]:
        if action < BLIND_BASE:
            return {"kind": SIMPLE_KINDS[action]}
        family, unit = divmod(action - BLIND_BASE, self.units)
        return {"kind": ("blind", "bet", "raise")[family], "amount": (unit + 1) * self.ante}

    def _parse_action(self, words: list[str]) -> int | None:
        text = " ".join(words)
        aliases = {"allin": ALL_IN, "all-in": ALL_IN, "join": JOIN, "pass": PASS, "decline svara": PASS}
        if text in SIMPLE_LABELS:
            return SIMPLE_LABELS.index(text)
        if text in aliases:
            return aliases[text]
        if len(words) == 2 and words[0] in ("blind", "bet", "raise") and words[1].isdigit():
            amount = int(words[1])
            if amount <= 0 or amount % self.ante or amount // self.ante > self.units:
                return None
            family = ("blind", "bet", "raise").index(words[0])
            return BLIND_BASE + family * self.units + amount // self.ante - 1
        return None

    def _action_examples(self) -> str:
        return f"'call', 'fold', 'look', 'blind {self.ante}', 'raise {2 * self.ante}', 'all in', 'join svara'"

    def describe(self, observation: Observation) -> list[str]:
        o = observation
        kind = f" (svara {o['svara']})" if o["svara"] else ""
        lines = [f"Deal {o['deal_number']}{kind}, dealer seat {o['dealer']}, phase: {o['phase']}"]
        lines.append(f"Pot {o['pot']}; stacks " + ", ".join(f"{s}:{c}" for s, c in enumerate(o["stacks"])))
        if o["pending_svaras"]:
            lines.append(
                "Svaras waiting: " + "; ".join(f"{v['pot']} for {v['players']}" for v in o["pending_svaras"])
            )
        if o["phase"] == JOINING:
            lines.append(f"Svara for {o['svara_players']}, join fee {o['svara_fee']}")
        bets = [
            f"{s}:{b}{' (folded)' if f else ''}"
            for s, (b, f) in enumerate(zip(o["bets"], o["folded"], strict=True))
            if o["in_deal"][s]
        ]
        lines.append("Bets: " + ", ".join(bets) + f"; highest {o['current_bet']}")
        if o["hand_value"] is not None:
            lines.append(f"Your hand is worth {o['hand_value']}")
        elif o["phase"] == BLIND:
            lines.append("You have not looked at your cards")
        for row in o["showdown"]:
            lines.append(f"Seat {row['seat']} shows {' '.join(row['cards'])} = {row['value']}")
        if o["deal_log"]:
            last = o["deal_log"][-1]
            won = ", ".join(f"seat {w['seat']} +{w['amount']}" for w in last["won"]) or "nothing paid"
            lines.append(f"Last deal: {last['ended']}; {won}")
        return lines

    # --- search ------------------------------------------------------------------------------

    def sample_state(
        self, observation: Observation, rng: random.Random, prior: HandPrior | None = None
    ) -> SvaraState:
        """A state the observing seat cannot tell from the real one, built from its observation alone
        (in the bots' form, ``ints=True``).

        The stacks, pots, waiting svaras, the deal log and the betting of the deal in hand are copied
        from the observation; the seat's own cards (once looked) and the cards shown at a showdown are
        kept, every other hand is dealt at random from the unseen cards, and future deals come from a
        fresh seed. ``prior`` (an opponent model: the search bot's, see ``bots/rules_svara.py``) may
        deal some of the unknown hands first, as it likes. The history of the sampled state is empty.
        """
        o = observation
        seat = o["seat"]
        n = self.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"{self}: sample_state needs one seat's observation, got seat {seat!r}")
        st = SvaraState(self, rng.randrange(2**63))
        phase = o["phase"]
        st.phase = phase
        st.actor = o["to_act"][0] if o["to_act"] else -1
        st.stacks = list(o["stacks"])
        st.dealer = o["dealer"]
        st.deals_done = o["deal_number"] - (0 if phase == OVER else 1)
        st.svara_round = o["svara"]
        st.deal_index = st.deals_done + st.svara_round + 1
        st.queue = [(v["pot"], tuple(v["players"])) for v in o["pending_svaras"]]
        st.log = list(o["deal_log"])
        st.log_text = None  # made from the log if a text observation asks for it
        st.looked = o["looked"]
        st.winners_ = tuple(o["winners"])
        st.in_deal = list(o["in_deal"])
        st.folded = list(o["folded"])
        st.bets = list(o["bets"])
        st.contrib = list(o["contributions"])
        st.pending = list(o["to_respond"])
        st.carried = o["pot"] - sum(st.contrib)
        st.current = o["current_bet"]
        st.min_raise = o["min_raise"]
        st.blinds = [(b["seat"], b["amount"]) for b in o["blinds"]]
        st.blinded = [False] * n
        for s, _ in st.blinds:
            st.blinded[s] = True
        st.last_blind = st.blinds[-1][1] if st.blinds else 0
        st.opened = o["opened"]
        st.no_betting = False
        st.fee = o["svara_fee"] or 0
        st.svara_players = tuple(o["svara_players"])
        st.join_order = list(o["join_order"])
        st.joined = list(o["joined"])
        st.deal_actions = [(a["seat"], a["action"]) for a in o["actions"]]
        # Cards: who holds a hand now (the last deal's players once it is settled), what is seen.
        if phase in (JOINING, OVER):
            holders = list(o["deal_log"][-1]["players"]) if o["deal_log"] else []
        else:
            holders = [s for s in range(n) if st.in_deal[s]]
        hands = [0] * n
        st.shown = []
        revealed = 0
        for row in o["showdown"]:
            hands[row["seat"]] = mask_of(row["cards"])
            revealed |= hands[row["seat"]]
            st.shown.append((row["seat"], row["value"]))
        st.revealed = revealed
        if o["hand"]:
            hands[seat] = mask_of(o["hand"])
        known = revealed | hands[seat]
        blind = [s for s in holders if not hands[s]]
        if prior is not None:
            for s, hand in prior(o, blind, known, rng).items():
                if s not in blind or hand & known or hand.bit_count() != 3:
                    raise ValueError(f"{self}: a prior dealt seat {s} an impossible hand {cards_of(hand)}")
                hands[s] = hand
                known |= hand
                blind.remove(s)
        unseen = cards_of(DECK_MASK & ~known)
        sizes = [3] * len(blind)
        sizes.append(len(unseen) - 3 * len(blind))
        piles = deal_constrained(unseen, sizes, [0] * len(sizes), rng)
        for s, pile in zip(blind, piles, strict=False):
            hands[s] = mask_of(pile)
        st.hands = hands
        st.stock = mask_of(piles[-1])
        return st


class SvaraState(State):
    ruleset: Svara

    def __init__(self, game: Svara, seed: int) -> None:
        """A blank match, not dealt: :meth:`start` deals it (``clone`` and ``sample_state`` fill the
        state in instead)."""
        super().__init__(game, seed)
        self.ruleset = game

    def start(self, deck: list[int] | None) -> None:
        self.stacked_deck = deck
        game = self.ruleset
        n = game.players
        self.stacks = [game.stack] * n
        self.dealer = derived_rng(self.seed, "first dealer").randrange(n)
        self.deal_index = 0  # physical deals so far, svaras included (the key of each deal's RNG)
        self.deals_done = 0  # finished deals, svaras not counted
        self.svara_round = 0  # 0 in an ordinary deal, k in the k-th svara of a deal
        self.queue: list[tuple[int, tuple[int, ...]]] = []  # svaras waiting: (pot, tied players)
        # The deal log, cards as ints; the same rows with cards as labels (None in a sampled state:
        # made from the log when a text observation asks for it).
        self.log: list[dict[str, Any]] = []
        self.log_text: list[dict[str, Any]] | None = []
        self.hands = [0] * n
        self.stock = DECK_MASK
        self.revealed = 0
        self.shown: list[tuple[int, int]] = []
        self.looked = False
        self.phase = BLIND
        self.actor = -1
        self._reset_deal()
        self._start_ordinary_deal()

    # --- deal flow ---------------------------------------------------------------------------

    def _reset_deal(self) -> None:
        n = self.ruleset.players
        self.in_deal = [False] * n
        self.folded = [False] * n
        self.bets = [0] * n
        self.contrib = [0] * n
        self.blinded = [False] * n
        self.pending = [False] * n
        self.carried = 0
        self.current = 0
        self.min_raise = self.ruleset.ante
        self.last_blind = 0
        self.blinds: list[tuple[int, int]] = []
        self.opened = False
        self.no_betting = False
        self.fee = 0
        self.svara_players: tuple[int, ...] = ()
        self.join_order: list[int] = []
        self.joined: list[int] = []
        self.deal_actions: list[tuple[int, int]] = []

    def _order(self, after: int) -> tuple[int, ...]:
        """All seats clockwise starting after ``after``."""
        return self.ruleset.orders[after % self.ruleset.players]

    def _start_ordinary_deal(self) -> None:
        self._reset_deal()
        self.svara_round = 0
        ante = self.ruleset.ante
        for s in range(self.ruleset.players):
            if self.stacks[s] >= ante:
                self.in_deal[s] = True
                self.stacks[s] -= ante
                self.contrib[s] = ante
        self._deal_cards()

    def _deal_cards(self) -> None:
        if self.deal_index == 0 and self.stacked_deck is not None:
            deck = list(self.stacked_deck)
        else:
            deck = list(DECK)
            shuffle_deck(deck, derived_rng(self.seed, "deal", self.deal_index))
        self.deal_index += 1
        in_deal = self.in_deal
        order = [s for s in self.ruleset.orders[self.dealer] if in_deal[s]]
        hands = [0] * self.ruleset.players
        k = len(order)
        for i, s in enumerate(order):
            hands[s] = BIT[deck[i]] | BIT[deck[i + k]] | BIT[deck[i + 2 * k]]
        self.hands = hands
        stock = 0
        for c in deck[3 * k :]:
            stock |= BIT[c]
        self.stock = stock
        self.revealed = 0
        self.shown = []
        self.looked = False
        self.phase = BLIND
        if self.events is not None:
            self._emit_deal(order)
        live_with_chips = [s for s in order if self.stacks[s] > 0]
        if len(live_with_chips) < 2:
            self.no_betting = True
            self.looked = True
            if self.events is not None:
                self._emit_looked()
            self._showdown()
            return
        self.actor = live_with_chips[0]

    def _can_act(self, s: int) -> bool:
        return self.in_deal[s] and not self.folded[s] and self.stacks[s] > 0

    def _blind_required(self) -> int:
        first = self.ruleset.ante * int(self.game.options["min_blind"])
        return max(first, 2 * self.last_blind) if self.blinds else first

    def _start_open(self, first: int) -> None:
        self.phase = OPEN
        self.looked = True
        if self.events is not None:
            self._emit_looked()
        in_deal, folded, stacks = self.in_deal, self.folded, self.stacks
        self.pending = [in_deal[s] and not folded[s] and stacks[s] > 0 for s in range(self.ruleset.players)]
        if self.blinds and not self.ruleset.blind_option:
            # The last blind bettor has acted: he gets another turn only if somebody raises.
            self.pending[self.blinds[-1][0]] = False
        self.opened = False
        self.min_raise = self.last_blind if self.blinds else self.ruleset.ante
        self._next_actor(first, inclusive=True)

    def _next_actor(self, start: int, inclusive: bool) -> None:
        game = self.ruleset
        n = game.players
        in_deal, folded, stacks = self.in_deal, self.folded, self.stacks
        live = [s for s in range(n) if in_deal[s] and not folded[s]]
        if len(live) == 1:
            self._take_all(live[0], "uncontested")
            return
        with_chips = 0
        for s in live:
            if stacks[s]:
                with_chips += 1
        pending = self.pending
        for s in game.orders[(start - 1) % n if inclusive else start]:
            if pending[s]:
                if with_chips <= 1 and self.bets[s] >= self.current:
                    break
                self.actor = s
                return
        self._end_betting()

    def _end_betting(self) -> None:
        if self.svara_round == 0 and not self.blinds and self.current == 0 and not self.no_betting:
            self._take_all(self.dealer, "dealer")
        else:
            self._showdown()

    def _put(self, seat: Seat, amount: int) -> None:
        self.stacks[seat] -= amount
        self.bets[seat] += amount
        self.contrib[seat] += amount

    def _raised(self, seat: Seat) -> None:
        in_deal, folded, stacks = self.in_deal, self.folded, self.stacks
        self.pending = [
            s != seat and in_deal[s] and not folded[s] and stacks[s] > 0 for s in range(self.ruleset.players)
        ]

    # --- settling ----------------------------------------------------------------------------

    def _pot(self) -> int:
        return self.carried + sum(self.contrib)

    def _take_all(self, seat: Seat, ended: str) -> None:
        amount = self._pot()
        self.stacks[seat] += amount
        if self.events is not None:
            self._emit(
                {
                    "type": "pot_won",
                    "deal": self.deals_done + 1,
                    "svara": self.svara_round,
                    "seat": seat,
                    "amount": amount,
                    "ended": ended,
                    "stacks": list(self.stacks),
                }
            )
        self._log(ended, [], [(seat, amount)], [])
        self._after_deal()

    def _showdown(self) -> None:
        n = self.ruleset.players
        values = self.ruleset.values
        live = [s for s in range(n) if self.in_deal[s] and not self.folded[s]]
        value = {s: values[self.hands[s]] for s in live}
        self.shown = [(s, value[s]) for s in live]
        revealed = 0
        for s in live:
            revealed |= self.hands[s]
        self.revealed = revealed
        stacks = self.stacks
        if all(stacks[s] for s in live):
            # Nobody is all in: one pot for the best hand (the common case, settled directly).
            best = max(value.values())
            tied = tuple(s for s in live if value[s] == best)
            amount = self._pot()
            if amount and len(tied) == 1:
                stacks[tied[0]] += amount
            if self.events is not None:
                self._emit_showdown([(amount, live, tied)] if amount else [])
            if not amount:
                self._log("showdown", self.shown, [], [])
            elif len(tied) == 1:
                self._log("showdown", self.shown, [(tied[0], amount)], [])
            else:
                self.queue.append((amount, tied))
                self._log("showdown", self.shown, [], [(amount, tied)])
            self._after_deal()
            return
        levels = sorted(
            {self.contrib[s] for s in live if self.stacks[s] == 0} | {max(self.contrib[s] for s in live)}
        )
        pots: list[list[Any]] = []
        prev = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, prev) for c in self.contrib)
            pots.append([amount, [s for s in live if self.contrib[s] >= level]])
            prev = level
        pots[0][0] += self.carried
        pots[-1][0] += self._pot() - sum(p[0] for p in pots)
        won: dict[int, int] = {}
        svaras: dict[tuple[int, ...], int] = {}
        settled: list[tuple[int, list[int], tuple[int, ...]]] = []
        for amount, eligible in pots:
            if amount == 0:
                continue
            best = max(value[s] for s in eligible)
            tied = tuple(s for s in eligible if value[s] == best)
            settled.append((amount, eligible, tied))
            if len(tied) == 1:
                won[tied[0]] = won.get(tied[0], 0) + amount
                self.stacks[tied[0]] += amount
            else:
                svaras[tied] = svaras.get(tied, 0) + amount
        if self.events is not None:
            self._emit_showdown(settled)
        new_svaras = [(amount, tied) for tied, amount in svaras.items()]
        self.queue.extend(new_svaras)
        self._log("showdown", self.shown, sorted(won.items()), new_svaras)
        self._after_deal()

    def _log(
        self,
        ended: str,
        shown: list[tuple[int, int]],
        won: list[tuple[int, int]],
        svaras: list[tuple[int, tuple[int, ...]]],
    ) -> None:
        row = {
            "deal": self.deals_done + 1,
            "svara": self.svara_round,
            "dealer": self.dealer,
            "players": [s for s in range(self.ruleset.players) if self.in_deal[s]],
            "joined": list(self.joined),
            "pot": self._pot(),
            "ended": ended,
            "shown": [{"seat": s, "value": v, "cards": hand_cards(self.hands[s])} for s, v in shown],
            "won": [{"seat": s, "amount": a} for s, a in won],
            "svaras": [{"pot": a, "players": list(t)} for a, t in svaras],
            "stacks": list(self.stacks),
        }
        self.log.append(row)
        if self.log_text is not None:
            self.log_text.append(text_row(row))
        self.contrib = [0] * self.ruleset.players
        self.carried = 0

    def _after_deal(self) -> None:
        if self.queue:
            self._start_svara()
            return
        if self.events is not None:
            self._emit_deal_scored()
        self.deals_done += 1
        ante = self.ruleset.ante
        able = [s for s in range(self.ruleset.players) if self.stacks[s] >= ante]
        max_deals = int(self.game.options["max_deals"])
        if len(able) < 2 or (max_deals and self.deals_done >= max_deals):
            self.phase = OVER
            self.actor = -1
            top = max(self.stacks)
            self.winners_ = tuple(s for s in range(self.ruleset.players) if self.stacks[s] == top)
            return
        self.dealer = next(s for s in self._order(self.dealer) if self.stacks[s] >= ante)
        self._start_ordinary_deal()

    def _start_svara(self) -> None:
        amount, tied = self.queue.pop(0)
        shown, revealed, looked, hands = self.shown, self.revealed, self.looked, self.hands
        self._reset_deal()
        # The cards of the tied deal stay on the table until the svara is dealt.
        self.shown, self.revealed, self.looked, self.hands = shown, revealed, looked, hands
        self.svara_round += 1
        self.svara_players = tied
        for s in tied:
            self.in_deal[s] = True
        self.carried = amount
        share = len(tied) if self.game.options["svara_fee"] == "share" else 2
        self.fee = -(-amount // share)
        if self.game.options["svara_join"] == "anyone":
            self.join_order = [
                s for s in self._order(self.dealer) if s not in tied and self.stacks[s] >= max(self.fee, 1)
            ]
        if self.events is not None:
            self._emit(
                {
                    "type": "svara",
                    "deal": self.deals_done + 1,
                    "svara": self.svara_round,
                    "pot": amount,
                    "players": list(tied),
                    "fee": self.fee,
                    "may_join": list(self.join_order),
                }
            )
        if self.join_order:
            self.phase = JOINING
            self.actor = self.join_order[0]
        else:
            self._deal_cards()

    # --- events (only while a Table listens: callers check ``self.events is not None``) -------

    def _emit_deal(self, order: list[int]) -> None:
        """``deal`` (an ordinary deal) or ``svara_deal``: the cards are dealt face down, so each player
        dealt in sees no card of his own yet."""
        game = self.ruleset
        public: dict[str, Any]
        if self.svara_round:
            public = {"type": "svara_deal", "deal": self.deals_done + 1, "dealer": self.dealer}
            public.update(svara=self.svara_round, joined=list(self.joined))
        else:
            public = {"type": "deal", "deal": self.deals_done + 1, "dealer": self.dealer}
            public.update(ante=game.ante, min_blind=game.ante * int(game.options["min_blind"]))
        public.update(players=sorted(order), pot=self._pot(), stacks=list(self.stacks), hand=None)
        self._emit(public, {s: {"hand": []} for s in order})

    def _emit_looked(self) -> None:
        """``looked``: the blind round is over and every player in the deal sees his own cards."""
        values = self.ruleset.values
        players = [s for s in range(self.ruleset.players) if self.in_deal[s] and not self.folded[s]]
        private = {
            s: {"hand": hand_labels(self.hands[s]), "hand_value": values[self.hands[s]]} for s in players
        }
        public = {
            "type": "looked",
            "deal": self.deals_done + 1,
            "svara": self.svara_round,
            "players": players,
            "hand": None,
            "hand_value": None,
        }
        self._emit(public, private)

    def _emit_showdown(self, pots: list[tuple[int, list[int], tuple[int, ...]]]) -> None:
        """``showdown``: the contenders' hands, and each pot (amount, eligible players, the players
        holding its best hand among them)."""
        self._emit(
            {
                "type": "showdown",
                "deal": self.deals_done + 1,
                "svara": self.svara_round,
                "hands": [
                    {"seat": s, "cards": hand_labels(self.hands[s]), "value": v} for s, v in self.shown
                ],
                "pots": [
                    {
                        "amount": amount,
                        "eligible": list(eligible),
                        "winner": tied[0] if len(tied) == 1 else None,
                        "tied": list(tied) if len(tied) > 1 else [],
                    }
                    for amount, eligible, tied in pots
                ],
                "stacks": list(self.stacks),
            }
        )

    def _emit_deal_scored(self) -> None:
        """``deal_scored`` for the deal just finished (its last round is the last row of the log),
        then ``busted`` for the players it left unable to pay the ante."""
        game = self.ruleset
        n = game.players
        number = self.deals_done + 1
        log = self.log
        first = len(log)
        while first > 0 and log[first - 1]["deal"] == number:
            first -= 1
        before = log[first - 1]["stacks"] if first else [game.stack] * n
        points = [self.stacks[s] - before[s] for s in range(n)]
        won = [0] * n
        rounds = []
        for row in log[first:]:
            for w in row["won"]:
                won[w["seat"]] += w["amount"]
            rounds.append(
                {k: row[k] for k in ("svara", "players", "joined", "pot", "ended", "won", "svaras")}
            )
        self._emit(
            {
                "type": "deal_scored",
                "deal": number,
                "dealer": self.dealer,
                "points": points,
                "totals": list(self.stacks),
                "won": won,
                "paid": [won[s] - points[s] for s in range(n)],
                "rounds": rounds,
            }
        )
        ante = game.ante
        busted = [s for s in range(n) if before[s] >= ante > self.stacks[s]]
        if busted:
            self._emit({"type": "busted", "deal": number, "players": busted, "stacks": list(self.stacks)})

    # --- Game API ----------------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[Seat, ...]:
        return () if self.phase == OVER else (self.actor,)

    def legal_actions_unchecked(self, seat: Seat) -> list[Action]:
        if self.phase == OVER or seat != self.actor:
            return []
        game = self.ruleset
        ante = game.ante
        stack = self.stacks[seat]
        if self.phase == JOINING:
            return [JOIN, PASS]
        if self.phase == BLIND:
            req = self._blind_required()
            lo = -(-req // ante)
            hi = (stack - 1) // ante
            out = [ALL_IN, LOOK] if stack >= req else [LOOK]
            return out + list(range(BLIND_BASE + lo - 1, BLIND_BASE + hi))
        to_call = self.current - self.bets[seat]
        forced = bool(self.blinds) and not self.opened and not self.blinded[seat]
        out = []
        if to_call > 0:
            out.append(FOLD)
        if not forced:
            if to_call == 0:
                out.append(CHECK)
            elif to_call < stack:
                out.append(CALL)
        out.append(ALL_IN)
        if self.current == 0:
            hi = (stack - 1) // ante
            out.extend(range(game.bet_base, game.bet_base + hi))
        else:
            lo = -(-self.min_raise // ante)
            hi = (stack - to_call - 1) // ante
            out.extend(range(game.raise_base + lo - 1, game.raise_base + hi))
        return out

    def _why_illegal(self, seat: Seat, action: Action) -> str:
        if self.phase == JOINING:
            return f" (the svara join round: join svara for {self.fee} or pass svara)"
        if self.phase == BLIND:
            return (
                f" (the blind round: blind at least {self._blind_required()} but under your stack of "
                f"{self.stacks[seat]}, all in, or look)"
            )
        if action == CALL and self.blinds and not self.opened and not self.blinded[seat]:
            return f" (after the blinds you must raise by at least {self.last_blind} or fold)"
        if action >= self.ruleset.raise_base:
            return f" (a raise is at least {self.min_raise} and must leave chips; else all in)"
        return f" (you owe {self.current - self.bets[seat]} and hold {self.stacks[seat]})"

    def _apply(self, seat: Seat, action: Action) -> None:
        self.deal_actions.append((seat, action))
        game = self.ruleset
        if self.phase == JOINING:
            if action == JOIN:
                self.stacks[seat] -= self.fee
                self.carried += self.fee
                self.in_deal[seat] = True
                self.joined.append(seat)
            i = self.join_order.index(seat)
            if i + 1 < len(self.join_order):
                self.actor = self.join_order[i + 1]
            else:
                self._deal_cards()
            return
        if self.phase == BLIND:
            if action == LOOK:
                self._start_open(seat)
                return
            amount = self.stacks[seat] if action == ALL_IN else (action - BLIND_BASE + 1) * game.ante
            self._put(seat, amount)
            self.blinds.append((seat, amount))
            self.blinded[seat] = True
            self.last_blind = self.current = amount
            nxt = next((s for s in self._order(seat) if self._can_act(s)), seat)
            if self.blinded[nxt]:
                self._start_open(nxt)
            else:
                self.actor = nxt
            return
        to_call = self.current - self.bets[seat]
        if action == FOLD:
            self.folded[seat] = True
        elif action == CALL:
            self._put(seat, to_call)
        elif action == ALL_IN:
            self._put(seat, self.stacks[seat])
            if self.bets[seat] > self.current:
                increase = self.bets[seat] - self.current
                if increase >= self.min_raise:
                    self.min_raise = increase
                    self.opened = True
                self.current = self.bets[seat]
                self._raised(seat)
        elif action >= game.raise_base:
            increase = (action - game.raise_base + 1) * game.ante
            self._put(seat, to_call + increase)
            self.current += increase
            self.min_raise = increase
            self.opened = True
            self._raised(seat)
        elif action >= game.bet_base:
            amount = (action - game.bet_base + 1) * game.ante
            self._put(seat, amount)
            self.current = amount
            self.min_raise = amount
            self.opened = True
            self._raised(seat)
        self.pending[seat] = False
        self._next_actor(seat, inclusive=False)

    # --- what a seat sees --------------------------------------------------------------------

    def _known(self, seat: Seat | None) -> int:
        """The cards whose place ``seat`` knows: his own after looking, and shown cards."""
        known = self.revealed
        if seat is not None and self.looked:
            known |= self.hands[seat]
        return known

    def _observation(self, seat: Seat | None, ints: bool = False) -> Observation:
        game = self.ruleset
        # The one difference between the two forms: cards and actions as ints, or as their labels.
        names: tuple[int, ...] | tuple[str, ...] = game.action_ints if ints else game.labels
        cards: Callable[[int], list[Any]] = hand_cards if ints else hand_labels
        own = self.hands[seat] if seat is not None and self.looked else 0
        return {
            "game": game.game_string,
            "seat": seat,
            "phase": self.phase,
            "deal_number": self.deals_done + (0 if self.phase == OVER else 1),
            "svara": self.svara_round,
            "dealer": self.dealer,
            "to_act": list(self.to_act),
            "hand": cards(own),
            "looked": self.looked,
            "hand_value": game.values[own] if own else None,
            "ante": game.ante,
            "scores": list(self.stacks),
            "stacks": list(self.stacks),
            "pot": self._pot(),
            "pending_svaras": [{"pot": a, "players": list(t)} for a, t in self.queue],
            "in_deal": list(self.in_deal),
            "folded": list(self.folded),
            "bets": list(self.bets),
            "contributions": list(self.contrib),
            "current_bet": self.current,
            "min_raise": self.min_raise,
            "blinds": [{"seat": s, "amount": a} for s, a in self.blinds],
            "svara_players": list(self.svara_players),
            "svara_fee": self.fee if self.svara_round else None,
            "joined": list(self.joined),
            "join_order": list(self.join_order),
            "to_respond": list(self.pending),
            "opened": self.opened,
            "actions": [{"seat": s, "action": names[a]} for s, a in self.deal_actions],
            "showdown": [{"seat": s, "cards": cards(self.hands[s]), "value": v} for s, v in self.shown],
            "deal_log": list(self.log) if ints else self._text_log(),
            "max_deals": game.options["max_deals"],
            "is_over": self.is_over,
            "winners": list(self.winners_),
        }

    def _text_log(self) -> list[dict[str, Any]]:
        """The deal log with cards as labels."""
        if self.log_text is not None:
            return self.log_text[:]
        return [text_row(row) for row in self.log]

    def hidden_cards(self, seat: Seat | None) -> set[Card]:
        return set(cards_of(DECK_MASK & ~self._known(seat)))

    def zones(self) -> dict[str, list[Card]]:
        zones = {f"hand {s}": cards_of(h) for s, h in enumerate(self.hands)}
        zones["stock"] = cards_of(self.stock)
        return zones

    @property
    def pot_total(self) -> int:
        """All chips in the middle: this deal's pot and the svaras waiting."""
        return self._pot() + sum(a for a, _ in self.queue)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.stacks)

    @property
    def deals_finished(self) -> int:
        """Deals finished so far; a deal counts once with all the svaras it causes."""
        return self.deals_done

    # --- copies ------------------------------------------------------------------------------

    def clone(self) -> Self:
        # Shallow copy, then fresh copies of the lists that change in place. Their items (ints,
        # tuples, finished deal-log rows) are never mutated, so they are shared.
        # Every field, by name: a compiled state has no __dict__ to copy wholesale.
        new = type(self)(self.ruleset, self.seed)
        self._copy_common(new)
        new.actor = self.actor
        new.bets = self.bets[:]
        new.blinded = self.blinded[:]
        new.blinds = self.blinds[:]
        new.carried = self.carried
        new.contrib = self.contrib[:]
        new.current = self.current
        new.deal_actions = self.deal_actions[:]
        new.deal_index = self.deal_index
        new.dealer = self.dealer
        new.deals_done = self.deals_done
        new.fee = self.fee
        new.folded = self.folded[:]
        new.hands = self.hands[:]
        new.in_deal = self.in_deal[:]
        new.join_order = self.join_order[:]
        new.joined = self.joined[:]
        new.last_blind = self.last_blind
        new.log = self.log[:]
        new.log_text = None if self.log_text is None else self.log_text[:]
        new.looked = self.looked
        new.min_raise = self.min_raise
        new.no_betting = self.no_betting
        new.opened = self.opened
        new.pending = self.pending[:]
        new.phase = self.phase
        new.queue = self.queue[:]
        new.revealed = self.revealed
        new.shown = self.shown[:]
        new.stacks = self.stacks[:]
        new.stock = self.stock
        new.svara_players = self.svara_players
        new.svara_round = self.svara_round
        return new

    def resample(self, seat: Seat, rng: random.Random) -> Self:
        new = self.clone()
        known = self._known(seat)
        unknown = cards_of(DECK_MASK & ~known)
        rng.shuffle(unknown)
        pos = 0
        for s, hand in enumerate(self.hands):
            if hand & known:
                continue
            size = hand.bit_count()
            new.hands[s] = mask_of(unknown[pos : pos + size])
            pos += size
        new.stock = mask_of(unknown[pos:])
        new.seed = rng.randrange(2**63)
        return new


# --- registration --------------------------------------------------------------------------------
