"""Challenge tables as a service, for every deck: load → engine step → store → result.

One service plays the Hydra, the Horde and the God; what differs between them is data — the deck's
:class:`~bot.domain.challenge.decks.DeckRules` (how many players and Hero cards, the difficulty range,
shared or per-player life) — and which kind of table it is (:class:`TableKind`: the Hydra's keep its
players' profiles too). A table's game is rebuilt by replaying its
stored actions (restart-safe), every change runs under a lock per table and is committed before the
caller sees the new state (and so before any Discord message is edited), and only seated players act:
a question the deck asks one player is that player's to answer, and where each player has a life total
of their own, each concedes and changes the life of their own seat only.

A replay is the costly part of a load, so the last game built for each table is kept with what it was
built from (its set-up, seats and action log): a load that reads the same from storage reuses it (an
event's leaderboard looks at every table every few seconds; a finished table is never replayed again),
and anything else — another process's action, an undo, a late seat — rebuilds it. When a table ends
the service says so at once (``notify(kind.finished_event, TableFinished(...))``), and every write is
announced on the change hub (the live web pages).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from bot.domain.challenge.core import ChallengeError, Event
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.decks import RULES, DeckRules, check_heroes
from bot.domain.challenge.games import ChallengeGame, new_game
from bot.domain.hydra.actions import Action, parse_action
from bot.domain.hydra.cards import find_hero
from bot.storage.challenge import (
    DECK_KIND,
    FINISHED,
    HYDRA_KIND,
    IDLE,
    KIND_OF_DECK,
    LOBBY,
    PLAYING,
    ActionRow,
    ChallengeRepository,
    Finish,
    SeatError,
    SeatRow,
)
from bot.storage.db import Database, IntegrityError
from bot.storage.hydra import HydraRepository

DEFAULT_WINDOW_SECONDS = 20  # counter / prevent windows; a question to the players waits 3x longer
DEFAULT_IDLE_MINUTES = 30
MAX_OPEN_TABLES_PER_MEMBER = 5  # unfinished tables one member may have opened in a server (one opened 200)
Notify = Callable[[str, Any], None]  # the bot's dispatch: (event name, payload)


@dataclass(frozen=True)
class TableKind:
    """Which service keeps a deck's tables and how a table's end is announced: its repository (the
    Hydra's also keeps its players' profiles) and the event dispatched when one ends. Every deck's
    tables are in the same SQL tables; ``name`` is the kind stored with each, which tells two tables of
    an id given out before one counter numbered them all (``hydra:`` and ``chal:`` custom_ids)."""

    name: str
    repository: type[ChallengeRepository]

    @property
    def finished_event(self) -> str:
        """``hydra_game_finished`` or ``challenge_game_finished``: the listeners the event cog has."""
        return f"{self.name}_game_finished"


HYDRA_TABLES = TableKind(HYDRA_KIND, HydraRepository)
DECK_TABLES = TableKind(DECK_KIND, ChallengeRepository)
TABLE_KINDS: Mapping[str, TableKind] = MappingProxyType(
    {deck: HYDRA_TABLES if kind == HYDRA_KIND else DECK_TABLES for deck, kind in KIND_OF_DECK.items()}
)


def table_topic(game_id: int) -> str:
    """The change-hub topic of one table, of every deck (see bot.changes). Ids given out before one
    counter numbered every deck may name two tables: a notice only says "read again", so a page showing
    one of them reads it once more for nothing."""
    return f"challenge_table:{game_id}"


hydra_game_topic = table_topic  # the Hydra's callers' name for it


@dataclass
class ChallengeTable:
    """A table as the cogs see it: where it lives, who sits at it, its log, and the game (None in the
    lobby). ``row`` is the table family's row; every family's has ``deck`` and ``difficulty``."""

    row: Any
    seats: list[SeatRow]
    actions: list[ActionRow]
    game: Any  # the deck's game (ChallengeGame), None in the lobby

    @property
    def game_id(self) -> int:
        return int(self.row.game_id)

    @property
    def rules(self) -> DeckRules:
        return RULES[self.row.deck]

    @property
    def user_ids(self) -> list[int]:
        """Who sits here, in seat order."""
        return [seat.user_id for seat in self.seats]

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def seated(self, user_id: int) -> bool:
        return self.seat_of(user_id) is not None

    def heroes_of(self, user_id: int) -> tuple[str, ...]:
        seat = self.seat_of(user_id)
        return () if seat is None else seat.heroes

    def user_to_answer(self) -> int | None:
        """The user who must answer the pending question, or None when any challenger may."""
        if self.game is None or self.game.pending is None or self.game.pending.player is None:
            return None
        return self.seats[self.game.pending.player].user_id


@dataclass
class ActResult:
    table: ChallengeTable
    events: list[Event]
    deck_turn_started: bool  # the players ended their turn and the deck's began: a new turn message
    # (an extra turn is shown in the same message; a win at the end of the players' turn opens none)
    finished: bool

    @property
    def hydra_turn_started(self) -> bool:
        """The Hydra cog's name for it."""
        return self.deck_turn_started


@dataclass(frozen=True)
class TableFinished:
    """Dispatched when a table ends (won, lost, conceded), for events and profiles."""

    game_id: int
    guild_id: int | None
    deck: str
    outcome: str
    user_ids: tuple[int, ...]
    turns: int
    defeated: int  # heads severed / the deck's permanents defeated

    @property
    def heads_severed(self) -> int:
        return self.defeated


_Built = tuple[object, ...]  # what a cached game was built from: set-up, seats, actions


class ChallengeService:
    """Every challenge deck's tables of one :class:`TableKind` (the Horde's and the God's by default)."""

    kind: TableKind = DECK_TABLES

    def __init__(self, db: Database, *, notify: Notify | None = None) -> None:
        self.repo = self.kind.repository(db)
        self.notify = notify or (lambda name, payload: None)
        self.changes = db.changes
        self._locks: dict[int, asyncio.Lock] = {}
        self._games: dict[int, tuple[_Built, ChallengeGame]] = {}
        self.replays = 0  # games built to replay a log (the leaderboard's cost: tests count them)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # -- the lobby ----------------------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        name: str,
        deck: str,
        difficulty: int,
        language: str = "en",
        seed: int | None = None,
        window_seconds: int = DEFAULT_WINDOW_SECONDS,
        all_windows: bool = False,
        capped: bool = False,
        **options: object,
    ) -> ChallengeTable:
        """A new table in the lobby; the difficulty (and the God's ``life_per_player`` house rule) is
        checked before anything is stored. ``capped``: a member opening one themselves may have at most
        ``MAX_OPEN_TABLES_PER_MEMBER`` unfinished (an event's tables are not counted against anyone).
        ``options`` are the table family's own set-up (the Hydra's ``idle_minutes``)."""
        new_game(deck, [Seat(name)], 0, difficulty, life_per_player=bool(options.get("life_per_player")))
        if (
            capped
            and await self.repo.unfinished_tables_opened_by(guild_id, user_id) >= MAX_OPEN_TABLES_PER_MEMBER
        ):
            raise ChallengeError("hydra.error.too_many_tables", limit=MAX_OPEN_TABLES_PER_MEMBER)
        game_id = await self.repo.create(
            guild_id=guild_id,
            channel_id=channel_id,
            created_by=user_id,
            creator_name=name,
            deck=deck,
            difficulty=difficulty,
            seed=secrets.randbelow(2**31) if seed is None else seed,
            language=language,
            window_seconds=window_seconds,
            all_windows=all_windows,
            **options,
        )
        return await self.load(game_id)

    async def join(self, game_id: int, user_id: int, name: str) -> ChallengeTable:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            limit = table.rules.max_players
            try:
                await self.repo.add_seat(game_id, user_id, name, limit=limit)
            except SeatError:
                key = "hydra.error.already_seated" if table.seated(user_id) else "hydra.error.table_full"
                raise ChallengeError(key, max=limit) from None
            return await self._changed(game_id)

    async def leave(self, game_id: int, user_id: int) -> ChallengeTable:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._seat(table, user_id)
            await self.repo.remove_seat(game_id, user_id)
            return await self._changed(game_id)

    async def set_heroes(self, game_id: int, user_id: int, names: Sequence[str]) -> ChallengeTable:
        """A seated player's Hero cards, chosen in the lobby, as many as the deck allows (two against the
        Hydra, the same one twice if they like; three different ones against the Horde and the God);
        names are matched as typed (case, spaces)."""
        heroes = []
        for name in names:
            hero = find_hero(name)
            if hero is None:
                raise ChallengeError("hydra.error.unknown_hero", hero=name)
            heroes.append(hero.name)
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._seat(table, user_id)
            check_heroes(table.rules, heroes)
            await self.repo.set_heroes(game_id, user_id, heroes)
            return await self._changed(game_id)

    async def start(self, game_id: int, user_id: int) -> ChallengeTable:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            self._seat(table, user_id)
            await self.repo.update_game(game_id, status=PLAYING)
            return await self._changed(game_id)

    async def seat_late(
        self, game_id: int, players: Sequence[tuple[int, str]], *, limit: int | None = None
    ) -> ChallengeTable | None:
        """Seat players at a game still in the players' first turn (an event's late players), at most
        ``limit`` seats and never more than the deck seats. Seats are part of the game's set-up (life
        totals, the God's Throngs), so the game is replayed with the newcomers and must take the same
        actions. None when the table has moved on or is full: nothing was changed."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            game, seats = table.game, [*table.seats, *(SeatRow(0, uid, name, ()) for uid, name in players)]
            most = table.rules.max_players if limit is None else min(limit, table.rules.max_players)
            if (
                table.row.status not in (PLAYING, IDLE)
                or game is None
                or not game.in_players_first_turn
                or len(seats) > most
            ):
                return None
            trial = self.new_game(table.row, seats)
            try:
                for action in table.actions:
                    trial.apply(action.line)
            except ChallengeError:
                return None
            for user_id, name in players:
                await self.repo.add_seat(game_id, user_id, name, limit=len(seats))
            return await self._changed(game_id)

    # -- playing ------------------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int | None, line: str) -> ActResult:
        """Apply one player action (a script-language line). ``user_id`` None is the bot itself
        answering a timed-out question with its default (or conceding for a no-show)."""
        action = parse_action(line)
        async with self.lock(game_id):
            return await self._act(await self.load(game_id), user_id, action)

    async def _act(self, table: ChallengeTable, user_id: int | None, action: Action) -> ActResult:
        game = self._playing(table)
        if user_id is not None:
            self._check_may(table, self._seat(table, user_id), action)
        self._games.pop(table.game_id, None)  # the game moves ahead of storage until the action is stored
        events = game.apply(action)
        await self._store(table, game.actions[-1], user_id)
        started = action.verb == "end" and any(e.key == table.rules.turn_event for e in events)
        return ActResult(table, events, started, game.over)

    async def answer_default(
        self, game_id: int, topic: str, actions_before: int | None = None
    ) -> ActResult | None:
        """A response window or question timed out: answer it with its documented default — unless it
        was answered meanwhile. Checked under the table's lock: ``topic`` is the question that timed out
        and ``actions_before`` the length of the log when its timer started."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            game = table.game
            if (
                game is None
                or game.over
                or game.pending is None
                or game.pending.topic != topic
                or table.row.status != PLAYING
                or (actions_before is not None and len(table.actions) != actions_before)
            ):
                return None
            return await self._act(table, None, Action("choose", text=game.pending.default))

    async def undo(self, game_id: int, user_id: int) -> ChallengeTable:
        """Take back the players' last action of their current turn (never the deck's answers, never
        what revealed its library)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            game = self._playing(table)
            self._seat(table, user_id)
            if game.active != "players" or not table.actions:
                raise ChallengeError("hydra.error.nothing_to_undo")
            refusal = game.undo_refusal()
            if refusal is not None:
                raise ChallengeError(refusal)
            await self.repo.delete_last(game_id, table.actions[-1].seq)
            return await self._changed(game_id)

    async def concede(self, game_id: int, user_id: int) -> ActResult:
        """The member gives up: their own seat where each player has a life total, else the table."""
        table = await self.load(game_id)
        seat = self._seat(table, user_id)
        return await self.act(
            game_id, user_id, "concede" if table.rules.shared_life else f"concede {seat.seat}"
        )

    async def set_idle(self, game_id: int) -> None:
        """Pause a table nobody has played at for a while (its timers stop until someone resumes it)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status == PLAYING:
                await self.repo.update_game(game_id, status=IDLE)
                await self._changed(game_id)

    async def resume(self, game_id: int, user_id: int) -> ChallengeTable:
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != IDLE:
                raise ChallengeError("hydra.error.not_idle")
            self._seat(table, user_id)
            await self.repo.update_game(game_id, status=PLAYING)
            return await self._changed(game_id)

    async def set_messages(self, game_id: int, **ids: int | None) -> None:
        """Remember where the table's messages are (an event's table moves to its thread)."""
        async with self.lock(game_id):
            await self.repo.update_game(game_id, **ids)

    async def set_message(self, game_id: int, message_id: int, *, channel_id: int | None = None) -> None:
        """Where the table's one message is (the Horde's and the God's callers' name)."""
        ids: dict[str, int | None] = {"message_id": message_id}
        if channel_id is not None:
            ids["channel_id"] = channel_id
        await self.set_messages(game_id, **ids)

    # -- queries ------------------------------------------------------------------------------------
    async def load(self, game_id: int) -> ChallengeTable:
        row: Any = await self.repo.game(game_id)
        if row is None:
            raise ChallengeError("hydra.error.no_table")
        seats = await self.repo.seats(game_id)
        actions = await self.repo.actions(game_id)
        return ChallengeTable(row, seats, actions, self._game(row, seats, actions))

    async def open_tables(self) -> list[ChallengeTable]:
        """Tables still in the lobby or playing (the cogs re-arm their timers after a restart)."""
        return [await self.load(row.game_id) for row in await self.repo.open_games()]  # type: ignore[attr-defined]

    async def table_in_channel(self, channel_id: int, statuses: Sequence[str]) -> ChallengeTable | None:
        row: Any = await self.repo.latest_in_channel(channel_id, statuses)
        return None if row is None else await self.load(row.game_id)

    def new_game(self, row: Any, seats: Sequence[SeatRow]) -> ChallengeGame:
        """The table's game before any action (its deck, seed, difficulty, rules and seats with their Hero
        cards), to replay its log on: for a load, a late seat's trial, an event's score tally. Counted in
        ``replays``."""
        self.replays += 1
        return new_game(
            row.deck,
            [Seat(seat.name, seat.heroes) for seat in seats],
            row.seed,
            row.difficulty,
            all_windows=bool(row.all_windows),
            stable_ids=bool(row.stable_ids),
            rules=row.rules,
            life_per_player=bool(row.life_per_player),
        )

    # -- internals ----------------------------------------------------------------------------------
    def _game(self, row: Any, seats: Sequence[SeatRow], actions: Sequence[ActionRow]) -> ChallengeGame | None:
        """The table's game: the one kept for it when it was built from the same set-up, seats and log,
        else its seed replayed with its actions (and kept)."""
        if row.status == LOBBY:
            return None
        built = self._built(row, seats, actions)
        kept = self._games.get(row.game_id)
        if kept is not None and kept[0] == built:
            return kept[1]
        game = self.new_game(row, seats)
        for action in actions:
            game.apply(action.line)
        self._games[row.game_id] = (built, game)
        return game

    @staticmethod
    def _built(row: Any, seats: Sequence[SeatRow], actions: Sequence[ActionRow]) -> _Built:
        return (
            row.deck,
            row.seed,
            row.difficulty,
            row.all_windows,
            row.stable_ids,
            row.rules,
            row.life_per_player,
            tuple((seat.user_id, seat.name, seat.heroes) for seat in seats),
            tuple((action.seq, action.line) for action in actions),
        )

    async def _changed(self, game_id: int) -> ChallengeTable:
        """The table read again after a write, announced to live readers (a notice only says "read
        again")."""
        table = await self.load(game_id)
        self.changes.publish(table_topic(game_id))
        return table

    async def _store(self, table: ChallengeTable, line: str, user_id: int | None) -> None:
        game = table.game
        seq = (table.actions[-1].seq if table.actions else 0) + 1
        finish = Finish(game.outcome, game.turn, game.defeated, table.row.difficulty) if game.over else None
        try:
            await self.repo.append(table.game_id, seq, line, user_id, finish)
        except IntegrityError:
            # Another process (sharing a PostgreSQL database) stored this seq first: the game was judged on
            # a stale log. Nothing was written; the next action is judged on the table rebuilt from the log.
            raise ChallengeError("hydra.error.conflict") from None
        table.actions.append(ActionRow(seq, line, user_id, self.repo.db.now_iso()))
        self._games[table.game_id] = (self._built(table.row, table.seats, table.actions), game)
        table.row = await self.repo.game(table.game_id)
        self.changes.publish(table_topic(table.game_id))
        if finish is not None:
            self.notify(
                self.kind.finished_event,
                TableFinished(
                    table.game_id,
                    table.row.guild_id,
                    table.row.deck,
                    finish.outcome,
                    tuple(table.user_ids),
                    finish.turns,
                    finish.defeated,
                ),
            )

    async def _lobby(self, game_id: int) -> ChallengeTable:
        table = await self.load(game_id)
        if table.row.status != LOBBY:
            raise ChallengeError("hydra.error.not_in_lobby")
        return table

    @staticmethod
    def _playing(table: ChallengeTable) -> Any:
        if table.row.status == IDLE:
            raise ChallengeError("hydra.error.idle")
        if table.row.status == FINISHED or table.game is None or table.game.over:
            raise ChallengeError("hydra.error.not_playing")
        return table.game

    @staticmethod
    def _seat(table: ChallengeTable, user_id: int) -> SeatRow:
        seat = table.seat_of(user_id)
        if seat is None:
            raise ChallengeError("hydra.error.not_a_challenger")
        return seat

    @staticmethod
    def _check_may(table: ChallengeTable, seat: SeatRow, action: Action) -> None:
        """A question asked of one player is theirs to answer. Where each player has a life total, one
        rule for a seat's fate: each player concedes and changes the life total of their own seat only
        (``life 1 -19`` on another's seat put them out of the game as surely as ``concede 1``)."""
        if action.verb == "choose":
            owner = table.user_to_answer()
            if owner is not None and owner != seat.user_id:
                raise ChallengeError("hydra.error.not_your_choice")
        if table.rules.shared_life:
            return
        if action.verb == "concede" and action.numbers != (seat.seat,):
            raise ChallengeError("hydra.error.not_your_choice")
        if action.verb == "life" and action.numbers[:1] != (seat.seat,):
            raise ChallengeError("hydra.error.only_your_seat", seat=seat.seat)


# The Horde's and the God's callers' names for the one table type and finish record.
ChallengeFinished = TableFinished

__all__ = [
    "DECK_TABLES",
    "HYDRA_TABLES",
    "TABLE_KINDS",
    "ActResult",
    "ChallengeFinished",
    "ChallengeService",
    "ChallengeTable",
    "TableFinished",
    "TableKind",
    "hydra_game_topic",
    "table_topic",
]
