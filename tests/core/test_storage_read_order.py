"""Every list a repository reads comes back in an order the code chose, not the order the engine happened
to keep.

SQLite returns rows without ``ORDER BY`` in the order it stored them, which for a log written one event at a
time looks just like ``ORDER BY seq``; PostgreSQL makes no such promise (an updated row moves). SQLite's
``PRAGMA reverse_unordered_selects`` turns every unordered result around, so a read that forgot its
``ORDER BY`` (and a caller that relies on it) shows here on either engine's SQL: a night of play is
recorded through the real commands, then every list read is made twice, with the pragma off and on, and
must be the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage.challenge import ChallengeRepository
from bot.storage.decks import DeckRepository
from bot.storage.hydra import HydraRepository
from bot.storage.hydra_events import HydraEventRepository
from bot.storage.matches import MatchRepository
from bot.storage.pods import PodRepository
from bot.storage.tournaments import TournamentRepository
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA
from tests.pods.test_integrity import pair_one_table


async def _a_night_of_play(h: DiscordHarness) -> None:
    """Records with several rows each: a pod game with a dozen changes, a four-seat tournament table
    with corrections, a Hydra table with two challengers and actions, a challenge table, a Hydra event
    with entrants, and decks."""
    h.add_member("dave")
    for name in ("alice", "bob", "carol"):
        for deck in ("first", "second"):
            await h.slash(
                "deck register", name=deck, decklist="1 Sol Ring\n1 Atraxa, Praetors' Voice", user=name
            )
    board = await h.slash(
        "pod start", players=" ".join(f"<@{h.user(n).id}>" for n in ("alice", "bob", "carol"))
    )
    await h.click(board, label="Start turn 1", user="alice")
    for label in ("+1", "-5", "+5", "-1", "Poison +1", "+1"):
        await h.click(board, label=label, user="bob")
    await h.slash("pod next", user="alice")
    await h.slash("pod next", user="bob")
    await pair_one_table(h)
    for points in (1, 2, 3):
        await h.slash(
            "tournament correct", player="bob", points=points, reason=f"slip {points}", user="admin"
        )
    lobby = await h.slash("hydra start", heads=3, user="alice")
    await h.click(lobby, custom_id="hydra:1:join", user="bob")
    await h.click(lobby, custom_id="hydra:1:start", user="alice")
    for line in ("tap all", "damage 1 2"):
        await h.bot.get_cog("Hydra").service.act(1, h.user("alice").id, line)
    await h.slash("hydra start", heads=4, user="carol", channel="games")  # a second table, in the lobby
    await h.slash("challenge start", deck="horde", user="carol")
    horde = 3  # every deck's tables take ids from one counter: after the two Hydra tables
    await h.click(h.messages()[-1], custom_id=f"chal:{horde}:start", user="carol")
    for line in ("hit 2", "hit 3"):
        await h.bot.get_cog("Challenge").service.act(horde, h.user("carol").id, line)
    await h.slash("hydra event create", name="Night", start="in 30 minutes", user="admin")
    for name in ("alice", "bob", "carol", "dave"):
        await h.slash("hydra event join", user=name)
    await h.slash(
        "pod start", players=f"<@{h.user('carol').id}> <@{h.user('dave').id}>"
    )  # a second open game
    await h.settle()


def _reads(h: DiscordHarness) -> dict[str, Any]:
    """Every list-returning read of the repositories, with the ids the night produced."""
    db, guild = h.bot.db, h.guild.id
    pods, hydra, challenge = PodRepository(db), HydraRepository(db), ChallengeRepository(db)
    decks, tournaments, matches = DeckRepository(db), TournamentRepository(db), MatchRepository(db)
    events = HydraEventRepository(db, h.clock)
    user = h.user("alice").id
    return {
        "pod events": lambda: pods.events(1),
        "pods recent": lambda: pods.recent(guild, 10),
        "pods open in channel": lambda: pods.open_in_channel(h.channel("general").id),
        "hydra actions": lambda: hydra.actions(1),
        "hydra seats": lambda: hydra.seats(1),
        "hydra games by status": lambda: hydra.games_with_status(("lobby", "playing", "finished")),
        "challenge actions": lambda: challenge.actions(3),  # the Horde table (ids after the Hydra's)
        "challenge seats": lambda: challenge.seats(3),
        "challenge open games": lambda: challenge.open_games(),
        "decks of a member": lambda: decks.list_for_user(guild, user),
        "decks of the server": lambda: decks.list_for_guild(guild),
        "tournament entrants": lambda: tournaments.entrants(1),
        "tournament games": lambda: tournaments.games(1),
        "tournament pods": lambda: tournaments.pods(1, 1),
        "tournament corrections": lambda: tournaments.corrections(1),
        "tournament votes": lambda: tournaments.tournament_votes(1),
        "matches of a tournament": lambda: matches.for_tournament(1),
        "event entrants": lambda: events.entrants(1),
        "event tables": lambda: events.tables(1),
        "events by status": lambda: events.events_with_status(("scheduled", "open", "running", "finished")),
    }


async def _set_reverse(h: DiscordHarness, on: bool) -> None:
    await h.bot.db.conn.execute(f"PRAGMA reverse_unordered_selects = {'ON' if on else 'OFF'}")


async def test_every_list_read_has_its_own_order(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, cards_path=TEST_DATA / "pods_cards.jsonl") as h:
        if h.bot.db.engine != "sqlite":
            pytest.skip("the pragma is SQLite's; the SQL it checks is the same on both engines")
        h.bot.get_cog("Pods").updater.delay = 0
        await _a_night_of_play(h)
        reads = _reads(h)
        kept = {name: await read() for name, read in reads.items()}
        await _set_reverse(h, True)
        try:
            turned = {name: await read() for name, read in reads.items()}
        finally:
            await _set_reverse(h, False)
        several = {name for name, rows in kept.items() if len(rows) >= 2}
        assert len(several) >= 12, f"too few reads with two rows or more to tell an order: {sorted(several)}"
        assert {name for name in kept if kept[name] != turned[name]} == set()
