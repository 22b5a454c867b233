"""Face the Hydra tables as a service: load → engine step → store → result, one table at a time.

A table's game is rebuilt by replaying its stored actions through the engine (seed + action log),
so a restart loses nothing. Every change runs under an asyncio lock per table, and the action is
committed before the caller sees the new state (and so before any Discord message is edited).
Who may do what is checked here, not in the cog: only seated challengers act, and a question the
Hydra's card asks one particular player (Distract the Hydra, Swallow the Hero Whole) is answered
by that player alone (H9, H10).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain.hydra import (
    Action,
    Event,
    GameSetup,
    HydraError,
    HydraGame,
    PlayerSetup,
    parse_action,
)
from bot.domain.hydra.cards import MAX_HEROES_PER_PLAYER, THE_SLAYER, find_hero
from bot.domain.hydra.engine import MAX_HEADS, MAX_PLAYERS, MIN_HEADS
from bot.storage.db import Database, IntegrityError, now_iso
from bot.storage.hydra import (
    FINISHED,
    IDLE,
    LOBBY,
    PLAYING,
    HydraActionRow,
    HydraFinish,
    HydraGameRow,
    HydraProfile,
    HydraRepository,
    HydraSeat,
    SeatError,
)

Notify = Callable[[str, Any], None]


def hydra_game_topic(game_id: int) -> str:
    """The change-hub topic of one Hydra table (see bot.changes)."""
    return f"hydra_game:{game_id}"
DEFAULT_WINDOW_SECONDS = 20  # counter / prevent windows; a question to the players waits 3x longer
DEFAULT_IDLE_MINUTES = 30


@dataclass
class HydraTable:
    """A table as the cog sees it: where it lives, who sits at it, and the game (None in the lobby)."""

    row: HydraGameRow
    seats: list[HydraSeat]
    actions: list[HydraActionRow]
    game: HydraGame | None

    @property
    def game_id(self) -> int:
        return self.row.game_id

    @property
    def user_ids(self) -> list[int]:
        """Who sits here, in seat order (the same on every deck's table)."""
        return [seat.user_id for seat in self.seats]

    def seat_of(self, user_id: int) -> HydraSeat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def user_to_answer(self) -> int | None:
        """The user who must answer the pending question, or None when any challenger may."""
        if self.game is None or self.game.pending is None or self.game.pending.player is None:
            return None
        return self.seats[self.game.pending.player].user_id


@dataclass
class ActResult:
    table: HydraTable
    events: list[Event]
    hydra_turn_started: bool  # the players ended their turn and the Hydra's began: a new turn message
    # (an extra turn is shown in the same message; a win at the end of the players' turn opens none)
    finished: bool


@dataclass(frozen=True)
class HydraFinished:
    """Dispatched as ``hydra_game_finished`` when a table ends (for events)."""

    game_id: int
    guild_id: int | None
    outcome: str
    user_ids: tuple[int, ...]
    turns: int
    heads_severed: int


MAX_OPEN_TABLES_PER_MEMBER = 5  # unfinished tables one member may have opened in a server (one opened 200)


class HydraService:
    def __init__(self, db: Database, *, notify: Notify | None = None) -> None:
        self.repo = HydraRepository(db)
        self.notify = notify or (lambda name, payload: None)
        self.changes = db.changes
        self._locks: dict[int, asyncio.Lock] = {}
        self._tables: dict[int, HydraTable] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # -- the lobby ----------------------------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int | None, user_id: int, name: str, heads: int,
                     language: str = "en", seed: int | None = None, window_seconds: int = DEFAULT_WINDOW_SECONDS,
                     idle_minutes: int = DEFAULT_IDLE_MINUTES, all_windows: bool = False,
                     capped: bool = False) -> HydraTable:
        """A new table in its lobby. ``capped``: a member opening one with ``/hydra start`` may have at
        most ``MAX_OPEN_TABLES_PER_MEMBER`` unfinished (an event's tables, opened for its players, are not
        counted against anyone)."""
        if not MIN_HEADS <= heads <= MAX_HEADS:
            raise HydraError("hydra.error.heads_range", min=MIN_HEADS, max=MAX_HEADS)
        if capped and await self.repo.unfinished_tables_opened_by(guild_id, user_id) >= MAX_OPEN_TABLES_PER_MEMBER:
            raise HydraError("hydra.error.too_many_tables", limit=MAX_OPEN_TABLES_PER_MEMBER)
        game_id = await self.repo.create(
            guild_id=guild_id, channel_id=channel_id, created_by=user_id, creator_name=name, heads=heads,
            seed=secrets.randbelow(2**31) if seed is None else seed, language=language,
            window_seconds=window_seconds, idle_minutes=idle_minutes, all_windows=all_windows)
        return await self.load(game_id)

    async def join(self, game_id: int, user_id: int, name: str) -> HydraTable:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            try:
                await self.repo.add_seat(game_id, user_id, name, limit=MAX_PLAYERS)
            except SeatError as error:
                key = "hydra.error.already_seated" if "already" in str(error) else "hydra.error.table_full"
                raise HydraError(key, max=MAX_PLAYERS) from None
            return await self._reload(table.game_id)

    async def seat_late(self, game_id: int, players: Sequence[tuple[int, str]], *,
                        limit: int = MAX_PLAYERS) -> HydraTable | None:
        """Add players to a game still in the players' first turn (H3: nobody has ended it yet; H10:
        at most ``limit`` seats). Seats are part of the game's set-up, so the game is replayed with
        the newcomers: the same board, plus their life totals. Returns None when the table has moved
        on (or is full) and nothing was changed."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.game is None or not table.game.in_players_first_turn \
                    or len(table.seats) + len(players) > limit:
                return None
            for user_id, name in players:
                await self.repo.add_seat(game_id, user_id, name, limit=limit)
            return await self._reload(game_id)

    async def leave(self, game_id: int, user_id: int) -> HydraTable:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._seat(table, user_id)
            await self.repo.remove_seat(game_id, user_id)
            return await self._reload(game_id)

    async def set_heroes(self, game_id: int, user_id: int, names: Sequence[str]) -> HydraTable:
        """H2: up to two Hero cards per player (the same one may be used twice)."""
        heroes = []
        for name in names:
            hero = find_hero(name)
            if hero is None:
                raise HydraError("hydra.error.unknown_hero", hero=name)
            heroes.append(hero.name)
        if len(heroes) > MAX_HEROES_PER_PLAYER:
            raise HydraError("hydra.error.too_many_heroes", max=MAX_HEROES_PER_PLAYER)
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._seat(table, user_id)
            await self.repo.set_heroes(game_id, user_id, heroes)
            return await self._reload(game_id)

    async def start(self, game_id: int, user_id: int) -> HydraTable:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._seat(table, user_id)
            await self.repo.update_game(game_id, status=PLAYING)
            return await self._reload(game_id)

    # -- playing ------------------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int | None, line: str) -> ActResult:
        """Apply one player action (a script-language line). ``user_id`` None is the bot itself
        answering a timed-out question with its default."""
        action = parse_action(line)
        async with self.lock(game_id):
            return await self._act(await self.load(game_id), user_id, action)

    async def _act(self, table: HydraTable, user_id: int | None, action: Action) -> ActResult:
        game = self._playing(table)
        if user_id is not None:
            seat = self._seat(table, user_id)
            self._check_may(table, seat, action)
        events = game.apply(action)
        await self._store(table, action.line(), user_id)
        started = action.verb == "end" and any(e.key == "hydra.log.hydra_turn" for e in events)
        return ActResult(table, events, started, game.over)

    async def answer_default(self, game_id: int, topic: str, actions_before: int | None = None) -> ActResult | None:
        """A response window or question timed out: answer it with its documented default — unless
        it was answered meanwhile. Checked under the table's lock: ``topic`` is the question that
        timed out and ``actions_before`` the length of the log when its timer started."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            game = table.game
            if (game is None or game.over or game.pending is None or game.pending.topic != topic
                    or table.row.status != PLAYING
                    or (actions_before is not None and len(table.actions) != actions_before)):
                return None
            return await self._act(table, None, Action("choose", text=game.pending.default))

    async def undo(self, game_id: int, user_id: int) -> HydraTable:
        """Take back the players' last action of their current turn (never the Hydra's answers)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            self._playing(table)
            self._seat(table, user_id)
            game = table.game
            if game is None or game.active != "players":
                raise HydraError("hydra.error.nothing_to_undo")
            refusal = game.undo_refusal()  # never un-reveal the Hydra's library
            if refusal is not None:
                raise HydraError(refusal)
            await self.repo.delete_last(game_id, table.actions[-1].seq)
            return await self._reload(game_id)

    async def concede(self, game_id: int, user_id: int) -> ActResult:
        table = await self.load(game_id)
        seat = self._seat(table, user_id)
        return await self.act(game_id, user_id, f"concede {seat.seat}")

    async def set_idle(self, game_id: int) -> None:
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status == PLAYING:
                await self.repo.update_game(game_id, status=IDLE)
                await self._reload(game_id)

    async def resume(self, game_id: int, user_id: int) -> HydraTable:
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != IDLE:
                raise HydraError("hydra.error.not_idle")
            self._seat(table, user_id)
            await self.repo.update_game(game_id, status=PLAYING)
            return await self._reload(game_id)

    async def set_messages(self, game_id: int, **ids: int | None) -> None:
        """Remember where the table's messages are (under the lock, keeping the cached game)."""
        async with self.lock(game_id):
            await self.repo.update_game(game_id, **ids)
            table = await self.load(game_id)
            row = await self.repo.game(game_id)
            assert row is not None
            table.row = row

    # -- queries ------------------------------------------------------------------------------------
    async def load(self, game_id: int) -> HydraTable:
        table = self._tables.get(game_id)
        if table is None:
            table = await self._reload(game_id)
        return table

    async def open_tables(self) -> list[HydraTable]:
        """Tables still in the lobby or playing (the cog re-arms their timers after a restart)."""
        rows = await self.repo.games_with_status((LOBBY, PLAYING))
        return [await self.load(row.game_id) for row in rows]

    async def table_in_channel(self, channel_id: int, statuses: Sequence[str]) -> HydraTable | None:
        row = await self.repo.latest_in_channel(channel_id, statuses)
        return None if row is None else await self.load(row.game_id)

    async def profile(self, user_id: int) -> HydraProfile:
        return await self.repo.profile(user_id)

    # -- internals ----------------------------------------------------------------------------------
    async def _reload(self, game_id: int) -> HydraTable:
        """Rebuild a table from storage: the game is its seed replayed with its actions. Every change
        but an action ends here after its write, so this tells live readers (a first load's notice is
        harmless: a notice only says "read again")."""
        row = await self.repo.game(game_id)
        if row is None:
            raise HydraError("hydra.error.no_table")
        seats = await self.repo.seats(game_id)
        actions = await self.repo.actions(game_id)
        game = None
        if row.status != LOBBY:
            setup = GameSetup(heads=row.heads, seed=row.seed, all_windows=bool(row.all_windows),
                              stable_ids=bool(row.stable_ids), rules=row.rules,
                              players=tuple(PlayerSetup(s.name, s.heroes) for s in seats))
            game = HydraGame(setup)
            for action in actions:
                game.apply(action.line)
        table = HydraTable(row, seats, actions, game)
        self._tables[game_id] = table
        self.changes.publish(hydra_game_topic(game_id))
        return table

    async def _store(self, table: HydraTable, line: str, user_id: int | None) -> None:
        game = table.game
        assert game is not None
        seq = (table.actions[-1].seq if table.actions else 0) + 1
        finish = None
        if game.over:
            finish = HydraFinish(outcome=game.outcome, turns=game.turn, heads_severed=game.heads_severed,
                                 starting_heads=table.row.heads)
        try:
            await self.repo.append(table.game_id, seq, line, user_id, finish)
        except IntegrityError:
            # Another process (sharing a PostgreSQL database) stored this seq first: the cached game was
            # stale. Nothing was written; the next action is judged on the table rebuilt from the log.
            self._tables.pop(table.game_id, None)
            raise HydraError("hydra.error.conflict") from None
        except BaseException:
            self._tables.pop(table.game_id, None)  # the cached game ran ahead of storage: rebuild it
            raise
        table.actions.append(HydraActionRow(seq, line, user_id, now_iso()))
        row = await self.repo.game(table.game_id)
        assert row is not None
        table.row = row
        self.changes.publish(hydra_game_topic(table.game_id))
        if finish is not None:
            self.notify("hydra_game_finished", HydraFinished(
                table.game_id, table.row.guild_id, finish.outcome, tuple(s.user_id for s in table.seats),
                finish.turns, finish.heads_severed))

    async def _lobby(self, game_id: int) -> HydraTable:
        table = await self.load(game_id)
        if table.row.status != LOBBY:
            raise HydraError("hydra.error.not_in_lobby")
        return table

    @staticmethod
    def _playing(table: HydraTable) -> HydraGame:
        if table.row.status == IDLE:
            raise HydraError("hydra.error.idle")
        if table.row.status == FINISHED or table.game is None or table.game.over:
            raise HydraError("hydra.error.not_playing")
        return table.game

    @staticmethod
    def _seat(table: HydraTable, user_id: int) -> HydraSeat:
        seat = table.seat_of(user_id)
        if seat is None:
            raise HydraError("hydra.error.not_a_challenger")
        return seat

    @staticmethod
    def _check_may(table: HydraTable, seat: HydraSeat, action: Action) -> None:
        """A question asked of one player is theirs to answer. One rule for a seat's fate: each player
        concedes and changes the life total of their own seat only (``life 1 -19`` on another's seat put
        them out of the game as surely as the ``concede 1`` that was already refused)."""
        if action.verb == "choose":
            owner = table.user_to_answer()
            if owner is not None and owner != seat.user_id:
                raise HydraError("hydra.error.not_your_choice")
        if action.verb == "concede" and action.numbers != (seat.seat,):
            raise HydraError("hydra.error.not_your_choice")
        if action.verb == "life" and action.numbers[:1] != (seat.seat,):
            raise HydraError("hydra.error.only_your_seat", seat=seat.seat)


__all__ = ["THE_SLAYER", "ActResult", "HydraFinished", "HydraService", "HydraTable"]
