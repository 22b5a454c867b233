"""Checked construction of a finished game, shared by the CLI (JSON files) and the bot (pod records)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.scoring import GameResult, Player
from bot.domain.tournament.votes import validate_votes


def checked_game(
    game: object,
    players: Iterable[Player],
    survivors: Iterable[Player],
    votes: Mapping[Player, Player] | None = None,
    *,
    draw: bool = False,
    eliminations: Mapping[Player, int] | None = None,
    stopped: bool = False,
    known: Iterable[Player] = (),
) -> GameResult:
    """A ``GameResult`` after checking it makes sense; ``game`` labels the game in error messages.

    Refused: a player seated twice, a survivor who did not play, and any vote T3 forbids.
    """
    players = tuple(players)
    seen: set[Player] = set()
    for player in players:
        if player in seen:
            raise TournamentError("player_seated_twice", game=game, player=player)
        seen.add(player)
    survivors = frozenset(survivors)
    for survivor in survivors:
        if survivor not in seen:
            raise TournamentError("survivor_not_at_table", game=game, player=survivor)
    votes = dict(votes or {})
    validate_votes(game, players, votes, known)
    return GameResult(players, survivors, votes, draw, dict(eliminations or {}), stopped)
