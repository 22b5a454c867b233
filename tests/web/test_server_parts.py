"""The page server without Discord: a real SQLite database, the real pod and statistics services, the
server on a real socket of 127.0.0.1 and an aiohttp client. What a viewer would see go wrong: a page of
one kind shown for another, a language mixed up, an update sent twice or never, a stream that outlives
its link, a viewer's place under the cap never given back, headers missing from one kind of answer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest

from bot.clock import FakeClock
from bot.config import load_config
from bot.domain import pod
from bot.i18n import t
from bot.services.pods import PodService, pod_topic
from bot.services.stats import StatsService
from bot.services.tournaments import TournamentService, mana_value_lookup
from bot.storage.db import Database
from bot.storage.pages import PageLink
from bot.web import server as server_module
from bot.web.guard import BUSY_PAGE, DESCRIPTOR_RESERVE
from bot.web.server import SECURITY_HEADERS, PageLimits, PageServer, _event, page_server_for
from bot.web.views import link_topic
from tests.web.helpers import EventStream, client, stream_get


class _Sources:
    """The services a running bot would hand the pages; ``stats`` may be switched off (an unloaded cog)."""

    def __init__(self, pods: PodService, stats: StatsService | None, language: str = "en") -> None:
        self.pods, self.stats = pods, stats
        self.tournaments = self.match_tournaments = self.hydra_events = None
        self.server_language = language
        self.asked: list[int | None] = []

    async def language(self, guild_id: int | None) -> str:
        self.asked.append(guild_id)
        return self.server_language


@dataclass
class _Served:
    server: PageServer
    sources: _Sources
    pods: PodService
    game_id: int
    pod_link: PageLink
    stats_link: PageLink  # the leaderboard of the guild whose id is the game's: the same resource number


async def _open(tmp_path: Path, limits: PageLimits | None = None, **options) -> _Served:
    db = await Database.open(tmp_path / "pages.sqlite3")
    pods = PodService(db)
    game = await pods.start_game(
        guild_id=1, channel_id=2, created_by=10, ruleset="commander", players=[(10, "Ann"), (11, "Ben")]
    )
    sources = _Sources(pods, StatsService(db), **options)
    server = PageServer(db, sources, port=0, limits=limits or PageLimits())
    await server.start()
    pod_link = await server.links.link("pod", game.game_id, guild_id=1, created_by=10)
    stats_link = await server.links.link("stats", game.game_id, guild_id=game.game_id, created_by=10)
    return _Served(server, sources, pods, game.game_id, pod_link, stats_link)


async def _close(served: _Served) -> None:
    await served.server.stop()
    await served.server.db.close()


@pytest.fixture
async def served(tmp_path: Path):
    served = await _open(tmp_path)
    try:
        yield served
    finally:
        await _close(served)


async def _get(url: str, **params: str) -> tuple[int, str, dict[str, str]]:
    """A whole answer; one that never ends (a stream where a page or a 503 was due) fails the test."""
    async with client() as session, session.get(url, params=params) as response:
        return response.status, await response.text(), dict(response.headers)


# -- the render cache ------------------------------------------------------------------------------------


async def test_a_game_and_a_leaderboard_with_the_same_number_are_two_pages(served) -> None:
    """The cache is keyed by the link's kind as well as its number: game 1 and the leaderboard of
    server 1 must each show their own page, read in either order."""
    for _ in range(2):
        _, game, _ = await _get(served.server.url(served.pod_link))
        _, board, _ = await _get(served.server.url(served.stats_link))
        assert "Ann" in game and 'data-testid="minimum"' not in game
        assert 'data-testid="minimum"' in board and "Ann" not in board


async def test_the_live_part_is_rendered_once_per_change_and_language(served) -> None:
    """Without a change the same render is handed out again; each language has its own; a change
    that does not show (a notice on the game's topic) keeps the encoded event, so no stream sends it."""
    server, link = served.server, served.pod_link
    first = await server.live_part(link, "en")  # its topics had no version yet: read once more
    english = await server.live_part(link, "en")
    assert english.event is first.event and await server.live_part(link, "en") is english
    await server.live_part(link, "ja")
    japanese = await server.live_part(link, "ja")
    assert japanese is not english and "ターン1の前" in japanese.html and "ターン1の前" not in english.html
    assert await server.live_part(link, "en") is english

    server.hub.publish(pod_topic(served.game_id))
    unchanged = await server.live_part(link, "en")
    assert unchanged is not english and unchanged.event is english.event
    assert await server.live_part(link, "en") is unchanged

    await served.pods.change(served.game_id, 10, pod.LIFE, player=11, amount=-5)
    changed = await server.live_part(link, "en")
    assert changed.event is not english.event and ">35<" in changed.html
    assert changed.event == _event("update", changed.html)
    assert await server.live_part(link, "en") is changed  # its versions were read before it: current


async def test_a_topic_first_seen_in_a_read_is_read_again_at_the_next_look(served) -> None:
    """A first read has no version from before it for its topics: a change landing during it would be
    missed if the read were taken as current. So the next look reads again, even for topics that already
    changed once (version 1 is a real version, not "unknown"); the look after that is served cached."""
    server, link = served.server, served.pod_link
    server.hub.publish(link_topic(link))
    assert [server.hub.version(t) for t in (pod_topic(served.game_id), link_topic(link))] == [1, 1]
    first = await server.live_part(link, "en")
    again = await server.live_part(link, "en")
    assert again is not first and await server.live_part(link, "en") is again


async def test_the_templates_block_tags_leave_no_blank_lines_or_indentation_behind(served) -> None:
    """A live part goes to every viewer on every change, inside one ``data:`` line: the template tags'
    own lines must vanish (no blank line where an ``if`` stood) and so must their indentation (the
    templates indent their HTML by two spaces, never more), on the page as in its live part."""
    server = served.server
    await served.pods.change(served.game_id, 10, pod.POISON, player=11, amount=1)
    for link in (served.pod_link, served.stats_link):
        _, page, _ = await _get(server.url(link))
        part = (await server.live_part(link, "en")).html
        for html in (page, part):
            lines = html.splitlines()
            assert all(line.strip() for line in lines), (link.kind, html)
            assert max(len(line) - len(line.lstrip()) for line in lines) <= 2, (link.kind, html)


def test_an_event_carries_the_html_on_one_data_line() -> None:
    """A line break inside ``data:`` would start a new field for the browser: the lines are joined."""
    assert _event("update", "<ul>\n  <li>a</li>\n\t<li>b</li>\n</ul>") == (
        b"event: update\ndata: <ul> <li>a</li> <li>b</li> </ul>\n\n"
    )


# -- languages -------------------------------------------------------------------------------------------


async def test_without_a_language_asked_the_page_speaks_the_servers(tmp_path) -> None:
    """The guild's language decides unless ``?lang=`` names one of ours; the events link keeps the
    page's language, so the live updates arrive in the words the page was loaded in."""
    served = await _open(tmp_path, language="ja")
    try:
        url = served.server.url(served.pod_link)
        for params, language in (({}, "ja"), ({"lang": "xx"}, "ja"), ({"lang": "en"}, "en")):
            _, html, _ = await _get(url, **params)
            assert f'<html lang="{language}">' in html, params
            assert f'data-events="/p/{served.pod_link.token}/events?lang={language}"' in html
        assert served.sources.asked == [1, 1]  # asked for the link's guild, and only when needed
        _, html, _ = await _get(url)
        assert "<title>ゲーム#1</title>" in html and 'class="kind-pod"' in html
    finally:
        await _close(served)


async def test_an_unknown_link_is_english_unless_a_language_is_asked(tmp_path) -> None:
    """A 404 has no guild to ask: English by default, else the asked language (never the guild's)."""
    served = await _open(tmp_path, language="ja")
    try:
        base = f"{served.server.public_url}/p/nothing-here"
        status, text, _ = await _get(base)
        assert status == 404 and text == t("web.not_found", "en")
        status, text, _ = await _get(base, lang="zh-Hans")
        assert status == 404 and text == t("web.not_found", "zh-Hans")
    finally:
        await _close(served)


async def test_a_page_whose_feature_is_not_loaded_is_404_in_its_language_and_its_stream_goes(
    served,
) -> None:
    """An unloaded cog (no statistics service) makes the leaderboard a 404 like an unknown link; an
    open stream is told ``gone`` rather than left waiting."""
    served.sources.stats = None
    status, text, _ = await _get(served.server.url(served.stats_link), lang="ja")
    assert status == 404 and text == t("web.not_found", "ja")
    url = served.server.url(served.stats_link) + "/events"
    async with client() as session, stream_get(session, url) as response:
        assert await EventStream(response).next() == ("gone", "")


# -- the headers -----------------------------------------------------------------------------------------


async def test_every_kind_of_answer_carries_the_security_headers(tmp_path) -> None:
    """The token is in the address: the page, its stream, its static files, a 404 and a 503 must all
    forbid referrers, indexing, caching, framing and other origins, with exactly these values."""
    served = await _open(tmp_path, limits=PageLimits(max_viewers_per_link=1))
    try:
        url = served.server.url(served.pod_link)
        answers = [await _get(url), await _get(f"{served.server.public_url}/static/live.js")]
        answers.append(await _get(f"{served.server.public_url}/p/nothing"))
        async with client() as session, stream_get(session, url + "/events") as stream:
            answers.append((stream.status, "", dict(stream.headers)))
            answers.append(await _get(url + "/events"))  # beyond the cap of one
        assert [status for status, _, _ in answers] == [200, 200, 404, 200, 503]
        for _, _, headers in answers:
            assert {name: headers.get(name) for name in SECURITY_HEADERS} == SECURITY_HEADERS
        assert SECURITY_HEADERS["Content-Security-Policy"].startswith("default-src 'none'; script-src 'self'")
        assert answers[0][2]["Content-Type"] == "text/html; charset=utf-8"  # not shown as source text
        assert answers[3][2]["Content-Type"] == "text/event-stream"
        assert answers[3][2]["X-Accel-Buffering"] == "no"  # a proxy must not hold the updates back
    finally:
        await _close(served)


# -- event streams ---------------------------------------------------------------------------------------


async def test_a_viewer_over_the_links_cap_is_refused_and_other_links_still_stream(tmp_path) -> None:
    """The cap counts streams per link: the second viewer of the game waits for a place with a 503 in
    the four languages, the leaderboard's viewer is let in; the place comes back when the first leaves."""
    served = await _open(tmp_path, limits=PageLimits(max_viewers_per_link=1))
    try:
        url = served.server.url(served.pod_link)
        async with client() as session:
            first = await stream_get(session, url + "/events")
            assert (await EventStream(first).next())[0] == "update"
            status, text, headers = await _get(url + "/events")
            assert (status, text, headers["Retry-After"]) == (503, BUSY_PAGE, "30")
            assert headers["Content-Type"] == "text/html; charset=utf-8"
            board = await stream_get(session, served.server.url(served.stats_link) + "/events")
            assert (await EventStream(board).next())[0] == "update"
            assert served.server._viewers == {served.pod_link.token: 1, served.stats_link.token: 1}
            first.close()
            for _ in range(100):
                if served.pod_link.token not in served.server._viewers:
                    break
                await asyncio.sleep(0.05)
            assert served.server._viewers == {served.stats_link.token: 1}  # none left is no entry
            again = await stream_get(session, url + "/events")
            assert (await EventStream(again).next())[0] == "update"
            again.close()
            board.close()
    finally:
        await _close(served)


async def test_an_unchanged_render_is_not_sent_again_and_a_quiet_stream_gets_keep_alives(
    served, monkeypatch
) -> None:
    """A notice that changes nothing on this page sends nothing; silence is broken by a comment line
    (a proxy would otherwise close the idle stream); the next real change arrives as an update."""
    monkeypatch.setattr(server_module, "KEEPALIVE_SECONDS", 0.3)
    async with client() as session:
        response = await stream_get(session, served.server.url(served.pod_link) + "/events")
        assert (await response.content.readline()).startswith(b"event: update")
        assert await response.content.readline() != b""  # its data line
        assert await response.content.readline() == b"\n"
        served.server.hub.publish(pod_topic(served.game_id))
        async with asyncio.timeout(10):
            assert await response.content.readline() == b": keep-alive\n"
        await served.pods.change(served.game_id, 10, pod.LIFE, player=11, amount=-2)
        async with asyncio.timeout(10):
            line = await response.content.readline()
            while line in (b": keep-alive\n", b"\n"):
                line = await response.content.readline()
        assert line == b"event: update\n" and b">38<" in await response.content.readline()
        response.close()


async def test_a_quiet_stream_gets_a_keep_alive_each_wait_without_any_notice(served, monkeypatch) -> None:
    """Nothing changes at all: the stream still sends a comment line every keep-alive period (a proxy
    closes a stream silent for a minute), and nothing else."""
    monkeypatch.setattr(server_module, "KEEPALIVE_SECONDS", 0.2)
    async with client() as session:
        response = await stream_get(session, served.server.url(served.pod_link) + "/events")
        for _ in range(3):  # the update: its name, its data, the blank line
            await response.content.readline()
        async with asyncio.timeout(10):
            assert [await response.content.readline() for _ in range(4)] == [b": keep-alive\n", b"\n"] * 2
        response.close()


async def _until_no_viewers(server: PageServer) -> None:
    for _ in range(400):  # a generous bound for a busy machine; a held place never comes back
        if not server._viewers:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still viewing: {server._viewers}")


async def _shrink_the_servers_send_buffer(server: PageServer) -> None:
    """On loopback the kernel grows a send buffer to megabytes for a reader that takes nothing; a fixed
    small one makes the silence show after kilobytes (the server's side of the one open connection)."""
    assert server.gate is not None
    for _ in range(400):
        if server.gate.open:
            break
        await asyncio.sleep(0.05)
    (transport,) = server.gate.open
    transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)


async def test_a_viewer_that_stops_reading_is_let_go_and_its_place_comes_back(
    tmp_path, monkeypatch, caplog
) -> None:
    """A viewer that takes nothing would hold its connection (and a descriptor) forever: once a write
    has waited ``WRITE_TIMEOUT_SECONDS`` the stream ends, quietly (no error logged), and the place under
    the link's cap is free for the next viewer. Keep-alives sent back to back fill the sockets' buffers."""
    monkeypatch.setattr(server_module, "KEEPALIVE_SECONDS", 0)
    monkeypatch.setattr(server_module, "WRITE_TIMEOUT_SECONDS", 0.5)
    caplog.set_level(logging.WARNING)
    served = await _open(tmp_path, limits=PageLimits(max_viewers_per_link=1))
    loop = asyncio.get_running_loop()
    silent = socket.socket()
    try:
        silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        silent.setblocking(False)
        await loop.sock_connect(silent, ("127.0.0.1", served.server.port))
        await _shrink_the_servers_send_buffer(served.server)
        path = f"/p/{served.pod_link.token}/events"
        await loop.sock_sendall(silent, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        for _ in range(400):
            if served.server._viewers:
                break
            await asyncio.sleep(0.05)
        await _until_no_viewers(served.server)
        monkeypatch.setattr(server_module, "KEEPALIVE_SECONDS", 10.0)
        async with (
            client() as session,
            stream_get(session, served.server.url(served.pod_link) + "/events") as next_viewer,
        ):
            assert (
                next_viewer.status == 200 and (await EventStream(next_viewer).next(timeout=10))[0] == "update"
            )
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    finally:
        silent.close()
        await _close(served)


async def test_a_viewer_who_leaves_and_a_server_that_stops_end_their_streams_quietly(served, caplog) -> None:
    """Both are the ordinary end of a stream, not an error: the viewer's place comes back, the stopping
    server's viewer sees the stream end, and nothing is logged as an error."""
    caplog.set_level(logging.WARNING)
    url = served.server.url(served.pod_link) + "/events"
    async with client() as session:
        leaving = await stream_get(session, url)
        assert (await EventStream(leaving).next())[0] == "update"
        leaving.close()
        await _until_no_viewers(served.server)
        staying = await stream_get(session, url)
        assert (await EventStream(staying).next())[0] == "update"
        await served.server.stop()
        async with asyncio.timeout(10):
            assert await staying.content.read() == b""
        staying.close()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    await served.server.start()  # the fixture stops it again


async def test_a_stream_speaks_the_language_of_its_page(tmp_path) -> None:
    """The events link carries the page's ``?lang=``: the updates come in those words, not the
    server's (and without one, in the server's)."""
    served = await _open(tmp_path, language="zh-Hant")
    try:
        async with client() as session:
            url = served.server.url(served.pod_link) + "/events"
            for params, words in (({"lang": "ja"}, "ターン1の前"), ({}, "第1回合之前")):
                response = await stream_get(session, url, **params)
                name, html = await EventStream(response).next(timeout=10)
                assert name == "update" and words in html, params
                response.close()
    finally:
        await _close(served)


async def test_a_notice_on_the_links_topic_ends_the_stream_only_when_the_token_was_replaced(served) -> None:
    """``revoke`` is published after the new token is stored: a stream whose token still works goes on
    (the lookup says so); once replaced, the stream says ``gone`` and ends."""
    link = served.pod_link
    async with client() as session:
        response = await stream_get(session, served.server.url(link) + "/events")
        stream = EventStream(response)
        assert (await stream.next())[0] == "update"
        await served.server.revoke(link)  # the same token: nothing replaced it
        await served.pods.change(served.game_id, 10, pod.LIFE, player=11, amount=-1)
        name, html = await stream.next(timeout=10)
        assert name == "update" and ">39<" in html
        await served.server.links.link("pod", served.game_id, guild_id=1, created_by=10, revoke=True)
        await served.server.revoke(link)
        assert await stream.next(timeout=10) == ("gone", "")
        async with asyncio.timeout(10):
            assert await response.content.read() == b""  # and the stream is over
        response.close()


async def test_a_stream_outlives_the_header_deadline_and_an_idle_connection_does_not(tmp_path) -> None:
    """The header deadline stops once a request's headers arrived (an event stream lasts for hours)
    and starts again after its answer: a kept-alive connection left idle is closed by it."""
    served = await _open(tmp_path, limits=PageLimits(header_timeout=0.3))
    try:
        async with client() as session:
            response = await stream_get(session, served.server.url(served.pod_link) + "/events")
            stream = EventStream(response)
            assert (await stream.next())[0] == "update"
            await asyncio.sleep(1)
            await served.pods.change(served.game_id, 10, pod.LIFE, player=11, amount=-3)
            name, html = await stream.next(timeout=10)
            assert name == "update" and ">37<" in html
            response.close()
        reader, writer = await asyncio.open_connection("127.0.0.1", served.server.port)
        path = f"/p/{served.pod_link.token}"
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        async with asyncio.timeout(15):  # the answer, then the connection's close after the deadline
            assert (await reader.readline()).startswith(b"HTTP/1.1 200")
            while await reader.read(65536):
                pass
        writer.close()
    finally:
        await _close(served)


# -- lifecycle and settings ------------------------------------------------------------------------------


async def test_the_flood_filter_is_on_the_noisy_loggers_only_while_the_server_runs(served) -> None:
    """Left installed after a stop, it would swallow the next server's (or a test's) real errors."""
    names = ("aiohttp.server", "asyncio")
    flood = served.server._flood_filter
    assert all(flood in logging.getLogger(name).filters for name in names)
    await served.server.stop()
    assert not any(flood in logging.getLogger(name).filters for name in names)
    await served.server.start()  # _close stops it again


async def test_a_stopped_server_closes_its_kept_alive_connections(served) -> None:
    """A viewer's connection kept alive between two requests must not outlive the server: after
    ``stop`` the next request on it gets no answer, the connection is closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", served.server.port)
    request = f"GET /p/{served.pod_link.token} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    try:
        writer.write(request)
        async with asyncio.timeout(15):  # a local server answers in milliseconds
            assert (await reader.readline()).startswith(b"HTTP/1.1 200")
            length = 0
            while (line := await reader.readline()) != b"\r\n":
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
        await served.server.stop()
        with contextlib.suppress(ConnectionError):
            writer.write(request)
        async with asyncio.timeout(10):
            assert await reader.read() == b""
    finally:
        writer.close()
        await served.server.start()  # the fixture stops it again


async def test_the_server_writes_no_log_line_per_request(served, caplog) -> None:
    """A flood of viewers must not become a flood of log lines (the disk is the bot's too): aiohttp's
    access log is off, for pages and for 404s alike."""
    caplog.set_level(logging.DEBUG, logger="aiohttp.access")
    assert (await _get(served.server.url(served.pod_link)))[0] == 200
    assert (await _get(f"{served.server.public_url}/p/nothing"))[0] == 404
    assert [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"] == []


async def test_a_low_open_file_limit_shrinks_the_connection_cap_and_the_start_says_so(
    tmp_path, monkeypatch, caplog
) -> None:
    """The cap in force is the configured one cut to what the open-file limit leaves after the reserve:
    with room for two connections, two are held and a third is answered 503 before any request is
    read; the start's one log line names the address, the port the system picked, the links' public
    address and both caps as they are in force."""
    monkeypatch.setattr(server_module, "raise_descriptor_limit", lambda: DESCRIPTOR_RESERVE + 2)
    caplog.set_level(logging.INFO, logger=server_module.log.name)
    served = await _open(tmp_path, limits=PageLimits(max_connections=7, max_viewers_per_link=3))
    held: list[asyncio.StreamWriter] = []
    try:
        port = served.server.port
        assert [r.getMessage() for r in caplog.records if r.name == server_module.log.name] == [
            f"live pages on http://127.0.0.1:{port} (links show http://127.0.0.1:{port}; at most 2 "
            "connections, 3 viewers a link)"
        ]
        assert served.server.gate is not None and served.server.gate.cap == 2
        for _ in range(2):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            held.append(writer)
        for _ in range(300):  # both admitted (the gate counts them as the loop accepts them)
            if len(served.server.gate.open) == 2:
                break
            await asyncio.sleep(0.05)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        held.append(writer)
        async with asyncio.timeout(15):
            answer = await reader.read()
        assert answer.startswith(b"HTTP/1.1 503") and b"Retry-After: 30" in answer
        assert len(served.server.gate.open) == 2
    finally:
        for writer in held:
            writer.close()
        await _close(served)


async def test_the_start_names_the_public_address_its_links_show(tmp_path, caplog) -> None:
    """Behind a reverse proxy the log says both: where the server listens and what its links show."""
    caplog.set_level(logging.INFO, logger=server_module.log.name)
    db = await Database.open(tmp_path / "pages.sqlite3")
    pages = PageServer(db, _Sources(PodService(db), None), public_url="https://pages.example.org/")
    try:
        await pages.start()
        (line,) = [r.getMessage() for r in caplog.records if r.name == server_module.log.name]
        assert line.startswith(
            f"live pages on http://127.0.0.1:{pages.port} (links show https://pages.example.org;"
        )
    finally:
        await pages.stop()
        await db.close()


async def test_the_server_listens_on_its_own_address_only(served) -> None:
    """``host = "127.0.0.1"`` behind a reverse proxy means the pages are reachable on loopback alone:
    the listener is bound to that address, and another address of the machine (127.0.0.2 is one on
    Linux) finds nothing on the port."""
    assert served.server._listener is not None
    assert {sock.getsockname()[0] for sock in served.server._listener.sockets} == {"127.0.0.1"}
    with pytest.raises(ConnectionRefusedError):
        await asyncio.open_connection("127.0.0.2", served.server.port)


class _StuckSources(_Sources):
    """A page whose language lookup never returns: a request the server is still serving."""

    async def language(self, guild_id: int | None) -> str:
        self.asked.append(guild_id)
        await asyncio.Event().wait()
        raise AssertionError("never answered")


async def test_a_request_still_being_served_holds_the_stop_for_a_short_grace_only(tmp_path) -> None:
    """A page request caught in flight by a stop (a slow database, say) gets a grace to finish, then
    is cut off: the bot's shutdown must not wait on it (aiohttp's default grace is a minute), and the
    viewer is disconnected rather than left waiting for an answer that cannot come."""
    served = await _open(tmp_path)
    stuck = _StuckSources(served.pods, None)
    served.server.sources = stuck
    async with client() as session:
        request = asyncio.create_task(_get_with(session, served.server.url(served.pod_link)))
        try:
            for _ in range(300):
                if stuck.asked:
                    break
                await asyncio.sleep(0.05)
            assert stuck.asked == [1], "the request never reached the page"
            async with asyncio.timeout(10):
                await served.server.stop()
            # cut off (aiohttp's client tries a GET once more, and finds the port closed), not answered
            with pytest.raises((aiohttp.ServerDisconnectedError, aiohttp.ClientConnectorError)):
                await request
        finally:
            request.cancel()
            await _close(served)


async def _get_with(session: aiohttp.ClientSession, url: str) -> int:
    async with session.get(url) as response:
        await response.read()
        return response.status


async def test_a_server_never_started_stops_quietly_and_by_default_takes_a_free_port(tmp_path) -> None:
    """The bot stops its page server whether or not it ever listened (a taken port leaves it unstarted);
    without a port given, it listens on one the system picks, never a fixed one."""
    db = await Database.open(tmp_path / "pages.sqlite3")
    try:
        pages = PageServer(db, _Sources(PodService(db), None))
        await pages.stop()
        await pages.start()
        try:
            assert pages.port not in (0, 1)
            assert (await _get(f"{pages.public_url}/p/nothing"))[0] == 404
        finally:
            await pages.stop()
    finally:
        await db.close()


async def test_links_show_the_public_address_without_a_doubled_slash(tmp_path) -> None:
    """Behind a reverse proxy the links name its address (a trailing slash in the setting or not);
    without one, the address the server listens on."""
    db = await Database.open(tmp_path / "pages.sqlite3")
    try:
        link = PageLink("pod", 7, "token-7", 1)
        behind = PageServer(db, _Sources(PodService(db), None), public_url="https://pages.example.org/")
        assert behind.url(link) == "https://pages.example.org/p/token-7"
        under = PageServer(db, _Sources(PodService(db), None), public_url="https://example.org/TX/")
        assert under.url(link) == "https://example.org/TX/p/token-7"  # slashes only: the path keeps its X
        local = PageServer(db, _Sources(PodService(db), None), host="127.0.0.2", port=8123)
        assert local.url(link) == "http://127.0.0.2:8123/p/token-7"
    finally:
        await db.close()


def test_the_page_server_takes_the_bots_web_settings(tmp_path: Path) -> None:
    """Each ``[web]`` setting reaches the server it names (a limit read from the wrong key would let a
    flood through or refuse every viewer)."""
    path = tmp_path / "config.toml"
    path.write_text(
        '[web]\nhost = "0.0.0.0"\nport = 9100\npublic_url = "https://p.example"\nmax_connections = 77\n'
        "max_viewers_per_link = 5\nheader_timeout_seconds = 4\n"
    )
    bot = SimpleNamespace(config=load_config(path, environ={}), db=SimpleNamespace(changes=None))
    pages = page_server_for(bot)
    assert (pages.host, pages.port, pages.public_url) == ("0.0.0.0", 9100, "https://p.example")
    assert pages.limits == PageLimits(max_connections=77, max_viewers_per_link=5, header_timeout=4.0)
    assert isinstance(pages.limits.header_timeout, float)
    assert pages.db is bot.db and pages.sources.bot is bot


async def test_each_page_is_titled_by_its_key_or_its_own_name(served) -> None:
    """A game's and a leaderboard's titles are catalogue words (in the page's language); a tournament is
    titled by the name its organiser gave it, shown as typed (escaped), and headed by it as well."""
    server = served.server
    _, board, _ = await _get(server.url(served.stats_link), lang="ja")
    assert f"<title>{t('stats.page.title', 'ja')}</title>" in board and "<h1>" in board
    _, game, _ = await _get(server.url(served.pod_link))
    assert "<title>Game #1</title>" in game and '<header class="top">' not in game
    tournaments = TournamentService(server.db, clock=FakeClock().now, mana_value=mana_value_lookup(None))
    served.sources.tournaments = tournaments
    created = await tournaments.create(
        guild_id=1, channel_id=2, name="Friday <EDH>", created_by=10, seed=1, rounds=1
    )
    link = await server.links.link("tournament", created.tournament_id, guild_id=1, created_by=10)
    status, html, _ = await _get(server.url(link))
    assert status == 200 and "<title>Friday &lt;EDH&gt;</title>" in html
    assert '<header class="top"><h1>Friday &lt;EDH&gt;</h1></header>' in html
