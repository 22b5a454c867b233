"""The page server's limits, in the bot process (the flood against a starved process is
tests/e2e/test_page_flood.py): viewers per link, the total cap, half-sent requests, malformed ones."""

from __future__ import annotations

import asyncio
import logging

from bot.web.guard import DESCRIPTOR_RESERVE, connection_cap
from tests.web.helpers import client, open_stream, pod_game, start


async def test_a_link_beyond_its_viewer_cap_gets_a_polite_503_and_others_still_work(tmp_path, caplog) -> None:
    async with start(tmp_path, web__max_viewers_per_link=2) as h, client() as session:
        _, url = await pod_game(h)
        first, second = await open_stream(session, url), await open_stream(session, url)
        caplog.set_level(logging.WARNING)
        for _ in range(3):
            async with session.get(url + "/events") as crowded:  # a 503, a whole answer
                assert crowded.status == 503 and crowded.headers["Retry-After"] == "30"
                assert "try again" in await crowded.text()
        assert [r.getMessage() for r in caplog.records].count(
            "a page link has too many viewers: refusing (pod 1 has 2 viewers, the cap is 2); logged once until it "
            "stops"
        ) == 1
        assert url.rsplit("/", 1)[1] not in caplog.text  # the secret token is never logged
        async with session.get(url) as page:  # the page itself is not an event stream: still served
            assert page.status == 200
        first.response.close()
        for _ in range(50):  # the server notices the viewer left
            if h.bot.pages._viewers[url.rsplit("/", 1)[1]] < 2:
                break
            await asyncio.sleep(0.05)
        third = await open_stream(session, url)
        assert (await third.next())[0] == "update"
        second.response.close()
        third.response.close()


async def test_beyond_the_total_cap_connections_are_refused_before_any_request(tmp_path) -> None:
    async with start(tmp_path, web__max_connections=2) as h:
        port = h.bot.pages.port
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /p/x HTTP/1.1\r\nHost: x\r\n\r\n")
        async with asyncio.timeout(5):
            answer = await reader.read()
        assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After: 30" in answer
        for _, other in [*held, (reader, writer)]:
            other.close()


async def test_a_half_sent_request_is_closed_after_the_header_timeout(tmp_path) -> None:
    async with start(tmp_path, web__header_timeout_seconds=1) as h:
        reader, writer = await asyncio.open_connection("127.0.0.1", h.bot.pages.port)
        writer.write(b"GET /p/x HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        async with asyncio.timeout(30):  # closed by the bot, whatever the machine's load
            assert await reader.read() == b""
        writer.close()
        assert h.bot.pages.gate is not None and not h.bot.pages.gate.open


async def test_malformed_requests_are_answered_400_and_logged_once_without_a_traceback(
    tmp_path, caplog
) -> None:
    async with start(tmp_path) as h:
        caplog.set_level(logging.DEBUG, logger="aiohttp.server")
        for _ in range(5):
            reader, writer = await asyncio.open_connection("127.0.0.1", h.bot.pages.port)
            writer.write(b"GET /p/x HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n")
            async with asyncio.timeout(10):
                assert b" 400 " in await reader.readline()
            writer.close()
        assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)
        assert caplog.text.count("malformed page requests: refusing") == 1


def test_the_connection_cap_keeps_a_reserve_of_descriptors() -> None:
    assert connection_cap(2000, 1024) == 1024 - DESCRIPTOR_RESERVE
    assert connection_cap(50, 1024) == 50
    assert connection_cap(50, 100) == 1  # a starved process still serves one page at a time
