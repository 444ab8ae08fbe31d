"""The test run's own Redis and the proxy that cuts the network to it work as the many-process tests
rely on: a database per test, a restart on the same port, and a cut that both ends see."""

from __future__ import annotations

import pytest
import redis
import redis.exceptions

from tests.proxy import CutProxy
from tests.redis_server import RedisServer, redis_binary, redis_server

pytestmark = [pytest.mark.redis, pytest.mark.skipif(redis_binary() is None, reason="Redis is not installed")]


def test_each_test_gets_an_empty_database_of_its_own(redis_service: RedisServer) -> None:
    first = redis.Redis.from_url(redis_service.database_url())
    first.set("k", "v")
    second = redis.Redis.from_url(redis_service.database_url())
    assert second.get("k") is None and first.get("k") == b"v"


@pytest.mark.slow
def test_a_durable_redis_restarted_keeps_its_streams() -> None:
    with redis_server(durable=True) as server:
        client = redis.Redis.from_url(server.url)
        client.xadd("jobs", {"n": "1"})
        server.halt(kill=True)
        with pytest.raises(redis.exceptions.ConnectionError):
            client.ping()
        server.resume()
        assert client.xlen("jobs") == 1


def test_a_cut_proxy_breaks_connections_and_mends(redis_service: RedisServer) -> None:
    with CutProxy("127.0.0.1", redis_service.port) as proxy:
        client = redis.Redis(host="127.0.0.1", port=proxy.port, socket_timeout=2)
        assert client.ping()
        proxy.cut()
        with pytest.raises(redis.exceptions.ConnectionError):
            client.ping()
        proxy.mend()
        assert client.ping()
