"""A table between two servers, as the page meets it (issue 47): its join answered ``table_moved`` (before,
``no_such_table``: the page took the table for gone, and its person was stuck until he reloaded). The page
says the table is moving and asks again by itself until the table is back, with no reload.

The websocket is routed through the test (Playwright's ``route_web_socket``): the server is real, and the
first join the page sends is answered ``table_moved`` instead of reaching it, as a hall of many processes
answers while the table's new owner takes it (``tests/server/cluster/test_cluster_between_owners.py``
has that side)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.web.web_helpers import Page, api, base_url, browser, browser_page, enter, web_server  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_table_between_servers_says_it_moves_and_comes_back_by_itself(page: Page) -> None:
    enter(page, "Ann")
    body = {"game": "hokm", "level": "easy", "settings": {"bot_pace_ms": 0}}
    table = api(page, "POST", "/api/quickplay", body)["table"]
    refused: list[dict[str, Any]] = []
    moving_until = time.monotonic() + 1.0  # (the page's first attach, sent twice, both refused)

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "join" and data.get("table") == table and time.monotonic() < moving_until:
                refused.append(data)  # (the table is between owners: told so, not forwarded)
                ws.send(
                    json.dumps(
                        {"type": "error", "code": "table_moved", "message": "moving", "ref": data.get("id")}
                    )
                )
                return
            server.send(message)

        ws.on_message(from_page)

    page.route_web_socket("**/ws", route)
    page.goto(f"/tables/{table}")
    said = page.wait_for_selector(".table-view .error:not(:empty), main .error:not(:empty)").inner_text()
    assert "moving" in said and "by itself" in said, said
    # Asked again by the page itself: the table comes, and it is his turn soon enough to play.
    page.wait_for_selector(".table-view .arena .seat")
    page.wait_for_selector(".hand .card.legal, .actions button.act")
    assert refused  # (and the join that came through was the page's own, asked again)
