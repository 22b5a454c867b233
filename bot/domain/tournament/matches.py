"""1-vs-1 tournaments of best-of-three matches (docs/rules/RULES.md G9; 000 §3): pairs instead of pods.

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

import csv
import io
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.standings import coin_flip, csv_safe

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

    def games_won(self, player: Player) -> int:
        return self._games(player)[0]

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
    dropped: bool = False
    game_wins: int = 0  # games won (a bye counts two)
    games: int = 0  # games played


@dataclass(frozen=True)
class _Played:
    """One match from one player's side: match points, game points, games won and games played."""

    points: int
    game_points: int
    won: int
    games: int


BYE = _Played(MATCH_WIN, 2 * GAME_WIN, 2, 2)  # MTR: a bye is a 2-0 match win; it is no opponent


def _percentage(points: int, played: int) -> Fraction:
    return max(FLOOR, Fraction(points, 3 * played)) if played else FLOOR


def _average(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def match_standings(
    records: Iterable[MatchRecord],
    *,
    seed: int,
    players: Iterable[Player] = (),
    byes: Iterable[Player] = (),
    dropped: Iterable[Player] = (),
) -> list[MatchStanding]:
    """Ranked standings of a 1-vs-1 tournament (see the module docstring for the order)."""
    played: dict[Player, list[_Played]] = {p: [] for p in players}
    opponents: dict[Player, list[Player]] = {p: [] for p in played}
    for record in records:
        for player in (record.first, record.second):
            played.setdefault(player, []).append(
                _Played(
                    record.points_for(player),
                    record.game_points_for(player),
                    record.games_won(player),
                    record.games,
                )
            )
            opponents.setdefault(player, []).append(record.opponent(player))
    for player in byes:
        played.setdefault(player, []).append(BYE)
        opponents.setdefault(player, [])

    def mw(player: Player) -> Fraction:
        return _percentage(sum(m.points for m in played[player]), len(played[player]))

    def gw(player: Player) -> Fraction:
        return _percentage(sum(m.game_points for m in played[player]), sum(m.games for m in played[player]))

    left = set(dropped)
    rows = [
        (
            player,
            _average([mw(o) for o in opponents[player]]),
            gw(player),
            _average([gw(o) for o in opponents[player]]),
            coin_flip(seed, player),
        )
        for player in played
    ]
    rows.sort(key=lambda r: (-sum(m.points for m in played[r[0]]), -r[1], -r[2], -r[3], r[4]))
    standings = []
    for rank, (player, omw, own_gw, ogw, coin) in enumerate(rows, start=1):
        mine = played[player]
        points = [m.points for m in mine]
        standings.append(
            MatchStanding(
                rank=rank,
                player=player,
                match_points=sum(points),
                matches=len(mine),
                record=(points.count(MATCH_WIN), points.count(MATCH_LOSS), points.count(MATCH_DRAW)),
                opponents_match_win=omw,
                game_win=own_gw,
                opponents_game_win=ogw,
                coin=coin,
                dropped=player in left,
                game_wins=sum(m.won for m in mine),
                games=sum(m.games for m in mine),
            )
        )
    return standings


MATCH_CSV_COLUMNS: tuple[str, ...] = (
    "rank",
    "player",
    "match_points",
    "matches",
    "match_wins",
    "match_losses",
    "match_draws",
    "game_wins",
    "games",
    "opponents_match_win_percent",
    "game_win_percent",
    "opponents_game_win_percent",
    "dropped",
)


def percent(value: Fraction) -> str:
    """A tie-breaker as shown everywhere (embed, image, CSV): one decimal, e.g. ``66.7%``."""
    return f"{float(value) * 100:.1f}%"


def match_standings_csv(standings: Sequence[MatchStanding], name: Callable[[Player], str] = str) -> str:
    """The standings of a tournament of matches as CSV (a header row, one row per player)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MATCH_CSV_COLUMNS)
    for row in standings:
        wins, losses, draws = row.record
        writer.writerow(
            [
                row.rank,
                csv_safe(name(row.player)),
                row.match_points,
                row.matches,
                wins,
                losses,
                draws,
                row.game_wins,
                row.games,
                percent(row.opponents_match_win),
                percent(row.game_win),
                percent(row.opponents_game_win),
                "yes" if row.dropped else "no",
            ]
        )
    return buffer.getvalue()


@dataclass(frozen=True)
class Pairing:
    pairs: list[tuple[Player, Player]]
    bye: Player | None


def _met(a: Player, b: Player, past: set[frozenset[Player]]) -> bool:
    return frozenset((a, b)) in past


def pair_round(
    order: Sequence[Player],
    *,
    past_pairs: Iterable[tuple[Player, Player]] = (),
    had_bye: Iterable[Player] = (),
    seed: int,
    round_number: int,
) -> Pairing:
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
