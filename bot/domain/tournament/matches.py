"""1-vs-1 tournaments of best-of-three matches (RULES.md G9; 000 §3): pairs instead of pods.

Scoring and tie-breakers follow the usual Magic tournament practice (Magic Tournament Rules, appendix C):

* Match points: 3 for a match win, 1 for a drawn match, 0 for a loss. A bye is a match win 2–0.
* Game points: 3 per game won, 1 per drawn game.
* Match-win percentage (MW%) = match points / (3 × matches played); game-win percentage (GW%) = game
  points / (3 × games played). Each is floored at 1/3 (33%) when used for an opponent, so one weak
  opponent does not sink a player's tie-breakers; a player's own GW% is floored the same way.
* Order: match points, then opponents' MW% (the average over the opponents met, byes left out), then the
  player's own GW%, then opponents' GW%, then a seeded coin flip (the same seed breaks the same ties).

Pairing (Swiss): round 1 a seeded random draw, later rounds by standings: the best-ranked waiting player
meets the next-ranked one they have not met yet (a rematch only when nobody else is left). An odd player
gets the bye: the lowest-ranked player who has not had one yet.

Plain Python; player ids are any hashable value (Discord ids in the bot, names in the CLI).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.domain.tournament.errors import TournamentError

Player = Hashable

MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 3, 1, 0
GAME_WIN, GAME_DRAW = 3, 1
FLOOR = Fraction(1, 3)


@dataclass(frozen=True)
class MatchRecord:
    """A finished match: the two players, games each won and drawn games (``bot.domain.match.result``)."""

    first: Player
    second: Player
    wins: tuple[int, int]
    draws: int = 0

    def points_for(self, player: Player) -> int:
        mine, theirs = self._games(player)
        if mine > theirs:
            return MATCH_WIN
        return MATCH_DRAW if mine == theirs else MATCH_LOSS

    def _games(self, player: Player) -> tuple[int, int]:
        if player == self.first:
            return self.wins
        if player == self.second:
            return self.wins[1], self.wins[0]
        raise TournamentError("not_in_match")

    def game_points_for(self, player: Player) -> int:
        return GAME_WIN * self._games(player)[0] + GAME_DRAW * self.draws

    @property
    def games(self) -> int:
        return sum(self.wins) + self.draws

    def opponent(self, player: Player) -> Player:
        return self.second if player == self.first else self.first


@dataclass(frozen=True)
class MatchStanding:
    rank: int
    player: Player
    match_points: int
    matches: int
    record: tuple[int, int, int]  # match wins, losses, draws (byes count as wins)
    opponents_match_win: Fraction
    game_win: Fraction
    opponents_game_win: Fraction
    coin: float


@dataclass
class _Tally:
    match_points: int = 0
    matches: int = 0
    game_points: int = 0
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def add(self, points: int, game_points: int, games: int) -> None:
        self.match_points += points
        self.matches += 1
        self.game_points += game_points
        self.games += games
        self.wins += points == MATCH_WIN
        self.draws += points == MATCH_DRAW
        self.losses += points == MATCH_LOSS


def _percentage(points: int, played: int) -> Fraction:
    return max(FLOOR, Fraction(points, 3 * played)) if played else FLOOR


def coin_flip(seed: int, player: Player) -> float:
    return random.Random(f"tournament:{seed}:coin:{player}").random()


def match_standings(records: Iterable[MatchRecord], *, seed: int, players: Iterable[Player] = (),
                    byes: Iterable[Player] = ()) -> list[MatchStanding]:
    """Ranked standings of a 1-vs-1 tournament (see the module docstring for the order)."""
    tallies: dict[Player, _Tally] = {p: _Tally() for p in players}
    opponents: dict[Player, list[Player]] = {p: [] for p in tallies}
    for record in records:
        for player in (record.first, record.second):
            tallies.setdefault(player, _Tally()).add(record.points_for(player), record.game_points_for(player),
                                                     record.games)
            opponents.setdefault(player, []).append(record.opponent(player))
    for player in byes:  # MTR: a bye is a 2-0 match win; it is no opponent for the tie-breakers
        tallies.setdefault(player, _Tally()).add(MATCH_WIN, 2 * GAME_WIN, 2)
        opponents.setdefault(player, [])

    def mw(player: Player) -> Fraction:
        tally = tallies[player]
        return _percentage(tally.match_points, tally.matches)

    def gw(player: Player) -> Fraction:
        tally = tallies[player]
        return _percentage(tally.game_points, tally.games)

    def average(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else Fraction(0)

    rows = []
    for player, tally in tallies.items():
        met = opponents.get(player, [])
        rows.append((player, tally, average([mw(o) for o in met]), gw(player), average([gw(o) for o in met]),
                     coin_flip(seed, player)))
    rows.sort(key=lambda r: (-r[1].match_points, -r[2], -r[3], -r[4], r[5]))
    return [MatchStanding(rank=i + 1, player=p, match_points=t.match_points, matches=t.matches,
                          record=(t.wins, t.losses, t.draws), opponents_match_win=omw, game_win=g,
                          opponents_game_win=ogw, coin=coin)
            for i, (p, t, omw, g, ogw, coin) in enumerate(rows)]


@dataclass(frozen=True)
class Pairing:
    pairs: list[tuple[Player, Player]]
    bye: Player | None


def _met(a: Player, b: Player, past: set[frozenset[Player]]) -> bool:
    return frozenset((a, b)) in past


def pair_round(order: Sequence[Player], *, past_pairs: Iterable[tuple[Player, Player]] = (),
               had_bye: Iterable[Player] = (), seed: int, round_number: int) -> Pairing:
    """Pairs for a round. ``order``: the players by standing (best first); round 1 shuffles them."""
    players = list(dict.fromkeys(order))
    if len(players) < 2:
        raise TournamentError("too_few_players", count=len(players), minimum=2)
    if round_number == 1:
        random.Random(f"tournament:{seed}:round:{round_number}").shuffle(players)
    bye = None
    if len(players) % 2:
        had = set(had_bye)
        bye = next((p for p in reversed(players) if p not in had), players[-1])
        players.remove(bye)
    past = {frozenset(p) for p in past_pairs}
    pairs: list[tuple[Player, Player]] = []
    waiting = list(players)
    while waiting:
        first = waiting.pop(0)
        partner = next((p for p in waiting if not _met(first, p, past)), waiting[0])
        waiting.remove(partner)
        pairs.append((first, partner))
    return Pairing(pairs, bye)
