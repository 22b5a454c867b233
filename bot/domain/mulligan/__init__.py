"""Mulligans: the table step of a pod game, practice hands and opening-hand odds.

* ``procedure``: one player's way through partial Paris (M1), London and Vancouver.
* ``table``: ``TableMulligan``, the whole table in turn order, for the pod board.
* ``practice``: ``PracticeHand``, goldfishing with real cards.
* ``odds``: exact hypergeometric and per-style keepable-hand probabilities.
"""

from bot.domain.mulligan.procedure import (
    OPENING_HAND,
    Choice,
    Decision,
    Instruction,
    MulliganError,
    MulliganStyle,
    PlayerMulligan,
    free_first_mulligan,
    parse_decision,
    style_for_ruleset,
)
from bot.domain.mulligan.table import SeatState, SeatStatus, TableMulligan

__all__ = [
    "OPENING_HAND",
    "Choice",
    "Decision",
    "Instruction",
    "MulliganError",
    "MulliganStyle",
    "PlayerMulligan",
    "SeatState",
    "SeatStatus",
    "TableMulligan",
    "free_first_mulligan",
    "parse_decision",
    "style_for_ruleset",
]
