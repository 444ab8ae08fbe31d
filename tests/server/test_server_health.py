"""``/healthz/live``, ``/healthz/ready`` and ``/metrics`` on one process (the routes of
:mod:`cardhall.server.health`), and ``cardhall serve``'s refusal of many processes on SQLite."""

from __future__ import annotations

import pytest

from cardhall.cli import main
from tests.server_helpers import FAST, auth, new_player, server


def test_a_running_server_is_alive_and_ready_and_says_it_holds_its_tables() -> None:
    with server() as client:
        live = client.get("/healthz/live")
        assert live.status_code == 200
        assert live.json() == {"status": "alive", "node": None, "tables": 0, "paused": 0}
        token = new_player(client)
        reply = client.post("/api/quickplay", json={"game": "hokm", "settings": FAST}, headers=auth(token))
        assert reply.status_code == 201
        ready = client.get("/healthz/ready")
        assert ready.status_code == 200
        assert ready.json()["status"] == "ready" and ready.json()["tables"] == 1


def test_a_server_whose_store_fails_is_alive_but_not_ready() -> None:
    with server() as client:
        store = client.app.state.ctx.store  # type: ignore[attr-defined]

        async def broken(table_id: str) -> None:
            raise OSError("the disk is gone")

        store.table = broken
        assert client.get("/healthz/live").status_code == 200
        ready = client.get("/healthz/ready")
        assert ready.status_code == 503
        assert ready.json()["status"] == "not_ready"
        assert "the disk is gone" in ready.json()["problems"][0]


def test_metrics_count_the_actions_committed_and_time_the_commits() -> None:
    with server() as client:

        def value(name: str) -> float:
            for line in client.get("/metrics").text.splitlines():
                if line.startswith(name + " "):
                    return float(line.split()[1])
            raise AssertionError(f"no {name} in /metrics")

        before = value("cardhall_actions_total")
        commits = value("cardhall_commit_seconds_count")
        token = new_player(client)
        settings = {**FAST, "turn_seconds": 0}
        reply = client.post(
            "/api/quickplay",
            json={"game": "hokm", "level": "easy", "settings": settings},
            headers=auth(token),
        )
        table = reply.json()["table"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "token": token})
            ws.receive_json()
            ws.send_json({"type": "join", "table": table, "seat": 0})
            frame = ws.receive_json()
            while not frame.get("legal"):
                frame = ws.receive_json()
            ws.send_json(
                {"type": "act", "table": table, "action": frame["legal"][0]["action"], "n": frame["n"]}
            )
            while not any(e["type"] == "action" and e["seat"] == 0 for e in frame.get("events", [])):
                frame = ws.receive_json()  # (until the frame showing her move: it was committed)
            assert value("cardhall_connections") >= 1
        response = client.get("/metrics")
        assert response.headers["content-type"].startswith("text/plain")
        assert value("cardhall_actions_total") > before
        assert value("cardhall_commit_seconds_count") > commits


@pytest.mark.parametrize("options", [["--workers", "2"], ["--redis", "redis://127.0.0.1:1/0"]])
def test_many_processes_on_sqlite_are_refused_with_a_reason(
    options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *options]) == 2
    assert "need PostgreSQL" in capsys.readouterr().err
