"""Every command and press is answered within Discord's 3 s, even while another program holds the SQLite
file's write lock (a ``sqlite3`` shell inside a transaction, a backup tool) and the bot waits for it.

Only the pod commands used to defer in time; any other writer waited out the lock past the deadline and
the member saw "The application did not respond". Now every interaction is deferred once it waited
1.5 s unanswered (cogs/_deadline.py), and the handler's answer arrives as what it meant. The lock is a
real second connection to the bot's file, held 4 s (within ``busy_timeout``, 5 s); the stand-in refuses
a first answer after Discord's deadline (wall-clock, as Discord's is).

The commands are found in the command tree, by the cog (``cogs/<name>``) that defines them: a cog that
adds a command must name its representative writer here, or say why it writes nothing.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.i18n import t
from bot.testing import DiscordHarness

HELD_SECONDS = 4.0  # past Discord's 3 s, within busy_timeout
KAALIA = "1 Kaalia of the Vast\n1 Sol Ring\n"


@asynccontextmanager
async def write_locked(path: Path) -> AsyncIterator[None]:
    """What ``sqlite3 podkeeper.sqlite3`` then ``BEGIN IMMEDIATE;`` does: hold the write lock. Taken in a
    thread: a write the bot has under way (its start-up's) must be able to finish first."""
    other = sqlite3.connect(path, isolation_level=None, timeout=60, check_same_thread=False)
    try:
        await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def pod_started(h: DiscordHarness) -> None:
    await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")


@dataclass(frozen=True)
class Writer:
    """A slash command of a cog that stores something: what it needs first, and its options."""

    command: str
    options: dict[str, Any] = field(default_factory=dict)
    user: str = "admin"
    before: Callable[[DiscordHarness], Awaitable[None]] | None = None
    settings: dict[str, Any] = field(default_factory=dict)  # the bot's configuration, as harness keywords


# The representative writer of each cog (``cogs/<name>``) that has slash commands.
WRITERS: dict[str, Writer] = {
    "admin": Writer("config my-language", {"language": "ja"}, user="alice"),
    "challenge": Writer("challenge start", {"deck": "horde"}),
    "decks": Writer("deck register", {"name": "Kaalia", "decklist": KAALIA}, user="alice"),
    "hydra": Writer("hydra start", {"heads": 2}),
    "hydra_events": Writer(
        "hydra event create", {"name": "Hydra night", "start": "in 1h", "heads": 2, "table_size": 2}
    ),
    "pods": Writer("pod life", {"player": "bob", "amount": -2}, user="alice", before=pod_started),
    "seasons": Writer("season open", {"name": "Spring"}),
    "stats": Writer("stats page", {}, user="alice", settings={"web__enabled": True, "web__port": 0}),
    "tournaments": Writer("tournament create", {"name": "Friday"}),
    "web_pages": Writer(
        "pod overlay", {}, user="alice", before=pod_started, settings={"web__enabled": True, "web__port": 0}
    ),
}
# Cogs whose slash commands store nothing themselves (what they change, a button under their answer does).
READ_ONLY = {
    "cards": "looks a card up",
    "mulligan": "computes odds and deals practice hands",
    "privacy": "exports, or asks for the confirmation button that deletes",
    "sideboard": "shows the panel, or refuses outside a match; a swap is stored by the match's board",
}


def cog_of(command: app_commands.Command[Any, ..., Any]) -> str:
    """The ``cogs/<name>`` package or module that defines the command's handler."""
    return command.callback.__module__.split(".")[1]


def tree_cogs(h: DiscordHarness) -> set[str]:
    return {
        cog_of(command)
        for top in h.bot.tree.get_commands()
        for command in ([top] if isinstance(top, app_commands.Command) else top.walk_commands())
        if isinstance(command, app_commands.Command)
    }


async def test_every_cog_with_commands_has_a_writer_checked_or_says_it_writes_nothing(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        cogs = tree_cogs(h)
    assert cogs - WRITERS.keys() - READ_ONLY.keys() == set(), (
        "name the cog's representative writer in WRITERS"
    )
    assert WRITERS.keys() <= cogs and READ_ONLY.keys() <= cogs  # none named that is not in the tree


@pytest.mark.parametrize("cog", sorted(WRITERS))
async def test_a_writer_waiting_on_another_programs_lock_is_deferred_then_answered(
    tmp_path, cog: str
) -> None:
    writer = WRITERS[cog]
    async with DiscordHarness.start(tmp_path, **writer.settings) as h:
        if writer.before is not None:
            await writer.before(h)
        await h.settle()
        async with write_locked(h.bot.config.database_path):
            change = asyncio.create_task(h.slash(writer.command, user=writer.user, **writer.options))
            await asyncio.sleep(HELD_SECONDS)
            assert not change.done(), "the command did not wait for the lock: this test checks nothing"
        reply = await change  # the stand-in fails it if the first answer came after the deadline
        assert reply.record.response_type == 5  # deferred ("thinking…") in time
        assert reply.message is not None and not reply.message.loading  # and then answered
        assert t("core.error.database_busy", "en") not in reply.content


async def test_a_press_waiting_on_the_lock_is_acknowledged_in_time(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        announcement = await h.slash(
            "hydra event create", user="admin", name="Hydra night", start="in 1h", heads=2, table_size=2
        )
        await h.settle()
        async with write_locked(h.bot.config.database_path):
            press = asyncio.create_task(h.click(announcement, label="Join", user="alice", locale="ja"))
            await asyncio.sleep(HELD_SECONDS)
            assert not press.done()
        reply = await press
        assert reply.record.response_type == 6  # acknowledged in time, the message unchanged until stored
        assert [e.name for e in await h.bot.get_cog("HydraEvents").events.repo.entrants(1)] == ["alice"]
        assert reply.followups and reply.followups[0].ephemeral  # the answer came, privately
