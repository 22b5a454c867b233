"""The server's leaderboard page (``/stats page``): the link from the real command, the page over HTTP and
in a real headless Chromium, updated without a reload when a game finishes; only organisers replace it."""

from __future__ import annotations

import aiohttp

from tests.web.browser import browser  # noqa: F401  (the fixture)
from tests.web.helpers import cells, link_in, open_stream, start

RATES = "return [...document.querySelectorAll('[data-testid=rate]')].map(e => e.textContent)"


async def finish_game(h, winner: str, loser: str) -> None:
    """A two-player game through the /pod commands: the loser concedes on turn 1."""
    await h.slash("pod start", players=f"{h.user(winner).mention} {h.user(loser).mention}")
    game = (await h.bot.get_cog("Pods").service.open_in_channel(h.channel("general").id))[0].game_id
    await h.slash("pod next", user=winner, game=game)
    await h.slash("pod concede", user=loser, game=game)


async def three_games(h) -> None:
    await finish_game(h, "alice", "bob")
    await finish_game(h, "alice", "bob")
    await finish_game(h, "bob", "alice")


async def test_leaderboard_page_over_http_follows_each_finished_game(tmp_path) -> None:
    async with start(tmp_path) as h, aiohttp.ClientSession() as session:
        empty = await h.slash("stats page", user="carol")  # any member may get the link
        assert empty.ephemeral
        url = link_in(empty.content)
        async with session.get(url + "?lang=ja") as page:
            assert page.status == 200
            assert "ランキングに必要なゲーム数に達したメンバーはまだいません。" in await page.text()
        await three_games(h)
        async with session.get(url) as page:
            html = await page.text()
        assert cells(html, "leaderboard") == [["1", "alice", "3", "2", "67%"], ["2", "bob", "3", "1", "33%"]]
        stream = await open_stream(session, url)
        await stream.next()
        await finish_game(h, "bob", "alice")
        name, changed = await stream.next(timeout=2.0)
        assert name == "update" and cells(changed, "leaderboard")[0][1:] == ["alice", "4", "2", "50%"]
        stream.response.close()
        refused = await h.slash("stats page", user="carol", revoke=True)
        assert refused.ephemeral and "Only organisers can replace" in refused.content


async def test_leaderboard_page_in_chromium(tmp_path, browser) -> None:  # noqa: F811
    async with start(tmp_path) as h:
        await three_games(h)
        url = link_in((await h.slash("stats page", user="alice")).content)
        await browser.open(url, 360, 800)
        assert await browser.js(RATES) == ["67%", "33%"]
        before = int(await browser.js("return document.body.dataset.updates"))
        await finish_game(h, "bob", "alice")
        await browser.wait_for(f"return {RATES[7:]}.join() === '50%,50%'", timeout=2.0)
        assert int(await browser.js("return document.body.dataset.updates")) == before + 1  # no reload
        assert await browser.accessibility_problems() == []
        await browser.screenshot_and_check_overflow("stats-leaderboard", 360, 800)
        await browser.screenshot_and_check_overflow("stats-leaderboard", 1920)
