"""The page server over real HTTP (aiohttp client against the server the bot started): links from the
real commands, live updates through server-sent events, revocation, 404s, and nothing private."""

from __future__ import annotations

import re

from bot.domain import pod
from bot.web.server import KEEPALIVE_SECONDS
from tests.web.helpers import client, link_in, open_stream, pod_game, start


async def test_overlay_link_page_and_live_update_pushed_by_the_change(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        game_id, url = await pod_game(h, "alice", "bob")
        assert url.startswith(f"http://127.0.0.1:{h.bot.pages.port}/p/")
        async with session.get(url) as page:
            assert page.status == 200
            html = await page.text()
            assert (
                page.headers["Referrer-Policy"] == "no-referrer"
                and page.headers["Cache-Control"] == "no-store"
            )
        assert '<html lang="en">' in html and "alice" in html and "bob" in html and ">40<" in html
        assert '<main id="live"' in html and "/static/live.js" in html
        token = url.rsplit("/", 1)[1]
        assert set(re.findall(r"/p/([A-Za-z0-9_-]+)", html)) == {token}  # it links to nothing else

        stream = await open_stream(session, url)
        name, first = await stream.next()
        assert name == "update" and ">40<" in first
        await h.slash("pod life", player="bob", amount=-7)
        # Pushed by the change itself: a stream that missed it would only look again after its keep-alive
        # wait. (How fast the push is, is bench_pages' business: on a busy machine a second measured it.)
        name, changed = await stream.next(timeout=KEEPALIVE_SECONDS - 1)
        assert name == "update" and ">33<" in changed
        stream.response.close()

        # The same link again (no revoke) and static files served by the bot itself.
        again = await h.slash("pod overlay", user="bob")
        assert link_in(again.content) == url
        async with session.get(f"http://127.0.0.1:{h.bot.pages.port}/static/live.js") as script:
            assert script.status == 200 and "EventSource" in await script.text()


async def test_unknown_tokens_and_paths_are_404_and_nothing_is_listed(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        _, url = await pod_game(h)
        base = f"http://127.0.0.1:{h.bot.pages.port}"
        for path in (
            "/",
            "/p/",
            "/p/not-a-token",
            "/p/not-a-token/events",
            url[len(base) :] + "x",
            "/static/",
        ):
            async with session.get(base + path) as response:
                assert response.status == (403 if path == "/static/" else 404), path  # no directory listing
                text = await response.text()
                assert "alice" not in text and "live.js" not in text


async def test_revoking_makes_a_new_link_and_stops_the_old_one(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        _, old = await pod_game(h)
        stream = await open_stream(session, old)
        assert (await stream.next())[0] == "update"
        reply = await h.slash("pod overlay", user="bob", revoke=True)
        new = link_in(reply.content)
        assert new != old and "no longer works" in reply.content
        assert (await stream.next())[0] == "gone"
        async with session.get(old) as response:
            assert response.status == 404
        async with session.get(new) as response:
            assert response.status == 200


async def test_only_players_get_the_overlay_and_a_disabled_server_says_so(tmp_path) -> None:
    async with start(tmp_path) as h:
        await pod_game(h, "alice", "bob")
        refused = await h.slash("pod overlay", user="carol")
        assert (
            refused.ephemeral
            and "Only the game's players" in refused.content
            and "/p/" not in refused.content
        )
        manager = await h.slash("pod overlay", user="admin")
        assert "/p/" in manager.content
    async with start(tmp_path / "off", web__enabled=False) as h:
        await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        off = await h.slash("pod overlay", user="alice", locale="ja")
        assert off.ephemeral and "有効になっていません" in off.content


async def test_draw_votes_never_reach_the_overlay(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        game_id, url = await pod_game(h, "alice", "bob", "carol")
        pods = h.bot.get_cog("Pods").service
        await pods.change(game_id, h.user("alice").id, pod.NEXT_TURN, manager=True)
        async with session.get(url) as response:
            before = await response.text()
        await pods.change(game_id, h.user("bob").id, pod.DRAW_VOTE, player=h.user("bob").id)
        assert (await pods.get(game_id)).state.draw_votes  # the vote is there ...
        async with session.get(url) as response:
            assert await response.text() == before  # ... and the page cannot tell


async def test_a_taken_port_leaves_the_bot_running_without_pages(tmp_path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with start(tmp_path, web__port=port) as h:
            assert h.bot.pages is None
            await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
            off = await h.slash("pod overlay", user="alice")
            assert "not enabled" in off.content


async def test_page_language_from_lang_or_the_server(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        _, url = await pod_game(h)
        async with session.get(url + "?lang=ja") as response:
            html = await response.text()
            assert '<html lang="ja">' in html and "ターン1の前" in html
        await h.slash("config locale", user="admin", options={"locale": "zh-Hant"})
        async with session.get(url) as response:
            html = await response.text()
            assert '<html lang="zh-Hant">' in html and "第1回合之前" in html
