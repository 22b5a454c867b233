"""1-vs-1 tournaments of matches over the tournament and match services (G9).

A tournament created with ``format: matches`` pairs its active entrants two by two each round
(``bot.domain.tournament.matches.pair_round``) and plays a best-of-three match per pair; its standings
are match points with the MTR tie-breakers (``match_standings``). The round's pairs are written with the
tournament repository's ``store_round`` (pods of two: the round counter and the table numbers stay
shared with pod tournaments); byes, and which tournaments are of matches, live in migration 0015's tables.
Games of a match are not scored one by one and open no democratic vote (T3 is for multiplayer pods).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.matches import MatchStanding, Pairing, match_standings, pair_round
from bot.services.matches import LoadedMatch, MatchService
from bot.services.tournaments import StandingsView, tournament_topic
from bot.storage.tournaments import Tournament, TournamentRepository

MatchStandingsView = StandingsView[MatchStanding]


@dataclass(frozen=True)
class PairResult:
    """One table of a round: its two players (seat order), games won each and drawn games so far, and
    whether the match is over (a table whose board never started has no ``match``)."""

    table: int
    players: tuple[int, int]
    wins: tuple[int, int]
    draws: int
    finished: bool
    games: tuple[int, ...]  # the pod games of the match (their changes change the score)


@dataclass(frozen=True)
class RoundResults:
    round_number: int
    pairs: list[PairResult]
    bye: int | None


class MatchTournaments:
    def __init__(self, matches: MatchService, tournaments: TournamentRepository) -> None:
        self.matches = matches
        self.tournaments = tournaments
        self.repo = matches.repo

    async def is_matches(self, tournament_id: int) -> bool:
        return await self.repo.is_matches_format(tournament_id)

    async def set_matches(self, tournament_id: int) -> None:
        await self.repo.set_matches_format(tournament_id)

    async def standings(self, tournament: Tournament, round_number: int | None = None) -> MatchStandingsView:
        """Match points and MTR tie-breakers over finished matches (and byes), the whole tournament or one
        round; entrants who have not played yet stand at 0, dropped ones are marked."""
        entrants = await self.tournaments.entrants(tournament.tournament_id)
        byes = [
            user
            for rnd, user in await self.repo.byes(tournament.tournament_id)
            if round_number in (None, rnd)
        ]
        records = await self.matches.tournament_records(tournament.tournament_id, round_number)
        standings = match_standings(
            records,
            seed=tournament.seed,
            players=[e.user_id for e in entrants],
            byes=byes,
            dropped=[e.user_id for e in entrants if not e.active],
        )
        return MatchStandingsView(tournament, standings, {e.user_id: e.name for e in entrants}, round_number)

    async def rounds(self, tournament: Tournament) -> list[RoundResults]:
        """Every round's pairs with their match scores (running ones too) and its bye, round 1 first:
        what the live page shows beside the standings (all public: a match's score is on its board)."""
        by_pair = {
            (loaded.row.round_number, frozenset(loaded.state.players)): loaded
            for loaded in await self.matches.for_tournament(tournament.tournament_id)
        }
        byes = dict(await self.repo.byes(tournament.tournament_id))
        rounds = []
        for number in range(1, tournament.current_round + 1):
            tables = await self.tournaments.pods(tournament.tournament_id, number)
            pairs = [
                _pair_result(table.table_number, table.seats, by_pair.get((number, frozenset(table.seats))))
                for table in tables
            ]
            rounds.append(RoundResults(number, pairs, byes.get(number)))
        return rounds

    async def unfinished_tables(self, tournament: Tournament) -> list[int]:
        """Tables of the current round whose match is still running (or whose board never started)."""
        running = {
            game.game_id
            for loaded in await self.matches.for_tournament(tournament.tournament_id)
            if loaded.row.round_number == tournament.current_round and not loaded.state.finished
            for game in loaded.state.games
        }
        tables = await self.tournaments.pods(tournament.tournament_id, tournament.current_round)
        return [table.table_number for table in tables if table.game_id is None or table.game_id in running]

    async def pair_next_round(self, tournament: Tournament, *, force: bool = False) -> tuple[int, Pairing]:
        """The next round's pairs and bye (stored); refused while a match of this round runs, unless ``force``."""
        if tournament.current_round >= tournament.rounds:
            raise TournamentError("all_rounds_played", rounds=tournament.rounds)
        running = await self.unfinished_tables(tournament) if tournament.current_round else []
        if running and not force:
            raise TournamentError(
                "round_unfinished", round=tournament.current_round, tables=[str(n) for n in running]
            )
        active = {e.user_id for e in await self.tournaments.entrants(tournament.tournament_id) if e.active}
        order = [s.player for s in (await self.standings(tournament)).standings if s.player in active]
        round_number = tournament.current_round + 1
        played = [
            loaded.state.players for loaded in await self.matches.for_tournament(tournament.tournament_id)
        ]
        pairing = pair_round(
            order,
            past_pairs=played,
            had_bye=[user for _, user in await self.repo.byes(tournament.tournament_id)],
            seed=tournament.seed,
            round_number=round_number,
        )
        pairs = [[int(str(a)), int(str(b))] for a, b in pairing.pairs]  # players are Discord ids here
        await self.tournaments.store_round(tournament.tournament_id, round_number, pairs)
        if pairing.bye is not None:
            await self.repo.add_bye(tournament.tournament_id, round_number, int(str(pairing.bye)))
        self.matches.pods.changes.publish(tournament_topic(tournament.tournament_id))  # the live page
        return round_number, pairing


def _pair_result(table: int, seats: list[int], match: LoadedMatch | None) -> PairResult:
    first, second = seats[0], seats[1]
    if match is None:
        return PairResult(table, (first, second), (0, 0), 0, False, ())
    state = match.state
    return PairResult(
        table,
        (first, second),
        (state.wins(first), state.wins(second)),
        state.draws,
        state.finished,
        tuple(game.game_id for game in state.games),
    )
