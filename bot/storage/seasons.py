"""Seasons in SQL (both engines): the seasons of each server, the games each scored with every player's
line and answer, an organiser's decision, and the games started for the league (migration 0060).

A game's lines are written once, when it finishes, in one transaction with its row, so a season never
holds half a game; answers and decisions change single rows afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.season import PointsRule, ResultState, SeatResult, Standing
from bot.storage.db import Database, IntegrityError, Row


@dataclass(frozen=True)
class Season:
    season_id: int
    guild_id: int
    name: str
    rule: PointsRule
    league_only: bool
    opened_by: int | None
    opened_at: str
    closed_at: str | None

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True)
class ScoredGame:
    """A game as a season holds it: each player's line, who answered what, and the decision if any."""

    game_id: int
    season_id: int
    channel_id: int | None
    message_id: int | None
    seats: list[SeatResult]
    state: ResultState


_SEASON = (
    "season_id, guild_id, name, win_points, survive_points, elimination_points, min_games, league_only, "
    "opened_by, opened_at, closed_at"
)


def _season(row: Row) -> Season:
    rule = PointsRule(win=int(row[3]), survive=int(row[4]), elimination=int(row[5]), min_games=int(row[6]))
    return Season(
        season_id=int(row[0]),
        guild_id=int(row[1]),
        name=row[2],
        rule=rule,
        league_only=bool(row[7]),
        opened_by=row[8],
        opened_at=row[9],
        closed_at=row[10],
    )


class SeasonTaken(Exception):
    """The server has an open season already, or had one by that name (a unique index refused the row)."""


class SeasonRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- seasons ----------------------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        name: str,
        rule: PointsRule,
        *,
        league_only: bool,
        opened_by: int | None,
        opened_at: str,
    ) -> int:
        """Store a new open season; raises SeasonTaken when the server's unique indexes refuse it."""
        try:
            return await self.db.insert(
                "INSERT INTO seasons (guild_id, name, win_points, survive_points, elimination_points, min_games, "
                "league_only, opened_by, opened_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    name,
                    rule.win,
                    rule.survive,
                    rule.elimination,
                    rule.min_games,
                    int(league_only),
                    opened_by,
                    opened_at,
                ),
                returning="season_id",
            )
        except IntegrityError as error:
            raise SeasonTaken(str(error)) from None

    async def season(self, season_id: int) -> Season | None:
        row = await self.db.fetchone(f"SELECT {_SEASON} FROM seasons WHERE season_id = ?", (season_id,))
        return None if row is None else _season(row)

    async def open_season(self, guild_id: int) -> Season | None:
        row = await self.db.fetchone(
            f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? AND closed_at IS NULL", (guild_id,)
        )
        return None if row is None else _season(row)

    async def by_name(self, guild_id: int, name: str) -> Season | None:
        row = await self.db.fetchone(
            f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? AND name = ?", (guild_id, name)
        )
        return None if row is None else _season(row)

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, the newest first."""
        rows = await self.db.fetchall(
            f"SELECT {_SEASON} FROM seasons WHERE guild_id = ? ORDER BY season_id DESC", (guild_id,)
        )
        return [_season(row) for row in rows]

    async def close(self, season_id: int, closed_by: int | None, closed_at: str) -> bool:
        """Close once; False when it was closed already."""
        return (
            await self.db.execute(
                "UPDATE seasons SET closed_by = ?, closed_at = ? WHERE season_id = ? AND closed_at IS NULL",
                (closed_by, closed_at, season_id),
            )
            == 1
        )

    # -- scored games -----------------------------------------------------------------------------------

    async def add_game(
        self,
        season_id: int,
        game_id: int,
        seats: list[SeatResult],
        *,
        channel_id: int | None,
        finished_at: str | None,
    ) -> bool:
        """Store a finished game's lines in the season; False when the game was stored already (a
        catch-up after a restart meeting the listener), so each game is scored once."""
        async with self.db.transaction() as conn:
            added = await conn.execute(
                "INSERT INTO season_games (game_id, season_id, channel_id, finished_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO NOTHING",
                (game_id, season_id, channel_id, finished_at),
            )
            if not added:
                return False
            await conn.executemany(
                "INSERT INTO season_game_players (game_id, user_id, name, seat, won, survived, eliminations, points) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        s.user_id,
                        s.name,
                        s.seat,
                        int(s.won),
                        int(s.survived),
                        s.eliminations,
                        s.points,
                    )
                    for s in seats
                ],
            )
        return True

    async def game(self, game_id: int) -> ScoredGame | None:
        row = await self.db.fetchone(
            "SELECT game_id, season_id, channel_id, message_id, decision FROM season_games WHERE game_id = ?",
            (game_id,),
        )
        if row is None:
            return None
        lines = await self.db.fetchall(
            "SELECT game_id, user_id, name, seat, won, survived, eliminations, points, answer "
            "FROM season_game_players WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return _scored(row, lines)

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        await self.db.execute(
            "UPDATE season_games SET channel_id = ?, message_id = ? WHERE game_id = ?",
            (channel_id, message_id, game_id),
        )

    async def set_answer(self, game_id: int, user_id: int, answer: str, status: str, at: str) -> None:
        """A player's answer, with the game's state the domain judged from it (one transaction)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE season_game_players SET answer = ?, answered_at = ? WHERE game_id = ? "
                "AND user_id = ?",
                (answer, at, game_id, user_id),
            )
            await conn.execute("UPDATE season_games SET status = ? WHERE game_id = ?", (status, game_id))

    async def set_decision(
        self, game_id: int, decision: str, status: str, decided_by: int | None, at: str
    ) -> None:
        await self.db.execute(
            "UPDATE season_games SET decision = ?, status = ?, decided_by = ?, decided_at = ? "
            "WHERE game_id = ?",
            (decision, status, decided_by, at, game_id),
        )

    async def totals(self, season_id: int, statuses: tuple[str, ...]) -> list[Standing]:
        """Each player's sums over the season's games in ``statuses`` (the counting ones), unranked: one
        aggregate query, so a season of 10,000 games costs the event loop a few dozen rows, not 40,000."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetchall(
            "SELECT p.user_id, MAX(p.name), SUM(p.points), COUNT(*), SUM(p.won), SUM(p.eliminations) "
            "FROM season_games g JOIN season_game_players p ON p.game_id = g.game_id "
            f"WHERE g.season_id = ? AND g.status IN ({marks}) GROUP BY p.user_id",
            (season_id, *statuses),
        )
        return [
            Standing(
                user_id=int(r[0]),
                name=r[1],
                points=int(r[2]),
                games=int(r[3]),
                wins=int(r[4]),
                eliminations=int(r[5]),
            )
            for r in rows
        ]

    async def count_games(self, season_id: int, statuses: tuple[str, ...]) -> int:
        marks = ", ".join("?" for _ in statuses)
        return int(
            await self.db.scalar(
                f"SELECT COUNT(*) FROM season_games WHERE season_id = ? AND status IN ({marks})",
                (season_id, *statuses),
            )
        )

    # -- league games -----------------------------------------------------------------------------------

    async def mark_league(self, game_id: int, marked_by: int | None, at: str) -> None:
        await self.db.execute(
            "INSERT INTO season_league_games (game_id, marked_by, marked_at) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id) DO NOTHING",
            (game_id, marked_by, at),
        )

    async def is_league(self, game_id: int) -> bool:
        return bool(await self.db.scalar("SELECT 1 FROM season_league_games WHERE game_id = ?", (game_id,)))

    async def unscored_finished_games(self) -> list[int]:
        """Finished casual pod games of servers with an open season that no season holds yet, ended since
        that season opened (and started for the league when the season is league-only): the bot stopped
        between a game's last event and scoring it. Match games and games that never reached turn 1 are
        among them too; the service declines those."""
        rows = await self.db.fetchall(
            "SELECT g.game_id FROM pod_games g JOIN seasons s ON s.guild_id = g.guild_id AND s.closed_at IS NULL "
            "WHERE g.status = 'finished' AND g.tournament_id IS NULL AND g.ended_at >= s.opened_at "
            "AND (s.league_only = 0 OR EXISTS (SELECT 1 FROM season_league_games l WHERE l.game_id = g.game_id)) "
            "AND NOT EXISTS (SELECT 1 FROM season_games t WHERE t.game_id = g.game_id) ORDER BY g.game_id"
        )
        return [int(r[0]) for r in rows]


def _scored(row: Row, lines: list[Row]) -> ScoredGame:
    seats = [
        SeatResult(
            user_id=int(r[1]),
            name=r[2],
            seat=int(r[3]),
            won=bool(r[4]),
            survived=bool(r[5]),
            eliminations=int(r[6]),
            points=int(r[7]),
        )
        for r in lines
    ]
    state = ResultState(
        players=frozenset(s.user_id for s in seats),
        confirmed=frozenset(int(r[1]) for r in lines if r[8] == "confirm"),
        disputed=frozenset(int(r[1]) for r in lines if r[8] == "dispute"),
        decision=row[4],
    )
    return ScoredGame(
        game_id=int(row[0]),
        season_id=int(row[1]),
        channel_id=row[2],
        message_id=row[3],
        seats=seats,
        state=state,
    )
