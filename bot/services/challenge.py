"""Battle the Horde and Defeat a God tables as a service: load → engine step → store → result.

Like the Hydra's: a table's game is rebuilt by replaying its stored actions (restart-safe), every
change runs under a lock per table and is committed before the caller sees the new state, and only
seated players act (a question the deck asks one player is that player's to answer).

A replay is the costly part of a load, so the last game built for each table is kept with what it was
built from (its set-up, seats and action log): a load that reads the same from storage reuses it (an
event's leaderboard looks at every table every few seconds; a finished table is never replayed again),
and anything else — another process's action, an undo, a late seat — rebuilds it. When a table ends
the service says so at once (``notify("challenge_game_finished", ...)``, as the Hydra's does), so an
event need not wait for its next look to notice.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.domain.challenge.core import ChallengeError, Event
from bot.domain.challenge.creatures import CreatureDeckGame, Seat
from bot.domain.challenge.decks import RULES, check_heroes
from bot.domain.challenge.randomplay import DECKS
from bot.domain.hydra.cards import find_hero
from bot.storage.challenge import LOBBY, PLAYING, ChallengeRepository, ChallengeRow
from bot.storage.db import Database

DEFAULT_WINDOW_SECONDS = 20
Notify = Callable[[str, object], None]  # the bot's dispatch: (event name, payload)


@dataclass(frozen=True)
class ChallengeFinished:
    """Dispatched as ``challenge_game_finished`` when a Horde or God table ends (won, lost, conceded)."""

    game_id: int
    guild_id: int | None
    deck: str
    outcome: str
    user_ids: tuple[int, ...]
    turns: int
    defeated: int


_Built = tuple[object, ...]  # what a cached game was built from: set-up, seats, actions


@dataclass
class ChallengeTable:
    row: ChallengeRow
    seats: list[tuple[int, str]]  # (user_id, name)
    actions: list[tuple[str, int | None]]
    game: CreatureDeckGame | None
    heroes: dict[int, tuple[str, ...]] = field(default_factory=dict)  # user_id -> Hero cards

    def heroes_of(self, user_id: int) -> tuple[str, ...]:
        return self.heroes.get(user_id, ())

    @property
    def game_id(self) -> int:
        return self.row.game_id

    @property
    def user_ids(self) -> list[int]:
        """Who sits here, in seat order (the same on every deck's table)."""
        return [user_id for user_id, _ in self.seats]

    def seated(self, user_id: int) -> bool:
        return any(uid == user_id for uid, _ in self.seats)

    def user_to_answer(self) -> int | None:
        if self.game is None or self.game.pending is None or self.game.pending.player is None:
            return None
        return self.seats[self.game.pending.player][0]


class ChallengeService:
    def __init__(self, db: Database, *, notify: Notify | None = None) -> None:
        self.repo = ChallengeRepository(db)
        self.notify = notify or (lambda name, payload: None)
        self._locks: dict[int, asyncio.Lock] = {}
        self._games: dict[int, tuple[_Built, CreatureDeckGame]] = {}
        self.replays = 0  # games built to replay a log (the leaderboard's cost: tests count them)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def create(self, *, guild_id: int | None, channel_id: int, user_id: int, name: str, deck: str,
                     difficulty: int, language: str = "en", seed: int | None = None,
                     window_seconds: int = DEFAULT_WINDOW_SECONDS, all_windows: bool = False,
                     life_per_player: bool = False) -> ChallengeTable:
        """A new table in the lobby. ``life_per_player`` is the God's multiplayer house rule (the shared
        life total starts at 20 per player instead of the printed 20)."""
        if deck not in DECKS:
            raise ChallengeError("hydra.error.bad_option", option=deck, options=list(DECKS))
        # checks the difficulty and the house rule before anything is stored
        DECKS[deck]([Seat(name)], 0, difficulty, life_per_player=life_per_player)
        game_id = await self.repo.create(
            guild_id=guild_id, channel_id=channel_id, user_id=user_id, name=name, deck=deck, difficulty=difficulty,
            seed=secrets.randbelow(2**31) if seed is None else seed, language=language,
            window_seconds=window_seconds, all_windows=all_windows, life_per_player=life_per_player)
        return await self.load(game_id)

    async def join(self, game_id: int, user_id: int, name: str) -> ChallengeTable:
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != LOBBY:
                raise ChallengeError("hydra.error.not_in_lobby")
            limit = DECKS[table.row.deck].max_players
            if not await self.repo.add_seat(game_id, user_id, name, limit=limit):
                key = "hydra.error.already_seated" if table.seated(user_id) else "hydra.error.table_full"
                raise ChallengeError(key, max=limit)
            return await self.load(game_id)

    async def set_heroes(self, game_id: int, user_id: int, names: Sequence[str]) -> ChallengeTable:
        """A seated player's Hero cards, chosen in the lobby: up to three, each different, against the
        Horde and the God (Hero's Path FAQ); names are matched as typed (case, spaces)."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != LOBBY:
                raise ChallengeError("hydra.error.not_in_lobby")
            self._seated(table, user_id)
            heroes = []
            for name in names:
                hero = find_hero(name)
                if hero is None:
                    raise ChallengeError("hydra.error.unknown_hero", hero=name)
                heroes.append(hero.name)
            check_heroes(RULES[table.row.deck], heroes)
            await self.repo.set_heroes(game_id, user_id, heroes)
            return await self.load(game_id)

    async def start(self, game_id: int, user_id: int) -> ChallengeTable:
        async with self.lock(game_id):
            table = await self.load(game_id)
            if table.row.status != LOBBY:
                raise ChallengeError("hydra.error.not_in_lobby")
            self._seated(table, user_id)
            await self.repo.set(game_id, status=PLAYING)
            return await self.load(game_id)

    async def seat_late(self, game_id: int, players: Sequence[tuple[int, str]], *,
                        limit: int) -> ChallengeTable | None:
        """Seat players at a game still in the players' first turn (an event's late players), at most
        ``limit`` seats and never more than the deck seats. Seats are part of the game's set-up (the
        God's Throngs), so the game is replayed with the newcomers and must take the same actions.
        None when the table has moved on or is full: nothing was changed."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            game, seats = table.game, [*table.seats, *players]
            if table.row.status != PLAYING or game is None or not game.in_players_first_turn \
                    or len(seats) > min(limit, DECKS[table.row.deck].max_players):
                return None
            trial = self.new_game(table.row, seats, table.heroes)
            try:
                for line, _ in table.actions:
                    trial.apply(line)
            except ChallengeError:
                return None
            for user_id, name in players:
                await self.repo.add_seat(game_id, user_id, name, limit=len(seats))
            return await self.load(game_id)

    async def act(self, game_id: int, user_id: int | None, line: str) -> tuple[ChallengeTable, list[Event]]:
        """Apply one players' action; ``user_id`` None is the bot answering a timed-out question."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            return await self._act(table, user_id, line)

    async def _act(self, table: ChallengeTable, user_id: int | None, line: str) -> tuple[ChallengeTable, list[Event]]:
        game = table.game
        if table.row.status != PLAYING or game is None or game.over:
            raise ChallengeError("hydra.error.not_playing")
        if user_id is not None:
            self._seated(table, user_id)
            owner = table.user_to_answer()
            if line.split()[0].lower() == "choose" and owner is not None and owner != user_id:
                raise ChallengeError("hydra.error.not_your_choice")
        self._games.pop(table.game_id, None)  # the game moves ahead of storage until the action is stored
        events = game.apply(line)
        stored = (game.actions[-1], user_id)
        await self.repo.append(table.game_id, len(table.actions) + 1, stored[0], user_id,
                               game.outcome if game.over else None)
        self._games[table.game_id] = (self._built(table.row, table.seats, table.heroes, [*table.actions, stored]),
                                      game)
        loaded = await self.load(table.game_id)
        if game.over:
            self.notify("challenge_game_finished", ChallengeFinished(
                table.game_id, table.row.guild_id, table.row.deck, game.outcome, tuple(loaded.user_ids), game.turn,
                game.defeated))
        return loaded, events

    async def answer_default(self, game_id: int, topic: str, actions_before: int) -> ChallengeTable | None:
        """A question timed out: answer it with its default unless it was answered meanwhile."""
        async with self.lock(game_id):
            table = await self.load(game_id)
            game = table.game
            if (game is None or game.over or game.pending is None or game.pending.topic != topic
                    or len(table.actions) != actions_before):
                return None
            table, _ = await self._act(table, None, f"choose {game.pending.default}")
            return table

    async def undo(self, game_id: int, user_id: int) -> ChallengeTable:
        async with self.lock(game_id):
            table = await self.load(game_id)
            self._seated(table, user_id)
            if table.game is None or table.game.active != "players":
                raise ChallengeError("hydra.error.nothing_to_undo")
            refusal = table.game.undo_refusal()
            if refusal is not None:
                raise ChallengeError(refusal)
            await self.repo.delete_last(game_id, len(table.actions))
            return await self.load(game_id)

    async def load(self, game_id: int) -> ChallengeTable:
        row = await self.repo.game(game_id)
        if row is None:
            raise ChallengeError("hydra.error.no_table")
        seats = await self.repo.seats(game_id)
        heroes = await self.repo.heroes(game_id)
        actions = await self.repo.actions(game_id)
        return ChallengeTable(row, seats, actions, self._game(row, seats, heroes, actions), heroes)

    def _game(self, row: ChallengeRow, seats: Sequence[tuple[int, str]], heroes: dict[int, tuple[str, ...]],
              actions: Sequence[tuple[str, int | None]]) -> CreatureDeckGame | None:
        """The table's game: the one kept for it when it was built from the same set-up, seats and log,
        else its seed replayed with its actions (and kept)."""
        if row.status == LOBBY:
            return None
        built = self._built(row, seats, heroes, actions)
        kept = self._games.get(row.game_id)
        if kept is not None and kept[0] == built:
            return kept[1]
        game = self.new_game(row, seats, heroes)
        for line, _ in actions:
            game.apply(line)
        self._games[row.game_id] = (built, game)
        return game

    def new_game(self, row: ChallengeRow, seats: Sequence[tuple[int, str]],
                 heroes: dict[int, tuple[str, ...]] | None = None) -> CreatureDeckGame:
        """The table's game before any action (its deck, seed, difficulty, rules and seats with their Hero
        cards), to replay its log on: for a load, a late seat's trial, an event's score tally. Counted in
        ``replays``."""
        self.replays += 1
        chosen = heroes or {}
        return DECKS[row.deck]([Seat(name, chosen.get(user_id, ())) for user_id, name in seats], row.seed,
                               row.difficulty, all_windows=bool(row.all_windows), stable_ids=bool(row.stable_ids),
                               life_per_player=bool(row.life_per_player), rules=row.rules)

    @staticmethod
    def _built(row: ChallengeRow, seats: Sequence[tuple[int, str]], heroes: dict[int, tuple[str, ...]],
               actions: Sequence[tuple[str, int | None]]) -> _Built:
        return (row.deck, row.seed, row.difficulty, row.all_windows, row.stable_ids, row.rules, row.life_per_player,
                tuple(seats), tuple(sorted(heroes.items())), tuple(actions))

    async def open_tables(self) -> list[ChallengeTable]:
        return [await self.load(row.game_id) for row in await self.repo.open_games()]

    async def set_message(self, game_id: int, message_id: int, *, channel_id: int | None = None) -> None:
        """Where the table's message is (an event's table moves to its thread)."""
        if channel_id is None:
            await self.repo.set(game_id, message_id=message_id)
        else:
            await self.repo.set(game_id, message_id=message_id, channel_id=channel_id)

    @staticmethod
    def _seated(table: ChallengeTable, user_id: int) -> None:
        if not table.seated(user_id):
            raise ChallengeError("hydra.error.not_a_challenger")
