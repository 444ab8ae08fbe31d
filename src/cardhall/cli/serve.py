"""``cardhall serve``: the multiplayer server (Starlette on uvicorn) on this machine.

The operator's token (for ``cardhall admin``) comes from ``--admin-token-file`` or
``CARDHALL_ADMIN_TOKEN``; the server says only whether it has one, never what it is.
``--no-rate-limits`` lifts the rates per person and per address (:mod:`cardhall.server.rates`), for a
load test whose players all come from one address; the per-connection flood limit stays.
"""

from __future__ import annotations

import argparse

from rich.console import Console

from cardhall.cli.admin import TOKEN_VARIABLE, read_token
from cardhall.errors import CardhallError

DEFAULT_DB = "sqlite+aiosqlite:///cardhall.db"


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    try:
        import uvicorn

        from cardhall.server.app import create_app
        from cardhall.server.rates import Limits
    except ImportError as e:
        raise CardhallError(f"the server needs its extra: pip install 'cardhall[server]' ({e})") from None
    if not 0 <= args.port < 65536:
        raise CardhallError(f"--port must be 0..65535, got {args.port}")
    if args.bot_workers < 1:
        raise CardhallError(f"--bot-workers must be at least 1, got {args.bot_workers}")
    token = read_token(args.admin_token_file, "--admin-token-file")
    limits = Limits().without_rates() if args.no_rate_limits else Limits()
    app = create_app(args.db, bot_workers=args.bot_workers, limits=limits, admin_token=token)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    console.print(f"cardhall: serving on http://{shown}:{args.port}/  (database {_public_url(args.db)})")
    console.print(
        f"cardhall: admin {'on' if token else 'off'} (cardhall admin)"
        + ("; no rates per person or per address" if args.no_rate_limits else ""),
        markup=False,
    )
    # Frames are small JSON: compressing each costs more CPU than it saves on the wire.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        log_level="warning",
    )
    return 0


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
        "--admin-token-file",
        help="a file whose first line is the operator's token for cardhall admin "
        f"(default: ${TOKEN_VARIABLE}; neither: no admin)",
    )
    v.add_argument(
        "--no-rate-limits",
        action="store_true",
        help="no rates per person or per address (a load test from one address); connections keep theirs",
    )
