"""The tournament and Hydra event pages over HTTP: organiser-only links, live updates from the real
commands, and nothing private on them (a vote before it closes, the Hydra's hidden cards)."""

from __future__ import annotations

from bot.domain.hydra.cards import deck_list
from tests.hydra_events.test_cog import booted, create, play
from tests.tournament.test_cog import finish_linked_game, start_tournament
from tests.web.helpers import TOURNAMENT_CARDS, cells, client, link_in, open_stream, start


async def test_tournament_page_standings_pairings_and_secret_votes(tmp_path) -> None:
    async with start(tmp_path, cards_path=TOURNAMENT_CARDS) as h, client() as session:
        tournament = await start_tournament(h)
        h.add_member("erin")
        refused = await h.slash("tournament page", user="erin", locale="ja")
        assert (
            refused.ephemeral
            and "/p/" not in refused.content
            and "主催者と参加したプレイヤーだけ" in refused.content
        )
        url = link_in((await h.slash("tournament page", user="admin")).content)
        player = await h.slash("tournament page", user="alice")
        assert player.ephemeral and link_in(player.content) == url  # players follow on their phones
        replace = await h.slash("tournament page", user="alice", revoke=True)
        assert "Only organisers can replace" in replace.content and "/p/" not in replace.content
        stream = await open_stream(session, url)
        name, html = await stream.next()
        assert "Not paired yet" in html and {row[1] for row in cells(html, "standings")} == {
            "alice",
            "bob",
            "carol",
            "dave",
        }

        game_id = await finish_linked_game(h, tournament)  # pairs round 1, plays it to a draw
        html = (await stream.next())[1]
        while "finished, vote open" not in html:  # pairing, then the game's end: one update or two
            html = (await stream.next())[1]
        assert "Round 1 of 3" in html and len(cells(html, "pairings")) == 1
        assert all(row[2] == "0" for row in cells(html, "standings"))  # the game scores when its vote closes

        alice, bob = h.user("alice").id, h.user("bob").id
        service = h.bot.get_cog("Tournaments").service
        await service.cast_vote(game_id, alice, bob)
        async with session.get(url) as response:
            during = await response.text()
        assert "vote open" in during and all(row[2] == "0" for row in cells(during, "standings"))

        await h.bot.get_cog("Tournaments").close_vote_now(game_id)
        html = (await stream.next())[1]
        assert "scored" in html and any(row[2] != "0" for row in cells(html, "standings"))
        stream.response.close()


async def test_hydra_event_page_leaderboard_follows_play_and_hides_the_hydra(tmp_path) -> None:
    async with start(tmp_path, on_boot=booted()) as h, client() as session:
        announcement = await create(h)
        for name in ("alice", "bob"):
            await h.click(announcement, label="Join", user=name)
        refused = await h.slash("hydra event page", user="carol")
        assert refused.ephemeral and "/p/" not in refused.content
        url = link_in((await h.slash("hydra event page", user="admin")).content)
        assert link_in((await h.slash("hydra event page", user="alice")).content) == url
        async with session.get(url + "?lang=zh-Hans") as response:
            html = await response.text()
            assert '<html lang="zh-Hans">' in html and "2名玩家参加" in html

        stream = await open_stream(session, url)
        assert "2 players have joined" in (await stream.next())[1]
        await h.slash("hydra event begin", user="admin")
        html = (await stream.next())[1]
        while 'data-testid="tables"' not in html:
            html = (await stream.next())[1]
        assert cells(html, "tables")[0][3] == "0"

        thread = h.threads()[0]
        game_id = (await h.bot.get_cog("HydraEvents").events.status(1)).tables[0].game_id
        table = await h.bot.get_cog("Hydra").service.load(game_id)
        await play(h, thread, h.guild.members[table.seats[0].user_id].name, lines=("attack 1 3",))
        html = (await stream.next())[1]
        while cells(html, "tables")[0][3] == "0":
            html = (await stream.next())[1]
        assert cells(html, "tables")[0][3] == "1"

        hidden = set(deck_list())  # the Hydra's library, hand-less deck: none of it belongs on a page
        assert len(hidden) > 5
        async with session.get(url) as response:
            page = await response.text()
        assert not [name for name in hidden if name in page], "a Hydra card is on the page"
        stream.response.close()
