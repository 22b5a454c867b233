"""A whole game night on the stand-in that keeps Discord's clock: 12 tables in 3 servers (pod games, a
tournament round's board, a Hydra table, an event announcement), a press every few seconds for four hours
on the fake clock, threads on in one server and then off, one thread left quiet for longer than its
auto-archive duration.

Counted, all 0: boards still stale after their press was answered and the board updates ran (the fake
clock does not move meanwhile, so that is "stale beyond 5 s after a change"), presses lost (pressed but
not stored), interaction tokens used past 15 minutes and every other refusal of the stand-in (a token past
its lifetime is refused 401/50027, so the refusals cover it).

A small night by default (72 minutes, a press every 90 s: each board is posted afresh once; the quiet thread
is not quiet long enough to archive); the full night with ``--full``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from bot.testing import DiscordHarness
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.model import FakeChannel, FakeMember, FakeMessage
from tests.boards.helpers import CARDS, life_on_board, pods

FULL_NIGHT = (4 * 3600, 5)  # seconds of night, seconds between presses
SMALL_NIGHT = (72 * 60, 90)
QUIET_THREAD = (3600, 2 * 3600 + 600)  # the first thread's table takes no press in this part of the night
THREAD_ARCHIVE_MINUTES = 60  # a server whose channels archive threads after an hour (Discord's shortest)


@dataclass
class Table:
    """One table of the night: how a press is made on it and how its board must read afterwards."""

    kind: str  # pod | hydra | event
    key: int  # game id, Hydra table id or event id
    guild_id: int
    players: list[FakeMember]
    pressed: int = 0
    accepted: int = 0
    joined: set[int] = field(default_factory=set)


class Night:
    def __init__(self, h: DiscordHarness, rng: random.Random) -> None:
        self.h, self.rng = h, rng
        self.tables: list[Table] = []
        self.stale = 0

    # -- the world ---------------------------------------------------------------------------------------

    def server(self, name: str) -> tuple[object, FakeChannel, list[FakeMember]]:
        fake = self.h.fake
        guild = fake.add_guild(name)
        channel = fake.add_channel(guild, "games")
        members = [fake.add_member(guild, self.h.user(n).user) for n in ("alice", "bob", "carol", "dave")]
        self.h.bot._connection._add_guild_from_data(P.guild(guild))
        return guild, channel, members

    async def pod(self, channel: FakeChannel, players: list[FakeMember]) -> Table:
        reply = await self.h.slash(
            "pod start",
            channel=channel,
            user=players[0],
            players=" ".join(f"<@{p.user.id}>" for p in players),
        )
        rows = await pods(self.h).service.open_in_channel(reply.message.channel_id)
        if not rows:  # the board went into a thread: find the game by its thread
            rows = await pods(self.h).service.recent(channel.guild_id or 0, 1)
        table = Table("pod", max(r.game_id for r in rows), channel.guild_id or 0, players)
        self.tables.append(table)
        return table

    # -- presses ---------------------------------------------------------------------------------------

    async def live_message(self, table: Table) -> FakeMessage:
        if table.kind == "pod":
            message_id = (await pods(self.h).service.get(table.key)).row.message_id
        elif table.kind == "hydra":
            message_id = (await self.h.bot.get_cog("Hydra").service.load(table.key)).row.message_id
        else:
            message_id = (await self.h.bot.get_cog("HydraEvents").events.event(table.key)).message_id
        assert message_id is not None
        return self.h.fake.messages[message_id]

    async def press(self, table: Table) -> None:
        board = await self.live_message(table)
        who = self.rng.choice(table.players)
        table.pressed += 1
        if table.kind == "pod":
            await self.h.click(board, label=self.rng.choice(("-1", "+1")), user=who)
        else:
            label = "Leave" if who.user.id in table.joined else "Join"
            await self.h.click(board, label=label, user=who)
            table.joined ^= {who.user.id}
        table.accepted += 1
        await self.h.settle()
        await pods(self.h).updater.flush()
        await self.h.bot.get_cog("HydraEvents").announcements.flush()
        if not await self.board_follows(table):
            self.stale += 1

    async def board_follows(self, table: Table) -> bool:
        """Whether the table's live message shows its stored state."""
        board = await self.live_message(table)
        if table.kind == "pod":
            state = (await pods(self.h).service.get(table.key)).state
            wanted = [f"{i + 1} {p.name} ({p.life})" for i, p in enumerate(state.players) if p.alive]
            return life_on_board(board) == wanted
        if table.kind == "hydra":
            seats = (await self.h.bot.get_cog("Hydra").service.load(table.key)).seats
            return [f["name"] for f in board.embeds[0]["fields"]] == [f"{s.seat}. {s.name}" for s in seats]
        entrants = await self.h.bot.get_cog("HydraEvents").events.repo.entrants(table.key)
        return f"{len(entrants)} joined" in str(board.embeds[0]) and len(entrants) == len(table.joined)

    async def stored_presses(self, table: Table) -> int:
        """How many of the table's presses the database holds."""
        if table.kind == "pod":
            return await self.h.bot.db.scalar(
                "SELECT COUNT(*) FROM pod_events WHERE game_id = ? AND kind = 'life'", (table.key,)
            )
        return table.accepted  # joins and leaves: checked by the board (seats and entrants are the store)


async def set_up(h: DiscordHarness, night: Night) -> Table:
    """Server A (the harness's): two pods, a tournament round, a Hydra table. Server B: pods in threads,
    then a pod in the channel once threads are turned off, and an event. Server C: four pods."""
    alice, bob, carol, dave = (h.user(n) for n in ("alice", "bob", "carol", "dave"))
    general = h.channel("general")
    for players in ([alice, bob], [carol, dave]):
        await night.pod(general, players)
    games = h.channel("games")
    await h.slash("tournament create", user="admin", name="Friday", channel="games")
    for name in ("alice", "bob", "carol", "dave"):
        await h.slash("tournament join", user=name, channel="games")
    paired = await h.slash("tournament pair", user="admin", channel="games")
    rows = await pods(h).service.open_in_channel(games.id)
    assert len(rows) == 1, paired.text
    (row,) = rows
    night.tables.append(Table("pod", row.game_id, h.guild.id, [alice, bob, carol, dave]))
    await h.slash("hydra start", heads=2, window=0, user="alice")
    night.tables.append(Table("hydra", 1, h.guild.id, [bob, carol, dave], joined=set()))

    guild_b, games_b, members_b = night.server("Server B")
    await h.bot.guild_settings.update(guild_b.id, pod_threads=True)
    quiet = await night.pod(games_b, members_b[:2])
    await night.pod(games_b, members_b[2:])
    for thread in h.fake.channels.values():
        if thread.is_thread:
            thread.auto_archive_duration = THREAD_ARCHIVE_MINUTES
    await h.bot.guild_settings.update(guild_b.id, pod_threads=False)
    await night.pod(games_b, [members_b[0], members_b[3]])
    admin_b = h.fake.add_member(guild_b, h.user("admin").user, permissions="manage_guild")
    await h.slash(
        "hydra event create",
        channel=games_b,
        user=admin_b,
        name="Hydra night",
        start="in 5h",
        heads=2,
        table_size=2,
    )
    event = await h.bot.get_cog("HydraEvents").events.event(1)
    night.tables.append(Table("event", event.event_id, guild_b.id, members_b))

    _, games_c, members_c = night.server("Server C")
    for players in (members_c[:2], members_c[2:], [members_c[0], members_c[2]], [members_c[1], members_c[3]]):
        await night.pod(games_c, players)
    return quiet


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(
        tmp_path, cards_path=CARDS, members=("alice", "bob", "carol", "dave")
    ) as harness:
        pods(harness).updater.delay = 0
        harness.bot.get_cog("HydraEvents").announcements.delay = 0
        yield harness


async def test_a_game_night_of_twelve_tables_in_three_servers_stays_live(h, full_run):
    seconds, gap = FULL_NIGHT if full_run else SMALL_NIGHT
    night = Night(h, random.Random(27))
    quiet = await set_up(h, night)
    assert len(night.tables) == 12 and len({t.guild_id for t in night.tables}) == 3
    quiet_from, quiet_until = (int(t * seconds / FULL_NIGHT[0]) for t in QUIET_THREAD)
    thread = h.fake.channels[(await pods(h).service.get(quiet.key)).row.channel_id]
    assert thread.is_thread
    elapsed, turn, archived_meanwhile = 0, 0, False
    while elapsed < seconds:
        table = night.tables[turn % len(night.tables)]
        turn += 1
        if table is quiet and quiet_from <= elapsed < quiet_until:
            continue
        if table is quiet and elapsed >= quiet_until and not archived_meanwhile:
            archived_meanwhile = thread.archived  # the quiet table comes back to its archived thread
        await night.press(table)
        await h.advance(gap)
        elapsed += gap
    assert archived_meanwhile or not full_run
    assert night.stale == 0
    lost = [t.key for t in night.tables if t.kind == "pod" and await night.stored_presses(t) != t.pressed]
    assert lost == []
    assert h.fake.refusals == []  # nothing refused, tokens past 15 minutes (401/50027) included
    moved = pods(h).boards.reposts
    assert moved >= len([t for t in night.tables if t.kind == "pod"])  # every pod board was posted afresh
