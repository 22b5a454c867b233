"""The page server's render cache as viewers would catch it going wrong: two games' overlays open side by
side must never show each other's board, one link read in two languages must never answer one with the
other's words, a change must show on the next read, and the language a viewer's browser asks for (a
Hong Kong or Taiwan Chinese tag included) must win over the server's, also on a 404."""

from __future__ import annotations

import aiohttp

from bot.i18n import t
from tests.web.helpers import client, link_in, pod_game, start


async def read(session: aiohttp.ClientSession, url: str, **params: str) -> tuple[int, str]:
    async with session.get(url, params=params) as response:
        return response.status, await response.text()


async def test_two_games_pages_read_in_turn_each_show_their_own_board(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        _, first = await pod_game(h, "alice", "bob")
        await h.slash(
            "pod start", channel="games", players=f"{h.user('carol').mention} {h.user('dave').mention}"
        )
        second = link_in((await h.slash("pod overlay", user="carol", channel="games")).content)
        assert first != second
        # Each link read twice in a row, so its render is fresh in the cache when the other is asked for.
        for url, mine, theirs in [(first, "alice", "carol"), (second, "carol", "alice")] * 2:
            for _ in range(2):
                status, html = await read(session, url)
                assert status == 200 and mine in html and theirs not in html, url


async def test_one_link_in_two_languages_answers_each_in_its_own(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        _, url = await pod_game(h, "alice", "bob")
        for _ in range(2):
            _, english = await read(session, url, lang="en")
            _, japanese = await read(session, url, lang="ja")
            assert '<html lang="en">' in english and "ターン1の前" not in english
            assert '<html lang="ja">' in japanese and "ターン1の前" in japanese
        for tag in ("zh-HK", "zh-TW", "zh-Hant"):  # Hong Kong and Taiwan read Traditional Chinese
            _, html = await read(session, url, lang=tag)
            assert '<html lang="zh-Hant">' in html and "第1回合之前" in html, tag
        _, html = await read(session, url, lang="zh-CN")
        assert '<html lang="zh-Hans">' in html, "mainland Chinese reads Simplified"
        _, html = await read(session, url, lang="xx")  # a language we do not have: the server's
        assert '<html lang="en">' in html


async def test_a_change_shows_on_the_next_read_of_a_cached_page(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        _, url = await pod_game(h, "alice", "bob")
        _, before = await read(session, url)
        assert ">40<" in before
        await h.slash("pod life", player="bob", amount=-7, user="alice")
        _, after = await read(session, url)
        assert ">33<" in after


async def test_an_unknown_link_says_so_in_the_asked_language_with_the_same_headers(tmp_path) -> None:
    async with start(tmp_path) as h, client() as session:
        base = f"http://127.0.0.1:{h.bot.pages.port}/p/no-such-token"
        for lang, language in (("ja", "ja"), ("zh-HK", "zh-Hant"), ("", "en")):
            async with session.get(base, params={"lang": lang} if lang else {}) as response:
                assert response.status == 404
                assert t("web.not_found", language) in await response.text(), lang
                assert response.headers["Referrer-Policy"] == "no-referrer"
                assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
                assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
