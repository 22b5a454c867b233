"""The live page of a 1-vs-1 tournament of matches: the standings of ``/tournament standings``
(match points, W–L–D, OMW %, GW %) and each round's pairs with their scores, updated as the games end,
over HTTP and in a real browser."""

from __future__ import annotations

import aiohttp

from bot.domain import pod
from bot.domain.tournament.matches import percent
from bot.services.pods import pod_topic
from bot.web.server import BotSources
from bot.web.views import page_data
from tests.web.browser import browser  # noqa: F401  (the fixture)
from tests.web.helpers import TOURNAMENT_CARDS, cells, link_in, open_stream, start

PLAYERS = ("alice", "bob", "carol", "dave", "erin")


async def _paired(h) -> str:
    """A tournament of matches with five players, its page link, and round 1 paired (two tables, a bye)."""
    h.bot.get_cog("Pods").updater.delay = 0
    await h.slash(
        "tournament create", user="admin", name="Duels", rounds=2, format="matches", channel="games"
    )
    for name in PLAYERS:
        await h.slash("tournament join", user=name, channel="games")
    url = link_in((await h.slash("tournament page", user="admin")).content)
    await h.slash("tournament pair", user="admin", channel="games")
    await h.settle()
    return url


async def _concede_game(h, game_id: int, loser: int, *, then_next: bool = True) -> int:
    """``loser`` concedes the game; the next game of the match starts (chosen by the loser) unless it is
    over or not ``then_next``. Returns the running game's id."""
    pods = h.bot.get_cog("Pods")
    await pods.service.change(game_id, loser, pod.NEXT_TURN)
    await pods.service.change(game_id, loser, pod.CONCEDE, player=loser)
    return await _next_game(h, game_id, loser) if then_next else game_id


async def _next_game(h, game_id: int, chooser: int) -> int:
    service = h.bot.get_cog("Pods").match_step.service
    match = await service.for_game(await h.bot.get_cog("Pods").service.get(game_id))
    if match.state.finished:
        return game_id
    _, game = await service.next_game(match.match_id, chooser, chooser)
    return game.game_id


async def _table_one(h) -> tuple[int, int, int]:
    """Table 1's game id and its two players (seat order)."""
    tournaments = h.bot.get_cog("Tournaments").service
    table = (await tournaments.repo.pods(1, 1))[0]
    return table.game_id, table.seats[0], table.seats[1]


async def _standings_rows(h) -> list[list[str]]:
    """What the page must show, from the service behind ``/tournament standings`` and its CSV."""
    service = h.bot.get_cog("Tournaments").match_rounds.service
    tournament = await h.bot.get_cog("Tournaments").service.repo.get(1)
    view = await service.standings(tournament)
    return [
        [
            str(s.rank),
            view.names[s.player],
            str(s.match_points),
            "–".join(map(str, s.record)),
            percent(s.opponents_match_win),
            percent(s.game_win),
        ]
        for s in view.standings
    ]


async def test_the_page_data_are_the_standings_of_the_match_service(tmp_path) -> None:
    async with start(tmp_path, cards_path=TOURNAMENT_CARDS, members=PLAYERS) as h:
        await _paired(h)
        game_id, first, second = await _table_one(h)
        running = await _concede_game(h, game_id, second)  # 1–0, game 2 running
        link = await h.bot.pages.links.link("tournament", 1, guild_id=h.guild.id, created_by=None)
        data = await page_data(link, BotSources(h.bot))
        assert data.template == "match_tournament.html"
        rows = [
            [
                str(s["rank"]),
                s["name"],
                str(s["points"]),
                f"{s['wins']}–{s['losses']}–{s['draws']}",
                s["omw"],
                s["gw"],
            ]
            for s in data.data["standings"]
        ]
        assert rows == await _standings_rows(h) and len(rows) == 5
        bye = [r for r in rows if r[2] == "3"]
        assert len(bye) == 1 and bye[0][3] == "1–0–0"  # only the bye has a finished match yet
        (round_one,) = data.data["match_rounds"]
        assert round_one["bye"] == bye[0][1] and len(round_one["pairs"]) == 2
        table = round_one["pairs"][0]
        assert table["wins"] == [1, 0] and not table["finished"]
        assert {pod_topic(game_id), pod_topic(running)} <= set(data.topics)  # both games of the match


async def test_the_page_follows_the_games_of_each_match(tmp_path) -> None:
    async with (
        start(tmp_path, cards_path=TOURNAMENT_CARDS, members=PLAYERS) as h,
        aiohttp.ClientSession() as session,
    ):
        url = await _paired(h)
        stream = await open_stream(session, url)
        html = (await stream.next())[1]
        assert "Round 1 of 2" in html and len(cells(html, "matches-1")) == 2 and "Bye:" in html
        assert [row[2:4] for row in cells(html, "matches-1")] == [["0–0", "playing"]] * 2

        game_id, first, second = await _table_one(h)
        names = {h.user(n).id: n for n in PLAYERS}
        await _concede_game(h, game_id, first, then_next=False)
        html = (await stream.next())[1]
        while cells(html, "matches-1")[0][2] != "0–1":
            html = (await stream.next())[1]
        assert cells(html, "matches-1")[0][1:] == [f"{names[first]}{names[second]}", "0–1", "playing"]
        running = await _next_game(h, game_id, first)  # a game the page has not seen yet: it must follow it
        await _concede_game(h, running, first)
        expected = await _standings_rows(h)
        while cells(html, "standings") != expected:  # the standings and the table's score may come in two
            html = (await stream.next())[1]
        assert cells(html, "matches-1")[0][2:] == ["0–2", "over"]
        winner = next(row for row in cells(html, "standings") if row[1] == names[second])
        assert winner[2:5] == ["3", "1–0–0", "33.3%"] and winner[5] == "100.0%"
        stream.response.close()


async def test_the_match_tournament_page_in_chromium(tmp_path, browser) -> None:  # noqa: F811
    async with start(tmp_path, cards_path=TOURNAMENT_CARDS, members=PLAYERS) as h:
        url = await _paired(h)
        await browser.open(url + "?lang=zh-Hant", 360, 800)
        text = await browser.text()
        assert "對局積分" in text and "對手對局勝率" in text and "輪空" in text
        rows = "[...document.querySelectorAll('[data-testid=standings] tbody tr')]"
        assert await browser.js(f"return {rows}.length") == 5
        game_id, first, second = await _table_one(h)
        running = await _concede_game(h, game_id, first)
        await _concede_game(h, running, first)
        winner = h.user(next(n for n in PLAYERS if h.user(n).id == second)).name
        cells = f"{rows}.map(r => [...r.children].map(c => c.textContent.trim()))"
        await browser.wait_for(
            f"return {cells}.some(r => r[1] === '{winner}' && r[3] === '1–0–0')", timeout=2.0
        )
        shown = await browser.js(f"return {cells}")
        assert shown == await _standings_rows(h)
        assert "已結束" in await browser.text()
        assert await browser.accessibility_problems() == []
        await browser.screenshot_and_check_overflow("match-tournament", 360, 800)
        await browser.screenshot_and_check_overflow("match-tournament", 1920)
