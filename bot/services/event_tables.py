"""The tables of a server-wide event, whatever the challenge deck.

An event seats people, watches its tables and adds them up; it never plays. What it needs of a table
is the same for every deck — create one for a group, read who sits there and how it stands, seat a
late group, drop a no-show, tally each player's score — and :class:`EventTables` is that surface, over
the one challenge service (the Hydra's tables are kept by its ``HydraService``, the Horde's and the
God's by a ``ChallengeService``: numbered apart). A score is what the deck defeated (heads severed,
permanents defeated); what a no-show does follows the deck's rules (see :meth:`EventTables.drop`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain.hydra_events import LoggedAction, ScoreTally
from bot.services.challenge import ActResult, ChallengeService, ChallengeTable
from bot.storage.challenge import PLAYING
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


class EventTables:
    """An event's tables: ordinary tables of the deck's service, shared with the cog that shows them."""

    def __init__(self, service: ChallengeService) -> None:
        self.service = service

    async def create(self, event: EventRow, players: Sequence[Entrant], seed: int | None) -> int:
        """A table for a group: its first player opens it, the rest sit down, and the game starts."""
        first = players[0]
        table = await self.service.create(
            guild_id=event.guild_id,
            channel_id=event.channel_id,
            user_id=first.user_id,
            name=first.name,
            deck=event.deck,
            difficulty=event.heads,
            language=event.language,
            seed=seed,
        )
        for player in players[1:]:
            await self.service.join(table.game_id, player.user_id, player.name)
        await self.service.start(table.game_id, first.user_id)
        return table.game_id

    async def view(self, game_id: int) -> TableView:
        table = await self.service.load(game_id)
        game = table.game
        seats = tuple(SeatView(s.seat, s.user_id, s.name, self._standing(table, s.seat)) for s in table.seats)
        playing = table.row.status == PLAYING
        return TableView(
            game_id,
            playing,
            seats,
            tuple(LoggedAction(a.seq, a.line, a.actor_id) for a in table.actions),
            None if game is None else game.outcome,
            0 if game is None else game.turn,
            0 if game is None else game.defeated,
            0 if game is None else len(game.battlefield),
            game is not None and playing and game.in_players_first_turn,
            self._key(table),
            table,
        )

    @staticmethod
    def _standing(table: ChallengeTable, seat: int) -> bool:
        """Still in the game: not at 0 life, not conceded or dropped (where the players share one life
        total, they stand or fall together)."""
        game = table.game
        if game is None:
            return True
        if table.rules.shared_life:
            return bool(game.outcome != "lost")
        return not game.players[seat - 1].lost

    async def seat_late(
        self, game_id: int, members: Sequence[tuple[int, str]], limit: int
    ) -> ChallengeTable | None:
        """Late players sit down while the table is in its first turn and nobody has seen its library
        (the seats decide the set-up: life totals, the God's Throngs); the Horde seats one, so never there."""
        return await self.service.seat_late(game_id, members, limit=limit)

    async def drop(self, game_id: int, seat: int) -> ActResult | None:
        """A no-show with a life total of their own concedes (the bot concedes for them) and the table
        goes on without them. Where the players share one life total a concession would end the game
        for those who came, so the no-show is dropped from the event and concedes nothing."""
        table = await self.service.load(game_id)
        if table.rules.shared_life:
            return None
        return await self.service.act(game_id, None, f"concede {seat}")

    def tally(self, view: TableView) -> ScoreTally:
        assert isinstance(view.table, ChallengeTable)
        row, seats = view.table.row, view.table.seats
        return ScoreTally(
            view.tally_key, lambda: self.service.new_game(row, seats), lambda game: game.defeated
        )

    @staticmethod
    def _key(table: ChallengeTable) -> object:
        """The game's set-up as far as a score is concerned (a late player changes it)."""
        return (
            table.row.deck,
            tuple((s.user_id, s.name, s.heroes) for s in table.seats),
            table.row.seed,
            table.row.difficulty,
        )
