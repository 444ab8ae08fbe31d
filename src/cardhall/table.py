"""One match at a table: who sits in each seat, whose turn it is, the bots' turns, the events each seat
may see, and the record. Every front end plays through a Table: the terminal, simulations and
tournaments, the conformance suite, and the server, the browser client and the RL environments.

Decisions:

- **Seats** hold an :class:`Occupant`: nobody yet (``empty``), a ``person`` at this terminal, a
  ``remote`` person (over the network), or a ``bot`` named by a bot string (``rules``,
  ``search(ms=200)``). The Table waits for people and empty seats; it never acts for them, unless told
  to let a bot stand in for a person who is away (:meth:`Table.stand_in`), until he is back.
- **Bots' turns**: the Table names the bot seats that should act now (:meth:`Table.bots_to_act`) and
  the caller decides where they think: here (:meth:`Table.play_bot`, :meth:`Table.run_bots`), or in a
  worker process (:meth:`Table.bot_job` gives a picklable :class:`BotJob`; :meth:`Table.apply_bot`
  applies its result), so an asyncio server never blocks its loop. Each seat's bot draws from its own
  RNG, derived from the match seed and the seat, and a job carries that RNG's state out and back: a
  match played here or through workers is the same match.
- **Simultaneous choices** (Hearts passing, the gin advisor beside his captain): a seat may act
  whenever it is in ``to_act``, but a bot never takes away another seat's pending choice: a bot whose
  action would end another seat's turn (a gin captain moving before his advisor has spoken) waits for
  it. Among bots alone the one that cuts no one short acts first (the advisor advises, then the captain
  plays); if every bot would cut another short, the first in turn order acts. "Cut short" means the
  other seat's legal actions would change.
- **Events**: every applied action becomes an ``action`` event, followed by the consequences the rules
  log (``deal``, ``trick``, ``deal_scored`` and each game's own, see ``docs/events.md``), then
  ``match_over`` when the match ends; ``seat`` events say who sits where. Events are numbered 1, 2, ...
  in order. Each seat, and a spectator (seat None), sees every event as that seat may see it: a hidden
  action (a Hearts pass) shows its label only to the seats the game names, and a game's private fields
  (a pass's cards, a hand dealt) reach only their seats. Redaction happens here, from what the rules
  logged, so no front end can show a seat what it may not see.
- **Stale actions**: an action may quote the number of the last event its sender had seen
  (``expect``). It is refused (:class:`StaleActionError`) when the seat's choice has changed since then:
  its legal actions changed, or it has acted since (a duplicate). Events from other seats that leave its
  choice as it was (another player's hidden pass) do not make it stale.
- A Table with ``events=False`` logs nothing and checks nothing more than the game does: the fast form
  for simulations.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from cardhall.bots import Bot, make_bot
from cardhall.core import Action, Game, Observation, Record, Seat, State, derived_rng
from cardhall.errors import CardhallError, IllegalActionError, InvalidOptionError
from cardhall.records import apply_actions, check_record
from cardhall.registry import load_game

Event = dict[str, Any]


class SeatKind(StrEnum):
    """Who may sit in a seat; the server's store keeps ``empty``, ``person`` (a person over the network:
    ``remote`` at the server's Table) and ``bot``. Values are the JSON's words."""

    EMPTY = "empty"
    PERSON = "person"  # at this terminal (or, in the server's rows, over the network)
    REMOTE = "remote"  # over the network, as the server's Table holds him
    BOT = "bot"


SEAT_KINDS = tuple(SeatKind)


class StaleActionError(IllegalActionError):
    """An action that answers an older view of the table than the seat's current choice."""


@dataclass(frozen=True)
class Occupant:
    """Who sits in a seat: ``kind`` is one of :data:`SEAT_KINDS`; a bot has its bot string."""

    kind: SeatKind = SeatKind.EMPTY
    name: str = ""
    bot: str = ""

    EMPTY: ClassVar[Occupant]

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", SeatKind(self.kind))  # (a plain string is read too)
        except ValueError:
            raise InvalidOptionError(
                f"seat kind must be one of {', '.join(SEAT_KINDS)}, got {self.kind!r}"
            ) from None
        if (self.kind == SeatKind.BOT) != bool(self.bot):
            raise InvalidOptionError("a bot seat needs a bot string, and only a bot seat has one")

    @classmethod
    def person(cls, name: str = "you") -> Occupant:
        return cls(SeatKind.PERSON, name)

    @classmethod
    def remote(cls, name: str) -> Occupant:
        return cls(SeatKind.REMOTE, name)

    @classmethod
    def for_bot(cls, spec: str, name: str = "") -> Occupant:
        return cls(SeatKind.BOT, name or spec, spec)

    @property
    def is_bot(self) -> bool:
        return self.kind == SeatKind.BOT

    def as_json(self) -> dict[str, str]:
        out = {"kind": self.kind.value, "name": self.name}
        if self.bot:
            out["bot"] = self.bot
        return out


Occupant.EMPTY = Occupant()


@dataclass
class BotJob:
    """Everything a bot needs to choose one action, away from the table (picklable): run it with
    :func:`run_bot_job` in any process, then give the result to :meth:`Table.apply_bot`."""

    game: str
    bot: str
    seat: Seat
    observation: Observation
    legal_actions: list[int]
    rng_state: Any
    expect: int


@dataclass
class BotResult:
    action: Action
    rng_state: Any


# One bot per (game string, bot string) in each process that runs jobs: bots keep no state between
# decisions that a job would need (search statistics are counters only).
_JOB_BOTS: dict[tuple[str, str], Bot] = {}


def run_bot_job(job: BotJob) -> BotResult:
    """Choose the job's action (in whatever process runs it)."""
    key = (job.game, job.bot)
    bot = _JOB_BOTS.get(key)
    if bot is None:
        bot = _JOB_BOTS[key] = make_bot(job.bot, load_game(job.game))
    rng = random.Random()
    rng.setstate(job.rng_state)
    action = bot.act(job.observation, job.legal_actions, rng)
    return BotResult(action, rng.getstate())


class _Logged(NamedTuple):
    """An event of the log. A named tuple, not a class instance: a match keeps hundreds, a server
    thousands of matches, and a tuple is smaller and quicker to make. (The collector still tracks it:
    CPython untracks exact tuples of untracked values only; a server freezes what survives a
    collection.)"""

    public: Event
    private: dict[int, Event] | None = None
    hidden: dict[int | None, set[int]] | None = None


class Table:
    """One match: the game, the seed, the seats, the state, its events and its record."""

    def __init__(
        self,
        game: Game | str,
        seats: Sequence[Occupant | str] | None = None,
        seed: int | None = None,
        *,
        deck: Sequence[int] | None = None,
        events: bool = True,
        audit: bool = False,
    ) -> None:
        """``seats``: one :class:`Occupant` (or a bot string) per seat; default: every seat empty.
        ``events=False`` keeps no events (simulations); ``audit`` also keeps, per event, the cards
        hidden from each seat when it happened (the leak tests)."""
        self.game = load_game(game)
        n = self.game.num_players
        occupants = [Occupant.EMPTY] * n if seats is None else [_occupant(o) for o in seats]
        if len(occupants) != n:
            raise InvalidOptionError(f"{self.game}: {len(occupants)} seats given for {n} players")
        self.logging = events
        self.state: State = self.game.new_game(seed, deck, events=events, audit_events=audit)
        self.seed = self.state.seed
        self.seats: list[Occupant] = [Occupant.EMPTY] * n
        self._bots: dict[int, Bot] = {}  # every seat a bot acts for: bots, and stand-ins for people
        self._stand_ins: dict[int, str] = {}
        self._rngs = [derived_rng(self.seed, "bot", s) for s in range(n)]
        self._log: list[_Logged] = []
        # Per seat: the event number from which its current choice stands, and its legal actions then.
        self._choice_since = [0] * n
        self._legal: list[tuple[int, ...]] = [()] * n
        for s, occupant in enumerate(occupants):
            self.sit(s, occupant)
        self._after_change(None)

    # --- seats ---------------------------------------------------------------------------------

    def sit(self, seat: Seat, occupant: Occupant | str) -> None:
        """Put ``occupant`` in ``seat`` (a bot string seats that bot); a ``seat`` event says so, with
        ``replaces``, who held the seat until then, when someone did (a person taking a bot's seat)."""
        self._check_seat(seat)
        occupant = _occupant(occupant)
        before = self.seats[seat]
        bot = make_bot(occupant.bot, self.game) if occupant.is_bot else None  # a bad bot string: refused
        self.seats[seat] = occupant
        self._stand_ins.pop(seat, None)
        if bot is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = bot
        if self.logging:
            event: Event = {"type": "seat", "seat": seat, **occupant.as_json()}
            if before.kind != SeatKind.EMPTY:
                event["replaces"] = before.as_json()
            self._log.append(_Logged(event))

    def stand_in(self, seat: Seat, bot: str | None) -> None:
        """Let the bot ``bot`` play for the person in ``seat`` while he is away, or (None) give the
        seat back to him. Not an event of the match (its events follow from the seats it started with
        and its record alone, so a table rebuilt from them numbers them the same): a front end shows
        who is away in its own way."""
        self._check_seat(seat)
        occupant = self.seats[seat]
        if occupant.is_bot or occupant.kind == "empty":
            raise InvalidOptionError(f"{self.game}: seat {seat} holds no person to stand in for")
        if bot is None:
            self._stand_ins.pop(seat, None)
            self._bots.pop(seat, None)
            return
        self._bots[seat] = make_bot(bot, self.game)
        self._stand_ins[seat] = bot

    def stand_in_for(self, seat: Seat) -> str | None:
        """The bot string of the bot playing for the person in ``seat``, if one is."""
        return self._stand_ins.get(seat)

    def acting_bot(self, seat: Seat) -> str | None:
        """The bot string of whatever bot acts for ``seat``: its own bot, or a stand-in."""
        return self.seats[seat].bot or self._stand_ins.get(seat)

    def _check_seat(self, seat: object) -> None:
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidOptionError(f"{self.game}: seat must be 0..{n - 1}, got {seat!r}")

    # --- the match -----------------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[Seat, ...]:
        return self.state.to_act

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def number(self) -> int:
        """The number of the last event (0 before any)."""
        return len(self._log)

    def observation(self, seat: Seat | None) -> Observation:
        """What ``seat`` may know now (None: a spectator), as text."""
        if seat is not None:
            self._check_seat(seat)
        return self.state.observation(seat)

    def legal_actions(self, seat: Seat) -> list[Action]:
        self._check_seat(seat)
        return self.state.legal_actions(seat)

    def record(self) -> Record:
        return self.state.record()

    def waiting_for(self) -> tuple[int, ...]:
        """The seats to act that are not bots: the people (or empty seats) the table waits for."""
        return tuple(s for s in self.state.to_act if s not in self._bots)

    def apply(
        self, seat: Seat, action: Action | str, expect: int | None = None, *, report: bool = True
    ) -> list[Event]:
        """Take ``action`` (an int or its label) for ``seat``; return the events it produced as that
        seat sees them (``report=False``: logged all the same, and ``[]`` returned: a server builds
        each seat's frame later, for what that seat's connections last saw). A refused action
        (illegal, unreadable or stale) raises and changes nothing."""
        state = self.state
        if expect is not None:
            self._check_fresh(seat, expect)
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if not self.logging:
            state.apply(seat, action)
            return []
        if not (_is_int(seat) and _is_int(action) and state.is_legal(seat, action)):
            state.apply(seat, action)  # refuses it with the game's own message, changing nothing
            raise IllegalActionError(f"{self.game}: seat {seat!r} may not take action {action!r}")
        audience = state.action_audience(seat, action)
        deals = state.deals_finished
        state.apply_unchecked(seat, action)
        first = len(self._log)
        self._log_action(seat, action, audience, deals)
        self._after_change(seat)
        return self.events(seat, since=first) if report else []

    def choice_since(self, seat: Seat) -> int:
        """The number of the event from which ``seat``'s current choice stands: an action quoting an
        older number is stale."""
        self._check_seat(seat)
        return self._choice_since[seat]

    def _check_fresh(self, seat: Seat, expect: object) -> None:
        if not self.logging:
            raise InvalidOptionError(f"{self.game}: this table keeps no events, so it takes no 'expect'")
        self._check_seat(seat)
        if isinstance(expect, bool) or not isinstance(expect, int):
            raise InvalidOptionError(f"{self.game}: expect must be an event number, got {expect!r}")
        if not self._choice_since[seat] <= expect <= self.number:
            raise StaleActionError(
                f"{self.game}: seat {seat}'s action answers event {expect}, but its choice has changed "
                f"since event {self._choice_since[seat]} (last event {self.number})"
            )

    def _log_action(
        self, seat: Seat, action: Action, audience: tuple[tuple[int, ...], str] | None, deals: int
    ) -> None:
        state = self.state
        label = self.game.action_label(action)
        private: dict[int, Event] | None = None
        move = self.game.action_info(action)  # what it means, for front ends (Game.action_info)
        if audience is None:
            public: Event = {"type": "action", "seat": seat, "action": label, "hidden": False, "move": move}
        else:
            seats, shown = audience
            public = {"type": "action", "seat": seat, "action": shown, "hidden": True, "move": None}
            private = {s: {"action": label, "hidden": False, "move": move} for s in seats}
        hidden = None
        # The audit of the action itself: what was hidden just after it, unless it ended a deal (the
        # next deal may hold the very cards it showed).
        if state.audit_events and state.deals_finished == deals:
            hidden = {s: state.hidden_cards(s) for s in [*range(self.game.num_players), None]}
        self._log.append(_Logged(public, private, hidden))

    def _after_change(self, actor: int | None) -> None:
        """Move the rules' events into the log, close the match, and note whose choice changed."""
        state = self.state
        if not self.logging:
            return
        logged = state.events
        assert logged is not None
        for public, private, hidden in logged:
            self._log.append(_Logged(public, private, hidden))
        logged.clear()
        if state.is_over and (not self._log or self._log[-1].public["type"] != "match_over"):
            self._log.append(
                _Logged({"type": "match_over", "scores": list(state.scores), "winners": list(state.winners)})
            )
        # A seat not to act has no legal action (the Game API's rule, which the conformance suite
        # checks of every game), so only the seats to act are asked.
        to_act = state.to_act
        for s in range(self.game.num_players):
            legal = tuple(state.legal_actions(s)) if s in to_act else ()
            if s == actor or legal != self._legal[s]:
                self._legal[s] = legal
                self._choice_since[s] = self.number

    # --- events --------------------------------------------------------------------------------

    def events(self, seat: Seat | None = None, since: int = 0) -> list[Event]:
        """Every event after number ``since``, as ``seat`` may see it (None: a spectator)."""
        if seat is not None:
            self._check_seat(seat)
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise InvalidOptionError(f"{self.game}: since must be an event number >= 0, got {since!r}")
        return [self._view(n, entry, seat) for n, entry in enumerate(self._log[since:], since + 1)]

    @staticmethod
    def _view(n: int, entry: _Logged, seat: Seat | None) -> Event:
        event: Event = {"n": n, **entry.public}
        if entry.private is not None and seat is not None:
            extra = entry.private.get(seat)
            if extra:
                event.update(extra)
        return event

    def audit(self, since: int = 0) -> list[tuple[int, dict[int | None, set[int]] | None]]:
        """Per event after ``since`` (audited tables): its number and the cards hidden from each seat
        when it happened (None where the audit does not apply)."""
        return [(n, e.hidden) for n, e in enumerate(self._log[since:], since + 1)]

    # --- bots ----------------------------------------------------------------------------------

    def bots_to_act(self) -> list[int]:
        """The bot seats that should act now, in turn order (see the module's notes on simultaneous
        choices); ``[]`` when the table waits for people or the match is over."""
        to_act = self.state.to_act
        if len(to_act) == 1:  # the common case, kept short for simulations
            return [to_act[0]] if to_act[0] in self._bots else []
        bots = [s for s in to_act if s in self._bots]
        if not bots:
            return bots
        ready = [s for s in bots if not self._cuts_short(s, to_act)]
        if ready:
            return ready
        return bots[:1] if len(bots) == len(to_act) else []

    def _cuts_short(self, seat: Seat, to_act: tuple[int, ...]) -> bool:
        """Whether an action of ``seat`` now would end or change another seat's pending choice (its
        legal actions): tried on a copy with the seat's first legal action, since what one action of a
        seat does to the others' choices its other actions do too."""
        state = self.state
        copy = state.clone()
        copy.apply_unchecked(seat, copy.legal_actions(seat)[0])
        return any(copy.legal_actions(s) != state.legal_actions(s) for s in to_act if s != seat)

    def bot(self, seat: Seat) -> Bot:
        """The bot in ``seat``."""
        bot = self._bots.get(seat)
        if bot is None:
            raise InvalidOptionError(f"{self.game}: seat {seat} holds no bot ({self.seats[seat].kind})")
        return bot

    def play_bot(self, seat: Seat, *, report: bool = True) -> list[Event]:
        """Let the bot in ``seat`` choose and play, here and now. A bot that offers ``act_state``
        (the rules bots: the choice ``act`` makes on the seat's observation, with the same draws of
        its RNG, read from the state without building that observation; each game's bot tests hold
        it to that) is asked through it: a server's rules bots spent as long building the
        observation they read as choosing."""
        bot = self.bot(seat)
        state = self.state
        legal = state.legal_actions(seat)
        from_state = getattr(bot, "act_state", None)
        if from_state is not None:
            action = from_state(state, seat, legal, self._rngs[seat])
        else:
            action = bot.act(state.observation(seat, ints=True), legal, self._rngs[seat])
        return self.apply(seat, action, report=report)

    def run_bots(self, max_actions: int = 10_000_000) -> int:
        """Play bot turns until a person (or an empty seat) must act or the match is over; the
        number of actions played."""
        for done in range(max_actions):
            bots = self.bots_to_act()
            if not bots:
                return done
            self.play_bot(bots[0])
        raise CardhallError(f"{self.game}: match seed={self.seed} did not end within {max_actions} actions")

    def play(self, max_actions: int = 10_000_000) -> State:
        """Play a table of bots to the end; the finished state."""
        self.run_bots(max_actions)
        if not self.state.is_over:
            waiting = ", ".join(f"seat {s} ({self.seats[s].kind})" for s in self.waiting_for())
            raise CardhallError(f"{self.game}: the match waits for {waiting}, who are not bots")
        return self.state

    def bot_job(self, seat: Seat) -> BotJob:
        """The decision of the bot in ``seat``, packed for :func:`run_bot_job` in another process."""
        spec = self.acting_bot(seat)
        if spec is None:
            raise InvalidOptionError(f"{self.game}: seat {seat} holds no bot ({self.seats[seat].kind})")
        state = self.state
        return BotJob(
            str(self.game),
            spec,
            seat,
            state.observation(seat, ints=True),
            state.legal_actions(seat),
            self._rngs[seat].getstate(),
            self.number,
        )

    def apply_bot(self, job: BotJob, result: BotResult) -> list[Event]:
        """Apply a job's result, unless the table has moved on from the job's view (stale) or the
        seat no longer holds that bot."""
        if self.acting_bot(job.seat) != job.bot:
            raise StaleActionError(f"{self.game}: seat {job.seat} no longer holds bot {job.bot!r}")
        events = self.apply(job.seat, result.action, expect=job.expect if self.logging else None)
        self._rngs[job.seat].setstate(result.rng_state)
        return events

    # --- records -------------------------------------------------------------------------------

    @classmethod
    def from_record(
        cls, record: Record, seats: Sequence[Occupant | str] | None = None, *, audit: bool = False
    ) -> Table:
        """The table a record describes, its events logged again by replaying every action."""
        game = check_record(record)
        table = cls(game, seats, record["seed"], deck=record.get("deck"), audit=audit)
        apply_actions(record, table.apply)
        return table


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _occupant(value: Occupant | str) -> Occupant:
    if isinstance(value, Occupant):
        return value
    if isinstance(value, str):
        return Occupant.for_bot(value)
    raise InvalidOptionError(f"a seat holds an Occupant or a bot string, got {value!r}")
