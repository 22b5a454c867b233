"""``podkeeper tournament score FILE``: score games offline, with the same rules as the bot.

FILE is JSON, one object per game: ``{"players": [str], "survivors": [str], "votes": {voter: votee}}``
(``"draw": true`` may mark an agreed draw). The output (``--json``) is
``{"standings": [{"player": str, "points": int, "survivals": int, "votes": int}]}`` sorted by points
(highest first), then name. Exit status: 0 scored, 1 the games break a rule (e.g. a vote for
oneself, T3), 2 the file can't be read or is not in that shape.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.domain.tournament import SCORING_NAMES, ScoringRule, TournamentError, scoring_rule
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.scoring import GameResult, score_games

EXIT_INVALID = 1
EXIT_UNREADABLE = 2
_GAME_KEYS = {"players", "survivors", "votes", "draw"}
_POINT_OPTIONS = ("win", "draw", "survival", "vote", "elimination")


class UnreadableGames(Exception):
    """The file is not JSON in the documented shape."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tournament", help="tournament tools (score a file of games)", description="Tournament tools."
    )
    sub = parser.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)
    score = sub.add_parser(
        "score",
        help="score a JSON file of games (democratic victory by default)",
        description="Score games: democratic (T3: 2 points for surviving, 1 per vote received), "
        "standard (win 5, draw 1) or custom (the --win/--draw/--survival/--vote/--elimination "
        "points).",
    )
    score.add_argument(
        "file",
        type=Path,
        metavar="FILE",
        help='JSON: [{"players": [...], "survivors": [...], "votes": {"voter": "votee"}}]',
    )
    score.add_argument("--scoring", choices=SCORING_NAMES, default="democratic", help="scoring rule")
    for what in _POINT_OPTIONS:
        score.add_argument(
            f"--{what}", type=int, default=0, metavar="N", help=f"custom scoring: points per {what}"
        )
    score.add_argument("--json", action="store_true", help="print JSON instead of a table")
    score.set_defaults(func=_score)


def _score(args: argparse.Namespace) -> int:
    try:
        rule = scoring_rule(args.scoring, **{name: getattr(args, name) for name in _POINT_OPTIONS})
    except TournamentError as exc:  # a bad command line, not a bad file
        print(f"podkeeper tournament score: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        games = load_games(args.file)
    except UnreadableGames as exc:
        print(f"podkeeper tournament score: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except TournamentError as exc:
        print(f"podkeeper tournament score: {exc}", file=sys.stderr)
        return EXIT_INVALID
    rows = standings_rows(games, rule)
    if args.json:
        print(json.dumps({"standings": rows}, ensure_ascii=False, indent=2))
    else:
        print(format_table(rows))
    return 0


def load_games(path: Path) -> list[GameResult]:
    """Read and check every game of the file (1-based game numbers in messages)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise UnreadableGames(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UnreadableGames(f"{path} is not UTF-8 text (byte {exc.start}): is it a JSON file?") from None
    try:
        data = json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise UnreadableGames(f"{path} is not valid JSON: {exc}") from None
    except RecursionError:
        raise UnreadableGames(f"{path}: nested too deeply to be a file of games") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise UnreadableGames(f"{path} is not valid JSON: {str(exc)[:120]}") from None
    if not isinstance(data, list):
        raise UnreadableGames(f"{path}: expected a JSON list of games, got {type(data).__name__}")
    known = {
        name
        for game in data
        if isinstance(game, dict) and isinstance(game.get("players"), list)
        for name in game["players"]
        if isinstance(name, str)
    }
    return [_game(number, game, known) for number, game in enumerate(data, start=1)]


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One vote each (T3): JSON would silently keep the last of two votes by the same voter."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise UnreadableGames(f"key {key!r} appears twice in one object (a voter may vote only once)")
        result[key] = value
    return result


def _game(number: int, game: Any, known: set[str]) -> GameResult:
    where = f"game {number}"
    if not isinstance(game, dict):
        raise UnreadableGames(f"{where}: expected an object, got {type(game).__name__}")
    unknown = set(game) - _GAME_KEYS
    if unknown:
        raise UnreadableGames(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(_GAME_KEYS))}"
        )
    players = _names(game.get("players"), f"{where}: players")
    survivors = _names(game.get("survivors", []), f"{where}: survivors")
    votes = game.get("votes", {})
    if not isinstance(votes, dict) or not all(isinstance(v, str) for v in votes.values()):
        raise UnreadableGames(f"{where}: votes must be an object of voter name to votee name")
    draw = game.get("draw", False)
    if not isinstance(draw, bool):
        raise UnreadableGames(f"{where}: draw must be true or false")
    return checked_game(number, players, survivors, votes, draw=draw, known=known)


def _names(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(name, str) and name for name in value):
        raise UnreadableGames(f"{where} must be a list of player names")
    return value


def standings_rows(games: list[GameResult], rule: ScoringRule) -> list[dict[str, Any]]:
    """The documented output rows, sorted by points (highest first), then name."""
    totals = score_games(games, rule)
    rows: list[dict[str, Any]] = [
        {"player": player, "points": tally.points, "survivals": tally.survivals, "votes": tally.votes}
        for player, tally in totals.items()
    ]
    rows.sort(key=lambda row: (-row["points"], row["player"]))
    return rows


def format_table(rows: list[dict[str, Any]]) -> str:
    width = max([len("player"), *(len(row["player"]) for row in rows)])
    lines = [f"{'player':<{width}}  points  survivals  votes"]
    lines += [
        f"{row['player']:<{width}}  {row['points']:>6}  {row['survivals']:>9}  {row['votes']:>5}"
        for row in rows
    ]
    return "\n".join(lines)
