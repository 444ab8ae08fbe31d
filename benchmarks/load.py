"""The server under load: N concurrent players on loopback, through real websockets, with persistence on.

    .venv/bin/python benchmarks/load.py [--players 800 1600 3200 ...] [--workload a|b|c] [--warmup 20]
        [--seconds 30] [--clients 1] [--db URL] [--json] [--game hokm] [--bot-workers 1] [--bots URL]
        [--servers N --db postgresql+asyncpg://... --redis redis://...]

For each N a fresh ``cardhall serve`` (its own process, a fresh SQLite file unless ``--db``: every
applied action is committed before any frame shows it) and ``--clients`` load-generator processes (one
by default; two before 2026-12-06's twelfth session: at 9,600 people of workload b one process read
their frames in 29.0% of a core, two in 35.6%, taken from the cores the servers share):

- workload ``a``: four people at each ``hearts(decks=1,players=4)`` table (N/4 tables);
- workload ``b``: one person at each table of the same game, the other seats ``normal`` bots (N
  tables), the bots at the table's default pace;
- workload ``c``: one person at each table of ``--game`` (``hokm`` by default), every other seat a ``hard``
  bot (``--level expert``: an ``expert`` one; a search, thinking in the server's bot tier: ``--bot-workers``
  processes of its own, or the workers of ``--bots URL``), at the default pace (700 ms). Besides the latency
  it reports the person's **wait** between his turns (from the frame showing his action applied to the frame
  offering him his next choice) and each bot move's **delay beyond its pace** (the time from the frame of
  the action before it to the frame of the bot's action, less the pace), both as p50/p90/p99/max, and what
  the tier gave the bots (the server's ``CARDHALL_BOT_STATS``): per decision weight (the game's bot rules
  module's ``DECISION_WEIGHTS``: in Hokm the bids and trump weigh 3, the cards 1) the share of moves
  answered with the rules move and the median determinizations of those searched, over the whole run and
  over the window alone (``window``: the moves answered in the last ``--seconds`` before the server
  stopped). ``--spread S`` makes the people arrive over S seconds instead (about a hand of Hokm, 36 s: the
  tables' hands, and so their bidding, out of step, as in a hall where tables start at any time; at 400 a
  second every table bids at once). ``--spread`` works for (a) and (b) too: in (b) at 400 a second the
  tables' first hands end together, and their passes (three moves of the person's in a row, no bot between)
  make a surge of two to three times the steady rate of actions.

Players arrive at 400 a second (a table's players together), so tables start at different times; the
clock starts ``--warmup`` seconds after the last has arrived. Each person thinks 0.5-1.5 s (uniform)
whenever his newest frame offers legal actions, then sends a random legal one quoting that frame's
number. The latency is the time from sending an action to receiving the frame that shows it applied
(an ``action`` event of his seat); p50 and p99 are over the measured window, with the actions/s people
made, and the CPU the server process and the load generators used (per cent of one core), and the
load generators' longest collection (their garbage collector's pause in the window, which delays
every frame they are reading), and the machine's steal time (``steal``: the CPU its host gave other
machines while this one's processes wanted it, per cent of one core). Ten seconds before the
window each load generator collects and freezes what it holds (``gc.freeze``), so that its own full
collections, of every person's connection and frames, do not pause its reading in the window (runs
before 2026-12-03's ninth session did not), and then stops collecting until the window ends
(``gc.disable``: what a person makes for a frame is freed by reference counting, and a generator's
young collections, 10% of its CPU and pauses of 40-60 ms at 8,800-9,600 people in one process, delayed
every frame they came across; ``--generators-collect`` keeps them, as runs before 2026-12-06's
twelfth session did).
Each load generator's loop wakes at most once a millisecond (``--generator-tick``; 0: at every frame,
as runs before 2026-12-06's fifteenth session did): each turn of the loop sleeps out the rest of its
tick, and the next reads every frame that arrived meanwhile and sends every action that fell due. The
generators stand for people on other machines but share the servers' cores here: woken at every
frame (3,700 times a second at 9,440 people), one generator preempted the two servers of ``--servers
2`` 1,550-1,880 times a second each and used 31% of a core; once a millisecond, 460 times and 26%. A
frame is seen up to a tick after it arrived, so the latency measured is up to a tick longer, never
shorter.
Tables have no turn timer. Players and tables are made through the HTTP API before the clock starts.
The people's connections answer the server's keepalive pings and send none, as a browser's WebSocket
does (``--client-pings``, with ``--client websockets``: they ping every 20 s too, as websockets'
clients do and as the runs before 2026-12-02's sixth session did). They are ``load_wire``'s lean
client, which hands each frame to the person as it is parsed; ``--client websockets`` runs them on
websockets' asyncio client instead, as every run before 2026-12-03's tenth session did (it cost the
generators about 1.6 times the CPU, taken from the cores the servers share).

``--servers N`` (N > 1: a hall on PostgreSQL ``--db`` and Redis ``--redis``) starts N ``cardhall serve``
processes on N ports, as N machines behind a load balancer would be: table k is made through server
k mod N (which then owns it), and person k connects to server k mod N, so with four people a table
half of them play through another process than the owner (workload b: one person a table, all
through its owner unless ``--cross``, which sends each person to another server than his table's).
The server CPU is then the sum over the N processes, and the run reports the Redis commands and the
PostgreSQL transactions committed per person action over the window.

``--seekers RATE`` (issue 49) runs, in the same server and window, a Poisson stream of people pressing
"Play now" for Hokm at RATE a second, in a load-generating process of their own (``load_seekers``: each
seeks with the defaults and, once seated, leaves the table at once, so the hall's people stay constant);
it reports beside the latency and CPU the seekers who arrived in the window, how many were seated and
their wait (from ``seek`` to ``seated``, p50/p90), and that process's CPU. ``--seekers-connected``:
the window's seekers are people already on the site (connected, ``hello`` said, before the window),
who only press Play now in it (``load_seekers``). The Play now queue runs in
every server whether or not anyone seeks; without ``--seekers`` nobody does.

``--server-src DIR`` runs the servers from another checkout's ``src`` (an older version, back to back
with this one under the same load generators); ``--timeline`` prints the median and the worst latency
of each second of the window, which tells a backlog left by the arrivals from a steady state that
queues.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec

import load_seekers  # (as load_wire)
import load_wire  # run as a script: benchmarks/ is on the path (the spawned generators' too)
from cardhall import loadclient

GAME = "hearts(decks=1,players=4)"
PACE_MS = 700  # the tables' default bot_pace_ms (workloads b and c)
SETTINGS = {"turn_seconds": 0, "away_seconds": 3600}
ARRIVALS = 400  # players arriving per second while the load builds up


def raise_open_files() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def http(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def steal_seconds() -> float:
    """CPU seconds the machine's hypervisor gave other machines while this one's wanted them, summed
    over its cores (Linux /proc/stat's ``steal``): a shared host slowing every process of a run."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[8]) / os.sysconf("SC_CLK_TCK")


TIMELINE = False  # --timeline

# What every server process gets in its environment besides ours (--server-src: PYTHONPATH).
SERVER_ENV: dict[str, str] = {}


def start_server(
    port: int,
    db: str,
    extra: list[str] | None = None,
    env: dict[str, str] | None = None,
    redis: str | None = None,
) -> subprocess.Popen[bytes]:
    # Every player comes from this one address: no rates per person or address, no limit on the
    # connections of one address (the total stays).
    command = [
        *(sys.executable, "-m", "cardhall", "serve", "--port", str(port), "--db", db),
        *("--no-rate-limits", "--max-connections-per-address", "0"),
        *(extra or []),
    ]
    if redis:
        command += ["--redis", redis]  # (each process named by cardhall: unique, never another hall's)
    # Its log goes to a file, not a pipe: a pipe nobody reads stops a server that logs much, once full.
    log = tempfile.TemporaryFile()  # noqa: SIM115  (open for the life of the server: closed with it)
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=log,
        preexec_fn=raise_open_files,
        env={**os.environ, **SERVER_ENV, **(env or {})},
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            http(port, "GET", "/api/games")
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise SystemExit(f"the server did not start: {log.read().decode()}") from None
            time.sleep(0.2)


def seats_of(game: str) -> int:
    """The number of seats at a table of ``game`` (workload c's games)."""
    from cardhall import load_game

    return int(load_game(game).num_players)


def make_tables(
    ports: list[int], players: int, workload: str, game: str = GAME, level: str = "hard"
) -> list[tuple[str, int, str]]:
    """(table, seat, token) for every person, the tables made through the HTTP API (table k through
    server k mod N: it owns the table)."""
    port = ports[0]
    with ThreadPoolExecutor(8) as pool:
        tokens = list(
            pool.map(lambda k: http(port, "POST", "/api/players", {"name": f"p{k}"})["token"], range(players))
        )
        per_table = 4 if workload == "a" else 1
        bots = {} if workload == "a" else {str(s): "normal" for s in (1, 2, 3)}
        if workload == "c":
            bots = {str(s): level for s in range(1, seats_of(game))}

        def table(k: int) -> str:
            body = {"game": game, "settings": SETTINGS, "bots": bots}
            owner = ports[k % len(ports)]
            created: str = http(owner, "POST", "/api/tables", body, tokens[k * per_table])["table"]
            return created

        tables = list(pool.map(table, range(players // per_table)))
    return [(tables[k // per_table], k % per_table, tokens[k]) for k in range(len(tables) * per_table)]


def make_players(port: int, count: int, prefix: str = "p") -> list[str]:
    """The tokens of ``count`` new players made through the HTTP API."""
    with ThreadPoolExecutor(8) as pool:
        body = lambda k: {"name": f"{prefix}{k}"}  # noqa: E731
        return list(pool.map(lambda k: http(port, "POST", "/api/players", body(k))["token"], range(count)))


# --- one load-generator process --------------------------------------------------------------------


class Seen(msgspec.Struct):
    """An event, as far as a load-generating person reads it."""

    type: str
    n: int
    seat: int | None = None


class Choice(msgspec.Struct):
    action: int


NO_CHOICE = msgspec.Raw(b"[]")


class Frame(msgspec.Struct):
    """A server frame, as far as a load-generating person reads it (the rest is skipped unread; its
    legal actions are kept unread until he acts on them: most frames are replaced by the next before)."""

    type: str
    n: int = -1
    status: str = ""
    legal: msgspec.Raw = NO_CHOICE
    events: list[Seen] = []


class Person:
    """One load-generating person's reading of his frames and his moves, whatever carries them:
    ``read`` each frame as it arrives; ``send`` (given) carries a message to the server."""

    def __init__(
        self,
        table: str,
        seat: int,
        stats: dict[str, Any],
        window: tuple[float, float],
        send: Callable[[str], None],
    ) -> None:
        self.table, self.seat, self.stats, self.window, self.send = table, seat, stats, window, send
        self.decode = msgspec.json.Decoder(Frame).decode  # the generator reads little, so it stays light
        self.choices = msgspec.json.Decoder(list[Choice]).decode
        self.act_prefix = f'{{"type":"act","table":{json.dumps(table)},"action":'  # (then action, n)
        self.rng = random.Random(f"{table}/{seat}")
        self.loop = asyncio.get_running_loop()
        self.newest = Frame("none")
        self.sent: tuple[float, int] | None = None  # (when, the number it quoted)
        self.last_action = 0.0  # when the frame of the newest action arrived (workload c)
        self.turn_over = 0.0  # when the frame showing his own last action arrived (workload c)
        self.thinking: asyncio.TimerHandle | None = None

    def read(self, text: str | bytes | memoryview) -> None:
        frame = self.decode(text)
        stats, window, seat = self.stats, self.window, self.seat
        if frame.type == "error":
            stats["errors"] += 1
            self.sent = None  # refused (stale): act again on the newest frame
        elif frame.type in ("table", "update") and frame.n >= self.newest.n:
            now = time.time()
            in_window = window[0] <= now < window[1]
            for e in frame.events:
                if e.type != "action":
                    continue
                if e.seat == seat:
                    self.turn_over = now
                elif self.last_action and in_window:
                    stats["bot_delay"].append(now - self.last_action - PACE_MS / 1000)
                self.last_action = now
            if self.turn_over and frame.legal != NO_CHOICE and self.newest.legal == NO_CHOICE and in_window:
                stats["wait"].append(now - self.turn_over)
                self.turn_over = 0.0
            self.newest = frame
            sent = self.sent
            if sent is not None and any(
                e.type == "action" and e.seat == seat and e.n > sent[1] for e in frame.events
            ):
                if in_window:
                    stats["latency"].append(now - sent[0])
                    stats["timeline"].append((int(now - window[0]), now - sent[0]))
                    stats["actions"] += 1
                self.sent = None
        newest = self.newest
        if (
            newest.legal != NO_CHOICE
            and self.sent is None
            and self.thinking is None
            and newest.status == "playing"
        ):
            self.thinking = self.loop.call_later(self.rng.uniform(0.5, 1.5), self.decide)

    def decide(self) -> None:
        """After thinking: a random legal action of the newest frame."""
        self.thinking = None
        newest = self.newest
        if newest.legal != NO_CHOICE and self.sent is None and newest.status == "playing":
            action = self.rng.choice(self.choices(newest.legal)).action
            self.sent = (time.time(), newest.n)
            self.send(f'{self.act_prefix}{action},"n":{newest.n}}}')

    def stop(self) -> None:
        if self.thinking is not None:
            self.thinking.cancel()


async def person(
    port: int,
    table: str,
    seat: int,
    token: str,
    stats: dict[str, Any],
    window: tuple[float, float],
    pings: bool = False,
) -> None:
    """A person over websockets' asyncio client (``--client websockets``)."""
    loop = asyncio.get_running_loop()
    sending: set[asyncio.Task[None]] = set()

    def settled(task: asyncio.Task[None]) -> None:
        sending.discard(task)
        if not task.cancelled():
            task.exception()  # a send cut short by the end of the run: nothing to report

    # The connection and the messages of the tests' client (cardhall.loadclient); the frames are read
    # by the Person's own decoder as they stream.
    async with loadclient.open_async(port, pings=pings) as ws:

        def send(message: str) -> None:
            task = loop.create_task(ws.send(message))
            sending.add(task)
            task.add_done_callback(settled)

        me = Person(table, seat, stats, window, send)
        await ws.send(loadclient.message(type="hello", token=token))
        await ws.send(loadclient.message(type="join", table=table, seat=seat))
        try:
            async for text in ws:
                me.read(text)
        finally:
            me.stop()


async def lean_person(
    port: int,
    table: str,
    seat: int,
    token: str,
    stats: dict[str, Any],
    window: tuple[float, float],
    pings: bool = False,
) -> None:
    """A person over the lean client (``load_wire``, the default): each frame read as it is parsed."""
    closed = asyncio.get_running_loop().create_future()
    holder: list[Person] = []

    def opened(client: load_wire.LeanClient) -> None:
        holder.append(Person(table, seat, stats, window, client.send_text))
        client.send_text(loadclient.message(type="hello", token=token))
        client.send_text(loadclient.message(type="join", table=table, seat=seat))

    def gone() -> None:
        if not closed.done():
            closed.set_result(None)

    client = await load_wire.open_lean(
        "127.0.0.1", port, lambda payload: holder[0].read(payload), opened, gone
    )
    try:
        await closed
    finally:
        if holder:
            holder[0].stop()
        client.close()


GENERATOR_TICK = 0.001  # seconds: a load generator's loop wakes at most once in this long


def add_generator_tick(parser: argparse.ArgumentParser) -> None:
    """The ``--generator-tick`` option, as ``load.py`` and ``edge.py`` take it: given in milliseconds
    (0 or more), parsed to seconds."""

    def seconds(text: str) -> float:
        tick = float(text)
        if tick < 0:
            raise argparse.ArgumentTypeError(f"--generator-tick is 0 milliseconds or more, not {text}")
        return tick / 1000

    parser.add_argument(
        "--generator-tick",
        type=seconds,
        default=GENERATOR_TICK,
        help="milliseconds: a load generator wakes at most once in this long (0: for every frame, as"
        " before 2026-12-06's fifteenth session)",
    )


async def wake_once_a_tick(tick: float) -> None:
    """Keep this event loop from waking more often than once a ``tick``: each turn of the loop sleeps
    out what is left of its tick, and the next turn then reads every socket that became readable
    meanwhile, and runs every timer that fell due, in one go. Forever (cancel it)."""
    began = time.monotonic()
    while True:
        rest = tick - (time.monotonic() - began)
        if rest > 0:
            time.sleep(rest)  # (the whole loop: that is the point)
        began = time.monotonic()
        await asyncio.sleep(0)  # (one turn of the loop: its I/O polled without waiting)


def client_process(
    ports: list[int],
    people: list[tuple[str, int, str, int]],
    rate: float,
    window: tuple[float, float],
    out: Any,
    pings: bool = False,
    lean: bool = True,
    collect: bool = False,
    tick: float = GENERATOR_TICK,
) -> None:
    raise_open_files()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    stats: dict[str, Any] = {
        "latency": [],
        "timeline": [],
        "actions": 0,
        "errors": 0,
        "events": 0,
        "wait": [],
        "bot_delay": [],
        "gc_pauses": [],  # (this process's collections in the window, seconds: its own pauses)
    }
    collection_began = [0.0]

    def time_collections(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collection_began[0] = time.perf_counter()
        elif window[0] <= time.time() <= window[1]:
            stats["gc_pauses"].append(time.perf_counter() - collection_began[0])

    gc.callbacks.append(time_collections)

    async def main() -> None:
        tasks = []
        began = time.monotonic()
        for k, (table, seat, token, server) in enumerate(people):
            one = (lean_person if lean else person)(ports[server], table, seat, token, stats, window, pings)
            tasks.append(asyncio.create_task(one))
            # Players arrive at a steady rate (a table's together), so tables start at different times.
            await asyncio.sleep(max(0.0, began + (k + 1) / rate - time.monotonic()))
        await asyncio.sleep(max(0.0, window[1] - time.time()))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    started = time.process_time()
    cpu_at_window: list[float] = []

    async def watch_cpu() -> None:
        # What the people hold once they are all here is kept out of the collector's way: a full
        # collection of it pauses this process, and every frame it is reading waits that long.
        await asyncio.sleep(max(0.0, window[0] - 10.0 - time.time()))  # (half the default warmup)
        gc.collect()
        gc.freeze()
        if not collect:
            gc.disable()  # (until the window's end: a generator's pause is not the server's latency)
        await asyncio.sleep(max(0.0, window[0] - time.time()))
        cpu_at_window.append(time.process_time())
        await asyncio.sleep(max(0.0, window[1] - time.time()))
        gc.enable()

    async def both() -> None:
        ticks = asyncio.create_task(wake_once_a_tick(tick)) if tick > 0 else None
        await asyncio.gather(main(), watch_cpu())
        if ticks is not None:
            ticks.cancel()

    asyncio.run(both())
    stats["cpu"] = time.process_time() - (cpu_at_window[0] if cpu_at_window else started)
    out.put(stats)


# --- a level of load -------------------------------------------------------------------------------


def run_level(
    players: int,
    workload: str,
    warmup: float,
    seconds: float,
    clients: int,
    db: str,
    game: str = GAME,
    server_options: list[str] | None = None,
    servers: int = 1,
    redis: str = "",
    cross: bool = False,
    spread: float = 0.0,
    client_pings: bool = False,
    lean: bool = True,
    generators_collect: bool = False,
    generator_tick: float = GENERATOR_TICK,
    level: str = "hard",
    seekers: float = 0.0,
    seekers_connected: bool = False,
) -> dict[str, Any]:
    # --spread: the people arrive over that many seconds (the tables' hands out of step).
    arrivals = players / spread if spread else ARRIVALS
    ports = [free_port() for _ in range(servers)]
    hall: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        url = db or f"sqlite+aiosqlite:///{tmp}/load.db"
        if url.startswith("postgresql"):
            url = fresh_database(url)  # (a level's tables are never the last level's: none to take over)
        if redis:
            import redis as redis_client

            redis_client.Redis.from_url(redis).flushdb()
        # The server writes its bot tier's statistics here as it stops (what "hard" got under load).
        bot_stats = f"{tmp}/bot-stats.json"
        try:
            for port in ports:
                # (and, workload c, also over the last `seconds` before the server stops: the window)
                env = {"CARDHALL_BOT_STATS": bot_stats, "CARDHALL_BOT_STATS_SECONDS": str(seconds)}
                hall.append(start_server(port, url, server_options, env, redis or None))
                print(f"server pid {hall[-1].pid} on port {port}", file=sys.stderr, flush=True)
            people = make_tables(ports, players, workload, game, level)
            # --seekers: a player of his own for each arrival, from the last person's arrival to the end
            before = 2 + players / arrivals + warmup + seconds
            seeker_tokens = (
                make_players(ports[0], load_seekers.players_needed(seekers, before), "s") if seekers else []
            )
            # Person k connects to server k mod N (or, --cross, to one his table's owner is not).
            owners = {t: (k // (4 if workload == "a" else 1)) % servers for k, (t, _, _) in enumerate(people)}
            placed = [
                (t, seat, token, (owners[t] + 1) % servers if cross else k % servers)
                for k, (t, seat, token) in enumerate(people)
            ]
            start = time.time() + 2 + players / arrivals  # every player has arrived
            window = (start + warmup, start + warmup + seconds)
            queue: Any = multiprocessing.get_context("spawn").Queue()
            by_table: dict[str, list[tuple[str, int, str, int]]] = {}
            for entry in placed:
                by_table.setdefault(entry[0], []).append(entry)
            shares: list[list[tuple[str, int, str, int]]] = [[] for _ in range(clients)]
            for k, group in enumerate(by_table.values()):
                shares[k % clients].extend(group)
            context = multiprocessing.get_context("spawn")
            options = (client_pings, lean, generators_collect, generator_tick)
            procs = [
                context.Process(
                    target=client_process, args=(ports, s, arrivals / clients, window, queue, *options)
                )
                for s in shares
            ]
            if seekers:
                # (they come once every person has: the queue is in its steady state by the window)
                procs.append(
                    context.Process(
                        target=load_seekers.seekers_process,
                        args=(ports[0], seeker_tokens, seekers, start, window, queue, 49, seekers_connected),
                    )
                )
            for p in procs:
                p.start()
            time.sleep(max(0.0, window[0] - time.time()))
            server_cpu = sum(cpu_seconds(s.pid) for s in hall)
            stolen = steal_seconds()
            services = service_counts(url, redis)
            time.sleep(max(0.0, window[1] - time.time()))
            server_cpu = sum(cpu_seconds(s.pid) for s in hall) - server_cpu
            stolen = steal_seconds() - stolen
            services = {k: v - services[k] for k, v in service_counts(url, redis).items()}
            got = [queue.get(timeout=120) for _ in procs]
            results = [r for r in got if "latency" in r]
            seeking = [r for r in got if "latency" not in r]
            for p in procs:
                p.join(timeout=60)
        finally:
            for server in hall:
                server.send_signal(signal.SIGTERM)
            for server in hall:
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()
        tier: Any = None
        if os.path.exists(bot_stats):
            with open(bot_stats) as f:
                tier = json.load(f)
    latency = sorted(x for r in results for x in r["latency"])

    def pct(q: float) -> float:
        return 1000 * latency[min(len(latency) - 1, int(q * len(latency)))] if latency else float("nan")

    def distribution(name: str) -> dict[str, float]:
        xs = sorted(x for r in results for x in r[name])
        if not xs:
            return {}
        at = {q: round(1000 * xs[min(len(xs) - 1, int(q * len(xs)))]) for q in (0.5, 0.9, 0.99)}
        return {
            "n": len(xs),
            "p50_ms": at[0.5],
            "p90_ms": at[0.9],
            "p99_ms": at[0.99],
            "max_ms": round(1000 * xs[-1]),
        }

    extra: dict[str, Any] = {}
    if TIMELINE:
        by_second: dict[int, list[float]] = {}
        for r in results:
            for second, x in r["timeline"]:
                by_second.setdefault(second, []).append(x)
        for second in sorted(by_second):
            xs = sorted(by_second[second])
            print(
                f"  t={second:3d}s n={len(xs):5d}"
                f" p50={1000 * xs[len(xs) // 2]:8.1f} max={1000 * xs[-1]:8.1f}",
                file=sys.stderr,
            )
    if workload == "c":
        extra = {
            "wait": distribution("wait"),
            "bot_delay": distribution("bot_delay"),
            "game": game,
            "bot_tier": tier,
        }
    if seeking:
        (s,) = seeking
        waits = sorted(s["wait"])

        def wait_at(q: float) -> float | None:
            return round(waits[min(len(waits) - 1, int(q * len(waits)))], 3) if waits else None

        extra["seekers"] = {
            "rate": seekers,
            "connected": seekers_connected,
            "arrived": s["arrived"],
            "welcomed": s["welcomed"],
            "seeking": s["seeking"],
            "seated": s["seated"],
            "takeovers": s["takeovers"],
            "wait_p50_s": wait_at(0.5),
            "wait_p90_s": wait_at(0.9),
            "wait_max_s": round(waits[-1], 3) if waits else None,
            "errors": s["errors"],
            "failed": s["failed"],
            "error_codes": s["error_codes"],
            "reused": s["reused"],
            "cpu_pct": round(100 * s["cpu"] / seconds, 1),
        }
    actions = sum(r["actions"] for r in results)
    return {
        **extra,
        "workload": workload,
        "servers": servers,
        "players": players,
        "tables": len({p[0] for p in people}),
        "p50_ms": round(pct(0.50), 1),
        "p99_ms": round(pct(0.99), 1),
        "mean_ms": round(1000 * statistics.fmean(latency), 1) if latency else None,
        "person_actions_per_s": round(sum(r["actions"] for r in results) / seconds, 1),
        "errors": sum(r["errors"] for r in results),
        "server_cpu_pct": round(100 * server_cpu / seconds, 1),
        "clients_cpu_pct": round(100 * sum(r["cpu"] for r in results) / seconds, 1),
        "clients_gc_max_ms": round(1000 * max((x for r in results for x in r["gc_pauses"]), default=0), 1),
        "clients_gc_ms": round(1000 * sum(x for r in results for x in r["gc_pauses"]), 1),
        "generator_tick_ms": generator_tick * 1000,
        "steal_pct": round(100 * stolen / seconds, 1),  # (of one core, the machine's cores summed)
        "server_cpu_ms_per_action": round(1000 * server_cpu / actions, 2) if actions else None,
        **{f"{k}_per_action": round(v / actions, 2) if actions else None for k, v in services.items()},
    }


def fresh_database(url: str) -> str:
    """A new, empty database on the PostgreSQL server of ``url``; its URL."""
    import asyncpg

    name = f"load_{random.randrange(10**9)}"
    base, _, query = url.partition("?")
    head = base.rsplit("/", 1)[0]

    async def create() -> None:
        connection = await asyncpg.connect(url.replace("+asyncpg", ""))
        try:
            await connection.execute(f"CREATE DATABASE {name}")
        finally:
            await connection.close()

    asyncio.run(create())
    return f"{head}/{name}" + (f"?{query}" if query else "")


def service_counts(db: str, redis: str) -> dict[str, float]:
    """Counters of the services: PostgreSQL's committed transactions of the database, Redis's commands
    processed (each absent when not used)."""
    found: dict[str, float] = {}
    if db.startswith("postgresql"):
        import asyncpg

        async def commits() -> float:
            dsn = db.replace("+asyncpg", "")
            connection = await asyncpg.connect(dsn)
            try:
                value = await connection.fetchval(
                    "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                )
                return float(value)
            finally:
                await connection.close()

        found["pg_commits"] = asyncio.run(commits())
    if redis:
        import redis as redis_client

        info = redis_client.Redis.from_url(redis).info("stats")
        found["redis_commands"] = float(info["total_commands_processed"])
    return found


def tier_summary(tier: dict[str, Any] | None) -> str:
    """Workload c: per decision weight, the moves answered, the share of them that were the rules move,
    the late ones and the searched moves' median budget and determinizations."""
    if not tier:
        return ""
    parts = []
    tier = tier.get("window", tier)
    for weight, s in tier.get("by_weight", {"all": tier}).items():
        answered = s["answered"]
        total = sum(answered.values())
        rules = total - answered["search"]
        budget, done = s["searched_budget_ms_determinizations"]["p50"]
        share = f"{100 * rules / total:.0f}%" if total else "-"
        parts.append(
            f"weight {weight}: {total} moves, rules {share} (late {answered['late']}),"
            f" searched p50 {budget} ms / {done} determinizations"
        )
    return "\n        " + "\n        ".join(parts)


def seekers_summary(seekers: dict[str, Any] | None) -> str:
    """--seekers: the Play now arrivals of the window, seated, their wait (a line of its own)."""
    if not seekers:
        return ""
    return (
        f"\n        seekers {seekers['rate']}/s{' (connected ahead)' if seekers.get('connected') else ''}:"
        f" arrived {seekers['arrived']} welcomed {seekers['welcomed']}"
        f" seeking {seekers['seeking']} seated {seekers['seated']}"
        f" (bots' seats {seekers['takeovers']}) wait p50 {seekers['wait_p50_s']} s p90"
        f" {seekers['wait_p90_s']} s max {seekers['wait_max_s']} s  errors {seekers['errors']}"
        f" failed {seekers['failed']} {seekers['error_codes'] or ''}  reused {seekers['reused']}"
        f"  their generator's CPU {seekers['cpu_pct']}%"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[800, 1600, 3200, 4800, 6400])
    parser.add_argument("--workload", choices=("a", "b", "c"), default="a")
    parser.add_argument("--game", default="", help="workload c's game (default hokm; a and b: hearts)")
    parser.add_argument("--level", default="hard", help="workload c's bot level (default hard; or expert)")
    parser.add_argument(
        "--bot-workers", type=int, default=0, help="the server's --bot-workers (0: its default)"
    )
    parser.add_argument("--bots", default="", help="the server's --bots (a bot tier's URL: redis://...)")
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=1, help="load-generator processes")
    parser.add_argument("--db", default="", help="database URL (default: a fresh SQLite file per level)")
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes (N > 1: --db PostgreSQL, --redis)"
    )
    parser.add_argument(
        "--redis", default="", help="the hall's Redis (redis://host:port/0), with --servers N > 1"
    )
    parser.add_argument("--cross", action="store_true", help="each person on another server than his table's")
    parser.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="the people arrive over this many seconds (default: 400 a second)",
    )
    parser.add_argument(
        "--server-src",
        default="",
        help="run the server from another checkout's src directory (two versions back to back)",
    )
    parser.add_argument(
        "--client-pings",
        action="store_true",
        help="the people's connections send keepalive pings too (as runs before 2026-12-02's sixth session)",
    )
    parser.add_argument(
        "--client",
        choices=("lean", "websockets"),
        default="lean",
        help="the people's websocket client: load_wire's (default) or websockets' asyncio one (as runs"
        " before 2026-12-03's tenth session)",
    )
    parser.add_argument(
        "--generators-collect",
        action="store_true",
        help="the load generators collect garbage in the window (as before 2026-12-06's twelfth session)",
    )
    add_generator_tick(parser)
    parser.add_argument(
        "--seekers",
        type=float,
        default=0.0,
        help="Play now arrivals a second for Hokm in the same window (issue 49; default 0: none)",
    )
    parser.add_argument(
        "--seekers-connected",
        action="store_true",
        help="the window's seekers are connected (hello said) before it, and only seek in it",
    )
    parser.add_argument(
        "--timeline", action="store_true", help="print each second's p50 and worst latency (stderr)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    global TIMELINE
    TIMELINE = args.timeline
    if args.server_src:
        # (the caller's own PYTHONPATH after it: a probe's sitecustomize, say)
        paths = [os.path.abspath(args.server_src), *filter(None, [os.environ.get("PYTHONPATH")])]
        SERVER_ENV["PYTHONPATH"] = os.pathsep.join(paths)
    if args.client_pings and args.client == "lean":
        parser.error("--client-pings needs --client websockets (the lean client sends no pings)")
    if args.servers > 1 and not (args.redis and args.db.startswith("postgresql")):
        parser.error("--servers N > 1 needs --db postgresql+asyncpg://... and --redis redis://...")
    raise_open_files()
    game = args.game or ("hokm" if args.workload == "c" else GAME)
    options = [*(["--bot-workers", str(args.bot_workers)] if args.bot_workers else [])]
    options += ["--bots", args.bots] if args.bots else []
    print(f"workload {args.workload}, {game}, {os.cpu_count()} cores; persistence on", file=sys.stderr)
    rows = []
    for n in args.players:
        row = run_level(
            n,
            args.workload,
            args.warmup,
            args.seconds,
            args.clients,
            args.db,
            game,
            options,
            args.servers,
            args.redis,
            args.cross,
            args.spread,
            args.client_pings,
            args.client == "lean",
            args.generators_collect,
            args.generator_tick,
            args.level,
            args.seekers,
            args.seekers_connected,
        )
        rows.append(row)
        if not args.json and args.workload == "c":
            w, d = row["wait"], row["bot_delay"]
            print(
                f"{row['players']:>6} players  wait p50/p90/p99/max {w.get('p50_ms')}/{w.get('p90_ms')}/"
                f"{w.get('p99_ms')}/{w.get('max_ms')} ms  bot delay beyond pace {d.get('p50_ms')}/"
                f"{d.get('p90_ms')}/{d.get('p99_ms')}/{d.get('max_ms')} ms"
                f"  server CPU {row['server_cpu_pct']}%"
                f"  errors {row['errors']}" + tier_summary(row["bot_tier"]),
                flush=True,
            )
        elif not args.json:
            print(
                f"{row['servers']} servers {row['players']:>6} players {row['tables']:>5} tables"
                f"  p50 {row['p50_ms']:>7} ms"
                f"  p99 {row['p99_ms']:>7} ms  {row['person_actions_per_s']:>7} actions/s"
                f"  server CPU {row['server_cpu_pct']:>5}%  load generators CPU {row['clients_cpu_pct']:>5}%"
                f"  errors {row['errors']}  CPU ms/action {row['server_cpu_ms_per_action']}"
                f"  load generators' longest collection {row['clients_gc_max_ms']} ms"
                f"  steal {row['steal_pct']}%"
                + "".join(
                    f"  {k} {v}"
                    for k, v in row.items()
                    if k in ("pg_commits_per_action", "redis_commands_per_action")
                )
                + seekers_summary(row.get("seekers")),
                flush=True,
            )
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
