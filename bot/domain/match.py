"""A 1-vs-1 match: best of three games between the same two players with the same decks (docs/rules/RULES.md G9).

Each game of a match is an ordinary pod game (its own event log, board, record); the match is its own
append-only log of which game is which and who chose to play first, folded with the games' outcomes.

* The match ends when a player has won two games, or after three games: a drawn game counts as played,
  and equal wins after three games is a drawn match.
* Who plays first in the next game: the loser of the previous game chooses (the usual tournament rule,
  Magic Tournament Rules 2.2). After a drawn game, the player who chose for the drawn game chooses again;
  game 1's order is the board's seat order (its seat 1 "chose"), so the rule always names somebody.
* Each game starts fresh: life, commander tax and death counters (G3b) belong to a game, not a match.

Plain Python: no Discord, SQL or clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.domain.errors import DomainError
from bot.domain.events import UNDO as UNDO  # re-exported: m.UNDO names a match undo
from bot.domain.events import Event, effective

BEST_OF = 3  # G9
WINS_NEEDED = 2

# Match event kinds.
CREATE = "create"
GAME = "game"  # a game of the match began: {"game_id", "number", "first", "chosen_by"}

# A finished game's outcome for the match.
WIN = "win"
DRAW = "draw"


class MatchError(DomainError):
    """A refused match change; ``key`` is an i18n key under ``match.error.``."""

    prefix = "match.error."


MatchEvent = Event  # a match's log is an event log like a game's (bot/domain/events.py)


@dataclass(frozen=True)
class Outcome:
    """How a game of the match ended: ``winner`` is None for a drawn (or stopped) game."""

    winner: int | None

    @property
    def drawn(self) -> bool:
        return self.winner is None


@dataclass
class MatchGame:
    number: int
    game_id: int
    first: int  # the player who played first
    chosen_by: int  # who chose that (game 1: the first seat)
    outcome: Outcome | None = None  # None while the game runs


@dataclass
class MatchState:
    match_id: int
    players: tuple[int, int]
    games: list[MatchGame] = field(default_factory=list)
    last_seq: int = 0

    def wins(self, player: int) -> int:
        return sum(1 for g in self.games if g.outcome is not None and g.outcome.winner == player)

    @property
    def score(self) -> tuple[int, int]:
        return self.wins(self.players[0]), self.wins(self.players[1])

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.outcome is not None and g.outcome.drawn)

    @property
    def current(self) -> MatchGame | None:
        return self.games[-1] if self.games else None

    @property
    def game_running(self) -> bool:
        return self.current is not None and self.current.outcome is None

    @property
    def finished(self) -> bool:
        if self.game_running:
            return False
        return max(self.score) >= WINS_NEEDED or len(self.games) >= BEST_OF

    @property
    def winner(self) -> int | None:
        """The match winner once it is over (None while running, or for a drawn match)."""
        if not self.finished:
            return None
        first, second = self.score
        if first == second:
            return None
        return self.players[0] if first > second else self.players[1]

    @property
    def drawn(self) -> bool:
        return self.finished and self.winner is None

    def opponent(self, player: int) -> int:
        return self.players[1] if player == self.players[0] else self.players[0]

    @property
    def chooser(self) -> int | None:
        """Who chooses who plays first in the next game (None while a game runs or the match is over)."""
        last = self.current
        if last is None or last.outcome is None or self.finished:
            return None
        if last.outcome.winner is None:
            return last.chosen_by  # after a draw, the same player chooses again (MTR 2.2)
        return self.opponent(last.outcome.winner)

    def game_number(self, game_id: int) -> int | None:
        return next((g.number for g in self.games if g.game_id == game_id), None)


def replay(match_id: int, events: Iterable[MatchEvent], outcomes: Mapping[int, Outcome]) -> MatchState:
    """The match after ``events`` (undone ones skipped), with ``outcomes`` of its finished games by id."""
    events = list(events)
    state: MatchState | None = None
    for event in effective(events):
        if event.kind == CREATE:
            players = [int(p) for p in event.data["players"]]
            if len(players) != 2 or players[0] == players[1]:
                raise MatchError("two_players")
            state = MatchState(match_id, (players[0], players[1]))
        elif state is not None and event.kind == GAME:
            data = event.data
            state.games.append(
                MatchGame(
                    number=int(data["number"]),
                    game_id=int(data["game_id"]),
                    first=int(data["first"]),
                    chosen_by=int(data["chosen_by"]),
                )
            )
    if state is None:
        raise MatchError("no_match")
    state.last_seq = events[-1].seq
    for game in state.games:
        game.outcome = outcomes.get(game.game_id)
    return state


def check_next(state: MatchState, actor: int, first: int) -> int:
    """Who may start the next game and with whom first; returns its number. Raises MatchError."""
    if state.game_running:
        raise MatchError("game_running")
    if state.finished:
        raise MatchError("match_over")
    if first not in state.players:
        raise MatchError("not_a_player")
    if actor != state.chooser:
        raise MatchError("not_chooser")
    return len(state.games) + 1


def undoable(events: Iterable[MatchEvent]) -> int:
    """The seq an undo of the match drops: its last effective "game" event, never game 1 or the creation."""
    games = [e for e in effective(events) if e.kind == GAME]
    if len(games) < 2:
        raise MatchError("nothing_to_undo")
    return games[-1].seq


@dataclass(frozen=True)
class MatchResult:
    """A finished match for standings: players, game wins each, drawn games, and the winner (None: drawn)."""

    match_id: int
    players: tuple[int, int]
    wins: tuple[int, int]
    draws: int
    winner: int | None


def result(state: MatchState) -> MatchResult:
    if not state.finished:
        raise MatchError("match_running")
    return MatchResult(state.match_id, state.players, state.score, state.draws, state.winner)
