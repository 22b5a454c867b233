"""Statistics of pod games in SQL (SQLite or PostgreSQL), over the summary tables of migration 0050.

The summary of a game is written by :func:`write_summary` on the connection of the transaction that
stores the game's last event (bot/storage/pods.py), so a finished game is in the figures at once or not
finished at all. Every figure is one aggregate query over one server's rows, served by an index that
starts with ``guild_id``; nothing reads a game's events to answer ``/stats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.domain.pod import PodGameRecord
from bot.domain.stats.figures import (
    MIN_GAMES_TO_RANK,
    CommanderStats,
    HeadToHead,
    LeaderboardLine,
    LongGame,
    MemberStats,
    ServerStats,
    StreakHolder,
    Tally,
    streaks,
)
from bot.domain.stats.summary import GameSummary, counts_for_statistics, summarise
from bot.storage.db import Connection, Database

TOP = 10  # lines of each ranked list
LONGEST = 5

_GAME_INSERT = (
    "INSERT INTO stats_games (game_id, guild_id, counted, ended_at, month, turns, duration_seconds, ended, "
    "winner_id, player_count, tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING"
)
_PLAYER_INSERT = (
    "INSERT INTO stats_players (game_id, guild_id, user_id, name, seat, commander, partner, colour_identity, deck, "
    "place, won, eliminated_how, eliminated_by, eliminated_turn, ended_at, month, turns, duration_seconds, win_streak) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO NOTHING"
)
# The name a ranked member had in their latest game here, looked up for the few ranked rows only (in the
# same query: one round trip, however many lines).
_LATEST_NAME = (
    "(SELECT n.name FROM stats_players n WHERE n.guild_id = ranked.guild_id AND n.user_id = ranked.user_id "
    "ORDER BY n.ended_at DESC, n.game_id DESC LIMIT 1)"
)
# Both commander columns as one list of (name, won) rows: a partner pair counts for each of the two.
_COMMANDER_ROWS = (
    "SELECT commander AS name, won, user_id, turns FROM stats_players WHERE guild_id = :guild AND commander IS NOT NULL "
    "UNION ALL SELECT partner AS name, won, user_id, turns FROM stats_players "
    "WHERE guild_id = :guild AND partner IS NOT NULL"
)


def _number(value: Any) -> float | None:
    """An AVG as a float (PostgreSQL answers a Decimal, SQLite a float; both None over no rows)."""
    return None if value is None else float(value)


def _minutes(seconds: Any) -> float | None:
    value = _number(seconds)
    return None if value is None else value / 60


def _tallies(rows: Sequence[Any]) -> list[Tally]:
    return [Tally(label=str(r[0]), games=int(r[1]), wins=int(r[2] or 0)) for r in rows]


async def _identities(conn: Connection, names: set[str]) -> dict[str, str | None]:
    """The colour identity of each commander name the card data knows (read in the finishing transaction)."""
    if not names:
        return {}
    marks = ", ".join("?" * len(names))
    rows = await conn.fetchall(
        f"SELECT name, color_identity FROM cards WHERE name IN ({marks})", tuple(sorted(names))
    )
    return {str(r[0]): str(r[1]) for r in rows}


async def write_summary(conn: Connection, record: PodGameRecord, started_at: str | None) -> GameSummary:
    """Store the statistics of one finished game on ``conn`` (inside the caller's transaction). Writing
    the same game twice changes nothing, so the backfill and a finish racing it are both safe."""
    names = {n for p in record.players for n in p.commanders if n}
    summary = summarise(record, started_at=started_at, identities=await _identities(conn, names))
    counted = counts_for_statistics(record)
    await conn.execute(
        _GAME_INSERT,
        (
            summary.game_id,
            summary.guild_id,
            int(counted),
            summary.ended_at,
            summary.month,
            summary.turns,
            summary.duration_seconds,
            summary.ended,
            summary.winner,
            len(summary.players) if counted else 0,
            summary.tournament_id,
        ),
    )
    if not counted:
        return summary
    for p in summary.players:
        await conn.execute(
            _PLAYER_INSERT,
            (
                summary.game_id,
                summary.guild_id,
                p.user_id,
                p.name,
                p.seat,
                p.commander,
                p.partner,
                p.colour_identity,
                p.deck,
                p.place,
                int(p.won),
                p.eliminated_how,
                p.eliminated_by,
                p.eliminated_turn,
                summary.ended_at,
                summary.month,
                summary.turns,
                summary.duration_seconds,
                await _streak_after(conn, summary.guild_id, p.user_id, p.won),
            ),
        )
    return summary


async def _streak_after(conn: Connection, guild_id: int | None, user_id: int, won: bool) -> int:
    """The member's run of wins in the server once this game is counted: their last game's run plus one
    for a win, 0 for anything else (games are summarised in finishing order: at the finish, and by the
    backfill oldest first)."""
    if not won:
        return 0
    before = await conn.fetchone(
        "SELECT win_streak FROM stats_players WHERE guild_id = ? AND user_id = ? "
        "ORDER BY ended_at DESC, game_id DESC LIMIT 1",
        (guild_id, user_id),
    )
    return (int(before[0]) if before is not None else 0) + 1


class StatsRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- the backfill --------------------------------------------------------------------------------

    async def unsummarised_games(self, limit: int) -> list[int]:
        """Finished games the statistics have not seen (finished before migration 0050), in finishing order
        (each win streak continues from the game before)."""
        rows = await self.db.fetchall(
            "SELECT g.game_id FROM pod_games g WHERE g.status = 'finished' AND NOT EXISTS "
            "(SELECT 1 FROM stats_games s WHERE s.game_id = g.game_id) ORDER BY g.ended_at, g.game_id LIMIT ?",
            (limit,),
        )
        return [int(r[0]) for r in rows]

    async def store(self, record: PodGameRecord, started_at: str | None) -> None:
        async with self.db.transaction() as conn:
            await write_summary(conn, record, started_at)

    async def has_games(
        self, guild_id: int, *, user_id: int | None = None, commander: str | None = None
    ) -> bool:
        """Whether any counted game of the server (of this member, or with this commander) is stored: one
        index probe, answered before the command defers (a refusal stays private)."""
        params: tuple[Any, ...]
        if user_id is not None:
            sql, params = (
                "SELECT 1 FROM stats_players WHERE guild_id = ? AND user_id = ? LIMIT 1",
                (guild_id, user_id),
            )
        elif commander is not None:
            sql = (
                "SELECT 1 FROM stats_players WHERE guild_id = ? AND commander = ? UNION ALL "
                "SELECT 1 FROM stats_players WHERE guild_id = ? AND partner = ? LIMIT 1"
            )
            params = (guild_id, commander, guild_id, commander)
        else:
            sql, params = "SELECT 1 FROM stats_games WHERE guild_id = ? AND counted = 1 LIMIT 1", (guild_id,)
        return await self.db.fetchone(sql, params) is not None

    # -- a member ------------------------------------------------------------------------------------

    async def member(self, guild_id: int, user_id: int) -> MemberStats:
        key = (guild_id, user_id)
        totals = await self.db.fetchone(
            "SELECT COUNT(*), SUM(won), AVG(turns), AVG(duration_seconds) FROM stats_players "
            "WHERE guild_id = ? AND user_id = ?",
            key,
        )
        assert totals is not None
        results = await self.db.fetchall(
            "SELECT won FROM stats_players WHERE guild_id = ? AND user_id = ? ORDER BY ended_at, game_id", key
        )
        by_commander = await self.db.fetchall(
            "SELECT CASE WHEN partner IS NULL THEN commander ELSE commander || ' + ' || partner END, COUNT(*), "
            "SUM(won) FROM stats_players WHERE guild_id = ? AND user_id = ? AND commander IS NOT NULL "
            "GROUP BY commander, partner ORDER BY COUNT(*) DESC, SUM(won) DESC, commander LIMIT ?",
            (*key, TOP),
        )
        by_deck = await self.db.fetchall(
            "SELECT deck, COUNT(*), SUM(won) FROM stats_players WHERE guild_id = ? AND user_id = ? "
            "AND deck IS NOT NULL GROUP BY deck ORDER BY COUNT(*) DESC, deck LIMIT ?",
            (*key, TOP),
        )
        how = await self.db.fetchall(
            "SELECT eliminated_how, COUNT(*), 0 FROM stats_players WHERE guild_id = ? AND user_id = ? "
            "AND eliminated_how IS NOT NULL GROUP BY eliminated_how ORDER BY COUNT(*) DESC, eliminated_how",
            key,
        )
        others = await self.db.fetchall(
            "SELECT eliminated_how, COUNT(*), 0 FROM stats_players WHERE guild_id = ? AND eliminated_by = ? "
            "GROUP BY eliminated_how ORDER BY COUNT(*) DESC, eliminated_how",
            key,
        )
        per_month = await self.db.fetchall(
            "SELECT month, COUNT(*), SUM(won) FROM stats_players WHERE guild_id = ? AND user_id = ? "
            "AND month IS NOT NULL GROUP BY month ORDER BY month",
            key,
        )
        return MemberStats(
            user_id=user_id,
            games=int(totals[0]),
            wins=int(totals[1] or 0),
            average_turns=_number(totals[2]),
            average_minutes=_minutes(totals[3]),
            streaks=streaks(bool(r[0]) for r in results),
            by_commander=_tallies(by_commander),
            by_deck=_tallies(by_deck),
            eliminated_how=_tallies(how),
            eliminated_others=_tallies(others),
            head_to_head=await self.head_to_head(guild_id, user_id),
            per_month=_tallies(per_month),
        )

    async def head_to_head(self, guild_id: int, user_id: int, limit: int = TOP) -> list[HeadToHead]:
        """The opponents ``user_id`` met most, with each side's wins in the games they shared."""
        rows = await self.db.fetchall(
            "SELECT them.user_id, MAX(them.name), COUNT(*), SUM(me.won), SUM(them.won) FROM stats_players me "
            "JOIN stats_players them ON them.game_id = me.game_id AND them.user_id <> me.user_id "
            "WHERE me.guild_id = ? AND me.user_id = ? GROUP BY them.user_id "
            "ORDER BY COUNT(*) DESC, them.user_id LIMIT ?",
            (guild_id, user_id, limit),
        )
        return [
            HeadToHead(
                opponent=int(r[0]),
                name=str(r[1]),
                games=int(r[2]),
                wins=int(r[3] or 0),
                losses=int(r[4] or 0),
            )
            for r in rows
        ]

    # -- a commander ---------------------------------------------------------------------------------

    async def commander(self, guild_id: int, name: str) -> CommanderStats:
        params = {"guild": guild_id, "name": name}
        totals = await self.db.fetchone(
            f"SELECT COUNT(*), SUM(won), COUNT(DISTINCT user_id), AVG(turns) FROM ({_COMMANDER_ROWS}) c "
            "WHERE name = :name",
            params,
        )
        assert totals is not None
        eliminations = await self.db.scalar(
            "SELECT COUNT(*) FROM stats_players victim JOIN stats_players pilot ON pilot.game_id = victim.game_id "
            "AND pilot.user_id = victim.eliminated_by WHERE victim.guild_id = :guild "
            "AND (pilot.commander = :name OR pilot.partner = :name)",
            params,
        )
        pilots = await self.db.fetchall(
            f"SELECT user_id, COUNT(*), SUM(won) FROM ({_COMMANDER_ROWS}) c WHERE name = :name AND user_id > 0 "
            "GROUP BY user_id ORDER BY COUNT(*) DESC, SUM(won) DESC, user_id LIMIT 5",
            params,
        )
        return CommanderStats(
            name=name,
            games=int(totals[0]),
            wins=int(totals[1] or 0),
            pilots=int(totals[2]),
            average_turns=_number(totals[3]),
            eliminations=int(eliminations or 0),
            top_pilots=_tallies(pilots),
        )

    async def commander_names(self, guild_id: int, text: str, limit: int = 25) -> list[str]:
        """Commanders played in the server whose name holds ``text`` (the autocomplete), most played first."""
        rows = await self.db.fetchall(
            f"SELECT name, COUNT(*) FROM ({_COMMANDER_ROWS}) c WHERE LOWER(name) LIKE :pattern "
            "GROUP BY name ORDER BY COUNT(*) DESC, name LIMIT :limit",
            {"guild": guild_id, "pattern": f"%{text.lower()}%", "limit": limit},
        )
        return [str(r[0]) for r in rows]

    # -- the server ----------------------------------------------------------------------------------

    async def server(self, guild_id: int, *, ranked: int = TOP) -> ServerStats:
        totals = await self.db.fetchone(
            "SELECT COUNT(*), AVG(turns), AVG(duration_seconds) FROM stats_games WHERE guild_id = ? AND counted = 1",
            (guild_id,),
        )
        assert totals is not None
        players = await self.db.scalar(
            "SELECT COUNT(DISTINCT user_id) FROM stats_players WHERE guild_id = ? AND user_id > 0",
            (guild_id,),
        )
        commanders = await self.most_played_commanders(guild_id)
        identities = await self.db.fetchall(
            "SELECT colour_identity, COUNT(*), SUM(won) FROM stats_players WHERE guild_id = ? "
            "AND colour_identity IS NOT NULL GROUP BY colour_identity ORDER BY COUNT(*) DESC, colour_identity "
            "LIMIT ?",
            (guild_id, TOP),
        )
        longest = await self.db.fetchall(
            "SELECT game_id, turns, duration_seconds, ended_at, winner_id FROM stats_games WHERE guild_id = ? "
            "AND counted = 1 ORDER BY turns DESC, duration_seconds DESC, game_id LIMIT ?",
            (guild_id, LONGEST),
        )
        streak_rows = await self.db.fetchall(
            f"SELECT ranked.user_id, ranked.streak, {_LATEST_NAME} FROM (SELECT guild_id, user_id, "
            "MAX(win_streak) AS streak FROM stats_players WHERE guild_id = ? AND user_id > 0 GROUP BY guild_id, "
            "user_id HAVING MAX(win_streak) > 0 ORDER BY MAX(win_streak) DESC, user_id LIMIT ?) ranked "
            "ORDER BY ranked.streak DESC, ranked.user_id",
            (guild_id, LONGEST),
        )
        per_month = await self.db.fetchall(
            "SELECT month, COUNT(*), 0 FROM stats_games WHERE guild_id = ? AND counted = 1 AND month IS NOT NULL "
            "GROUP BY month ORDER BY month",
            (guild_id,),
        )
        return ServerStats(
            guild_id=guild_id,
            games=int(totals[0]),
            players=int(players or 0),
            average_turns=_number(totals[1]),
            average_minutes=_minutes(totals[2]),
            commanders=commanders,
            identities=_tallies(identities),
            longest=[
                LongGame(
                    game_id=int(r[0]),
                    turns=int(r[1]),
                    duration_seconds=r[2],
                    ended_at=r[3],
                    winner=None if r[4] is None else int(r[4]),
                )
                for r in longest
            ],
            streaks=[StreakHolder(user_id=int(r[0]), name=str(r[2]), streak=int(r[1])) for r in streak_rows],
            leaderboard=await self.leaderboard(guild_id, limit=ranked),
            per_month=_tallies(per_month),
        )

    async def leaderboard(
        self, guild_id: int, *, limit: int = TOP, min_games: int = MIN_GAMES_TO_RANK
    ) -> list[LeaderboardLine]:
        """Members by win rate (then wins), from ``min_games`` games on; deleted members are not ranked."""
        rows = await self.db.fetchall(
            f"SELECT ranked.user_id, ranked.games, ranked.wins, {_LATEST_NAME} FROM (SELECT guild_id, user_id, "
            "COUNT(*) AS games, SUM(won) AS wins FROM stats_players WHERE guild_id = ? AND user_id > 0 "
            "GROUP BY guild_id, user_id HAVING COUNT(*) >= ? "
            "ORDER BY SUM(won) * 1.0 / COUNT(*) DESC, SUM(won) DESC, user_id LIMIT ?) ranked "
            "ORDER BY ranked.wins * 1.0 / ranked.games DESC, ranked.wins DESC, ranked.user_id",
            (guild_id, min_games, limit),
        )
        return [
            LeaderboardLine(user_id=int(r[0]), name=str(r[3]), games=int(r[1]), wins=int(r[2] or 0))
            for r in rows
        ]

    async def most_played_commanders(self, guild_id: int, limit: int = TOP) -> list[Tally]:
        """Commanders by games, a partner pair counting for each of the two: each column is grouped along
        its own index, and the two short lists are added up here."""
        totals: dict[str, list[int]] = {}
        for column in ("commander", "partner"):
            rows = await self.db.fetchall(
                f"SELECT {column}, COUNT(*), SUM(won) FROM stats_players WHERE guild_id = ? AND {column} IS NOT NULL "
                f"GROUP BY {column}",
                (guild_id,),
            )
            for name, games, wins in rows:
                tally = totals.setdefault(str(name), [0, 0])
                tally[0] += int(games)
                tally[1] += int(wins or 0)
        ranked = sorted(totals.items(), key=lambda item: (-item[1][0], item[0]))[:limit]
        return [Tally(label=name, games=games, wins=wins) for name, (games, wins) in ranked]
