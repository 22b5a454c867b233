"""Seasons as a service: open and close a server's season, score each finished pod game into the open one,
take the table's answers and an organiser's decisions, and read standings and the CSV export.

Plain Python over the storage layer (the cog and the CLI call it). Answers and decisions on one game run
under an asyncio lock keyed by the game, so two players pressing at once are both kept and a decision
cannot land between reading a result's state and writing an answer to it (one bot process per database,
as for pod games).
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Callable
from dataclasses import dataclass

from bot.domain import season as rules
from bot.domain.pod import PodGameRecord
from bot.domain.season import PointsRule, SeasonError, Standing
from bot.storage.db import Database, now_iso
from bot.storage.seasons import ScoredGame, Season, SeasonRepository, SeasonTaken

BOM = "\ufeff"  # spreadsheet apps read the CSV as UTF-8 (CJK names intact) only with it


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    lines: list[Standing]
    waiting: int  # results neither final nor voided: the table or an organiser still has to act


class SeasonService:
    def __init__(self, db: Database, *, clock: Callable[[], str] = now_iso) -> None:
        self.repo = SeasonRepository(db)
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}

    # -- seasons ----------------------------------------------------------------------------------------

    async def open(
        self,
        guild_id: int,
        name: str,
        rule: PointsRule,
        *,
        league_only: bool = False,
        opened_by: int | None = None,
    ) -> Season:
        """Open a season; raises SeasonError when one is open already or the name was used before."""
        name = rules.check_name(name)
        current = await self.repo.open_season(guild_id)
        if current is not None:
            raise SeasonError("already_open", name=current.name)
        try:
            season_id = await self.repo.create(
                guild_id, name, rule, league_only=league_only, opened_by=opened_by, opened_at=self.clock()
            )
        except SeasonTaken:
            raced = await self.repo.open_season(guild_id)  # another /season open landed first
            if raced is not None:
                raise SeasonError("already_open", name=raced.name) from None
            raise SeasonError("name_taken", name=name) from None
        season = await self.repo.season(season_id)
        assert season is not None
        return season

    async def close(self, guild_id: int, closed_by: int | None = None) -> Season:
        season = await self.repo.open_season(guild_id)
        if season is None or not await self.repo.close(season.season_id, closed_by, self.clock()):
            raise SeasonError("no_open_season")
        closed = await self.repo.season(season.season_id)
        assert closed is not None
        return closed

    async def find(self, guild_id: int, name: str | None = None) -> Season:
        """The season called ``name``, or without a name the open one, else the latest."""
        if name:
            found = await self.repo.by_name(guild_id, " ".join(name.split()))
            if found is None:
                raise SeasonError("no_season", name=name[: rules.MAX_NAME])
            return found
        latest = await self.repo.open_season(guild_id) or next(iter(await self.repo.seasons(guild_id)), None)
        if latest is None:
            raise SeasonError("no_seasons")
        return latest

    async def names(self, guild_id: int) -> list[str]:
        return [s.name for s in await self.repo.seasons(guild_id)]

    # -- games ------------------------------------------------------------------------------------------

    async def mark_league(self, game_id: int, marked_by: int | None) -> None:
        """A game started for the league (``/pod start league:True``): a league-only season scores it."""
        await self.repo.mark_league(game_id, marked_by, self.clock())

    async def score_finished_game(self, record: PodGameRecord) -> tuple[Season, ScoredGame] | None:
        """Score a finished pod game into its server's open season; None when no season takes it (no open
        season; a tournament or match game; a game that never reached turn 1; a league-only season and a
        game not started for the league) or it was scored already."""
        if record.guild_id is None or record.tournament_id is not None or record.match_id is not None:
            return None
        if record.turns == 0:
            return None
        season = await self.repo.open_season(record.guild_id)
        if season is None or (season.league_only and not await self.repo.is_league(record.game_id)):
            return None
        seats = rules.score_game(season.rule, record)
        added = await self.repo.add_game(
            season.season_id, record.game_id, seats, channel_id=record.channel_id, finished_at=record.ended_at
        )
        if not added:
            return None
        game = await self.repo.game(record.game_id)
        assert game is not None
        return season, game

    async def unscored_finished_games(self) -> list[int]:
        return await self.repo.unscored_finished_games()

    async def game(self, guild_id: int, game_id: int) -> tuple[Season, ScoredGame]:
        """A scored game of this server's seasons (another server's game is refused as unknown)."""
        game = await self.repo.game(game_id)
        season = None if game is None else await self.repo.season(game.season_id)
        if game is None or season is None or season.guild_id != guild_id:
            raise SeasonError("not_in_season", game=game_id)
        return season, game

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        await self.repo.set_message(game_id, channel_id, message_id)

    async def answer(
        self, guild_id: int, game_id: int, user_id: int, choice: str
    ) -> tuple[Season, ScoredGame]:
        """A player's confirm or dispute (refused for a bystander or a final result; nothing changed then)."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            season, game = await self.game(guild_id, game_id)
            answered = rules.answer(game.state, user_id, choice)
            await self.repo.set_answer(game_id, user_id, choice, answered.status, self.clock())
            return season, await self._reread(game_id)

    async def decide(
        self, guild_id: int, game_id: int, decision: str, decided_by: int | None
    ) -> tuple[Season, ScoredGame]:
        """An organiser's decision; the caller checked that ``decided_by`` is an organiser."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            season, game = await self.game(guild_id, game_id)
            decided = rules.decide(game.state, decision)
            await self.repo.set_decision(game_id, decision, decided.status, decided_by, self.clock())
            return season, await self._reread(game_id)

    async def _reread(self, game_id: int) -> ScoredGame:
        game = await self.repo.game(game_id)
        assert game is not None
        return game

    # -- standings --------------------------------------------------------------------------------------

    async def standings(self, season: Season) -> SeasonStandings:
        totals = await self.repo.totals(season.season_id, rules.COUNTING)
        waiting = await self.repo.count_games(season.season_id, rules.WAITING)
        return SeasonStandings(season=season, lines=rules.rank(totals, season.rule), waiting=waiting)

    async def export_csv(self, season: Season, headers: dict[str, str]) -> bytes:
        """The standings as CSV in UTF-8 with a BOM; ``headers`` are the column titles and the yes/no words in
        the reader's language (keys as in :data:`CSV_COLUMNS`, plus ``yes`` and ``no``)."""
        return standings_csv((await self.standings(season)).lines, headers)


CSV_COLUMNS = ("place", "player", "user_id", "points", "games", "wins", "eliminations", "ranked")


def standings_csv(lines: list[Standing], headers: dict[str, str]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([headers[column] for column in CSV_COLUMNS])
    for line in lines:
        writer.writerow(
            [
                "" if line.place is None else line.place,
                _cell(line.name),
                line.user_id,
                line.points,
                line.games,
                line.wins,
                line.eliminations,
                headers["yes" if line.ranked else "no"],
            ]
        )
    return (BOM + out.getvalue()).encode("utf-8")


def _cell(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula (a display name may start with ``=``)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
