"""1-vs-1 tournaments of matches over the tournament and match services (G9; issue #20).

A tournament created with ``format: matches`` pairs its active entrants two by two each round
(``bot.domain.tournament.matches.pair_round``) and plays a best-of-three match per pair; its standings
are match points with the MTR tie-breakers (``match_standings``). The round's pairs are written with the
tournament repository's ``store_round`` (pods of two: the round counter and the table numbers stay
shared with pod tournaments); byes, and which tournaments are of matches, live in migration 0015's tables.
Games of a match are not scored one by one and open no democratic vote (T3 is for multiplayer pods).
"""

from __future__ import annotations

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.matches import MatchStanding, Pairing, match_standings, pair_round
from bot.services.matches import MatchService
from bot.storage.tournaments import Tournament, TournamentRepository


class MatchTournaments:
    def __init__(self, matches: MatchService, tournaments: TournamentRepository) -> None:
        self.matches = matches
        self.tournaments = tournaments
        self.repo = matches.repo

    async def is_matches(self, tournament_id: int) -> bool:
        return await self.repo.is_matches_format(tournament_id)

    async def set_matches(self, tournament_id: int) -> None:
        await self.repo.set_matches_format(tournament_id)

    async def _all_matches(self, tournament_id: int) -> list[tuple[int, tuple[int, int], bool]]:
        """(round, players, finished) of every match of a tournament."""
        found = []
        for row in await self.repo.for_tournament(tournament_id):
            state = (await self.matches.get(row.match_id)).state
            found.append((row.round_number or 0, state.players, state.finished))
        return found

    async def standings(self, tournament: Tournament) -> list[MatchStanding]:
        entrants = [e.user_id for e in await self.tournaments.entrants(tournament.tournament_id)]
        byes = [user for _, user in await self.repo.byes(tournament.tournament_id)]
        return match_standings(await self.matches.tournament_records(tournament.tournament_id),
                               seed=tournament.seed, players=entrants, byes=byes)

    async def pair_next_round(self, tournament: Tournament, *, force: bool = False) -> tuple[int, Pairing]:
        """The next round's pairs and bye (stored); refused while a match of this round runs, unless ``force``."""
        if tournament.current_round >= tournament.rounds:
            raise TournamentError("all_rounds_played", rounds=tournament.rounds)
        played = await self._all_matches(tournament.tournament_id)
        running = [i + 1 for i, (rnd, _, done) in enumerate(played) if rnd == tournament.current_round and not done]
        if running and not force:
            raise TournamentError("round_unfinished", round=tournament.current_round,
                                  tables=", ".join(str(n) for n in running))
        active = {e.user_id for e in await self.tournaments.entrants(tournament.tournament_id) if e.active}
        order = [s.player for s in await self.standings(tournament) if s.player in active]
        round_number = tournament.current_round + 1
        pairing = pair_round(order, past_pairs=[players for _, players, _ in played],
                             had_bye=[user for _, user in await self.repo.byes(tournament.tournament_id)],
                             seed=tournament.seed, round_number=round_number)
        pairs = [[int(str(a)), int(str(b))] for a, b in pairing.pairs]  # players are Discord ids here
        await self.tournaments.store_round(tournament.tournament_id, round_number, pairs)
        if pairing.bye is not None:
            await self.repo.add_bye(tournament.tournament_id, round_number, int(str(pairing.bye)))
        return round_number, pairing
