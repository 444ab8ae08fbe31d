"""Rate limits per person and per address: token buckets keyed by player id or by client address, for
creating players, creating tables (``POST /api/tables``, quick play, a rematch that makes a new table),
websocket messages (every connection of a player together, every connection of an address together),
making accounts, failed sign-ins (per address and name, per address, per name: guessing passwords)
and sign-ins themselves (per address, and per account when they succeed: each costs a hash and a
session).
Beside them each connection keeps its own bucket (:mod:`cardhall.server.connection`).

Choices:

- A bucket holds ``burst`` tokens and gains ``per_second`` of them a second; each request takes one.
  A request that finds a bucket without a whole token is refused, with the seconds until one is there
  (HTTP: 429 with ``Retry-After``; the websocket: a ``rate_limited`` frame), and takes nothing from
  any bucket: a refused request costs nothing, so a client that waits as told gets through.
- One request may have to pass several buckets (a message: its player's and its address's); it takes
  a token from each only when every one has one, so one full bucket never drains another.
- Memory stays bounded: a bucket that has refilled completely is the same as no bucket, so buckets
  idle for the time a whole burst takes to refill are dropped (checked oldest first, at each request),
  and at most :data:`MAX_KEYS` buckets are kept per limit (beyond that the oldest is dropped: it
  starts full again, which gives a client at most one more burst).
- An address is the client's IP address as the ASGI server reports it: the connection's own, unless it
  comes from a proxy the operator named (``cardhall serve --trusted-proxy``), whose ``X-Forwarded-For``
  is read then (none is trusted by default: uvicorn's own default, 127.0.0.1, let any process on the
  machine split the buckets by sending the header); an IPv6 address counts by its /64 network, which
  one client usually holds whole.
- Guesses of the operator's token are counted per address (:data:`ADMIN_FAILURES_PER_ADDRESS`): a
  few, then one a minute; beyond, 429 even for the right token from that address.
- The defaults (:class:`Limits`) are meant for a public server: generous for people, who create one
  player per browser and one table at a time and send a message a second or so, and tight for scripts.
  ``cardhall serve --no-rate-limits`` lifts the rates (a load test on loopback); tests set their own.
- Beside the rates, two caps on the tables one player created that exist at once (the lobby checks
  them): waiting ones (a guest made 1,000 in 4 s), and unfinished ones (waiting or playing: each match
  is bounded, and this bounds how many one guest keeps going).
"""

from __future__ import annotations

import functools
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from cardhall.server.protocol import ProtocolError

MAX_KEYS: Final = 100_000  # buckets kept per limit, at most


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` a second on average."""

    per_second: float
    burst: float

    def describe(self) -> str:
        """How the protocol document writes it: ``30 at once, then 1 every 20 s``."""
        if self.per_second >= 1:
            return f"{self.burst:g} at once, then {self.per_second:g} a second"
        return f"{self.burst:g} at once, then 1 every {1 / self.per_second:g} s"


# The defaults, named so the protocol document can quote them (tests/server/test_protocol_doc.py).
PLAYERS_PER_ADDRESS: Final = Rate(1 / 20, 30)  # a household, a classroom behind one address
TABLES_PER_PLAYER: Final = Rate(1 / 6, 10)
TABLES_PER_ADDRESS: Final = Rate(1 / 2, 30)
MESSAGES_PER_PLAYER: Final = Rate(30, 60)  # a connection alone may send 20 a second: two tabs, and more
MESSAGES_PER_ADDRESS: Final = Rate(100, 200)
# One connection's own bucket (cardhall.server.connection reads it; RATE and BURST there name it).
MESSAGES_PER_CONNECTION: Final = Rate(20, 40)

# Playing with people one knows (issue 25, part B): a person talks, befriends, invites and reports
# at a person's pace; spam beyond it is refused (the chat's besides the messages' own rate).
CHAT_PER_PLAYER: Final = Rate(1, 5)
# And per address and per table (issue 47: 25 fresh guests of one address put 171 lines, 16 a second,
# into one table in 10 s, each guest within his own rate).
CHAT_PER_ADDRESS: Final = Rate(2, 10)
CHAT_PER_TABLE: Final = Rate(2, 20)
FRIEND_REQUESTS_PER_PLAYER: Final = Rate(1 / 30, 10)
INVITATIONS_PER_PLAYER: Final = Rate(1 / 5, 10)
REPORTS_PER_PLAYER: Final = Rate(1 / 30, 5)

# Failed sign-ins (a wrong password, or a name no account has: told apart by nobody). Slow the guesser,
# not the owner (OWASP): an address guessing one name gets a few tries, then one a minute; one spreading
# over names meets the address's bucket; many addresses guessing one name meet the name's, which is
# larger and does not apply to a browser that signed in to the account before (its device cookie), so
# nobody can lock the owner out of the devices he uses. (Before, 6 wrong passwords from anywhere kept
# the right one out for a minute, and one more a minute kept it out for good.)
SIGNIN_FAILURES_PER_ADDRESS_AND_NAME: Final = Rate(1 / 60, 5)
SIGNIN_FAILURES_PER_NAME: Final = Rate(1 / 10, 50)
SIGNIN_FAILURES_PER_ADDRESS: Final = Rate(1 / 6, 20)
# Every sign-in costs a 64 MiB argon2id hash and a session: rated per address whatever its outcome, and
# per account when it succeeds (taken after the password was right, checked before any hashing).
SIGNINS_PER_ADDRESS: Final = Rate(1 / 3, 20)
SIGNINS_PER_ACCOUNT: Final = Rate(1 / 60, 10)
ACCOUNTS_PER_ADDRESS: Final = Rate(1 / 60, 10)  # guests made accounts (each hashes a password)
ADMIN_FAILURES_PER_ADDRESS: Final = Rate(1 / 60, 10)  # wrong admin tokens (cardhall admin: the operator)
WAITING_TABLES_PER_PLAYER: Final = 5  # waiting tables one player created, at once
# Waiting or playing tables one player created, at once: each match is bounded (bounds.py), and this
# bounds how many a guest keeps going (quick plays he left, which stand-ins play to the end).
UNFINISHED_TABLES_PER_PLAYER: Final = 10


@dataclass(frozen=True)
class Limits:
    """The server's limits per person and per address (None: no limit of that kind); given to
    :func:`cardhall.server.app.create_app`."""

    players_per_address: Rate | None = PLAYERS_PER_ADDRESS
    tables_per_player: Rate | None = TABLES_PER_PLAYER
    tables_per_address: Rate | None = TABLES_PER_ADDRESS
    messages_per_player: Rate | None = MESSAGES_PER_PLAYER
    messages_per_address: Rate | None = MESSAGES_PER_ADDRESS
    messages_per_connection: Rate | None = MESSAGES_PER_CONNECTION
    chat_per_player: Rate | None = CHAT_PER_PLAYER
    chat_per_address: Rate | None = CHAT_PER_ADDRESS
    chat_per_table: Rate | None = CHAT_PER_TABLE
    friend_requests_per_player: Rate | None = FRIEND_REQUESTS_PER_PLAYER
    invitations_per_player: Rate | None = INVITATIONS_PER_PLAYER
    reports_per_player: Rate | None = REPORTS_PER_PLAYER
    signin_failures_per_address_and_name: Rate | None = SIGNIN_FAILURES_PER_ADDRESS_AND_NAME
    signin_failures_per_name: Rate | None = SIGNIN_FAILURES_PER_NAME
    signin_failures_per_address: Rate | None = SIGNIN_FAILURES_PER_ADDRESS
    signins_per_address: Rate | None = SIGNINS_PER_ADDRESS
    signins_per_account: Rate | None = SIGNINS_PER_ACCOUNT
    accounts_per_address: Rate | None = ACCOUNTS_PER_ADDRESS
    admin_failures_per_address: Rate | None = ADMIN_FAILURES_PER_ADDRESS
    waiting_tables_per_player: int | None = WAITING_TABLES_PER_PLAYER
    unfinished_tables_per_player: int | None = UNFINISHED_TABLES_PER_PLAYER

    def without_rates(self) -> Limits:
        """These limits with no rate per person or per address (the caps on tables stay, and so does
        each connection's own rate: ``cardhall serve --no-rate-limits``)."""
        return replace(
            self,
            players_per_address=None,
            tables_per_player=None,
            tables_per_address=None,
            messages_per_player=None,
            messages_per_address=None,
            chat_per_player=None,
            chat_per_address=None,
            chat_per_table=None,
            friend_requests_per_player=None,
            invitations_per_player=None,
            reports_per_player=None,
            signin_failures_per_address_and_name=None,
            signin_failures_per_name=None,
            signin_failures_per_address=None,
            signins_per_address=None,
            signins_per_account=None,
            accounts_per_address=None,
            admin_failures_per_address=None,
        )

    def unpaced(self) -> Limits:
        """These limits with no rate at all, a connection's own included (the caps on tables stay): for
        tests that send as fast as they can rather than pace themselves under the rates."""
        return replace(self.without_rates(), messages_per_connection=None)


class RateLimited(ProtocolError):
    """A request beyond a rate: ``retry_after`` seconds until it would pass."""

    def __init__(self, message: str, retry_after: float, ref: int | str | None = None) -> None:
        super().__init__("rate_limited", message, ref)
        self.retry_after = retry_after

    @property
    def retry_after_header(self) -> str:
        """Whole seconds, at least 1 (HTTP's ``Retry-After`` takes no fractions)."""
        return str(max(1, math.ceil(self.retry_after)))


class Buckets:
    """One token bucket per key, for one :class:`Rate`; ``what`` names the limit in refusals."""

    def __init__(self, rate: Rate, what: str) -> None:
        self.rate = rate
        self.what = what
        self._burst = rate.burst
        self._per_second = rate.per_second
        self._idle = rate.burst / rate.per_second  # time for an empty bucket to fill up
        # key -> (tokens, when they were counted); kept in the order of their last use, oldest first
        # (an OrderedDict: moving a key to the end and reading the first are O(1), where a dict whose
        # front keeps being deleted makes each look at its first key scan the holes left).
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()

    def tokens(self, key: Hashable, now: float) -> float:
        """The tokens ``key`` has now (a key without a bucket has a full one)."""
        found = self._buckets.get(key)
        if found is None:
            return self._burst
        tokens, stamp = found
        return min(self._burst, tokens + (now - stamp) * self._per_second)

    def wait(self, tokens: float) -> float:
        """Seconds until a bucket of ``tokens`` has a whole one."""
        return max(0.0, (1 - tokens) / self._per_second)

    def put(self, key: Hashable, tokens: float, now: float) -> None:
        """``key`` has ``tokens`` now (and forget the buckets idle long enough to be full again)."""
        buckets = self._buckets
        buckets[key] = (tokens, now)
        buckets.move_to_end(key)
        while True:
            oldest = next(iter(buckets))
            if now - buckets[oldest][1] < self._idle and len(buckets) <= MAX_KEYS:
                return
            buckets.popitem(last=False)

    def take(self, key: Hashable, now: float) -> None:
        self.put(key, self.tokens(key, now) - 1, now)

    def __len__(self) -> int:
        return len(self._buckets)


@functools.lru_cache(maxsize=4096)  # (parsing an address costs more than the rest of a check)
def address_key(host: str | None) -> str:
    """The key of a client address: IPv4 as it is, IPv6 by its /64 network (an IPv4-mapped address as
    the IPv4 one); anything else (no address, a test client's name) as given."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Limiter:
    """Every rate of :class:`Limits`, keyed: ``player`` (a player id) and ``address`` (a client
    address) name who asks."""

    def __init__(self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits if limits is not None else Limits()
        self.clock = clock

        def buckets(rate: Rate | None, what: str) -> Buckets | None:
            return None if rate is None else Buckets(rate, what)

        lim = self.limits
        self.players_per_address = buckets(lim.players_per_address, "new players from one address")
        self.tables_per_player = buckets(lim.tables_per_player, "new tables from one player")
        self.tables_per_address = buckets(lim.tables_per_address, "new tables from one address")
        self.messages_per_player = buckets(lim.messages_per_player, "messages from one player")
        self.messages_per_address = buckets(lim.messages_per_address, "messages from one address")
        self.chat_per_player = buckets(lim.chat_per_player, "chat lines from one player")
        self.chat_per_address = buckets(lim.chat_per_address, "chat lines from one address")
        self.chat_per_table = buckets(lim.chat_per_table, "chat lines at one table")
        self.friend_requests_per_player = buckets(
            lim.friend_requests_per_player, "friend requests from one player"
        )
        self.invitations_per_player = buckets(lim.invitations_per_player, "invitations from one player")
        self.reports_per_player = buckets(lim.reports_per_player, "reports from one player")
        self.signin_failures_per_address_and_name = buckets(
            lim.signin_failures_per_address_and_name, "failed sign-ins for one name from one address"
        )
        self.signin_failures_per_name = buckets(lim.signin_failures_per_name, "failed sign-ins for one name")
        self.signin_failures_per_address = buckets(
            lim.signin_failures_per_address, "failed sign-ins from one address"
        )
        self.signins_per_address = buckets(lim.signins_per_address, "sign-ins from one address")
        self.signins_per_account = buckets(lim.signins_per_account, "sign-ins of one account")
        self.accounts_per_address = buckets(lim.accounts_per_address, "new accounts from one address")
        self.admin_failures_per_address = buckets(
            lim.admin_failures_per_address, "wrong admin tokens from one address"
        )

    def _pass(self, checks: Sequence[tuple[Buckets | None, Hashable]], ref: int | str | None) -> None:
        """Take a token from every bucket of ``checks``, or from none and raise :class:`RateLimited`
        naming the first limit that refused."""
        now = self.clock()
        levels = []
        for b, key in checks:
            if b is not None:
                tokens = b.tokens(key, now)
                if tokens < 1:
                    raise RateLimited(f"too many {b.what}: at most {b.rate.describe()}", b.wait(tokens), ref)
                levels.append((b, key, tokens))
        for b, key, tokens in levels:
            b.put(key, tokens - 1, now)

    def new_player(self, address: str | None) -> None:
        self._pass([(self.players_per_address, address_key(address))], None)

    def new_table(self, player: int, address: str | None, ref: int | str | None = None) -> None:
        self._pass([(self.tables_per_player, player), (self.tables_per_address, address_key(address))], ref)

    def message(self, player: int | None, address: str | None) -> None:
        """A websocket message from ``player`` (None before ``hello``) at ``address``."""
        where = address_key(address)
        if player is None:
            self._pass(((self.messages_per_address, where),), None)
        else:
            self._pass(((self.messages_per_player, player), (self.messages_per_address, where)), None)

    def chat(
        self, player: int, ref: int | str | None = None, address: str | None = None, table: str | None = None
    ) -> None:
        """A chat line of ``player`` from ``address`` at ``table``: a token from each of their buckets."""
        checks: list[tuple[Buckets | None, Hashable]] = [(self.chat_per_player, player)]
        if address is not None:
            checks.append((self.chat_per_address, address_key(address)))
        if table is not None:
            checks.append((self.chat_per_table, table))
        self._pass(checks, ref)

    def friend_request(self, player: int) -> None:
        self._pass([(self.friend_requests_per_player, player)], None)

    def invitation(self, player: int) -> None:
        self._pass([(self.invitations_per_player, player)], None)

    def report(self, player: int) -> None:
        self._pass([(self.reports_per_player, player)], None)

    def _failures(
        self, key: str, address: str | None, trusted: bool
    ) -> list[tuple[Buckets | None, Hashable]]:
        """The buckets a failure for the name of ``key`` from ``address`` fills: the pair's first, the
        address's, and the name's unless the asker's browser signed in to the account before
        (``trusted``: the name's bucket is what many addresses guessing one name meet)."""
        where = address_key(address)
        return [
            (self.signin_failures_per_address_and_name, (where, key)),
            (self.signin_failures_per_address, where),
            (None if trusted else self.signin_failures_per_name, key),
        ]

    def _check(self, checks: Sequence[tuple[Buckets | None, Hashable]]) -> None:
        now = self.clock()
        for b, bucket_key in checks:
            if b is not None:
                tokens = b.tokens(bucket_key, now)
                if tokens < 1:
                    raise RateLimited(f"too many {b.what}: at most {b.rate.describe()}", b.wait(tokens))

    def may_sign_in(
        self, key: str, address: str | None, trusted: bool = False, account: int | None = None
    ) -> None:
        """Refuse (:class:`RateLimited`) a sign-in for the name of ``key`` from ``address`` while its
        failures are beyond their rate (:meth:`_failures`), or the account's sign-ins are (``account``:
        the id the name leads to, if any); takes nothing (a failure or a success does)."""
        self._check(self._failures(key, address, trusted))
        if account is not None:
            self._check([(self.signins_per_account, account)])

    def sign_in_tried(self, address: str | None) -> None:
        """A sign-in is about to hash a password: a token from its address's sign-ins, or refused."""
        self._pass([(self.signins_per_address, address_key(address))], None)

    def sign_in_failed(self, key: str, address: str | None, trusted: bool = False) -> None:
        """A failed sign-in: a token from each bucket of :meth:`_failures`."""
        now = self.clock()
        for b, bucket_key in self._failures(key, address, trusted):
            if b is not None:
                b.take(bucket_key, now)

    def signed_in(self, account: int) -> None:
        """A sign-in that worked: a token from the account's sign-ins."""
        if self.signins_per_account is not None:
            self.signins_per_account.take(account, self.clock())

    def new_account(self, address: str | None) -> None:
        self._pass([(self.accounts_per_address, address_key(address))], None)

    def may_try_admin(self, address: str | None) -> None:
        """Refuse (:class:`RateLimited`) an admin request from ``address`` while its wrong tokens are
        beyond their rate; takes nothing (only a wrong token does: :meth:`admin_failed`)."""
        b = self.admin_failures_per_address
        if b is not None:
            tokens = b.tokens(address_key(address), self.clock())
            if tokens < 1:
                raise RateLimited(f"too many {b.what}: at most {b.rate.describe()}", b.wait(tokens))

    def admin_failed(self, address: str | None) -> None:
        if self.admin_failures_per_address is not None:
            self.admin_failures_per_address.take(address_key(address), self.clock())

    def keys(self) -> int:
        """How many buckets are kept now, over every limit (memory stays bounded: see the module)."""
        every = (
            self.players_per_address,
            self.tables_per_player,
            self.tables_per_address,
            self.messages_per_player,
            self.messages_per_address,
            self.chat_per_player,
            self.chat_per_address,
            self.chat_per_table,
            self.friend_requests_per_player,
            self.invitations_per_player,
            self.reports_per_player,
            self.signin_failures_per_address_and_name,
            self.signin_failures_per_name,
            self.signin_failures_per_address,
            self.signins_per_address,
            self.signins_per_account,
            self.accounts_per_address,
            self.admin_failures_per_address,
        )
        return sum(len(b) for b in every if b is not None)
