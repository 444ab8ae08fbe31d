"""The Game API every front end shares: :class:`Game`, :class:`State`, records and replay.

A :class:`Game` is a rule set with its options (``hokm(target=300)``); it creates states, and converts
actions between dense ints and text labels. A :class:`State` is one match in progress: who may act, what
each may do, what each may see (an observation, as text for people and the wire, or with cards and
actions as ints for bots), and, when asked to, the events the rules produce (a trick won, a deal scored)
with what each seat may see of them. Randomness comes only from the seed given to :meth:`Game.new_game`; each
deal draws from its own RNG derived from that seed, so the same seed always gives the same match and a
record (game string, rules version, seed, actions) replays to the identical state.

Subclasses implement the ``_``-prefixed hooks and ``legal_actions_unchecked``; the public methods add the
checks. ``apply`` checks the seat and the action and leaves the state untouched when it refuses;
``legal_actions`` and ``observation`` refuse a seat that is not at the table (rather than answer ``[]``,
or another seat's view through a negative index). ``apply_unchecked`` and ``legal_actions_unchecked`` are
the fast paths for playouts and search, which only ask for seats in ``to_act``.

Records and :func:`~cardhall.records.replay` live in :mod:`cardhall.records` (above the registry, which
this module must not import).
"""

from __future__ import annotations

import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Final, Self, TypeAlias

from cardhall.cards import Card, format_card, parse_card
from cardhall.compiled import mypyc_attr
from cardhall.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidOptionError,
)
from cardhall.options import Option, OptionValue, format_spec, resolve_options

# What an int means, for the reader (cards and sets of cards: ``Card`` and ``Mask`` of cardhall.cards): a
# seat (0..num_players-1, in the order of play) and an action (0..num_distinct_actions-1).
Seat: TypeAlias = int
Action: TypeAlias = int
Observation = dict[str, Any]
Record = dict[str, Any]
# What a state logs per event when asked to (``State.events``): the fields every seat sees, the fields
# some seats see instead or in addition (seat -> fields), and, when auditing for the leak tests, the
# cards hidden from each seat (and from a spectator, key None) at the moment the event happened.
EventEntry = tuple[dict[str, Any], dict[int, dict[str, Any]] | None, dict[int | None, set[int]] | None]

_SEED_LIMIT: Final = 2**63


def derived_rng(seed: int, *keys: object) -> random.Random:
    """A deterministic RNG for one purpose (``"deal", 3``) of the match seeded ``seed``.

    String seeds are hashed with SHA-512 by :mod:`random`, so this does not depend on PYTHONHASHSEED.
    """
    return random.Random(":".join(["cardhall", str(seed), *map(str, keys)]))


def check_seed(game: object, seed: object) -> int:
    """``seed`` checked (a fresh random seed for None); ``game`` names the game in the error."""
    if type(seed) is int and 0 <= seed < _SEED_LIMIT:
        return seed
    if seed is None:
        return secrets.randbelow(_SEED_LIMIT)
    raise InvalidOptionError(f"{game}: seed must be an int in 0..2**63-1, got {seed!r}")


# Compiled with the engine but open to games written in plain Python (the compiled games are compiled
# subclasses and keep their fast calls).
@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A rule set with its options. Equal games have equal strings."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str] = "1"
    option_spec: ClassVar[tuple[Option, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # True for penalty-point games (Hearts): the lowest total wins, and bots minimise their score.
    lowest_score_wins: ClassVar[bool] = False
    # The observation's lists whose entries the game shares between the observations of one match and
    # never changes (Hearts: "tricks", the finished tricks of the hand): a server may encode each such
    # entry once, by its identity.
    shared_observation_lists: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **options: object) -> None:
        self.options: dict[str, OptionValue] = resolve_options(self.name, self.option_spec, options)
        self._configure()

    def _configure(self) -> None:
        """Derive tables from the options and check combinations; raise InvalidOptionError."""

    # --- identity -----------------------------------------------------------------------------

    def __str__(self) -> str:
        return format_spec(self.name, self.option_spec, self.options)

    def __repr__(self) -> str:
        return f"load_game({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def option(self, name: str) -> Any:
        return self.options[name]

    # --- shape --------------------------------------------------------------------------------

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats at the table."""

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Actions are ints in ``range(num_distinct_actions)``."""

    @abstractmethod
    def deck(self) -> list[Card]:
        """Every physical card of the game, as ints."""

    # --- states -------------------------------------------------------------------------------

    def new_game(
        self,
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        events: bool = False,
        audit_events: bool = False,
    ) -> State:
        """A new match. ``deck`` stacks the first deal (top card first), for tests and puzzles;
        ``events`` makes the state log its events (:attr:`State.events`) from the first deal on, and
        ``audit_events`` with each the cards hidden from every seat then (for the leak tests)."""
        seed = check_seed(self, seed)
        stacked: list[int] | None = None
        if deck is not None:
            stacked = [int(c) for c in deck]
            if sorted(stacked) != sorted(self.deck()):
                raise InvalidOptionError(
                    f"{self}: a stacked deck must hold exactly the game's {len(self.deck())} cards"
                )
        state = self._blank_state(seed)
        if events:
            state.events = []
            state.audit_events = audit_events
        state.start(stacked)
        return state

    @abstractmethod
    def _blank_state(self, seed: int) -> State:
        """A blank state of this game (its ``start`` deals)."""

    # --- actions ------------------------------------------------------------------------------

    def action_label(self, action: Action) -> str:
        """The text of an action int (``"play QS"``); inverse of :meth:`parse_action`."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidActionError(f"{self}: action must be an int, got {action!r}")
        if not 0 <= action < self.num_distinct_actions:
            raise InvalidActionError(f"{self}: {action} is not an action of this game")
        return self._action_label(action)

    def parse_action(self, text: str) -> int:
        """The int of an action text; accepts what :meth:`action_label` writes and common spellings."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{self}: action text must be a string, got {text!r}")
        words = text.strip().lower().split()
        if not words:
            raise InvalidActionError(f"{self}: empty action text")
        try:
            action = self._parse_action(words)
        except InvalidCardError as e:
            raise InvalidActionError(f"{self}: cannot read action {text!r}: {e}") from None
        if action is None:
            raise InvalidActionError(
                f"{self}: cannot read action {text!r}; examples: {self._action_examples()}"
            )
        return action

    # ``object``: a wrong type (a bool) gets the game's own error, compiled or not (as ``apply``).
    def action_info(self, action: object) -> dict[str, Any]:
        """What an action int means, as data (``{"kind": "play", "card": "QS"}``, ``{"kind": "raise",
        "amount": 40}``): its ``kind`` and the fields of that kind, as ``$defs.action_info`` of the
        game's schema (the game's ``schema.json``) lists them. The server sends it beside each legal
        action's label, so a client reads what a move is without parsing its text."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise InvalidActionError(f"{self}: action must be an int, got {action!r}")
        if not 0 <= action < self.num_distinct_actions:
            raise InvalidActionError(f"{self}: {action} is not an action of this game")
        return self._action_info(action)

    @abstractmethod
    def _action_label(self, action: Action) -> str: ...

    @abstractmethod
    def _action_info(self, action: Action) -> dict[str, Any]:
        """``action_info`` for an action known to be in range."""

    @abstractmethod
    def _parse_action(self, words: list[str]) -> int | None:
        """The action for lower-cased words, or None if they name no action."""

    def _action_examples(self) -> str:
        return ", ".join(repr(self._action_label(a)) for a in (0, self.num_distinct_actions - 1))

    # --- search -------------------------------------------------------------------------------

    def sample_state(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with ``observation`` alone (for search bots): the seat's own cards
        and the public history kept, known voids and seen cards respected, the hidden cards dealt at
        random, future deals from a fresh seed. ``observation`` is a seat's observation in the form
        bots read (``ints=True``); the sampled state's observation for that seat equals it."""
        raise NotImplementedError(
            f"{self}: this game does not implement sample_state, which the search bot (the hard level), "
            "hints and reviews need (docs/adding-a-game.md)"
        )

    def deal_replay(
        self, observation: Observation, sampled: State
    ) -> tuple[State, list[tuple[Seat, Action]]] | None:
        """``sampled`` (a state :meth:`sample_state` drew from ``observation``) rewound to the start of
        the deal in hand, each seat holding what it held then, and the public actions of the deal since
        (nothing applied): what an opponent model replays to weigh the sample by how likely the others'
        actions were in it (the expert bot). None (the default) where the game does not rewind: its
        samples are then weighed alike."""
        return None


def parse_play(words: list[str]) -> int | None:
    """Shared reading of ``play QS`` / ``QS`` into a face card int, for games whose play is a card."""
    if len(words) == 2 and words[0] == "play":
        return parse_card(words[1])
    if len(words) == 1:
        try:
            return parse_card(words[0])
        except InvalidCardError:
            return None
    return None


def play_label(action: Action) -> str:
    return "play " + format_card(action)


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One match in progress. Seats are ``0..num_players-1`` in the order of play."""

    # A compiled class may not narrow an attribute's type, so a game's state keeps its own Game
    # subclass (with the option tables it derives) in a second attribute, ``ruleset``.
    game: Game
    seed: int
    history: list[tuple[Seat, Action]]
    stacked_deck: list[int] | None
    winners_: tuple[Seat, ...]
    # The events the rules produced, while someone listens (a Table); None (the default, and in every
    # copy) logs nothing, so bots, search and simulations pay nothing for them.
    events: list[EventEntry] | None
    # Also log, per event, the cards hidden from each seat at that moment (the leak tests' audit).
    audit_events: bool

    def __init__(self, game: Game, seed: int) -> None:
        """The fields every state has: a blank match of ``game`` seeded ``seed`` (a game's state class
        deals in its own ``start``, or is filled in by ``clone`` and ``sample_state``)."""
        self.game = game
        self.seed = seed
        self.stacked_deck = None
        self.history = []
        self.winners_ = ()
        self.events = None
        self.audit_events = False

    @abstractmethod
    def start(self, deck: list[int] | None) -> None:
        """Deal the first deal (``deck``: stacked, top card first; None: shuffled from the seed)."""

    # --- who acts and what they may do ---------------------------------------------------------

    @property
    @abstractmethod
    def to_act(self) -> tuple[Seat, ...]:
        """The seats that may act now (several for simultaneous choices); ``()`` when over."""

    # ``object``: a wrong type gets the game's own error, compiled or not (as ``apply``).
    def legal_actions(self, seat: object) -> list[Action]:
        """Sorted, unique legal action ints for ``seat``; ``[]`` for a seat not to act now.
        InvalidOptionError for a seat that is not at the table."""
        if type(seat) is not int or not 0 <= seat < self.game.num_players:
            raise self._bad_seat(seat)
        return self.legal_actions_unchecked(seat)

    def legal_mask(self, seat: object) -> bytearray:
        """``legal_actions(seat)`` as ``num_distinct_actions`` bytes, 1 at each legal action and 0
        elsewhere: a new, writable buffer each call (an RL action mask reads it without a copy)."""
        mask = bytearray(self.game.num_distinct_actions)
        for action in self.legal_actions(seat):
            mask[action] = 1
        return mask

    @abstractmethod
    def legal_actions_unchecked(self, seat: Seat) -> list[Action]:
        """``legal_actions`` for a seat known to be at the table (the fast path: no check)."""

    def is_legal(self, seat: Seat, action: Action) -> bool:
        return seat in self.to_act and action in self.legal_actions_unchecked(seat)

    def _bad_seat(self, seat: object) -> InvalidOptionError:
        n = self.game.num_players
        return InvalidOptionError(f"{self.game}: seat must be 0..{n - 1}, got {seat!r}")

    # ``object`` parameters: this is the checked boundary, so a compiled build must let a wrong type in
    # to refuse it with the game's own error rather than a bare TypeError.
    def apply(self, seat: object, action: object) -> None:
        """Take ``action`` for ``seat``; raise IllegalActionError and change nothing if not legal."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"{self.game}: action must be an int, got {action!r}")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalActionError(f"{self.game}: seat must be an int, got {seat!r}")
        if self.is_over:
            raise IllegalActionError(f"{self.game}: the match is over; seat {seat} cannot act")
        if seat not in self.to_act:
            whose = ", ".join(map(str, self.to_act))
            raise IllegalActionError(f"{self.game}: seat {seat} may not act now; waiting for seat {whose}")
        legal = self.legal_actions_unchecked(seat)
        if action not in legal:
            why = ""
            if 0 <= action < self.game.num_distinct_actions:
                what = repr(self.game.action_label(action))
                why = self._why_illegal(seat, action)
            else:
                what = f"{action} (not an action of this game)"
            shown = ", ".join(self.game.action_label(a) for a in legal[:12])
            more = ", ..." if len(legal) > 12 else ""
            raise IllegalActionError(
                f"{self.game}: seat {seat} may not {what} now{why}; legal: {shown}{more}"
            )
        self._apply(seat, action)
        self.history.append((seat, action))

    def apply_unchecked(self, seat: Seat, action: Action) -> None:
        """The fast path for bots and simulations: no legality check."""
        self._apply(seat, action)
        self.history.append((seat, action))

    def _why_illegal(self, seat: Seat, action: Action) -> str:
        """An optional reason (``" (you must follow hearts)"``) for the error message; ``action`` is
        in range."""
        return ""

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> None: ...

    # --- what each seat may know ----------------------------------------------------------------

    def observation(self, seat: object, ints: bool = False) -> Observation:
        """JSON-ready data of everything ``seat`` may know (``None``: a spectator), as the game's schema
        (the game's ``schema.json``) describes it: cards and actions as text. ``ints=True`` gives the
        same data with every card as its int and every action as its int: the form bots read, with
        nothing to parse. InvalidOptionError for a seat that is not at the table.

        The data is the caller's to read: its top-level dict and lists are new at each call, but a game
        may share entries that never change (Hearts: the finished tricks of the hand) between the
        observations of one match, so copy an entry before changing it."""
        if seat is None:
            return self._observation(None, ints)
        if type(seat) is not int or not 0 <= seat < self.game.num_players:
            raise self._bad_seat(seat)
        return self._observation(seat, ints)

    @abstractmethod
    def _observation(self, seat: Seat | None, ints: bool) -> Observation:
        """``observation`` for a seat known to be at the table, or None."""

    # --- events ----------------------------------------------------------------------------------

    def _emit(self, public: dict[str, Any], private: dict[int, dict[str, Any]] | None = None) -> None:
        """Log an event (a game calls this only when ``self.events is not None``): ``public`` is what
        every seat and a spectator see, ``private[seat]`` the fields that seat sees instead or in
        addition. Cards as text, as in the observation."""
        events = self.events
        if events is None:
            return
        hidden: dict[int | None, set[int]] | None = None
        if self.audit_events:
            hidden = {s: self.hidden_cards(s) for s in [*range(self.game.num_players), None]}
        events.append((public, private, hidden))

    def action_audience(self, seat: Seat, action: Action) -> tuple[tuple[int, ...], str] | None:
        """Who may see ``action`` (legal for ``seat``, not yet applied): None when every seat may
        (the default); else the seats that see its label and the text everyone else sees instead (a
        Hearts pass is seen by the passer alone: ``((seat,), "pass")``)."""
        return None

    @abstractmethod
    def hidden_cards(self, seat: Seat | None) -> set[Card]:
        """Physical cards whose place ``seat`` cannot know (used by the leak tests and search)."""

    @abstractmethod
    def zones(self) -> dict[str, list[Card]]:
        """Where every physical card is (hands, trick, piles...): for conservation checks."""

    # --- outcome -------------------------------------------------------------------------------

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Running totals per seat as the rules keep them."""

    @property
    def deals_finished(self) -> int:
        """Deals (hands) finished so far in this match. Search bots stop a rollout when it changes; a
        game of several deals overrides it (one-deal games keep 0 and roll out to the end)."""
        return 0

    @property
    def winners(self) -> tuple[Seat, ...]:
        """Seats that won, once over; ``()`` before."""
        return self.winners_

    # --- copies --------------------------------------------------------------------------------

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy (a game's ``clone`` starts from :meth:`_copy_common`)."""

    def _copy_common(self, new: State) -> None:
        """Copy the fields every state has into ``new``, a blank state of the same game and seed (a
        copy logs no events)."""
        new.stacked_deck = self.stacked_deck
        new.history = list(self.history)
        new.winners_ = self.winners_

    @abstractmethod
    def resample(self, seat: Seat, rng: random.Random) -> Self:
        """A copy ``seat`` cannot tell from this one: hidden cards re-dealt consistently with what
        it has seen, and future deals drawn from a fresh seed. Its record does not replay."""

    # --- records -------------------------------------------------------------------------------

    def record(self) -> Record:
        rec: Record = {
            "game": str(self.game),
            "rules_version": self.game.rules_version,
            "seed": self.seed,
            "actions": [[s, a] for s, a in self.history],
        }
        if self.stacked_deck is not None:
            rec["deck"] = list(self.stacked_deck)
        return rec

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game} seed={self.seed} actions={len(self.history)}>"
