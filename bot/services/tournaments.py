"""Tournaments as a service: the cog and the tests call this; it loads rows, applies the domain, stores.

Votes (T3): a finished pod game linked to a tournament opens a vote with a deadline stored in the
database (``vote_minutes`` after the game ended, 10 by default). It closes when every player of that
table has voted or at the deadline, whichever comes first; ``open_votes()`` lists the open ones so
the bot reschedules their deadlines after a restart. Each game's votes are changed under an asyncio
lock keyed by the game id (one bot process, as in ``bot.services.pods``), and each voter has its own
row, so votes arriving together are all kept.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar, cast

from bot.changes import publishes
from bot.domain.pod import END_STOPPED, PodGameRecord
from bot.domain.tournament import CUSTOM, TournamentError, scoring_rule
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.pairing import pair_round
from bot.domain.tournament.prizes import ManaPoolReport, PrizeStats, combine_stats, confirmed_mana_pool
from bot.domain.tournament.records import outcomes
from bot.domain.tournament.scoring import GameResult, Player, ScoringRule, score_game
from bot.domain.tournament.standings import Correction, Standing, compute_standings
from bot.domain.tournament.votes import Ballot
from bot.storage.db import Database
from bot.storage.tournaments import (
    CorrectionRow,
    Entrant,
    GamePlayer,
    PodAssignment,
    Tournament,
    TournamentGame,
    TournamentRepository,
)

MAX_NAME = 64
MAX_ROUNDS = 20
MAX_REASON = 200
MAX_VOTE_MINUTES = 24 * 60
DEFAULT_VOTE_MINUTES = 10
MAX_MANA_REPORT = 1_000
LATE_ENTRY_LAST_ROUND = 1  # T: late entry until round 2 starts


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class VoteStatus:
    """What may be shown while a vote is open: only how many have voted (votes are secret)."""

    game_id: int
    cast: int
    total: int
    closed: bool
    deadline: str | None


@dataclass(frozen=True)
class VoteOutcome:
    """A closed vote: votes received and the points this game gave, per player (seat order)."""

    game: TournamentGame
    tournament: Tournament
    received: dict[int, int]
    points: dict[int, int]
    names: dict[int, str]


Row = TypeVar("Row")


@dataclass(frozen=True)
class StandingsView(Generic[Row]):
    """What a standings message, image and CSV show: rows of ``Standing`` for pods, of ``MatchStanding``
    for a tournament of matches (``bot.services.match_tournaments``); ``round_number`` None = overall."""

    tournament: Tournament
    standings: list[Row]
    names: dict[int, str]
    round_number: int | None


def tournament_topic(tournament_id: int) -> str:
    """The change-hub topic of one tournament: entrants, pairings, scored games (see bot.changes)."""
    return f"tournament:{tournament_id}"


def _of_tournament(tournament: Tournament, *args: object, **kwargs: object) -> str:
    return tournament_topic(tournament.tournament_id)


def _of_pairing(result: tuple[Tournament, list[PodAssignment]], *args: object, **kwargs: object) -> str:
    return tournament_topic(result[0].tournament_id)


def _of_game(game: TournamentGame | None, *args: object, **kwargs: object) -> str | None:
    return None if game is None else tournament_topic(game.tournament_id)


def _of_outcome(outcome: VoteOutcome | None, *args: object, **kwargs: object) -> str | None:
    """A vote changes the standings only when it closes; until then nothing about it is public."""
    return None if outcome is None else tournament_topic(outcome.tournament.tournament_id)


def _of_vote(result: tuple[VoteStatus, VoteOutcome | None], *args: object, **kwargs: object) -> str | None:
    return _of_outcome(result[1])


class TournamentService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], datetime] = utc_now,
        mana_value: Callable[[str | None], int] = lambda name: 0,
    ) -> None:
        self.repo = TournamentRepository(db)
        self.changes = db.changes
        self.clock = clock
        self.mana_value = mana_value
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, key: int) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())

    # -- tournaments and entrants --------------------------------------------------------------------

    @publishes(_of_tournament)
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int | None,
        name: str,
        scoring: str = "democratic",
        rounds: int = 3,
        created_by: int | None = None,
        remainder_size: int = 3,
        vote_minutes: int = DEFAULT_VOTE_MINUTES,
        seed: int | None = None,
        **custom_points: int,
    ) -> Tournament:
        """A new tournament; one running tournament per server at a time."""
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise TournamentError("name_length", limit=MAX_NAME)
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError("rounds_out_of_range", rounds=rounds, limit=MAX_ROUNDS)
        if remainder_size not in (3, 5):
            raise TournamentError("bad_remainder_size", size=remainder_size)
        if not 1 <= vote_minutes <= MAX_VOTE_MINUTES:
            raise TournamentError("vote_minutes_out_of_range", minutes=vote_minutes, limit=MAX_VOTE_MINUTES)
        rule = scoring_rule(scoring, **custom_points)
        async with self._lock(-guild_id):
            running = await self.repo.active(guild_id)
            if running is not None:
                raise TournamentError("already_running", name=running.name)
            return await self.repo.create(
                guild_id=guild_id,
                channel_id=channel_id,
                name=name,
                scoring=rule.name,
                win_points=rule.win,
                draw_points=rule.draw,
                survival_points=rule.survival,
                vote_points=rule.vote,
                elimination_points=rule.elimination,
                rounds=rounds,
                remainder_size=remainder_size,
                vote_minutes=vote_minutes,
                seed=secrets.randbits(62) if seed is None else seed,
                created_by=created_by,
            )

    async def active(self, guild_id: int) -> Tournament:
        tournament = await self.repo.active(guild_id)
        if tournament is None:
            raise TournamentError("no_tournament")
        return tournament

    async def latest(self, guild_id: int) -> Tournament:
        """The running tournament, else the last one (its standings stay visible after it ends)."""
        tournament = await self.repo.latest(guild_id)
        if tournament is None:
            raise TournamentError("no_tournament")
        return tournament

    @publishes(_of_tournament)
    async def finish(self, guild_id: int) -> Tournament:
        tournament = await self.active(guild_id)
        await self.repo.set_status(tournament.tournament_id, "finished")
        return tournament

    @publishes(_of_tournament)
    async def join(self, guild_id: int, user_id: int, name: str) -> Tournament:
        """Enter (or re-enter after a drop); late entry is open until round 2 is paired."""
        tournament = await self.active(guild_id)
        if tournament.current_round > LATE_ENTRY_LAST_ROUND:
            raise TournamentError("late_entry_closed", name=tournament.name)
        entrant = await self._entrant(tournament, user_id)
        if entrant is not None and entrant.active:
            raise TournamentError("already_joined", name=tournament.name)
        await self.repo.add_entrant(
            tournament.tournament_id, user_id, name[:MAX_NAME], max(tournament.current_round, 1)
        )
        return tournament

    @publishes(_of_tournament)
    async def drop(self, guild_id: int, user_id: int) -> Tournament:
        """Leave: not paired in later rounds; points so far stay in the standings."""
        tournament = await self.active(guild_id)
        entrant = await self._entrant(tournament, user_id)
        if entrant is None or not entrant.active:
            raise TournamentError("not_joined", name=tournament.name)
        await self.repo.drop_entrant(tournament.tournament_id, user_id, tournament.current_round)
        return tournament

    async def _entrant(self, tournament: Tournament, user_id: int) -> Entrant | None:
        return next(
            (e for e in await self.repo.entrants(tournament.tournament_id) if e.user_id == user_id), None
        )

    async def entrants(self, tournament_id: int) -> list[Entrant]:
        return await self.repo.entrants(tournament_id)

    # -- pairing -----------------------------------------------------------------------------------

    @publishes(_of_pairing)
    async def pair_next_round(
        self, guild_id: int, *, force: bool = False
    ) -> tuple[Tournament, list[PodAssignment]]:
        """Pair the next round: by standings from round 2, few repeat opponents, seeded seats.

        Refused while a game of the current round is unfinished or still voting, unless ``force``."""
        async with self._lock(-guild_id):
            tournament = await self.active(guild_id)
            if tournament.current_round >= tournament.rounds:
                raise TournamentError("all_rounds_played", rounds=tournament.rounds)
            all_pods = await self.repo.pods(tournament.tournament_id)
            if not force:
                await self._check_round_complete(tournament, all_pods)
            players = [e.user_id for e in await self.repo.entrants(tournament.tournament_id) if e.active]
            view = await self.standings(tournament)
            round_number = tournament.current_round + 1
            pods = pair_round(
                players,
                round_number,
                tournament.seed,
                points={s.player: s.points for s in view.standings},
                past_pods=[pod.seats for pod in all_pods],
                remainder_size=tournament.remainder_size,
            )
            # The domain takes any hashable player; here every player is a Discord user id.
            await self.repo.store_round(tournament.tournament_id, round_number, cast(list[list[int]], pods))
            paired = await self.repo.pods(tournament.tournament_id, round_number)
            refreshed = await self.repo.get(tournament.tournament_id)
            assert refreshed is not None
            return refreshed, paired

    async def unfinished_tables(self, tournament: Tournament) -> list[int]:
        """Tables of the current round whose game is still running or still voting."""
        pods = await self.repo.pods(tournament.tournament_id, tournament.current_round)
        return await self._unfinished(tournament, pods)

    async def _unfinished(self, tournament: Tournament, pods: Sequence[PodAssignment]) -> list[int]:
        games = {g.game_id: g for g in await self.repo.games(tournament.tournament_id)}
        return [
            pod.table_number
            for pod in pods
            if pod.round_number == tournament.current_round
            and (pod.game_id not in games or games[pod.game_id].vote_open)
        ]

    async def _check_round_complete(self, tournament: Tournament, pods: Sequence[PodAssignment]) -> None:
        unfinished = await self._unfinished(tournament, pods)
        if unfinished:
            raise TournamentError(
                "round_unfinished",
                round=tournament.current_round,
                tables=[str(table) for table in unfinished],
            )

    async def link_game(self, pod_id: int, game_id: int) -> None:
        """Remember which pod game a pod plays (its board from the pod tracker)."""
        await self.repo.link_game(pod_id, game_id)

    # -- finished games and the democratic vote ---------------------------------------------------

    @publishes(_of_game)
    async def record_finished_game(self, record: PodGameRecord) -> TournamentGame | None:
        """Store a finished linked game and open its vote (T3) when the scoring uses votes.

        Returns None for games outside tournaments or already stored (a repeated notification)."""
        if record.tournament_id is None:
            return None
        tournament = await self.repo.get(record.tournament_id)
        if tournament is None:
            return None
        seated = await self._seated(tournament.tournament_id, record.game_id)
        finished = self.clock()
        rule = self.rule(tournament)
        deadline = (
            (finished + timedelta(minutes=tournament.vote_minutes)).isoformat() if rule.uses_votes else None
        )
        game = TournamentGame(
            game_id=record.game_id,
            tournament_id=tournament.tournament_id,
            round_number=record.round_number or tournament.current_round,
            channel_id=record.channel_id,
            draw=record.draw,
            stopped=record.ended == END_STOPPED,
            finished_at=finished.isoformat(),
            vote_deadline=deadline,
            vote_closed_at=None if rule.uses_votes else finished.isoformat(),
            players=[
                GamePlayer(
                    o.user_id,
                    o.seat,
                    o.survived,
                    o.eliminations,
                    o.prizes.combat_damage,
                    o.prizes.commander_kills,
                    o.prizes.commander_mana,
                )
                for o in outcomes(record, self.mana_value)
                if seated is None or o.user_id in seated
            ],
        )
        if not await self.repo.add_game(game):
            return None
        return game

    async def _seated(self, tournament_id: int, game_id: int) -> set[int] | None:
        """The players the pairing seated at the game's table (None for a game no pod links): only
        they score, vote and appear in the standings, whoever else reached the board."""
        for pod in await self.repo.pods(tournament_id):
            if pod.game_id == game_id:
                return set(pod.seats)
        return None

    async def game(self, game_id: int) -> TournamentGame:
        game = await self.repo.game(game_id)
        if game is None:
            raise TournamentError("game_not_in_tournament", game=game_id)
        return game

    @publishes(_of_vote)
    async def cast_vote(
        self, game_id: int, voter_id: int, votee_id: int
    ) -> tuple[VoteStatus, VoteOutcome | None]:
        """Record or change a vote (T3). Returns the public status and, when this vote was the last one
        missing, the closed vote's outcome."""
        async with self._lock(game_id):
            game = await self.game(game_id)
            votes: dict[Player, Player] = dict((await self.repo.votes(game_id)).items())
            ballot = Ballot(game_id, tuple(p.user_id for p in game.players), votes, closed=not game.vote_open)
            ballot.cast(voter_id, votee_id)  # raises for a closed vote, a self vote, someone not at the table
            await self.repo.cast_vote(game_id, voter_id, votee_id)
            outcome = await self._close(game) if ballot.everyone_voted else None
            return VoteStatus(
                game_id, ballot.cast_count, len(ballot.players), outcome is not None, game.vote_deadline
            ), outcome

    async def vote_of(self, game_id: int, voter_id: int) -> int | None:
        """The voter's own current vote (shown only to them, so they can change it)."""
        return (await self.repo.votes(game_id)).get(voter_id)

    async def vote_status(self, game_id: int) -> VoteStatus:
        game = await self.game(game_id)
        votes = await self.repo.votes(game_id)
        return VoteStatus(game_id, len(votes), len(game.players), not game.vote_open, game.vote_deadline)

    @publishes(_of_outcome)
    async def close_vote(self, game_id: int) -> VoteOutcome | None:
        """Close at the deadline (or by an organiser); None when it had closed already."""
        async with self._lock(game_id):
            return await self._close(await self.game(game_id))

    async def _close(self, game: TournamentGame) -> VoteOutcome | None:
        if not await self.repo.close_vote(game.game_id, self.clock().isoformat()):
            return None
        return await self.outcome(game.game_id)

    async def outcome(self, game_id: int) -> VoteOutcome:
        """Votes received and points of one game (shown to the table once its vote has closed)."""
        closed = await self.game(game_id)
        tournament = await self.repo.get(closed.tournament_id)
        assert tournament is not None
        result = self._result(closed, await self.repo.votes(game_id))
        tallies = score_game(result, self.rule(tournament))
        names = await self.names(tournament.tournament_id)
        return VoteOutcome(
            closed,
            tournament,
            {cast(int, p): t.votes for p, t in tallies.items()},
            {cast(int, p): t.points for p, t in tallies.items()},
            names,
        )

    async def unannounced_results(self) -> list[int]:
        return await self.repo.unannounced_results()

    async def mark_announced(self, game_id: int) -> None:
        await self.repo.mark_announced(game_id, self.clock().isoformat())

    async def unrecorded_finished_games(self) -> list[int]:
        return await self.repo.unrecorded_finished_games()

    async def set_vote_message(self, game_id: int, message_id: int) -> None:
        """Remember the public vote message, so its count and result can be edited after a restart."""
        await self.repo.set_vote_message(game_id, message_id)

    async def open_votes(self) -> list[TournamentGame]:
        """Votes still open (after a restart: reschedule each deadline, closing overdue ones at once)."""
        return await self.repo.games_with_open_votes()

    async def individual_votes(self, game_id: int, *, guild_id: int, organiser: bool) -> dict[int, int]:
        """Who voted for whom: only for organisers, and only where the server has enabled it."""
        await self.game_in_guild(game_id, guild_id)
        if not organiser or not await self.repo.reveal_votes_to_organisers(guild_id):
            raise TournamentError("votes_secret")
        return await self.repo.votes(game_id)

    async def game_in_guild(self, game_id: int, guild_id: int) -> TournamentGame:
        """A finished game of one of this server's tournaments (never another server's)."""
        game = await self.game(game_id)
        tournament = await self.repo.get(game.tournament_id)
        if tournament is None or tournament.guild_id != guild_id:
            raise TournamentError("game_not_in_tournament", game=game_id)
        return game

    async def tournament_of(self, game: TournamentGame) -> Tournament:
        tournament = await self.repo.get(game.tournament_id)
        assert tournament is not None  # foreign key
        return tournament

    async def set_reveal_votes(self, guild_id: int, enabled: bool) -> None:
        await self.repo.set_reveal_votes_to_organisers(guild_id, enabled)

    # -- T2 mana pool reports ------------------------------------------------------------------------

    async def report_mana_pool(self, guild_id: int, game_id: int, user_id: int, amount: int) -> int:
        """A player's report of the most mana in their pool at once; counts once confirmed."""
        if not 1 <= amount <= MAX_MANA_REPORT:
            raise TournamentError("mana_out_of_range", amount=amount, limit=MAX_MANA_REPORT)
        pod = await self._pod_of_game(guild_id, game_id)
        if user_id not in pod.seats:
            raise TournamentError("not_at_table", game=game_id)
        return await self.repo.add_mana_report(game_id, user_id, amount)

    async def confirm_mana_pool(self, guild_id: int, report_id: int, user_id: int) -> int:
        """Another player at that table confirms a report (T2); returns the reporter's id."""
        report = await self.repo.mana_report(report_id)
        if report is None:
            raise TournamentError("no_report")
        pod = await self._pod_of_game(guild_id, report.game_id)
        if user_id == report.user_id:
            raise TournamentError("confirm_own_report")
        if user_id not in pod.seats:
            raise TournamentError("not_at_table", game=report.game_id)
        await self.repo.confirm_mana_report(report_id, user_id)
        return report.user_id

    async def current_game_of(self, guild_id: int, user_id: int) -> int:
        """The pod game ``user_id`` plays (or played) in the current round."""
        tournament = await self.active(guild_id)
        for pod in await self.repo.pods(tournament.tournament_id, tournament.current_round):
            if user_id in pod.seats and pod.game_id is not None:
                return pod.game_id
        raise TournamentError("no_current_game")

    async def _pod_of_game(self, guild_id: int, game_id: int) -> PodAssignment:
        tournament = await self.active(guild_id)
        for pod in await self.repo.pods(tournament.tournament_id):
            if pod.game_id == game_id:
                return pod
        raise TournamentError("game_not_in_tournament", game=game_id)

    # -- standings, prizes, corrections ------------------------------------------------------------

    @staticmethod
    def rule(tournament: Tournament) -> ScoringRule:
        if tournament.scoring != CUSTOM:
            return scoring_rule(tournament.scoring)
        return scoring_rule(
            CUSTOM,
            win=tournament.win_points,
            draw=tournament.draw_points,
            survival=tournament.survival_points,
            vote=tournament.vote_points,
            elimination=tournament.elimination_points,
        )

    @staticmethod
    def _result(game: TournamentGame, votes: dict[int, int]) -> GameResult:
        ballots: dict[Player, Player] = dict(votes.items())
        return checked_game(
            game.game_id,
            [p.user_id for p in game.players],
            [p.user_id for p in game.players if p.survived],
            ballots,
            draw=game.draw,
            eliminations={p.user_id: p.eliminations for p in game.players},
            stopped=game.stopped,
        )

    async def names(self, tournament_id: int) -> dict[int, str]:
        return {e.user_id: e.name for e in await self.repo.entrants(tournament_id)}

    async def standings(
        self, tournament: Tournament, round_number: int | None = None
    ) -> StandingsView[Standing]:
        """Standings over games whose vote has closed (a game scores when its vote closes, T3),
        over one round or the whole tournament; corrections count in the overall standings."""
        games = [
            g
            for g in await self.repo.games(tournament.tournament_id)
            if not g.vote_open and (round_number is None or g.round_number == round_number)
        ]
        votes = await self.repo.tournament_votes(tournament.tournament_id)
        results = [self._result(g, votes.get(g.game_id, {})) for g in games]
        entrants = await self.repo.entrants(tournament.tournament_id)
        corrections = (
            []
            if round_number is not None
            else [
                Correction(c.user_id, c.points, c.reason, c.by_user_id)
                for c in await self.repo.corrections(tournament.tournament_id)
            ]
        )
        prizes: dict[Player, PrizeStats] = dict((await self._prizes(games)).items())
        standings = compute_standings(
            results,
            self.rule(tournament),
            seed=tournament.seed,
            players=[e.user_id for e in entrants],
            corrections=corrections,
            dropped=[e.user_id for e in entrants if not e.active],
            prizes=prizes,
        )
        return StandingsView(tournament, standings, {e.user_id: e.name for e in entrants}, round_number)

    async def _prizes(self, games: Sequence[TournamentGame]) -> dict[int, PrizeStats]:
        reports = await self.repo.mana_reports([g.game_id for g in games])
        per_game: list[dict[Player, PrizeStats]] = []
        for game in games:
            players = [p.user_id for p in game.players]
            pool = confirmed_mana_pool(
                [
                    ManaPoolReport(r.user_id, r.amount, r.confirmed_by)
                    for r in reports
                    if r.game_id == game.game_id
                ],
                players,
            )
            per_game.append(
                {
                    p.user_id: PrizeStats(
                        p.combat_damage, p.commander_kills, p.commander_mana, pool.get(p.user_id, 0)
                    )
                    for p in game.players
                }
            )
        return cast(dict[int, PrizeStats], combine_stats(per_game))

    @publishes(_of_tournament)
    async def correct(
        self, guild_id: int, user_id: int, points: int, reason: str, by_user_id: int
    ) -> Tournament:
        """An organiser's points correction, kept with who and why (the audit log)."""
        tournament = await self.active(guild_id)
        reason = reason.strip()
        if not reason or len(reason) > MAX_REASON:
            raise TournamentError("reason_required", limit=MAX_REASON)
        if points == 0 or abs(points) > 1000:
            raise TournamentError("correction_points", points=points)
        if await self._entrant(tournament, user_id) is None:
            raise TournamentError("not_an_entrant")
        await self.repo.add_correction(tournament.tournament_id, user_id, points, reason, by_user_id)
        return tournament

    async def corrections(self, tournament_id: int) -> list[CorrectionRow]:
        return await self.repo.corrections(tournament_id)


def mana_value_lookup(index: object | None) -> Callable[[str | None], int]:
    """A commander's mana value from the card index (``bot.cards.index.CardIndex``); 0 when unknown.

    The pod record names each cast commander and the tax paid; T2's "mana spent on casting one's
    commander" adds the card's mana value to that tax."""

    def mana_value(name: str | None) -> int:
        if not name or index is None:
            return 0
        card = index.resolve(name).card  # type: ignore[attr-defined]
        return int(card.mana_value) if card is not None else 0

    return mana_value
