"""Tournaments in SQL: the only place tournament rows are read or written.

Votes are upserts keyed by (game, voter), so a changed vote replaces the earlier one and two votes
arriving at the same moment are both kept (each voter has its own row; the write lock of
``Database.transaction`` serialises them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.storage.db import Database


@dataclass(frozen=True)
class Tournament:
    tournament_id: int
    guild_id: int
    channel_id: int | None
    name: str
    scoring: str
    win_points: int
    draw_points: int
    survival_points: int
    vote_points: int
    elimination_points: int
    rounds: int
    remainder_size: int
    vote_minutes: int
    seed: int
    current_round: int
    status: str  # open | finished
    created_by: int | None
    created_at: str


_TOURNAMENT_COLUMNS = (
    "tournament_id",
    "guild_id",
    "channel_id",
    "name",
    "scoring",
    "win_points",
    "draw_points",
    "survival_points",
    "vote_points",
    "elimination_points",
    "rounds",
    "remainder_size",
    "vote_minutes",
    "seed",
    "current_round",
    "status",
    "created_by",
    "created_at",
)


@dataclass(frozen=True)
class Entrant:
    user_id: int
    name: str
    joined_round: int
    dropped_round: int | None

    @property
    def active(self) -> bool:
        return self.dropped_round is None


@dataclass(frozen=True)
class PodAssignment:
    pod_id: int
    round_number: int
    table_number: int
    seats: list[int]
    game_id: int | None


@dataclass(frozen=True)
class GamePlayer:
    user_id: int
    seat: int
    survived: bool
    eliminations: int = 0
    combat_damage: int = 0
    commander_kills: int = 0
    commander_mana: int = 0


@dataclass(frozen=True)
class TournamentGame:
    game_id: int
    tournament_id: int
    round_number: int
    channel_id: int | None
    draw: bool
    stopped: bool
    finished_at: str
    vote_deadline: str | None
    vote_closed_at: str | None
    vote_message_id: int | None = None
    players: list[GamePlayer] = field(default_factory=list)

    @property
    def vote_open(self) -> bool:
        return self.vote_deadline is not None and self.vote_closed_at is None


@dataclass(frozen=True)
class CorrectionRow:
    correction_id: int
    user_id: int
    points: int
    reason: str
    by_user_id: int
    created_at: str


@dataclass(frozen=True)
class ManaReport:
    report_id: int
    game_id: int
    user_id: int
    amount: int
    confirmed_by: int | None


def vote_scope(game_id: int) -> str:
    """The write scope of one finished tournament game's vote: its ballots and its closing."""
    return f"vote:{game_id}"


class TournamentRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    # -- tournaments -------------------------------------------------------------------------------

    async def create(self, **values: object) -> Tournament:
        values = {**values, "created_at": self.db.now_iso()}
        columns = [c for c in _TOURNAMENT_COLUMNS if c in values]
        tournament_id = await self.db.insert(
            f"INSERT INTO tournaments ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
            [values[c] for c in columns],
            returning="tournament_id",
        )
        created = await self.get(tournament_id)
        assert created is not None
        return created

    async def get(self, tournament_id: int) -> Tournament | None:
        row = await self.db.fetchone(
            f"SELECT {', '.join(_TOURNAMENT_COLUMNS)} FROM tournaments WHERE tournament_id = ?",
            (tournament_id,),
        )
        return None if row is None else Tournament(*row)

    async def active(self, guild_id: int) -> Tournament | None:
        """The server's newest tournament that is not finished."""
        row = await self.db.fetchone(
            f"SELECT {', '.join(_TOURNAMENT_COLUMNS)} FROM tournaments WHERE guild_id = ? AND status <> 'finished' "
            f"ORDER BY tournament_id DESC LIMIT 1",
            (guild_id,),
        )
        return None if row is None else Tournament(*row)

    async def latest(self, guild_id: int) -> Tournament | None:
        """The server's newest tournament, finished or not."""
        row = await self.db.fetchone(
            f"SELECT {', '.join(_TOURNAMENT_COLUMNS)} FROM tournaments WHERE guild_id = ? "
            f"ORDER BY tournament_id DESC LIMIT 1",
            (guild_id,),
        )
        return None if row is None else Tournament(*row)

    async def set_status(self, tournament_id: int, status: str) -> None:
        await self.db.execute(
            "UPDATE tournaments SET status = ? WHERE tournament_id = ?", (status, tournament_id)
        )

    # -- entrants ----------------------------------------------------------------------------------

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        rows = await self.db.fetchall(
            "SELECT user_id, name, joined_round, dropped_round FROM tournament_entrants "
            "WHERE tournament_id = ? ORDER BY joined_round, name",
            (tournament_id,),
        )
        return [Entrant(*row) for row in rows]

    async def add_entrant(self, tournament_id: int, user_id: int, name: str, joined_round: int) -> None:
        """Join, or re-join after a drop (the entry is reactivated, its history kept)."""
        await self.db.execute(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, joined_round) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (tournament_id, user_id) DO UPDATE SET name = excluded.name, dropped_round = NULL",
            (tournament_id, user_id, name, joined_round),
        )

    async def drop_entrant(self, tournament_id: int, user_id: int, round_number: int) -> None:
        await self.db.execute(
            "UPDATE tournament_entrants SET dropped_round = ? WHERE tournament_id = ? AND user_id = ?",
            (round_number, tournament_id, user_id),
        )

    # -- rounds and pods ---------------------------------------------------------------------------

    async def store_round(self, tournament_id: int, round_number: int, pods: Sequence[Sequence[int]]) -> None:
        """Write a round's pods and advance the tournament's round, all or nothing."""
        async with self.db.transaction() as conn:
            for table_number, seats in enumerate(pods, start=1):
                pod_id = await conn.insert(
                    "INSERT INTO tournament_pods (tournament_id, round_number, table_number) VALUES (?, ?, ?)",
                    (tournament_id, round_number, table_number),
                    returning="pod_id",
                )
                await conn.executemany(
                    "INSERT INTO tournament_pod_seats (pod_id, seat, user_id) VALUES (?, ?, ?)",
                    [(pod_id, seat, user_id) for seat, user_id in enumerate(seats, start=1)],
                )
            await conn.execute(
                "UPDATE tournaments SET current_round = ? WHERE tournament_id = ?",
                (round_number, tournament_id),
            )

    async def pods(self, tournament_id: int, round_number: int | None = None) -> list[PodAssignment]:
        where, params = "p.tournament_id = ?", [tournament_id]
        if round_number is not None:
            where += " AND p.round_number = ?"
            params.append(round_number)
        rows = await self.db.fetchall(
            f"SELECT p.pod_id, p.round_number, p.table_number, p.game_id, s.user_id FROM tournament_pods p "
            f"JOIN tournament_pod_seats s ON s.pod_id = p.pod_id WHERE {where} "
            f"ORDER BY p.round_number, p.table_number, s.seat",
            params,
        )
        pods: dict[int, PodAssignment] = {}
        for pod_id, round_no, table, game_id, user_id in rows:
            if pod_id not in pods:
                pods[pod_id] = PodAssignment(pod_id, round_no, table, [], game_id)
            pods[pod_id].seats.append(user_id)
        return list(pods.values())

    async def link_game(self, pod_id: int, game_id: int) -> None:
        await self.db.execute("UPDATE tournament_pods SET game_id = ? WHERE pod_id = ?", (game_id, pod_id))

    # -- finished games and votes ------------------------------------------------------------------

    async def add_game(self, game: TournamentGame) -> bool:
        """Store a finished game once; False when it was stored already (a repeated notification)."""
        async with self.db.transaction() as conn:
            stored = await conn.execute(
                "INSERT INTO tournament_games (game_id, tournament_id, round_number, channel_id, draw, stopped, "
                "finished_at, vote_deadline, vote_closed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id) DO NOTHING",
                (
                    game.game_id,
                    game.tournament_id,
                    game.round_number,
                    game.channel_id,
                    int(game.draw),
                    int(game.stopped),
                    game.finished_at,
                    game.vote_deadline,
                    game.vote_closed_at,
                ),
            )
            if stored == 0:
                return False
            await conn.executemany(
                "INSERT INTO tournament_game_players (game_id, user_id, seat, survived, eliminations, combat_damage, "
                "commander_kills, commander_mana) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game.game_id,
                        p.user_id,
                        p.seat,
                        int(p.survived),
                        p.eliminations,
                        p.combat_damage,
                        p.commander_kills,
                        p.commander_mana,
                    )
                    for p in game.players
                ],
            )
        return True

    async def game(self, game_id: int) -> TournamentGame | None:
        games = await self._games("g.game_id = ?", [game_id])
        return games[0] if games else None

    async def games(self, tournament_id: int) -> list[TournamentGame]:
        return await self._games("g.tournament_id = ?", [tournament_id])

    async def games_with_open_votes(self) -> list[TournamentGame]:
        """Every vote still open, in every server: rescheduled when the bot starts."""
        return await self._games("g.vote_closed_at IS NULL AND g.vote_deadline IS NOT NULL", [])

    async def _games(self, where: str, params: list[object]) -> list[TournamentGame]:
        rows = await self.db.fetchall(
            f"SELECT g.game_id, g.tournament_id, g.round_number, g.channel_id, g.draw, g.stopped, g.finished_at, "
            f"g.vote_deadline, g.vote_closed_at, g.vote_message_id, p.user_id, p.seat, p.survived, p.eliminations, p.combat_damage, "
            f"p.commander_kills, p.commander_mana FROM tournament_games g "
            f"JOIN tournament_game_players p ON p.game_id = g.game_id WHERE {where} ORDER BY g.game_id, p.seat",
            params,
        )
        games: dict[int, TournamentGame] = {}
        for row in rows:
            game_id = row[0]
            if game_id not in games:
                games[game_id] = TournamentGame(
                    row[0], row[1], row[2], row[3], bool(row[4]), bool(row[5]), row[6], row[7], row[8], row[9]
                )
            games[game_id].players.append(GamePlayer(row[10], row[11], bool(row[12]), *row[13:17]))
        return list(games.values())

    async def set_vote_message(self, game_id: int, message_id: int) -> None:
        await self.db.execute(
            "UPDATE tournament_games SET vote_message_id = ? WHERE game_id = ?", (message_id, game_id)
        )

    async def cast_vote(self, game_id: int, voter_id: int, votee_id: int) -> None:
        await self.db.execute(
            "INSERT INTO tournament_votes (game_id, voter_id, votee_id, cast_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, voter_id) DO UPDATE SET votee_id = excluded.votee_id, cast_at = excluded.cast_at",
            (game_id, voter_id, votee_id, self.db.now_iso()),
            scope=vote_scope(game_id),
        )

    async def votes(self, game_id: int) -> dict[int, int]:
        rows = await self.db.fetchall(
            "SELECT voter_id, votee_id FROM tournament_votes WHERE game_id = ?", (game_id,)
        )
        return {voter: votee for voter, votee in rows}

    async def tournament_votes(self, tournament_id: int) -> dict[int, dict[int, int]]:
        """Game id -> votes, for every game of the tournament."""
        rows = await self.db.fetchall(
            "SELECT v.game_id, v.voter_id, v.votee_id FROM tournament_votes v "
            "JOIN tournament_games g ON g.game_id = v.game_id WHERE g.tournament_id = ?",
            (tournament_id,),
        )
        votes: dict[int, dict[int, int]] = {}
        for game_id, voter, votee in rows:
            votes.setdefault(game_id, {})[voter] = votee
        return votes

    async def unannounced_results(self) -> list[int]:
        """Games whose vote closed but whose result never reached the table (a crash in between)."""
        rows = await self.db.fetchall(
            "SELECT game_id FROM tournament_games WHERE vote_closed_at IS NOT NULL "
            "AND announced_at IS NULL ORDER BY game_id"
        )
        return [int(r[0]) for r in rows]

    async def mark_announced(self, game_id: int, at: str) -> None:
        await self.db.execute("UPDATE tournament_games SET announced_at = ? WHERE game_id = ?", (at, game_id))

    async def unrecorded_finished_games(self) -> list[int]:
        """Finished pod games linked to a tournament that the tournament never stored (the bot died
        between the game's last event and ``pod_game_finished``): no vote, no points until repaired."""
        rows = await self.db.fetchall(
            "SELECT g.game_id FROM pod_games g WHERE g.tournament_id IS NOT NULL AND g.status = 'finished' "
            "AND NOT EXISTS (SELECT 1 FROM tournament_games t WHERE t.game_id = g.game_id) ORDER BY g.game_id"
        )
        return [int(r[0]) for r in rows]

    async def close_vote(self, game_id: int, closed_at: str) -> bool:
        """Close once; False when it was closed already (deadline and last vote racing)."""
        async with self.db.transaction(vote_scope(game_id)) as conn:
            return (
                await conn.execute(
                    "UPDATE tournament_games SET vote_closed_at = ? WHERE game_id = ? AND vote_closed_at IS NULL",
                    (closed_at, game_id),
                )
                == 1
            )

    # -- prize reports, corrections, settings ------------------------------------------------------

    async def add_mana_report(self, game_id: int, user_id: int, amount: int) -> int:
        return await self.db.insert(
            "INSERT INTO tournament_mana_reports (game_id, user_id, amount, reported_at) VALUES (?, ?, ?, ?)",
            (game_id, user_id, amount, self.db.now_iso()),
            returning="report_id",
        )

    async def mana_report(self, report_id: int) -> ManaReport | None:
        row = await self.db.fetchone(
            "SELECT report_id, game_id, user_id, amount, confirmed_by FROM tournament_mana_reports "
            "WHERE report_id = ?",
            (report_id,),
        )
        return None if row is None else ManaReport(*row)

    async def confirm_mana_report(self, report_id: int, confirmed_by: int) -> None:
        await self.db.execute(
            "UPDATE tournament_mana_reports SET confirmed_by = ? WHERE report_id = ? AND confirmed_by IS NULL",
            (confirmed_by, report_id),
        )

    async def mana_reports(self, game_ids: Sequence[int]) -> list[ManaReport]:
        if not game_ids:
            return []
        rows = await self.db.fetchall(
            f"SELECT report_id, game_id, user_id, amount, confirmed_by FROM tournament_mana_reports "
            f"WHERE game_id IN ({', '.join('?' for _ in game_ids)})",
            list(game_ids),
        )
        return [ManaReport(*row) for row in rows]

    async def add_correction(
        self, tournament_id: int, user_id: int, points: int, reason: str, by_user_id: int
    ) -> None:
        await self.db.execute(
            "INSERT INTO tournament_corrections (tournament_id, user_id, points, reason, by_user_id, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (tournament_id, user_id, points, reason, by_user_id, self.db.now_iso()),
        )

    async def corrections(self, tournament_id: int) -> list[CorrectionRow]:
        rows = await self.db.fetchall(
            "SELECT correction_id, user_id, points, reason, by_user_id, created_at FROM tournament_corrections "
            "WHERE tournament_id = ? ORDER BY correction_id",
            (tournament_id,),
        )
        return [CorrectionRow(*row) for row in rows]

    async def reveal_votes_to_organisers(self, guild_id: int) -> bool:
        value = await self.db.scalar(
            "SELECT reveal_votes_to_organisers FROM tournament_guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return bool(value)

    async def set_reveal_votes_to_organisers(self, guild_id: int, enabled: bool) -> None:
        await self.db.execute(
            "INSERT INTO tournament_guild_settings (guild_id, reveal_votes_to_organisers) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET reveal_votes_to_organisers = excluded.reveal_votes_to_organisers",
            (guild_id, int(enabled)),
        )
