"""``docs/protocol.md`` against the server's code: every client message (its fields, their types and
defaults), every server frame (its fields, as the code builds them), every error code (and its HTTP
status), the limits, the table settings and statuses, the bot levels, every HTTP route and request body,
the example exchange (each client message in it passes the real decoder) and every link. The document
may name nothing the code does not have, and the code nothing the document leaves out.

No server runs: the app is built only to read its routes, and the frames' fields are read from the
dict literals that build them in ``src/cardhall/server``.
"""

from __future__ import annotations

import argparse
import json
import re
import types
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest
from starlette.routing import Mount, Route, WebSocketRoute

from cardhall.cli import serve
from cardhall.server import bounds, connection, guard, protocol, rates, rematch, transport
from cardhall.server.accounts import NewPassword, SignIn, SignOut, SignUp
from cardhall.server.app import NewPlayer, QuickPlay, StopTable, create_app
from cardhall.server.events.shapes import AdminEvent, EventToken, NewEvent
from cardhall.server.http import STATUS, NewTable
from cardhall.server.settings import BOT_LEVELS, TABLE_SETTINGS
from cardhall.server.social import Ban, Invitation, Moderator, Mute, Report, Unban
from cardhall.store import RATING_POOLS, TABLE_STATUSES

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
SERVER = ROOT / "src" / "cardhall" / "server"
TEXT = DOC.read_text(encoding="utf-8")

HEADING = re.compile(r"^(#{1,6}) (.+?)\s*$", re.M)
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE = re.compile(r"`([^`]+)`")
# The request body of each HTTP route that takes one.
BODIES: dict[str, type[msgspec.Struct]] = {
    "POST /api/players": NewPlayer,
    "POST /api/tables": NewTable,
    "POST /api/quickplay": QuickPlay,
    "POST /api/admin/tables/{table}/stop": StopTable,
    "POST /api/private-tables": NewTable,
    "POST /api/invitations": Invitation,
    "POST /api/reports": Report,
    "POST /api/moderation/mute": Mute,
    "POST /api/moderation/ban": Ban,
    "POST /api/moderation/unban": Unban,
    "POST /api/admin/moderators": Moderator,
    "POST /api/admin/moderators/remove": Moderator,
    "POST /api/account": SignUp,
    "POST /api/account/password": NewPassword,
    "POST /api/signin": SignIn,
    "POST /api/signout": SignOut,
    "POST /api/events": NewEvent,
    "POST /api/events/{event}/join": EventToken,
    "POST /api/events/{event}/leave": EventToken,
    "POST /api/admin/events": AdminEvent,
}
CLIENT_MESSAGES: tuple[type[msgspec.Struct], ...] = typing.get_args(protocol.ClientMessage)


# --- reading the document ----------------------------------------------------------------------------


def _masked(text: str) -> str:
    """``text`` with its fenced code blocks blanked (same length), so no line in them reads as a heading."""
    return FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def section(title: str, level: int, text: str = TEXT) -> str:
    """The body under the heading ``title`` of ``level`` (up to the next heading of that level or above)."""
    masked = _masked(text)
    for m in HEADING.finditer(masked):
        if len(m.group(1)) == level and m.group(2) == title:
            end = re.compile(rf"^#{{1,{level}}} ", re.M).search(masked, m.end())
            return text[m.end() : end.start() if end else len(text)]
    raise AssertionError(f"docs/protocol.md has no heading {'#' * level} {title}")


def intro(body: str) -> str:
    """``body`` up to its first heading."""
    m = HEADING.search(_masked(body))
    return body if m is None else body[: m.start()]


def code_headings(body: str, level: int) -> list[str]:
    """The headings of ``level`` in ``body`` that are one code span (``### `join```), unquoted."""
    found = []
    for m in HEADING.finditer(_masked(body)):
        spans = re.fullmatch(r"`([^`]+)`", m.group(2))
        if len(m.group(1)) == level and spans:
            found.append(spans.group(1))
    return found


def cells(line: str) -> list[str]:
    parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [p.strip().replace("\\|", "|") for p in parts]


def rows(body: str) -> list[list[str]]:
    """The rows of the first table in ``body`` (header and separator left out); [] when it has none."""
    table: list[str] = []
    for line in _masked(body).splitlines():
        if line.startswith("|"):
            table.append(line)
        elif table:
            break
    assert not table or (len(table) >= 2 and set(table[1]) <= set("|-: ")), table[:2]
    return [cells(line) for line in table[2:]]


def code(cell: str) -> str:
    """The first code span of a table cell."""
    m = CODE.search(cell)
    assert m is not None, f"no `code` in the cell {cell!r}"
    return m.group(1)


def column(body: str, index: int = 0) -> list[str]:
    return [code(row[index]) for row in rows(body)]


def paragraphs(starting: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", _masked(TEXT)) if p.startswith(starting)]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading (before duplicates get -1, -2, ...)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for m in HEADING.finditer(_masked(text)):
        base = slug(m.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


# --- reading the code --------------------------------------------------------------------------------


def json_type(annotation: Any) -> str:
    """A field's type as the document writes it: ``int | None`` is "integer or null"."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return " or ".join(json_type(a) for a in typing.get_args(annotation))
    names = {int: "integer", str: "string", bool: "boolean", float: "number", dict: "object", list: "array"}
    if annotation is type(None):
        return "null"
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        return "object"
    return names[typing.get_origin(annotation) or annotation]


def default_of(field: msgspec.structs.FieldInfo) -> Any:
    if field.default is not msgspec.NODEFAULT:
        return field.default
    return field.default_factory()


# Each server frame's struct, by its type.
FRAMES: dict[str, type[msgspec.Struct]] = {
    str(cls.__struct_config__.tag): cls for cls in protocol.FRAME_STRUCTS
}


def wire_fields(struct: type[msgspec.Struct]) -> dict[str, Any]:
    """A struct's fields as they are named on the wire (``sender`` is ``from``), with their types (a
    field that may be left out, ``UNSET``, has its type without it)."""
    out: dict[str, Any] = {}
    for f in msgspec.structs.fields(struct):
        kind = f.type
        if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
            kinds = [a for a in typing.get_args(kind) if a is not msgspec.UnsetType]
            kind = kinds[0] if len(kinds) == 1 else typing.Union[tuple(kinds)]  # noqa: UP007
        out[f.encode_name] = kind
    return out


def seat_entry_keys() -> set[str]:
    return set(wire_fields(protocol.SeatEntry))


def check_fields(body: str, struct: type[msgspec.Struct], leave_out: tuple[str, ...] = ()) -> None:
    """The field table of ``body`` lists exactly the struct's fields, each with its type and default."""
    expected = {f.name: f for f in msgspec.structs.fields(struct) if f.name not in leave_out}
    documented = {code(row[0]): row for row in rows(body)}
    assert set(documented) == set(expected), f"{struct.__name__}: documented {set(documented)}"
    for name, field in expected.items():
        _, kind, default = documented[name][:3]
        assert kind == json_type(field.type), (struct.__name__, name, kind)
        if field.required:
            assert default == "required", (struct.__name__, name, default)
        else:
            assert json.loads(code(default)) == default_of(field), (struct.__name__, name, default)


# --- the websocket ------------------------------------------------------------------------------------


def test_the_client_messages_are_exactly_the_protocols() -> None:
    assert code_headings(section("Client messages", 2), 3) == list(protocol.MESSAGE_TYPES)


def test_the_fields_every_message_has() -> None:
    documented = {code(row[0]): row for row in rows(intro(section("Client messages", 2)))}
    assert set(documented) == {"type", "id"}
    assert documented["type"][1:3] == ["string", "required"]
    (field,) = msgspec.structs.fields(protocol.Ping)
    assert field.name == "id" and documented["id"][1] == json_type(field.type)
    assert json.loads(code(documented["id"][2])) == field.default


@pytest.mark.parametrize("struct", CLIENT_MESSAGES, ids=lambda s: str(s.__struct_config__.tag))
def test_each_client_message_documents_its_fields_reply_and_errors(struct: type[msgspec.Struct]) -> None:
    body = section(f"`{struct.__struct_config__.tag}`", 3, section("Client messages", 2))
    check_fields(body, struct, leave_out=("id",))
    assert "\nReply:" in body and "\nErrors:" in body


def test_the_server_frames_are_the_ones_the_code_sends() -> None:
    assert set(code_headings(section("Server frames", 2), 3)) == set(FRAMES)


@pytest.mark.parametrize("frame", sorted(FRAMES))
def test_each_server_frame_documents_every_field_it_has_with_its_type(frame: str) -> None:
    table = rows(section(f"`{frame}`", 3, section("Server frames", 2)))
    documented = {code(row[0]): row[1] for row in table}
    assert len(documented) == len(table)
    fields = {"type": str, **wire_fields(FRAMES[frame])}
    assert set(documented) == set(fields), f"{frame}: documented {set(documented)}, sent {set(fields)}"
    for name, kind in fields.items():
        expected = json_type(kind)
        shown = documented[name]
        assert set(shown.split(" or ")) == set(expected.split(" or ")), (frame, name, shown, expected)


def test_seat_entries_are_documented_field_by_field() -> None:
    assert set(column(section("Seat entries", 4))) == seat_entry_keys()


def test_every_error_code_is_documented_once_with_its_http_status() -> None:
    table = rows(section("Error codes", 2))
    codes = [code(row[0]) for row in table]
    assert sorted(codes) == sorted(protocol.ERROR_CODES)
    for row in table:
        status = re.match(r"\d{3}", row[2])
        if status is None:
            assert code(row[0]) not in STATUS, f"{row[0]}: the HTTP API maps it to {STATUS[code(row[0])]}"
        else:
            assert int(status.group()) == STATUS.get(code(row[0]), 400), row


def test_the_errors_of_each_section_are_real_codes_with_their_status() -> None:
    found = paragraphs("Errors:")
    assert len(found) >= len(protocol.MESSAGE_TYPES)
    for paragraph in found:
        for name in CODE.findall(paragraph):
            assert name in protocol.ERROR_CODES, f"no error code {name!r}: {paragraph!r}"
        for status, name in re.findall(r"(\d{3}) `([^`]+)`", paragraph):
            assert int(status) == STATUS.get(name, 400), paragraph


def test_the_limits_and_close_codes_are_the_codes() -> None:
    modules = {
        "protocol": protocol,
        "connection": connection,
        "rates": rates,
        "guard": guard,
        "transport": transport,
        "rematch": rematch,
    }
    table = rows(section("Limits and close codes", 2))
    named = {code(row[0]) for row in table}
    assert named >= {
        "protocol.MAX_FRAME",
        "protocol.MAX_CHAT",
        "protocol.MAX_NAME",
        "protocol.MAX_DEPTH",
        "guard.MAX_BODY",
        "connection.RATE",
        "connection.BURST",
        "connection.STRIKES",
        "connection.OUTBOX",
        "connection.WS_POLICY_VIOLATION",
        "connection.WS_TRY_AGAIN_LATER",
        "transport.REQUEST_TIMEOUT",
        "transport.WRITE_TIMEOUT",
        "transport.PER_ADDRESS",
        "transport.FILE_RESERVE",
        "transport.WS_MAX_SIZE",
        "rematch.OFFER_SECONDS",
    }
    for row in table:
        module, _, name = code(row[0]).partition(".")
        assert float(row[1]) == getattr(modules[module], name), row


def test_the_rates_per_person_and_per_address_are_the_defaults() -> None:
    table = rows(section("Rates per person and per address", 3))
    documented = {code(row[0]): row[1] for row in table}
    defaults = rates.Limits()
    assert set(documented) == {f"rates.{f.upper()}" for f in vars(defaults)}
    for name, value in documented.items():
        constant = getattr(rates, name.removeprefix("rates."))
        assert getattr(defaults, name.removeprefix("rates.").lower()) == constant, name
        shown = constant.describe() if isinstance(constant, rates.Rate) else str(constant)
        assert value == shown, name


def test_the_match_lengths_are_the_bounds() -> None:
    body = section("Match lengths", 3)
    assert f"`bounds.LENGTH_FACTOR` ({bounds.LENGTH_FACTOR})" in body
    assert [(code(r[0]), code(r[1]), int(r[2])) for r in rows(body)] == [
        (b.game, b.what, b.maximum) for b in bounds.BOUNDS
    ]
    caps = rows(body[body.index("| game | actions at most |") :])
    assert {code(r[0]): int(r[1]) for r in caps} == bounds.MAX_ACTIONS


# The options of `cardhall serve` that set a limit, and the constant each defaults to (None: computed).
SERVE_LIMITS: dict[str, float | None] = {
    "--request-timeout": transport.REQUEST_TIMEOUT,
    "--write-timeout": transport.WRITE_TIMEOUT,
    "--max-connections-per-address": transport.PER_ADDRESS,
    "--max-connections": None,
    "--max-body": guard.MAX_BODY,
}


def test_the_servers_limits_are_its_options_with_their_defaults() -> None:
    parser = argparse.ArgumentParser()
    serve.add_parser(parser.add_subparsers())
    defaults = vars(parser.parse_args(["serve"]))
    table = {code(row[0]).split()[0]: row[1] for row in rows(section("The server's limits", 3))}
    assert set(table) == set(SERVE_LIMITS)
    for option, constant in SERVE_LIMITS.items():
        default = defaults[option.lstrip("-").replace("-", "_")]  # (a KeyError: no such option)
        assert default == constant, option  # the parser's literal is the constant
        if constant is not None:
            assert float(table[option]) == constant, option


def test_the_example_exchange_is_made_of_real_messages_and_frames() -> None:
    block = re.search(r"^```text\n(.*?)^```", section("An example exchange", 2), re.M | re.S)
    assert block is not None
    entries: list[list[str]] = []
    for line in block.group(1).splitlines():
        if line.startswith(("-> ", "<- ")):
            entries.append([line[:2], line[3:]])
        else:
            entries[-1][1] += "\n" + line
    frames = section("Server frames", 2)
    seat_fields = seat_entry_keys()
    sent = set()
    for arrow, text in entries:
        message = json.loads(text)
        if arrow == "->":
            protocol.decode(json.dumps(message))  # the server would read it
            sent.add(message["type"])
            continue
        kind = message["type"]
        assert kind in FRAMES, kind
        assert set(message) <= set(column(section(f"`{kind}`", 3, frames))), message
        for seat in message.get("seats", []):
            assert set(seat) == seat_fields
        if kind == "error":
            assert message["code"] in protocol.ERROR_CODES
    assert {"hello", "join", "act"} <= sent


# --- tables, settings, bots -------------------------------------------------------------------------


def test_the_table_statuses_are_the_stores() -> None:
    assert column(section("Statuses", 3)) == list(TABLE_STATUSES)


def test_every_table_setting_is_documented_with_its_default_and_range() -> None:
    table = rows(section("Settings", 3))
    assert [code(row[0]) for row in table] == [o.name for o in TABLE_SETTINGS]
    for row, option in zip(table, TABLE_SETTINGS, strict=True):
        assert json.loads(code(row[1])) == option.default, row
        assert code(row[2]) == option.describe(), row


def test_the_bot_levels_are_the_lobbys() -> None:
    table = rows(section("Bot levels", 3))
    assert {code(row[0]): code(row[1]) for row in table} == BOT_LEVELS


# --- HTTP ---------------------------------------------------------------------------------------------


def routes() -> list[str]:
    app = create_app("sqlite+aiosqlite:///:memory:")  # its lifespan is never entered: no store opens
    out = []
    for route in app.routes:
        if isinstance(route, WebSocketRoute):
            out.append(f"WS {route.path}")
        elif isinstance(route, Mount):  # static files: any path under it, read only
            out.append(f"GET {route.path}/{{path}}")
        else:
            assert isinstance(route, Route)
            out += [f"{method} {route.path}" for method in sorted((route.methods or set()) - {"HEAD"})]
    return out


def test_every_http_route_has_a_section_and_no_other_route_does() -> None:
    documented = code_headings(section("HTTP API", 2), 3)
    assert len(documented) == len(set(documented))
    assert set(documented) == set(routes())


@pytest.mark.parametrize("route", sorted(BODIES))
def test_each_request_body_is_documented_field_by_field(route: str) -> None:
    check_fields(section(f"`{route}`", 3, section("HTTP API", 2)), BODIES[route])


def test_the_leaderboard_pools_are_named() -> None:
    for pool in RATING_POOLS:
        assert f"`pool={pool}`" in TEXT


# --- links --------------------------------------------------------------------------------------------


def test_every_link_leads_somewhere() -> None:
    own = anchors(TEXT)
    links = re.findall(r"\]\(([^)\s]+)\)", _masked(TEXT))
    assert links
    for link in links:
        target, _, anchor = link.partition("#")
        if not target:
            assert anchor in own, f"no heading for #{anchor}"
            continue
        path = (DOC.parent / target).resolve()
        assert path.exists(), f"{link}: no such file"
        if anchor:
            assert anchor in anchors(path.read_text(encoding="utf-8")), link
