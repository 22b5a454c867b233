"""Best-of-three matches (G9) and sideboard swaps (D7, T1) over the pod service.

A match is a log of its games (``bot.domain.match``); each game is an ordinary pod game whose creation
event says which match and game it is and carries the swaps made so far in the match, so a game's
record names the deck as played. Swaps are pod events (``pod.SWAP``): undo, history and restarts work
as for any other change. What the fold cannot check — the deck's cards and the time window — is
checked here, against the registered deck and the injected clock (the PodService's).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from bot.domain import match as m
from bot.domain import pod
from bot.domain.pod import PodState
from bot.domain.sideboard import (
    Swap,
    SwapError,
    SwapVerdict,
    Window,
    check_swaps,
    check_wish,
    parse_time,
    swap_window,
    wishable,
)
from bot.domain.tournament.matches import MatchRecord
from bot.services.decks import check_deck_text
from bot.services.pods import LoadedGame, PodService
from bot.services.tournaments import tournament_topic
from bot.storage.db import Database
from bot.storage.matches import MatchRepository, MatchRow

MATCH_RULESET = "duel-zh"  # a duel-zh pod of exactly two players is a match (000 §3, G9)


class DeckSource(Protocol):
    """What swaps need of the deck service (``DeckService``): the stored list, the card data, and the
    offload function (the bot's work pool) that runs the checks off the event loop."""

    cards: Any
    offload: Callable[..., Awaitable[Any]]

    async def get(self, guild_id: int, user_id: int, name: str) -> Any: ...


def check_registered_swaps(
    raw_list: str,
    cards: Any,
    ruleset: str,
    commanders: tuple[str, ...],
    before: tuple[Swap, ...],
    new: tuple[Swap, ...],
) -> SwapVerdict:
    """Parse and resolve a stored list, then apply and check swaps: CPU work for the pool (picklable in
    and out; a refusal is a picklable ``SwapError``)."""
    deck = check_deck_text(raw_list, cards, ruleset, commander_names=commanders).deck
    return check_swaps(deck, ruleset, before, new)


@dataclass
class LoadedMatch:
    row: MatchRow
    events: list[m.MatchEvent]
    state: m.MatchState

    @property
    def match_id(self) -> int:
        return self.row.match_id


def is_match(ruleset: str, players: int, requested: bool) -> bool:
    """A duel-zh pod of two players is a match; other rulesets when ``match: best-of-3`` is chosen."""
    return players == 2 and (requested or ruleset == MATCH_RULESET)


def outcome_of(state: PodState) -> m.Outcome | None:
    """A finished game's outcome: one survivor wins; a draw, or a stopped game, is a drawn game."""
    if not state.finished:
        return None
    survivors = [p.user_id for p in state.alive]
    if state.ended == pod.END_LAST_STANDING and len(survivors) == 1:
        return m.Outcome(survivors[0])
    return m.Outcome(None)


class MatchService:
    def __init__(self, db: Database, pods: PodService, decks: DeckSource | None = None) -> None:
        self.repo = MatchRepository(db)
        self.pods = pods
        self.decks = decks
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    # -- starting and reading ----------------------------------------------------------------------

    async def start_match(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        created_by: int | None,
        players: Sequence[tuple[int, str]],
        ruleset: str,
        tournament_id: int | None = None,
        round_number: int | None = None,
        **options: Any,
    ) -> tuple[LoadedMatch, LoadedGame]:
        """A match and its game 1 (seat order as given: seat 1 plays first)."""
        ids = [int(u) for u, _ in players]
        if len(ids) != 2 or ids[0] == ids[1]:
            raise m.MatchError("two_players")
        first = m.MatchEvent(
            seq=1, kind=m.CREATE, actor=created_by, at=self.pods.clock(), data={"players": ids}
        )
        match_id = await self.repo.create(
            guild_id=guild_id,
            ruleset=ruleset,
            first_event=first,
            tournament_id=tournament_id,
            round_number=round_number,
        )
        game = await self.pods.start_game(
            guild_id=guild_id,
            channel_id=channel_id,
            created_by=created_by,
            players=players,
            ruleset=ruleset,
            tournament_id=tournament_id,
            round_number=round_number,
            match={"id": match_id, "game": 1, "swaps": {}},
            **options,
        )
        await self.repo.append(
            match_id,
            m.MatchEvent(
                seq=2,
                kind=m.GAME,
                actor=created_by,
                at=self.pods.clock(),
                data={"game_id": game.game_id, "number": 1, "first": ids[0], "chosen_by": ids[0]},
            ),
        )
        self._published(tournament_id)
        return await self.get(match_id), game

    async def get(self, match_id: int) -> LoadedMatch:
        row = await self.repo.match(match_id)
        if row is None:
            raise m.MatchError("no_match")
        events = await self.repo.events(match_id)
        game_ids = [int(e.data["game_id"]) for e in events if e.kind == m.GAME]
        outcomes: dict[int, m.Outcome] = {}
        for game_id in game_ids:
            outcome = outcome_of((await self.pods.get(game_id)).state)
            if outcome is not None:
                outcomes[game_id] = outcome
        return LoadedMatch(row, events, m.replay(match_id, events, outcomes))

    async def for_game(self, game: LoadedGame) -> LoadedMatch | None:
        """The match a game belongs to, or None for a single game."""
        info = game.state.match
        return None if not info else await self.get(int(info["id"]))

    # -- the next game ----------------------------------------------------------------------------

    async def next_game(self, match_id: int, actor: int, first: int) -> tuple[LoadedMatch, LoadedGame]:
        """The next game: the chooser (loser of the previous game) says who plays first (seat 1).

        Same players, decks and commanders; fresh life, tax and death counters (a new pod game);
        the swaps made so far in the match travel with it."""
        async with self.lock(match_id):
            loaded = await self.get(match_id)
            number = m.check_next(loaded.state, actor, first)
            previous = await self.pods.get(loaded.state.games[-1].game_id)
            prev = previous.state
            order = [first, loaded.state.opponent(first)]
            names = {p.user_id: p.name for p in prev.players}
            swaps = {str(user): listed for user, listed in pod.played_swaps(prev).items()}
            game = await self.pods.start_game(
                guild_id=previous.row.guild_id,
                channel_id=previous.row.channel_id,
                created_by=actor,
                players=[(u, names[u]) for u in order],
                ruleset=prev.ruleset,
                starting_life=prev.starting_life,
                own_totals_only=prev.own_totals_only,
                mulligan_style=prev.mulligan_style.value,
                tournament_id=previous.row.tournament_id,
                round_number=previous.row.round_number,
                match={"id": match_id, "game": number, "swaps": swaps},
            )
            for player in prev.players:  # the same commanders and decks (G6: decided before the game)
                if player.user_id in prev.declared:
                    game = await self.pods.change(
                        game.game_id,
                        actor,
                        pod.COMMANDERS,
                        manager=True,
                        player=player.user_id,
                        names=[c.name for c in player.commanders],
                        deck=player.deck,
                    )
            await self.repo.append(
                match_id,
                m.MatchEvent(
                    seq=loaded.events[-1].seq + 1,
                    kind=m.GAME,
                    actor=actor,
                    at=self.pods.clock(),
                    data={"game_id": game.game_id, "number": number, "first": first, "chosen_by": actor},
                ),
            )
            self._published(loaded.row.tournament_id)
            return await self.get(match_id), game

    def _published(self, tournament_id: int | None) -> None:
        """A tournament's live page watches the games of its matches: a new or taken-back game is news."""
        if tournament_id is not None:
            self.pods.changes.publish(tournament_topic(tournament_id))

    @staticmethod
    def _begun(game: LoadedGame) -> bool:
        """Whether anybody changed a game since its start (its creation and the copied commanders)."""
        return any(
            e.kind not in (pod.CREATE, pod.COMMANDERS) or e.actor != game.events[0].actor for e in game.events
        )

    async def undo_offer(self, match: LoadedMatch, game: LoadedGame) -> bool:
        """Whether ``game``'s board offers to take back its start: it is the match's latest game (2 or
        3) and nobody has changed it yet, so a wrong "who plays first" costs nothing to correct."""
        current = match.state.current
        return (
            current is not None
            and current.game_id == game.game_id
            and current.number >= 2
            and not game.state.finished
            and not self._begun(game)
        )

    async def undo_next(self, match_id: int, actor: int) -> tuple[LoadedMatch, int]:
        """Undo the start of the latest game while nobody has changed it yet (a wrong first player).

        Only the player who chose may take the choice back; the match is as before the choice and they
        choose again. Returns the match and the abandoned game's id (its board is closed)."""
        async with self.lock(match_id):
            loaded = await self.get(match_id)
            if actor not in loaded.state.players:
                raise m.MatchError("not_a_player")
            seq = m.undoable(loaded.events)
            started = next(e for e in loaded.events if e.seq == seq)
            if actor != int(started.data["chosen_by"]):
                raise m.MatchError("not_chooser")
            game_id = int(started.data["game_id"])
            if self._begun(await self.pods.get(game_id)):
                raise m.MatchError("game_begun")
            await self.repo.append(
                match_id,
                m.MatchEvent(
                    seq=loaded.events[-1].seq + 1,
                    kind=m.UNDO,
                    actor=actor,
                    at=self.pods.clock(),
                    data={"seqs": [seq]},
                ),
            )
            await self.repo.abandon_game(game_id)
            self.pods.forget(game_id)  # the cached row still says "open"
            self._published(loaded.row.tournament_id)
            return await self.get(match_id), game_id

    async def for_tournament(self, tournament_id: int) -> list[LoadedMatch]:
        """Every match of a tournament, running or over, in the order they were started."""
        return [await self.get(row.match_id) for row in await self.repo.for_tournament(tournament_id)]

    async def tournament_records(
        self, tournament_id: int, round_number: int | None = None
    ) -> list[MatchRecord]:
        """The finished matches of a 1-vs-1 tournament (or of one round), for ``match_standings``;
        running ones are left out."""
        return [
            MatchRecord(s.players[0], s.players[1], s.score, s.draws)
            for loaded in await self.for_tournament(tournament_id)
            if (s := loaded.state).finished and round_number in (None, loaded.row.round_number)
        ]

    # -- sideboard swaps ----------------------------------------------------------------------------

    async def sideboard_rule(self, guild_id: int | None) -> bool:
        return bool(guild_id) and await self.repo.sideboard_rule(int(guild_id or 0))

    async def set_sideboard_rule(self, guild_id: int, enabled: bool) -> None:
        await self.repo.set_sideboard_rule(guild_id, enabled)

    def now(self) -> datetime:
        return parse_time(self.pods.clock())

    async def window(self, game: LoadedGame) -> Window:
        """Whether swaps are allowed in this game now (closed once the mulligans or turn 1 began)."""
        return self._window(game.state, await self.sideboard_rule(game.row.guild_id))

    def _window(self, state: PodState, rule_on: bool) -> Window:
        everyone = [p.user_id for p in state.players]
        declared = [state.declared[u] for u in everyone if u in state.declared]
        declared_at = max(declared, key=parse_time) if declared and len(declared) == len(everyone) else None
        number = (state.match or {}).get("game") or 1
        return swap_window(
            started=state.started or state.mulligan is not None or state.finished,
            between_games=number >= 2,
            rule_on=rule_on,
            declared_at=declared_at,
            now=self.now(),
        )

    async def _check(self, game: LoadedGame, user_id: int, new: Sequence[Swap]) -> SwapVerdict:
        """The player's registered deck with the match's swaps so far, then ``new``, checked in the pool."""
        player = game.state.player(user_id)
        record = None
        if player.deck and self.decks is not None:
            record = await self.decks.get(game.row.guild_id or 0, user_id, player.deck)
        if record is None or self.decks is None:
            raise SwapError("no_deck")
        before = tuple(Swap.from_data(s) for s in pod.played_swaps(game.state).get(user_id, []))
        return await self.decks.offload(
            check_registered_swaps,
            record.raw_list,
            self.decks.cards,
            game.state.ruleset,
            tuple(record.commanders),
            before,
            tuple(new),
        )

    async def played_deck(self, game: LoadedGame, user_id: int) -> SwapVerdict:
        """The deck as it will be played in this game (registered list + the match's swaps so far)."""
        return await self._check(game, user_id, ())

    async def swap(self, game_id: int, actor: int, swaps: Sequence[Swap]) -> tuple[LoadedGame, SwapVerdict]:
        """Check ``swaps`` (the window, the rules of D7, the deck's legality) and store them as ONE pod event.

        All or nothing: the batch is one event in one transaction, and under the game's lock the window
        and the player's swaps so far are checked again on the current log, so a mulligan, the deadline
        or another swap that came in while the deck was being checked refuses the whole batch. Raises
        SwapError (or PodError) and stores nothing when any swap is refused."""
        game = await self.pods.get(game_id)
        if not game.state.is_player(actor):
            raise SwapError("not_a_player")
        rule_on = await self.sideboard_rule(game.row.guild_id)
        window = self._window(game.state, rule_on)
        if not window.open:
            raise SwapError(window.reason)
        before = pod.played_swaps(game.state).get(actor, [])
        verdict = await self._check(game, actor, swaps)

        def still_valid(current: LoadedGame) -> None:
            now = self._window(current.state, rule_on)
            if not now.open:
                raise SwapError(now.reason)
            if pod.played_swaps(current.state).get(actor, []) != before:
                raise SwapError("changed_meanwhile")

        game = await self.pods.change(
            game_id,
            actor,
            pod.SWAP,
            guard=still_valid,
            player=actor,
            swaps=[swap.as_data() for swap in swaps],
        )
        return game, verdict

    # -- wishes ---------------------------------------------------------------------------------------

    async def sideboard_in_play(self, game: LoadedGame) -> bool:
        """Whether the game has sideboards: a game of a match (000 §3.2) or the server's optional rule (001)."""
        return bool(game.state.match) or await self.sideboard_rule(game.row.guild_id)

    async def wishable(self, game: LoadedGame, user_id: int) -> list[str]:
        """Autocomplete: the player's sideboard cards (as played) not fetched yet this game."""
        played = await self.played_deck(game, user_id)
        return wishable(played.deck, pod.fetched_by_wishes(game.state).get(user_id, []))

    async def wish(self, game_id: int, actor: int, card: str) -> tuple[LoadedGame, str]:
        """A wish fetched ``card`` from the actor's sideboard during the game (D7); returns the card's name.

        Refused (SwapError, PodError) without a sideboard in this game, before turn 1 or after the end, for
        a card not in the sideboard as played (after the match's swaps) or fetched already this game."""
        game = await self.pods.get(game_id)
        if not game.state.is_player(actor):
            raise SwapError("not_a_player")
        if not await self.sideboard_in_play(game):
            raise SwapError("wish_not_allowed")
        if not game.state.started or game.state.finished:
            raise SwapError("wish_not_now")
        played = await self.played_deck(game, actor)
        name = check_wish(played.deck, pod.fetched_by_wishes(game.state).get(actor, []), card)
        game = await self.pods.change(game_id, actor, pod.WISH, player=actor, card=name)
        return game, name
