"""Points for one game under a scoring rule.

``democratic`` is the democratic victory of 001 (T3): 2 points for surviving (alive at the end of the
game) plus 1 point per vote received. ``standard`` is the "last one standing" count: 5 for the win,
1 to each player still in when the game ends in a draw. ``custom`` lets the organiser weigh all five
things (win, draw, survival, vote, elimination of an opponent).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from bot.domain.tournament.errors import TournamentError

Player = Hashable


@dataclass(frozen=True)
class ScoringRule:
    """Points per event. ``name`` is one of ``SCORING_NAMES``."""

    name: str
    win: int = 0
    draw: int = 0
    survival: int = 0
    vote: int = 0
    elimination: int = 0

    @property
    def uses_votes(self) -> bool:
        """Whether finished games need a democratic vote (T3) before they can be scored."""
        return self.vote != 0


DEMOCRATIC = ScoringRule("democratic", survival=2, vote=1)
STANDARD = ScoringRule("standard", win=5, draw=1)
CUSTOM = "custom"
SCORING_NAMES: tuple[str, ...] = ("democratic", "standard", CUSTOM)
MAX_POINTS_PER_EVENT = 100


def scoring_rule(
    name: str, *, win: int = 0, draw: int = 0, survival: int = 0, vote: int = 0, elimination: int = 0
) -> ScoringRule:
    """The rule called ``name``; point values may be given only for ``custom`` (elsewhere they would
    be silently ignored, which hides a mistake)."""
    values = {"win": win, "draw": draw, "survival": survival, "vote": vote, "elimination": elimination}
    given = [what for what, points in values.items() if points]
    if given and name != CUSTOM:
        raise TournamentError("points_need_custom", options=tuple(given), name=name)
    if name == DEMOCRATIC.name:
        return DEMOCRATIC
    if name == STANDARD.name:
        return STANDARD
    if name != CUSTOM:
        raise TournamentError("unknown_scoring", name=name, names=tuple(SCORING_NAMES))
    for what, points in values.items():
        if not -MAX_POINTS_PER_EVENT <= points <= MAX_POINTS_PER_EVENT:
            raise TournamentError("points_out_of_range", what=what, points=points, limit=MAX_POINTS_PER_EVENT)
    return ScoringRule(CUSTOM, **values)


@dataclass(frozen=True)
class GameResult:
    """What scoring needs from one finished game.

    ``survivors`` are the players alive when the game ended; in a draw, everyone still in (T3).
    A game that is not a draw and has exactly one survivor was won by that survivor.
    ``eliminations`` counts the opponents each player knocked out. A game ``stopped`` early (``/pod end``)
    is neither a win nor a draw: only survival, votes and eliminations score.
    """

    players: tuple[Player, ...]
    survivors: frozenset[Player]
    votes: Mapping[Player, Player] = field(default_factory=dict)
    draw: bool = False
    eliminations: Mapping[Player, int] = field(default_factory=dict)
    stopped: bool = False

    @property
    def winner(self) -> Player | None:
        if self.draw or self.stopped or len(self.survivors) != 1:
            return None
        return next(iter(self.survivors))

    @property
    def is_draw(self) -> bool:
        """A draw was agreed, or the game ended with several (or no) players still in."""
        return not self.stopped and self.winner is None


@dataclass
class Tally:
    """A player's running totals over games."""

    points: int = 0
    games: int = 0
    survivals: int = 0
    votes: int = 0
    wins: int = 0
    draws: int = 0
    eliminations: int = 0


def score_game(result: GameResult, rule: ScoringRule) -> dict[Player, Tally]:
    """Each player's points and counts for one game."""
    votes_received = Counter(result.votes.values())
    winner = result.winner
    tallies: dict[Player, Tally] = {}
    for player in result.players:
        survived = player in result.survivors
        won = player == winner
        drew = survived and result.is_draw
        tally = Tally(
            games=1,
            survivals=int(survived),
            votes=votes_received[player],
            wins=int(won),
            draws=int(drew),
            eliminations=result.eliminations.get(player, 0),
        )
        tally.points = (
            rule.survival * tally.survivals
            + rule.vote * tally.votes
            + rule.win * tally.wins
            + rule.draw * tally.draws
            + rule.elimination * tally.eliminations
        )
        tallies[player] = tally
    return tallies


def add_tally(total: Tally, more: Tally) -> None:
    total.points += more.points
    total.games += more.games
    total.survivals += more.survivals
    total.votes += more.votes
    total.wins += more.wins
    total.draws += more.draws
    total.eliminations += more.eliminations


def score_games(results: list[GameResult], rule: ScoringRule) -> dict[Player, Tally]:
    """Totals over many games, one entry per player seen at any table."""
    totals: dict[Player, Tally] = {}
    for result in results:
        for player, tally in score_game(result, rule).items():
            add_tally(totals.setdefault(player, Tally()), tally)
    return totals
