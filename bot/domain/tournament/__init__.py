"""Commander tournaments under the optional rules of 001 (docs/rules/RULES.md T1–T3), as plain Python.

* ``scoring``   — points for a game: democratic victory (T3), standard and custom rules.
* ``votes``     — the democratic vote: who may vote for whom (T3: one OTHER player at the table).
* ``pairing``   — pods of 4 (3 or 5 for the remainder), few repeat opponents, seeded seats.
* ``standings`` — totals per player with tiebreakers, corrections and CSV export.
* ``prizes``    — the alternative prize goals of T2, computed from game records.

Player ids are any hashable value: Discord user ids in the bot, names in the CLI.
"""

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.scoring import (
    CUSTOM,
    DEMOCRATIC,
    SCORING_NAMES,
    STANDARD,
    GameResult,
    ScoringRule,
    scoring_rule,
)

__all__ = [
    "CUSTOM",
    "DEMOCRATIC",
    "SCORING_NAMES",
    "STANDARD",
    "GameResult",
    "ScoringRule",
    "TournamentError",
    "scoring_rule",
]
