"""The tables of a server-wide event, whatever the challenge deck.

An event seats people, watches its tables and adds them up; it never plays. What it needs of a table
is the same for every deck — create one for a group, read who sits there and how it stands, seat a
late group, drop a no-show, tally each player's score — and :class:`EventTables` is that surface. The
Hydra's tables are kept by ``HydraService`` (heads severed), the Horde's and the God's by
``ChallengeService`` (the deck's permanents defeated).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.domain.hydra_events import LoggedAction, ScoreTally, SeveranceTally, in_first_turn
from bot.services.challenge import ChallengeService, ChallengeTable
from bot.services.hydra import ActResult, HydraService, HydraTable
from bot.storage.challenge import PLAYING as DECK_PLAYING
from bot.storage.hydra import PLAYING as HYDRA_PLAYING
from bot.storage.hydra_events import Entrant, EventRow


@dataclass(frozen=True)
class SeatView:
    seat: int  # 1-based
    user_id: int
    name: str
    standing: bool  # still in the game (not at 0 life, not conceded or dropped)


@dataclass(frozen=True)
class TableView:
    """One event table as the event sees it. ``table`` is the deck feature's own table object (the cog
    that shows it needs it); ``outcome`` is None while the table is still in its lobby."""

    game_id: int
    playing: bool
    seats: tuple[SeatView, ...]
    actions: tuple[LoggedAction, ...]
    outcome: str | None
    turn: int
    score: int  # heads severed / permanents defeated at the table
    left: int  # heads / permanents still on the battlefield
    in_first_turn: bool  # late players may still sit down
    tally_key: object  # the game's set-up: a tally is valid for this key only
    table: object


class EventTables(Protocol):
    async def create(self, event: EventRow, players: Sequence[Entrant], seed: int | None) -> int: ...

    async def view(self, game_id: int) -> TableView: ...

    async def seat_late(self, game_id: int, members: Sequence[tuple[int, str]], limit: int) -> object | None: ...

    async def drop(self, game_id: int, seat: int) -> object | None: ...

    def tally(self, view: TableView) -> ScoreTally: ...


async def _seat_and_start(service: HydraService | ChallengeService, game_id: int, players: Sequence[Entrant]) -> int:
    """The rest of the group sits down at the new table (its first player made it) and the game starts."""
    for player in players[1:]:
        await service.join(game_id, player.user_id, player.name)
    await service.start(game_id, players[0].user_id)
    return game_id


class HydraTables:
    """Hydra event tables: ordinary Hydra tables, shared with the Hydra cog."""

    def __init__(self, service: HydraService) -> None:
        self.service = service

    async def create(self, event: EventRow, players: Sequence[Entrant], seed: int | None) -> int:
        first = players[0]
        table = await self.service.create(guild_id=event.guild_id, channel_id=None, user_id=first.user_id,
                                          name=first.name, heads=event.heads, language=event.language, seed=seed)
        return await _seat_and_start(self.service, table.game_id, players)

    async def view(self, game_id: int) -> TableView:
        table: HydraTable = await self.service.load(game_id)
        game = table.game
        seats = tuple(SeatView(s.seat, s.user_id, s.name, game is None or not game.players[s.seat - 1].lost)
                      for s in table.seats)
        return TableView(
            game_id, table.row.status == HYDRA_PLAYING, seats,
            tuple(LoggedAction(a.seq, a.line, a.actor_id) for a in table.actions),
            None if game is None else game.outcome, 0 if game is None else game.turn,
            0 if game is None else game.heads_severed, 0 if game is None else len(game.battlefield),
            game is not None and table.row.status == HYDRA_PLAYING and in_first_turn(game),
            None if game is None else game.setup, table)

    async def seat_late(self, game_id: int, members: Sequence[tuple[int, str]], limit: int) -> HydraTable | None:
        return await self.service.seat_late(game_id, members, limit=limit)

    async def drop(self, game_id: int, seat: int) -> ActResult:
        """A no-show concedes (the bot concedes for them); the table goes on without them."""
        return await self.service.act(game_id, None, f"concede {seat}")

    def tally(self, view: TableView) -> ScoreTally:
        assert isinstance(view.table, HydraTable) and view.table.game is not None
        return SeveranceTally(view.table.game.setup)


class DeckTables:
    """Horde and God event tables: ordinary challenge tables (``ChallengeService``)."""

    def __init__(self, service: ChallengeService) -> None:
        self.service = service

    async def create(self, event: EventRow, players: Sequence[Entrant], seed: int | None) -> int:
        first = players[0]
        table = await self.service.create(guild_id=event.guild_id, channel_id=event.channel_id, user_id=first.user_id,
                                          name=first.name, deck=event.deck, difficulty=event.heads,
                                          language=event.language, seed=seed)
        return await _seat_and_start(self.service, table.game_id, players)

    async def view(self, game_id: int) -> TableView:
        table: ChallengeTable = await self.service.load(game_id)
        game = table.game
        standing = game is None or game.outcome != "lost"  # one life total: they stand or fall together
        seats = tuple(SeatView(i, user_id, name, standing) for i, (user_id, name) in enumerate(table.seats, start=1))
        actions = tuple(LoggedAction(seq, line, actor) for seq, (line, actor) in enumerate(table.actions, start=1))
        return TableView(
            game_id, table.row.status == DECK_PLAYING, seats, actions, None if game is None else game.outcome,
            0 if game is None else game.turn, 0 if game is None else game.defeated,
            0 if game is None else len(game.battlefield),
            game is not None and table.row.status == DECK_PLAYING and game.in_players_first_turn,
            self._key(table), table)

    async def seat_late(self, game_id: int, members: Sequence[tuple[int, str]], limit: int) -> ChallengeTable | None:
        """Late players sit down while the table is in its first turn and nobody has seen its library
        (the seats decide the set-up: the God's Throngs); the Horde seats one, so never there."""
        return await self.service.seat_late(game_id, members, limit=limit)

    async def drop(self, game_id: int, seat: int) -> None:
        """A no-show is dropped from the event but concedes nothing: the players share one life total,
        and a concession would end the game for those who came."""
        return None

    def tally(self, view: TableView) -> ScoreTally:
        assert isinstance(view.table, ChallengeTable)
        row, seats = view.table.row, view.table.seats
        return ScoreTally(view.tally_key, lambda: self.service.new_game(row, seats),
                          lambda game: game.defeated)

    @staticmethod
    def _key(table: ChallengeTable) -> object:
        return (table.row.deck, tuple(table.seats), table.row.seed, table.row.difficulty)
