"""Hydra events at the Discord layer, through the in-process harness: real Interactions, the real
Hydra cog playing real games, a real SQLite file; only Discord's HTTP edge is fake."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from PIL import Image

from bot.storage.hydra_events import CANCELLED, FINISHED, RUNNING
from bot.testing import DiscordHarness

# Discord-layer suite run on both engines (tests/conftest.py): the bot's database is SQLite, then PostgreSQL.
pytestmark = pytest.mark.both_engines

WIN_LINES = ("attack 1 3", "end", "choose counter", "choose pass", "attack 2 3", "end")  # seed 5, 2 heads


def booted() -> Callable:
    async def on_boot(bot) -> None:
        cog = bot.get_cog("HydraEvents")
        cog.announcements.delay = 0.01
        cog.events.seed_for = lambda event, table: 5

    return on_boot


async def finished(h: DiscordHarness, event_id: int = 1):
    """The event once its results are posted: a table's end refreshes the leaderboard, which finishes
    the event (in a background task: settle waits for it; no leaderboard tick is needed)."""
    await h.settle()
    event = await cog(h).events.event(event_id)
    assert event.results_message_id is not None, f"event {event_id} did not post its results: {event}"
    return event


def cog(h: DiscordHarness):
    return h.bot.get_cog("HydraEvents")


async def create(h: DiscordHarness, **options):
    values = {"name": "Hydra night", "start": "in 1h", "heads": 2, "table_size": 2} | options
    return await h.slash("hydra event create", user="admin", **values)


async def begun(h: DiscordHarness, players=("alice", "bob"), **options):
    """An event created with ``options``, joined by ``players`` in turn and begun by the organiser, with
    one table: its announcement and that table's thread."""
    announcement = await create(h, **options)
    for name in players:
        await h.click(announcement, label="Join", user=name)
    await h.slash("hydra event begin", user="admin")
    (thread,) = h.threads()
    return announcement, thread


async def event_row(h: DiscordHarness, event_id: int = 1):
    return await cog(h).events.event(event_id)


def board_of(h: DiscordHarness, thread):
    """The Hydra board message of an event table's thread (the one with the Hydra's buttons)."""
    return next(m for m in h.messages(thread) if any("hydra:" in b.get("custom_id", "") for b in m.buttons))


async def play(h: DiscordHarness, thread, user: str, lines=WIN_LINES) -> None:
    """Play script lines through the Hydra cog's board: the 'command' modal, or 'End our turn'."""
    board = board_of(h, thread)
    game_id = board.buttons[0]["custom_id"].split(":")[1]
    for line in lines:
        if line == "end":
            await h.click(board, custom_id=f"hydra:{game_id}:end", user=user)
        else:
            opened = await h.click(board, custom_id=f"hydra:{game_id}:command", user=user)
            await h.submit_modal(opened, {"text": line}, user=user)


async def test_only_organisers_create_and_bad_input_changes_nothing(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        refused = await h.slash("hydra event create", user="alice", name="x", start="in 1h")
        assert refused.ephemeral and "organisers" in refused.content
        bad = await create(h, start="someday")
        assert bad.ephemeral and "someday" in bad.content
        blank = await create(h, name="   ")
        assert blank.ephemeral and "name" in blank.content
        assert await cog(h).events.repo.events_with_status(("open",)) == []
        assert h.guild.scheduled_events == {}

        role = h.add_role("Organiser")
        await h.bot.guild_settings.update(h.guild.id, organiser_role_id=role.id)
        h.user("carol").role_ids.append(role.id)
        made = await h.slash(
            "hydra event create", user="carol", name="Carol's night", start="in 2h", locale="ja"
        )
        assert not made.ephemeral and made.embed["title"] == "Carol's night"
        assert [b["label"] for b in made.message.buttons] == ["Join", "Leave"]
        (scheduled,) = h.guild.scheduled_events.values()
        assert scheduled.data["name"] == "Carol's night" and scheduled.data["entity_type"] == 3
        assert (await event_row(h)).scheduled_event_id == scheduled.id


async def test_join_as_a_group_live_count_and_leave(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement = await create(h, table_size=4)
        await h.click(announcement, label="Join", user="admin")
        asked = await h.slash("hydra event join", user="alice", friend1="bob", friend2="carol")
        assert asked.ephemeral and "Nobody is entered until they all accept" in asked.content
        (invitation,) = [m for m in asked.created if not m.ephemeral]  # the public invitation
        await h.click(invitation, label="Accept", user="bob")
        together = await h.click(invitation, label="Accept", user="carol")
        assert together.ephemeral and "joined Hydra night" in together.content
        again = await h.click(announcement, label="Join", user="bob")
        assert again.ephemeral and "Already in this event" in again.content
        await cog(h).announcements.flush()
        assert "4 joined" in str(announcement.message.embeds[0]["fields"])
        await h.click(announcement, label="Leave", user="admin")
        await cog(h).announcements.flush()
        assert "3 joined" in str(announcement.message.embeds[0]["fields"])
        entrants = await cog(h).events.repo.entrants(1)
        assert len({e.group_id for e in entrants}) == 1  # alice, bob, carol: one group


async def test_begin_seats_tables_plays_them_and_awards_the_winners(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        role = h.add_role("Hydra Slayer")
        await h.bot.guild_settings.update(h.guild.id, winner_role_id=role.id)
        announcement = await create(h)
        for name in ("alice", "bob", "carol", "admin"):
            await h.click(announcement, label="Join", user=name)
        refused = await h.slash("hydra event begin", user="alice")
        assert refused.ephemeral and "organisers" in refused.content
        begun = await h.slash("hydra event begin", user="admin")
        assert "4 players at 2 tables" in begun.text
        threads = h.threads()
        assert len(threads) == 2
        for thread in threads:
            intro, board = h.messages(thread)[:2]
            assert "I'm here" in [b["label"] for b in intro.buttons]
            assert board.embeds and board.attachments  # the Hydra cog's own board, with its image
        assert (await event_row(h)).status == RUNNING
        assert next(iter(h.guild.scheduled_events.values())).data["status"] == 2  # active
        leaderboard = h.messages("general")[-1]
        assert "Leaderboard" in leaderboard.embeds[0]["title"]

        seats = {
            thread.id: [s for s in (await cog(h).events.status(1)).tables if s.thread_id == thread.id][0]
            for thread in threads
        }
        first, second = threads
        first_game = await h.bot.get_cog("Hydra").service.load(seats[first.id].game_id)
        player = h.guild.members[first_game.seats[0].user_id].name
        await play(h, first, player)
        await h.settle()
        assert "Tables won 1 · lost 0 · still playing 1" in leaderboard.embeds[0]["description"]
        assert "Fastest win: table" in leaderboard.embeds[0]["description"]

        second_game = await h.bot.get_cog("Hydra").service.load(seats[second.id].game_id)
        for seat in second_game.seats:
            board = board_of(h, second)
            await h.click(
                board,
                custom_id=f"hydra:{second_game.game_id}:concede",
                user=h.guild.members[seat.user_id].name,
            )
        event = await finished(h)
        assert event.status == FINISHED
        results = h.fake.messages[event.results_message_id]
        winners = {seat.user_id for seat in first_game.seats}
        for user_id in winners:
            assert f"<@{user_id}>" in results.content
            assert role.id in h.guild.members[user_id].role_ids
            assert (await h.bot.get_cog("Hydra").service.profile(user_id)).has_slayer
        for seat in second_game.seats:
            assert role.id not in h.guild.members[seat.user_id].role_ids
        image = Image.open(io.BytesIO(next(iter(results.files.values()))))
        assert image.width == 720 and image.height > 400
        assert image.getpixel((10, 10)) == (24, 26, 32)  # the dark background, drawn
        awards = await cog(h).events.repo.awards(1)
        assert {a.user_id for a in awards} == winners and all(a.role_granted for a in awards)
        assert next(iter(h.guild.scheduled_events.values())).data["status"] == 3  # completed
        status = await h.slash("hydra event status", event=1)
        assert "finished" in status.text


async def test_cancel_needs_confirmation_and_awards_nothing(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement = await create(h)
        await h.click(announcement, label="Join", user="alice")
        asked = await h.slash("hydra event cancel", user="admin")
        assert asked.ephemeral and (await event_row(h)).status == "open"  # nothing yet
        refused = await h.click(asked, label="Yes, cancel the event", user="alice")
        assert refused.ephemeral and (await event_row(h)).status == "open"
        await h.click(asked, label="Yes, cancel the event", user="admin")
        await h.settle()
        assert (await event_row(h)).status == CANCELLED
        assert await cog(h).events.repo.awards(1) == []
        assert announcement.message.buttons == []  # no more Join / Leave
        assert "cancelled" in h.messages("general")[-1].content
        late = await h.slash("hydra event join", user="bob", event=1)
        assert late.ephemeral and "over" in late.content


async def test_the_start_timer_survives_a_restart_and_old_buttons_still_work(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement = await create(h, start="in 1m")
        await h.click(announcement, label="Join", user="alice")
        cog(h).timers.cancel(("start", 1, 0))  # the first process stops before the start
        await h.restart()
        await h.click(announcement, label="Join", user="bob")  # a button from before the restart
        await h.settle()
        event = await event_row(h)
        assert event.status == "open"
        await h.advance(seconds=59)  # the re-armed timer, from the stored start time
        assert (await event_row(h)).status == "open"
        await h.advance(seconds=1)
        assert (await event_row(h)).status == RUNNING
        assert len(h.threads()) == 1


async def test_late_joiners_sit_in_the_first_turn_then_wait_and_no_shows_are_dropped(tmp_path) -> None:
    async with DiscordHarness.start(
        tmp_path, on_boot=booted(), members=("alice", "bob", "carol", "dave")
    ) as h:
        announcement, thread = await begun(h, table_size=4)
        late = await h.click(announcement, label="Join", user="carol")
        assert "table 1" in late.content
        assert "joined this table" in h.messages(thread)[-1].content
        hydra = h.bot.get_cog("Hydra").service
        table = await hydra.load((await cog(h).events.repo.tables(1))[0].game_id)
        assert [h.guild.members[s.user_id].name for s in table.seats] == ["alice", "bob", "carol"]
        await play(h, thread, "alice", ("attack 1 1", "end"))
        later = await h.click(announcement, label="Join", user="dave")
        assert "wait list" in later.content
        second_wave = await h.slash("hydra event begin", user="admin")
        assert "at 2 tables" in second_wave.text
        new_thread = next(t for t in h.threads() if t.id != thread.id)
        assert "<@" + str(h.user("dave").id) + ">" in h.messages(new_thread)[0].content
        nobody = await h.slash("hydra event begin", user="admin")
        assert "Nobody is on the wait list" in nobody.text and nobody.ephemeral

        intro = h.messages(thread)[0]
        await h.click(intro, label="I'm here", user="bob")
        grace_over = h.clock.now() + timedelta(minutes=(await event_row(h)).grace_minutes)  # carol's too
        dropped = await cog(h).events.drop_no_shows(1, 1, now=grace_over)  # the grace timer's work, directly
        assert [h.guild.members[u].name for u in dropped.user_ids] == ["carol"]
        game = (await hydra.load(table.game_id)).game
        assert [p.lost for p in game.players] == [False, False, True] and not game.over


@pytest.mark.parametrize("locale", ["ja", "zh-CN", "zh-TW"])
async def test_status_and_refusals_are_localised(tmp_path, locale: str) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        none = await h.slash("hydra event status", locale=locale)
        expected = {
            "ja": "ハイドラ・イベントはありません",
            "zh-CN": "没有这个多头龙活动",
            "zh-TW": "沒有這個多頭龍活動",
        }
        assert none.ephemeral and expected[locale] in none.content
        await create(h)
        shown = await h.slash("hydra event status", locale=locale)
        assert shown.ephemeral and "Hydra night" in shown.text


async def test_a_running_event_survives_a_restart_and_finishes_by_itself(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement, thread = await begun(h)
        await h.restart()  # leaderboard watcher, grace timers and the Hydra's buttons come back
        await play(h, thread, "alice")
        event = await finished(h)
        assert event.status == FINISHED
        results = h.fake.messages[event.results_message_id]
        assert "<@" in results.content and results.files
        leaderboard = h.fake.messages[event.leaderboard_message_id]
        assert (
            "Final: tables won 1 · lost 0 · unfinished 0 · players standing 2"
            in leaderboard.embeds[0]["description"]
        )


async def test_results_cut_off_by_a_restart_are_posted_at_the_next_start(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        role = h.add_role("Hydra Slayer")
        await h.bot.guild_settings.update(h.guild.id, winner_role_id=role.id)
        announcement, thread = await begun(h)
        cog(h).timers.cancel(("board", 1, 0))  # stop the watcher: the finish below is "interrupted"
        h.bot.remove_listener(cog(h).on_hydra_game_finished, "on_hydra_game_finished")
        await play(h, thread, "alice")
        assert await cog(h).events.finish(1, role_id=role.id) is not None  # awarded, then the bot stops
        assert role.id not in h.user("alice").role_ids and (await event_row(h)).results_message_id is None
        await h.restart()
        event = await event_row(h)
        assert event.results_message_id is not None
        assert f"<@{h.user('alice').id}>" in h.fake.messages[event.results_message_id].content
        assert role.id in h.user("alice").role_ids and role.id in h.user("bob").role_ids


async def test_results_discord_refuses_are_posted_again_on_the_clock(tmp_path) -> None:
    """The night's last presses can drain the channel's bucket just as the results go out: the post is
    tried again on the bot's clock, not only at the next start."""
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement, thread = await begun(h)
        # beyond what discord.py waits, and aimed at the results post (a board edit may come first)
        h.fake.rate_limiter.throttle_next(announcement.message.channel_id, 120.0, method="POST")
        await play(h, thread, "alice")
        await h.settle()
        assert (await event_row(h)).results_message_id is None  # refused, and nobody restarts the bot
        await h.advance(seconds=120)
        event = await event_row(h)
        assert event.results_message_id is not None
        assert f"<@{h.user('alice').id}>" in h.fake.messages[event.results_message_id].content


async def test_the_grace_timer_drops_who_never_showed_up_and_the_table_goes_on(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement, thread = await begun(h, ("alice", "bob", "carol"), grace=1, table_size=4)  # 1 minute
        await h.click(h.messages(thread)[0], label="I'm here", user="alice")
        await play(h, thread, "bob", ("attack 1 1",))  # bob acts on the board
        await h.advance(seconds=59)
        assert not any("did not show up" in m.content for m in h.messages(thread))
        await h.advance(seconds=1)
        assert any(f"<@{h.user('carol').id}> did not show up" in m.content for m in h.messages(thread))
        entrants = {e.user_id: e.state for e in await cog(h).events.repo.entrants(1)}
        assert entrants[h.user("carol").id] == "dropped" and entrants[h.user("alice").id] == "seated"
        table = await h.bot.get_cog("Hydra").service.load((await cog(h).events.repo.tables(1))[0].game_id)
        assert [p.lost for p in table.game.players] == [False, False, True] and not table.game.over


async def test_a_winner_role_moved_above_the_bot_is_not_asked_for_and_the_results_say_so(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        role = h.add_role("Hydra Slayer")
        await h.bot.guild_settings.update(h.guild.id, winner_role_id=role.id)
        announcement, thread = await begun(h)
        role.position = h.fake.bot_role(h.guild).position + 1  # an admin drags it above the bot's role
        h._refresh_guild()
        await play(h, thread, "alice")
        event = await finished(h)  # the harness fails the test if Discord had refused a grant
        results = h.fake.messages[event.results_message_id].content
        assert "The Slayer goes to" in results
        assert "The winner role Hydra Slayer could not be given to" in results and "above my own" in results
        assert f"<@{h.user('alice').id}>" in results.split("could not be given to")[1]
        assert role.id not in h.user("alice").role_ids
        assert not any(a.role_granted for a in await cog(h).events.repo.awards(1))  # given at a later start
        role.position = 1
        h._refresh_guild()
        await h.restart()
        assert role.id in h.user("alice").role_ids


async def test_a_long_night_keeps_its_scheduled_event_active_until_the_results(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        cog(h).leaderboard_seconds = 600  # a tick every 10 minutes of fake time
        announcement, thread = await begun(h)
        for name in ("alice", "bob"):
            await h.click(h.messages(thread)[0], label="I'm here", user=name)
        (scheduled,) = h.guild.scheduled_events.values()
        for _ in range(30):  # five hours, ten minutes at a time: past the 3 hours it was first given
            await h.advance(minutes=10)
        assert scheduled.data["status"] == 2  # still active: Discord did not end it mid-game
        end = datetime.fromisoformat(scheduled.data["scheduled_end_time"])
        assert end - h.clock.now() > timedelta(minutes=29)
        await h.slash("hydra resume", channel=thread, user="alice")  # the idle table paused meanwhile
        await play(h, thread, "alice")
        await finished(h)  # the harness fails the test if Discord refused the COMPLETED edit
        assert scheduled.data["status"] == 3


async def test_cancelling_a_running_event_completes_its_scheduled_event(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await begun(h)
        (scheduled,) = h.guild.scheduled_events.values()
        assert scheduled.data["status"] == 2
        asked = await h.slash("hydra event cancel", user="admin")
        await h.click(asked, label="Yes, cancel the event", user="admin")
        await h.settle()
        assert scheduled.data["status"] == 3  # ACTIVE → CANCELED is not a transition Discord allows
        assert (await event_row(h)).status == CANCELLED


def test_scheduled_event_status_steps_follow_discords_transitions() -> None:
    from discord import EventStatus as S

    from cogs.hydra_events.base import status_steps

    assert status_steps(S.scheduled, S.active) == [S.active]
    assert status_steps(S.scheduled, S.completed) == [S.active, S.completed]
    assert status_steps(S.scheduled, S.cancelled) == [S.cancelled]
    assert status_steps(S.active, S.completed) == [S.completed]
    assert status_steps(S.active, S.cancelled) == [S.completed]
    assert status_steps(S.active, S.active) == []
    assert status_steps(S.completed, S.completed) == status_steps(S.cancelled, S.active) == []


def _states(entrants, h: DiscordHarness) -> dict[str, str]:
    return {h.guild.members[e.user_id].name: e.state for e in entrants}


async def test_a_late_joiners_grace_runs_from_their_seat_with_an_im_here_prompt(tmp_path) -> None:
    """A late joiner was dropped as a no-show about 30 s after sitting down: the table's timer ran
    from the table's start, and nothing asked them to say they were there."""
    async with DiscordHarness.start(
        tmp_path, on_boot=booted(), members=("alice", "bob", "carol", "dave")
    ) as h:
        announcement, thread = await begun(h, grace=1, table_size=4)  # 1 minute
        for name in ("alice", "bob"):
            await h.click(h.messages(thread)[0], label="I'm here", user=name)
        await h.advance(seconds=30)
        for name in ("carol", "dave"):
            await h.click(announcement, label="Join", user=name)
        welcomes = [m for m in h.messages(thread) if "joined this table" in m.content]
        assert len(welcomes) == 2 and all("within 1 minute" in m.content for m in welcomes)
        await h.click(welcomes[1], label="I'm here", user="dave")
        await h.advance(seconds=31)  # the table's grace is over, not carol's (she sat down 31 s ago)
        assert _states(await cog(h).events.repo.entrants(1), h)["carol"] == "seated"
        assert not any("did not show up" in m.content for m in h.messages(thread))
        await h.advance(seconds=30)
        assert _states(await cog(h).events.repo.entrants(1), h) == {
            "alice": "seated",
            "bob": "seated",
            "carol": "dropped",
            "dave": "seated",
        }
        assert any(f"<@{h.user('carol').id}> did not show up" in m.content for m in h.messages(thread))
        await h.restart()  # nothing left to look at: no drop after a restart either
        await h.advance(minutes=5)
        assert _states(await cog(h).events.repo.entrants(1), h)["dave"] == "seated"


async def test_an_event_starting_now_waits_for_players_and_the_announcement_follows_it(tmp_path) -> None:
    """``start: now`` was cancelled at once ("nobody joined"), and the announcement kept "Starts in …"
    after the tables began; the status and the announcement counted the players differently."""
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement = await create(h, start="now", grace=5)
        await h.settle()
        assert (await event_row(h)).status == "open"
        assert "Nobody has joined yet" in announcement.message.embeds[0]["description"]
        for name in ("alice", "bob"):
            await h.click(announcement, label="Join", user=name)
        await h.advance(minutes=5)
        await h.settle()
        assert (await event_row(h)).status == RUNNING and len(h.threads()) == 1
        description = announcement.message.embeds[0]["description"]
        assert "Began <t:" in description and "Starts" not in description and "Nobody" not in description
        counted = {f["name"]: f["value"] for f in announcement.message.embeds[0]["fields"]}
        assert counted["Players"].startswith("2 joined")
        status = await h.slash("hydra event status", user="alice")
        assert "joined 2 · seated 2 · waiting 0 · dropped 0" in status.text


async def test_an_event_starting_now_that_nobody_joins_is_cancelled_after_its_grace(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, start="now", grace=5)
        await h.advance(minutes=4, seconds=59)
        assert (await event_row(h)).status == "open"
        await h.advance(seconds=1)
        assert (await event_row(h)).status == CANCELLED


async def test_a_grace_drop_due_while_the_bot_closes_is_stored_without_an_error(tmp_path, caplog) -> None:
    """Under load a no-show timer fired while the bot was closing: "the Hydra cog is not loaded"."""
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await begun(h, ("alice", "bob", "carol"), grace=1, table_size=4)
        await h.bot.remove_cog("Hydra")  # closing: the Hydra cog goes first
        with caplog.at_level(logging.ERROR):
            await h.advance(minutes=1)
            await h.settle()
        assert "not loaded" not in caplog.text and "Traceback" not in caplog.text
        states = {h.guild.members[e.user_id].name: e.state for e in await cog(h).events.repo.entrants(1)}
        assert set(states.values()) == {"dropped"}  # nobody acted: the drops are stored
