"""Pod games as a service: load → domain step → store → result, one game at a time.

Concurrency (ARCHITECTURE.md "Concurrency"): every change of a game runs under an asyncio lock keyed by
the game id, so two players pressing at the same moment are applied one after the other and neither is
lost. The event is committed before the caller sees the new state (and so before any Discord message
is edited). The lock and the in-memory cache assume ONE bot process (``bot.storage.db.ProcessLock`` makes a
second bot on the same database refuse to start); should another writer still append to a game, the
(game_id, seq) primary key rejects the stale write and the change is checked again on the fresh log
(:meth:`PodService._commit_fresh`), so it is applied once or refused, never twice at one seq.

A restart loses nothing: the cache is rebuilt by folding the stored events.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.domain import pod
from bot.domain.pod import Event, PodError, PodGameRecord, PodState
from bot.storage.db import Database, IntegrityError, now_iso
from bot.storage.pods import GameFinish, PodGameRow, PodRepository, game_scope
from bot.text import member_name

Notify = Callable[[str, Any], None]

# Changes a player makes for themselves only (a vote, a concession, joining); a manager may still
# concede for someone who left the table, but nobody votes for somebody else.
_SELF_ONLY = {pod.DRAW_VOTE, pod.JOIN, pod.BRACKET}
# Open games one member may have started in a server (tournament rounds are not counted): a table
# plays one game at a time, and one member once opened 200.
MAX_OPEN_GAMES_PER_MEMBER = 10


def pod_topic(game_id: int) -> str:
    """The change-hub topic of one pod game (see bot.changes)."""
    return f"pod:{game_id}"


@dataclass
class LoadedGame:
    row: PodGameRow
    events: list[Event]
    state: PodState
    record: PodGameRecord | None = field(default=None)

    @property
    def game_id(self) -> int:
        return self.row.game_id


class PodService:
    """Starts games, applies changes, and tells listeners when a game finishes.

    ``notify(event_name, payload)`` is ``bot.dispatch`` in the bot (``"pod_game_finished"`` with a
    :class:`PodGameRecord`); services never import Discord.
    """

    def __init__(
        self,
        db: Database,
        *,
        notify: Notify | None = None,
        clock: Callable[[], str] = now_iso,
        rng: random.Random | None = None,
    ) -> None:
        self.repo = PodRepository(db)
        self.changes = db.changes
        self.notify = notify or (lambda name, payload: None)
        self.clock = clock
        self.rng = rng or secrets.SystemRandom()
        self._locks: dict[int, asyncio.Lock] = {}
        self._games: dict[int, LoadedGame] = {}
        self._unposted: set[int] = set()  # games started here whose caller has not posted the board yet
        self._starting = 0  # starts between storing the game and adding it to ``_unposted``
        self._started = asyncio.Event()  # set while ``_starting`` is 0
        self._started.set()

    def forget_all(self) -> None:
        """Drop the cached games (after ids in stored events were rewritten, e.g. ``/privacy delete``);
        the next read refolds each game from the database."""
        self._games.clear()

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # -- starting ---------------------------------------------------------------------------------

    async def start_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        created_by: int | None,
        players: Sequence[tuple[int, str]],
        ruleset: str,
        starting_life: int | None = None,
        own_totals_only: bool = False,
        tournament_id: int | None = None,
        round_number: int | None = None,
        mulligan_style: str | None = None,
        match: dict[str, Any] | None = None,
    ) -> LoadedGame:
        """Create a game (optionally linked to a tournament round) with its first players in seat order.

        ``players`` are (user id, display name); ``mulligan_style`` overrides the ruleset's (e.g.
        "vancouver" for groups that use it). Raises PodError for an unknown ruleset, a bad life
        total, or a repeated or excess player; nothing is stored then."""
        data = {
            "ruleset": ruleset,
            "starting_life": pod.STARTING_LIFE if starting_life is None else starting_life,
            "own_totals_only": own_totals_only,
            "mulligan_style": mulligan_style,
            "players": [{"user_id": int(u), "name": member_name(str(n), int(u))} for u, n in players],
        }
        if match is not None:  # a game of a best-of-three match (bot/services/matches.py)
            data["match"] = match
        first = Event(seq=1, kind=pod.CREATE, actor=created_by, at=self.clock(), data=data)
        state = pod.apply(None, first)  # validate before storing anything
        pod.check_new_game(state)
        if (
            created_by is not None
            and tournament_id is None
            and await self.repo.open_games_started_by(guild_id, created_by) >= MAX_OPEN_GAMES_PER_MEMBER
        ):
            raise PodError("too_many_open_games", limit=MAX_OPEN_GAMES_PER_MEMBER)
        self._starting += 1  # from the commit to ``_unposted`` a catch-up could see the game unclaimed
        self._started.clear()
        try:
            game_id = await self.repo.create(
                guild_id=guild_id,
                channel_id=channel_id,
                ruleset=ruleset,
                first_event=first,
                tournament_id=tournament_id,
                round_number=round_number,
            )
            self._unposted.add(game_id)
        finally:
            self._starting -= 1
            if not self._starting:
                self._started.set()
        row = await self.repo.game(game_id)
        assert row is not None
        loaded = LoadedGame(row=row, events=[first], state=state)
        self._games[game_id] = loaded
        self.changes.publish(pod_topic(game_id))
        return loaded

    # -- reading ----------------------------------------------------------------------------------

    async def get(self, game_id: int) -> LoadedGame:
        """The game, from the cache or folded from its stored events."""
        cached = self._games.get(game_id)
        if cached is not None:
            return cached
        async with self.lock(game_id):
            return await self._load(game_id)

    async def _load(self, game_id: int) -> LoadedGame:
        cached = self._games.get(game_id)
        if cached is not None:
            return cached
        row = await self.repo.game(game_id)
        if row is None:
            raise PodError("no_game")
        events = await self.repo.events(game_id)
        state = pod.replay(events)
        loaded = LoadedGame(row=row, events=events, state=state, record=self._record(row, state))
        self._games[game_id] = loaded
        return loaded

    def forget(self, game_id: int) -> None:
        """Drop a cached game so the next read refolds it from the database (its row changed elsewhere)."""
        self._games.pop(game_id, None)

    async def recent(self, guild_id: int, limit: int = 10) -> list[PodGameRow]:
        return await self.repo.recent(guild_id, limit)

    async def open_in_channel(self, channel_id: int) -> list[PodGameRow]:
        return await self.repo.open_in_channel(channel_id)

    async def posting_here(self, game_id: int) -> bool:
        """Whether this process started the game and its caller is still posting the first board (the
        catch-up after a start must not post it too: a ``/pod start`` landing during it got two boards).
        Waits for starts in flight: a game just stored may not be marked yet."""
        await self._started.wait()
        return game_id in self._unposted

    async def set_message(self, game_id: int, channel_id: int, message_id: int) -> None:
        async with self.lock(game_id):
            await self.repo.set_message(game_id, channel_id, message_id)
            self._unposted.discard(game_id)
            loaded = await self._load(game_id)
            refreshed = await self.repo.game(game_id)
            assert refreshed is not None
            loaded.row = refreshed

    async def mark_shown(self, game_id: int, seq: int) -> None:
        """The game's board was posted or edited showing its log up to ``seq``."""
        await self.repo.set_shown(game_id, seq)

    async def lagging_boards(self) -> list[int]:
        return await self.repo.lagging_boards()

    # -- changing ---------------------------------------------------------------------------------

    async def change(
        self,
        game_id: int,
        actor: int,
        kind: str,
        *,
        manager: bool = False,
        guard: Callable[[LoadedGame], None] | None = None,
        press_id: int | None = None,
        **data: Any,
    ) -> LoadedGame:
        """Apply one change by ``actor`` and commit it; raises PodError (nothing changed) when refused.

        ``guard`` re-checks, under the game's lock and on its current log, what a caller judged before
        taking the lock (a sideboard window, the swaps so far): it raises to refuse the change.
        ``press_id`` is the board press it comes from, stored with it (see bot/storage/press_journal.py)."""

        def build(loaded: LoadedGame) -> Event:
            event = Event(seq=loaded.events[-1].seq + 1, kind=kind, actor=actor, at=self.clock(), data=data)
            self._check_permission(loaded, actor, event, manager)
            if guard is not None:
                guard(loaded)
            return event

        return await self._commit_fresh(game_id, build, press_id)

    async def stored_presses(self, press_ids: Sequence[int]) -> set[int]:
        return await self.repo.stored_presses(press_ids)

    async def forget_presses_before(self, before: str) -> None:
        await self.repo.forget_presses_before(before)

    async def undo(self, game_id: int, actor: int, steps: int = 1, *, manager: bool = False) -> LoadedGame:
        """Drop the last ``steps`` changes. With "own totals only" a player undoes only their own
        changes: the undo is refused when one of the changes it would drop was somebody else's."""

        def build(loaded: LoadedGame) -> Event:
            pod.check_may_change(loaded.state, actor, None, manager=manager)
            seqs = pod.undoable(loaded.events, steps)
            if loaded.state.own_totals_only and not manager:
                by_seq = {e.seq: e for e in loaded.events}
                if any(by_seq[s].actor != actor for s in seqs):
                    raise PodError("undo_not_yours")
            return Event(
                seq=loaded.events[-1].seq + 1,
                kind=pod.UNDO,
                actor=actor,
                at=self.clock(),
                data={"seqs": seqs},
            )

        return await self._commit_fresh(game_id, build)

    async def shuffle_seats(self, game_id: int, actor: int, *, manager: bool = False) -> LoadedGame:
        """A random seat order before turn 1 (``secrets.SystemRandom`` unless a test seeds one)."""

        def build(loaded: LoadedGame) -> Event:
            pod.check_may_change(loaded.state, actor, None, manager=manager)
            pod.check_seats_may_change(loaded.state)
            order = [p.user_id for p in loaded.state.players]
            self.rng.shuffle(order)
            return Event(
                seq=loaded.events[-1].seq + 1,
                kind=pod.SEATS,
                actor=actor,
                at=self.clock(),
                data={"order": order},
            )

        return await self._commit_fresh(game_id, build)

    async def _commit_fresh(
        self, game_id: int, build: Callable[[LoadedGame], Event], press_id: int | None = None
    ) -> LoadedGame:
        """Build (and check) the event on the game's current log and commit it.

        The first try builds on the cached log, without waiting for anything. If another process took
        that seq meanwhile, the cache was stale: the retry reads the log again and commits inside one
        transaction of the game's scope, so no other writer of this game can come between (writers of
        other games still go on), and the change is judged on what really happened."""
        async with self.lock(game_id):
            try:
                return await self._build_and_commit(game_id, build, press_id)
            except IntegrityError:
                self._games.pop(game_id, None)
            try:
                async with self.repo.db.transaction(game_scope(game_id)):
                    return await self._build_and_commit(game_id, build, press_id)
            except IntegrityError:
                self._games.pop(game_id, None)
                raise PodError("conflict") from None

    async def _build_and_commit(
        self, game_id: int, build: Callable[[LoadedGame], Event], press_id: int | None = None
    ) -> LoadedGame:
        loaded = await self._load(game_id)
        if loaded.row.status == "abandoned":  # a match game whose start was taken back (services/matches.py)
            raise PodError("game_abandoned")
        return await self._commit(loaded, build(loaded), press_id)

    @staticmethod
    def _check_permission(loaded: LoadedGame, actor: int, event: Event, manager: bool) -> None:
        state = loaded.state
        if event.kind == pod.JOIN and loaded.row.tournament_id is not None:
            raise PodError("tournament_seats")  # the pairing seats a tournament table, not the Join button
        if event.kind == pod.JOIN:
            pod.check_seats_may_change(state)
        if event.kind == pod.STOP and loaded.row.tournament_id is not None and not manager:
            raise PodError("tournament_end_organisers")  # stopping means no winner and no points
        if event.kind in _SELF_ONLY:
            if event.data.get("player") != actor:
                raise PodError("only_yourself")
            return
        if event.kind == pod.CONCEDE:
            if event.data.get("player") == actor:
                return
            if not manager:  # conceding is each player's own call; a manager may for an absent one
                raise PodError("not_your_game" if not state.is_player(actor) else "only_yourself")
        pod.check_may_change(state, actor, pod.event_target(event), manager=manager)

    async def _commit(self, loaded: LoadedGame, event: Event, press_id: int | None = None) -> LoadedGame:
        """Domain step, then store; if storing fails the cache is dropped so the next read refolds."""
        new_state = pod.step(loaded.state, loaded.events, event)
        finish = None
        if new_state.finished:
            finish = GameFinish(
                ended=new_state.ended or pod.END_STOPPED,
                ended_at=new_state.ended_at,
                survivors=[p.user_id for p in new_state.alive],
                record=self._record(loaded.row, new_state),
                started_at=loaded.events[0].at,
            )
        try:
            await self.repo.append(loaded.game_id, event, finish, press_id=press_id)
        except BaseException:
            self._games.pop(loaded.game_id, None)  # the in-place step must not outlive a failed write
            raise
        loaded.events.append(event)
        loaded.state = new_state
        self.changes.publish(pod_topic(loaded.game_id))
        if finish is not None:
            row = await self.repo.game(loaded.game_id)
            assert row is not None
            loaded.row = row
            loaded.record = self._record(row, new_state)
            self.notify("pod_game_finished", loaded.record)
        return loaded

    @staticmethod
    def _record(row: PodGameRow, state: PodState) -> PodGameRecord | None:
        if not state.finished:
            return None
        return pod.game_record(
            state,
            game_id=row.game_id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            tournament_id=row.tournament_id,
            round_number=row.round_number,
        )
