"""/challenge event … through the in-process harness: a Defeat a God night with the real
Challenge cog playing real games in the event's threads, a real SQLite file; only Discord's HTTP edge
is fake. The same event machinery as the Hydra's, in the deck's own words."""

from __future__ import annotations

import io

from PIL import Image

from bot.storage.hydra_events import FINISHED, RUNNING
from bot.testing import DiscordHarness


def events_cog(h: DiscordHarness):
    return h.bot.get_cog("HydraEvents")


async def booted(bot) -> None:
    cog = bot.get_cog("HydraEvents")
    cog.announcements.delay = 0.01
    cog.events.seed_for = lambda event, table: 4


async def test_a_god_night_seats_tables_in_threads_plays_and_names_the_winners(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted) as h:
        made = await h.slash(
            "challenge event create", user="admin", name="God night", start="in 1h", deck="god", table_size=2
        )
        assert not made.ephemeral and "A night against Xenagos for everyone!" in made.embed["description"]
        assert "/challenge event join" in made.embed["description"]
        event = await events_cog(h).events.event(1)
        assert (event.deck, event.heads, event.table_size) == ("god", 2, 2)
        refused = await h.slash(
            "challenge event create", user="admin", name="x", start="in 1h", deck="horde", table_size=2
        )
        assert refused.ephemeral and "1 to 1" in refused.content  # the Horde seats one a table
        for name in ("alice", "bob", "carol", "admin"):
            await h.click(made, label="Join", user=name)
        begun = await h.slash("challenge event begin", user="admin")
        assert "4 players at 2 tables" in begun.text
        threads = h.threads()
        assert len(threads) == 2
        decks = h.bot.get_cog("Challenge")
        games = []
        for thread in threads:
            intro, board = h.messages(thread)[:2]
            assert "against Xenagos (difficulty 2)" in intro.content
            assert board.embeds[0]["title"].startswith("Defeat a God")
            image = Image.open(io.BytesIO(board.attachments[0].data))  # the God board, drawn in the pool
            assert image.format == "PNG" and image.width == 720
            table_row = next(
                t for t in (await events_cog(h).events.status(1)).tables if t.thread_id == thread.id
            )
            table = await decks.service.load(table_row.game_id)
            assert table.row.channel_id == thread.id and table.row.message_id == board.id
            games.append(table)
        assert (await events_cog(h).events.event(1)).status == RUNNING

        won, lost = games
        throngs = [
            str(n)
            for n, p in zip(won.game.battlefield_numbers(), won.game.battlefield, strict=True)
            if p.name == "Rollicking Throng"
        ]
        await decks.service.act(won.game_id, won.seats[0].user_id, "destroy " + " ".join(throngs))
        await decks.service.act(won.game_id, won.seats[1].user_id, "exile 1")  # Xenagos leaves: they win
        await decks.service.act(lost.game_id, lost.seats[0].user_id, "concede")
        await events_cog(h).refresh_leaderboard(1)
        await h.settle()
        event = await events_cog(h).events.event(1)
        assert event.status == FINISHED and event.results_message_id is not None
        results = h.fake.messages[event.results_message_id]
        assert "Winners against Xenagos" in results.content
        for user_id in won.user_ids:
            assert f"<@{user_id}>" in results.content
        for user_id in lost.user_ids:
            assert f"<@{user_id}>" not in results.content
        assert "defeated" in str(results.embeds[0]["fields"])  # the God's words, not heads
        ja = await h.slash("challenge event status", event=1, locale="ja")
        assert ja.ephemeral


async def test_a_god_night_takes_late_players_and_hears_of_a_table_ending_at_once(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted, members=("alice", "bob", "carol", "dave")) as h:
        made = await h.slash(
            "challenge event create", user="admin", name="God night", start="in 1h", deck="god", table_size=3
        )
        for name in ("alice", "bob"):
            await h.click(made, label="Join", user=name)
        await h.slash("challenge event begin", user="admin")
        (thread,) = h.threads()
        board = h.messages(thread)[1]
        assert board.embeds[0]["description"].count("Rollicking Throng") == 3
        late = await h.click(made, label="Join", user="carol")  # the first turn is still going: she sits down
        assert "table 1" in late.content and f"<#{thread.id}>" in late.content
        assert "joined this table" in h.messages(thread)[-1].content
        assert board.embeds[0]["description"].count("Rollicking Throng") == 4  # the board shows her Throng
        decks = h.bot.get_cog("Challenge").service
        game_id = (await events_cog(h).events.repo.tables(1))[0].game_id
        assert [h.guild.members[u].name for u in (await decks.load(game_id)).user_ids] == [
            "alice",
            "bob",
            "carol",
        ]
        later = await h.click(made, label="Join", user="dave")  # three sit there: the table is full
        assert "wait list" in later.content

        events_cog(h).timers.cancel(
            ("board", 1, 0)
        )  # no leaderboard tick from here on: only the table's word
        await h.click(board, label="Concede", user="carol")  # a concession ends the team's game
        await h.settle()
        event = await events_cog(h).events.event(1)
        assert event.status == FINISHED and event.results_message_id is not None
        assert "unfinished 0" in h.fake.messages[event.leaderboard_message_id].embeds[0]["description"]


async def test_a_horde_night_puts_a_late_player_on_the_wait_list_in_the_horde_s_words(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted) as h:
        made = await h.slash(
            "challenge event create", user="admin", name="Horde night", start="in 1h", deck="horde"
        )
        await h.click(made, label="Join", user="alice")
        await h.slash("challenge event begin", user="admin")
        late = await h.click(made, label="Join", user="bob")
        assert "every table seats one player" in late.content and "wait list" in late.content
        second = await h.slash("challenge event begin", user="admin")  # the organiser opens a table for him
        assert "at 2 tables" in second.text and len(h.threads()) == 2
