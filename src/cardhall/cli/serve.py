"""``cardhall serve``: the multiplayer server (Starlette on uvicorn) on this machine, with the limits of
:mod:`cardhall.server.transport` (connections, timeouts, open files) and
:mod:`cardhall.server.guard` (request bodies) as options an operator may change.

The port is bound before the server says where it serves: a port another server holds is one line
(``port 8000 on 127.0.0.1 is taken ...: choose another with --port 8001 (make run PORT=8001)``), exit
status 2, never "serving on" followed by uvicorn's ``[Errno 98]``.

The operator's token (for ``cardhall admin``) comes from ``--admin-token-file`` or
``CARDHALL_ADMIN_TOKEN``; the server says only whether it has one, never what it is.
``--bots redis://host:6379/0`` sends the search bots' moves to the bot tier's workers over Redis
(``cardhall bots --redis URL``, any number, on any machine) instead of ``--bot-workers`` processes of its
own (:mod:`cardhall.bot_tier`).
``--no-rate-limits`` lifts the rates per person and per address (:mod:`cardhall.server.rates`), for a
load test whose players all come from one address; the per-connection flood limit stays.

Behind a reverse proxy, ``--trusted-proxy ADDRESS`` (an IP address or a network, as many as there are
proxies) names the proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` the server believes: a
request from one of them counts against its client's address, every other request against the address
it comes from. None is trusted by default (uvicorn's own default, 127.0.0.1, let any process on the
machine pick the address it is counted under).

Many processes (:mod:`cardhall.server.cluster`): ``--redis URL`` makes this process one of a hall on
PostgreSQL and Redis (on any number of machines, behind any TCP load balancer); ``--workers N`` runs N
such processes on this machine and port (:mod:`cardhall.server.workers`). Both refuse SQLite: it is one
process's store (its lock is per file, and its leases would serve no other machine).

SIGUSR1 writes every thread's stack to standard error (``faulthandler``): what a process that does not
stop is doing, asked for by the ``--workers`` supervisor before it kills such a worker.
"""

from __future__ import annotations

import argparse
import errno
import faulthandler
import ipaddress
import signal
import socket

from rich.console import Console

from cardhall.cli.admin import TOKEN_VARIABLE, read_token
from cardhall.cli.bots import check_redis_url
from cardhall.errors import CardhallError

DEFAULT_DB = "sqlite+aiosqlite:///cardhall.db"


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    try:
        import uvicorn  # noqa: F401 (here only to say what is missing before anything starts)

        import cardhall.server.app  # noqa: F401
    except ImportError as e:
        raise CardhallError(f"the server needs its extra: pip install 'cardhall[server]' ({e})") from None
    if not 0 <= args.port < 65536:
        raise CardhallError(f"--port must be 0..65535, got {args.port}")
    if args.bot_workers < 1:
        raise CardhallError(f"--bot-workers must be at least 1, got {args.bot_workers}")
    bots_url = check_redis_url(args.bots, "--bots") if args.bots else None
    for option in ("request_timeout", "write_timeout"):
        if not getattr(args, option) > 0:
            raise CardhallError(f"--{option.replace('_', '-')} must be more than 0 seconds")
    if args.max_connections_per_address < 0:
        raise CardhallError("--max-connections-per-address must be 0 (no limit) or more")
    if args.max_connections is not None and args.max_connections < 1:
        raise CardhallError(f"--max-connections must be at least 1, got {args.max_connections}")
    if args.max_body < 1:
        raise CardhallError(f"--max-body must be at least 1 byte, got {args.max_body}")
    if not 1 <= args.review_budget <= 100_000:
        raise CardhallError(f"--review-budget must be 1..100000, got {args.review_budget}")
    if args.workers < 1:
        raise CardhallError(f"--workers must be at least 1, got {args.workers}")
    trusted = [_proxy(text) for text in args.trusted_proxy]
    many = args.workers > 1 or args.redis is not None
    if many and not args.db.startswith(("postgresql", "postgres")):
        raise CardhallError(
            f"--workers {args.workers} and --redis need PostgreSQL (--db postgresql+asyncpg://...) and "
            "Redis (--redis redis://host:port/0): SQLite is the store of one process"
        )
    if args.workers > 1:
        if args.redis is None:
            raise CardhallError(
                f"--workers {args.workers} needs --redis URL: the workers' bus (redis://host:port/0)"
            )
        from cardhall.server.workers import Supervisor

        listen(args.host, args.port).close()  # a port in use: said once here, not by each worker in turn
        console.print(
            f"cardhall: {args.workers} workers on http://{args.host}:{args.port}/ (one port, SO_REUSEPORT)",
            markup=False,
        )
        return Supervisor(args.workers, _worker_argv(args), args.port).run()
    token = read_token(args.admin_token_file, "--admin-token-file")  # (refused before the port is taken)
    # The port is taken before anything is opened or said: a port in use is one line naming it.
    listener = listen(args.host, args.port, reuse_port=args.reuse_port)
    try:
        return _serve(args, console, listener, token, trusted, bots_url)
    finally:
        listener.close()


def _serve(
    args: argparse.Namespace,
    console: Console,
    listener: socket.socket,
    token: str | None,
    trusted: list[str],
    bots_url: str | None,
) -> int:
    """The server on ``listener`` until it stops (its options checked already)."""
    import uvicorn

    from cardhall.server import transport
    from cardhall.server.app import create_app
    from cardhall.server.rates import Limits

    port = listener.getsockname()[1]  # (the one the system chose, for --port 0)
    cap = transport.connection_cap(transport.raise_file_limit())
    wanted = [n for n in (cap, args.max_connections) if n is not None]
    limits = transport.Limits(
        request_timeout=args.request_timeout,
        write_timeout=args.write_timeout,
        per_address=args.max_connections_per_address,
        total=min(wanted) if wanted else None,
    )
    http, ws = transport.protocols(limits)
    rates = Limits().without_rates() if args.no_rate_limits else Limits()
    cluster = None
    hall = ""  # (what is said of the hall this process is in: nothing on the one process)
    if args.redis is not None:
        from cardhall.server.cluster import ClusterOptions

        cluster = ClusterOptions.redis(args.redis, args.node)
        hall = f"cardhall: one process of a hall ({cluster.node}, bus {_public_url(args.redis)})"
    app = create_app(
        args.db,
        bot_workers=args.bot_workers,
        limits=rates,
        admin_token=token,
        max_body=args.max_body,
        review_budget=args.review_budget,
        bots_url=bots_url,
        cluster=cluster,
    )
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    console.print(f"cardhall: serving on http://{shown}:{port}/  (database {_public_url(args.db)})")
    console.print(
        f"cardhall: admin {'on' if token else 'off'} (cardhall admin)"
        + ("; no rates per person or per address" if args.no_rate_limits else ""),
        markup=False,
    )
    if hall:
        console.print(hall)
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    # (uvicorn's compression stays off: the websocket protocol offers its own, transport.Deflate)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        http=http,
        ws=ws,
        ws_max_size=transport.WS_MAX_SIZE,
        ws_per_message_deflate=False,
        log_level="warning",
        # X-Forwarded-For is read only from the proxies the operator named (none: not at all).
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        # A stopping server waits this long for its connections to close, then closes them: a
        # rolling restart never waits without bound.
        timeout_graceful_shutdown=10,
    )
    uvicorn.Server(config).run(sockets=[listener])
    return 0


def listen(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """The server's listening socket, bound as uvicorn binds it (``reuse_port``: SO_REUSEPORT, one of
    ``--workers``: the kernel spreads connections over the processes). A port in use, or an address
    this machine does not have, is one line naming it and how to choose another."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else 8000
            raise CardhallError(
                f"port {port} on {host} is taken (another server is listening there): choose another with "
                f"--port {other} (make run PORT={other})"
            ) from None
        raise CardhallError(f"cannot listen on {host} port {port}: {e.strerror or e}") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _worker_argv(args: argparse.Namespace) -> list[str]:
    """One worker's ``cardhall serve`` options: this command's, as one process on a shared port."""
    argv = [
        *("--host", args.host, "--port", str(args.port), "--db", args.db, "--redis", args.redis),
        *("--bot-workers", str(args.bot_workers), "--request-timeout", str(args.request_timeout)),
        *("--write-timeout", str(args.write_timeout)),
        *("--max-connections-per-address", str(args.max_connections_per_address)),
        *("--max-body", str(args.max_body), "--reuse-port"),
    ]
    if args.max_connections is not None:
        argv += ["--max-connections", str(args.max_connections)]
    if args.admin_token_file:
        argv += ["--admin-token-file", args.admin_token_file]
    if args.no_rate_limits:
        argv.append("--no-rate-limits")
    for proxy in args.trusted_proxy:
        argv += ["--trusted-proxy", proxy]
    return argv


def _proxy(text: str) -> str:
    """A ``--trusted-proxy``: an IP address or network, as uvicorn reads it; refused naming it otherwise."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise CardhallError(
            f"--trusted-proxy must be an IP address or network (127.0.0.1, 10.0.0.0/8), got {text!r}"
        ) from None


def _public_url(url: str) -> str:
    """A database URL without its password."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, auth = head.partition("//")
    return f"{scheme}//{auth.split(':', 1)[0]}:***@{tail}"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = sub.add_parser("serve", help="run the multiplayer server (lobby, tables, websockets)")
    v.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    v.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    v.add_argument(
        "--db",
        default=DEFAULT_DB,
        help=f"database URL: SQLite (default {DEFAULT_DB}) or postgresql+asyncpg://user:pass@host/db",
    )
    v.add_argument("--bot-workers", type=int, default=1, help="worker processes for bots that search")
    v.add_argument(
        "--review-budget",
        type=int,
        default=200,
        metavar="N",
        help="determinizations a decision in the reviews of finished matches (default 200; fewer: "
        "faster and noisier)",
    )
    v.add_argument(
        "--bots",
        default="",
        metavar="URL",
        help="a bot tier on Redis (redis://host:6379/0): search moves go to its cardhall bots workers "
        "(default: --bot-workers processes of this server)",
    )
    v.add_argument(
        "--admin-token-file",
        help="a file whose first line is the operator's token for cardhall admin "
        f"(default: ${TOKEN_VARIABLE}; neither: no admin)",
    )
    v.add_argument(
        "--no-rate-limits",
        action="store_true",
        help="no rates per person or per address (a load test from one address); connections keep theirs",
    )
    v.add_argument(
        "--redis",
        metavar="URL",
        help="one process of a hall on many: its bus and directory (redis://host:port/0; needs "
        "--db postgresql+asyncpg://...)",
    )
    v.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="N processes on this port (SO_REUSEPORT); more than 1 needs --redis and PostgreSQL",
    )
    v.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy (IP address or network) whose X-Forwarded-For gives the client's address; "
        "repeat for several (default: none, every request counts as the address it comes from)",
    )
    v.add_argument("--node", help="this process's name in the hall (default: host, pid and a random part)")
    v.add_argument("--reuse-port", action="store_true", help="bind with SO_REUSEPORT (what --workers does)")
    # The defaults are the constants of cardhall.server.transport and .guard, written out here so that
    # `cardhall serve --help` needs no server extra to run (docs/protocol.md, "Limits", explains each).
    v.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="seconds a connection has to send a whole request, from its opening or its last answer "
        "(default 10)",
    )
    v.add_argument(
        "--write-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="seconds a connection may read nothing of what is sent to it before it is dropped (default 30)",
    )
    v.add_argument(
        "--max-connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help="connections one address (IPv6: one /64) may hold at once; 0: no limit, as behind a proxy "
        "(default 64)",
    )
    v.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="connections the server holds at once (default and most: its open-file limit less 100)",
    )
    v.add_argument(
        "--max-body",
        type=int,
        default=65536,
        metavar="BYTES",
        help="bytes an HTTP request body may hold (default 65536)",
    )
