"""Mulligan texts for the pod board and the practice/odds commands, in the reader's language.

The pod board (issue #4) integrates the table step with ``bot.domain.mulligan.TableMulligan`` and turns
its states into words here::

    from bot.services.mulligan import status_line, instruction_text, error_text
    status_line(table, names={alice_id: "Alice", bob_id: "Bob"}, language="en")
    # "Alice kept 6 · Bob deciding (7 in hand)"
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping

from bot.domain.mulligan import Instruction, MulliganError, MulliganStyle, SeatState, TableMulligan
from bot.i18n import t


def style_name(style: MulliganStyle | str, language: str) -> str:
    return t(f"mulligan.style.{MulliganStyle(style).value}", language)


def status_line(table: TableMulligan, names: Mapping[Hashable, str], language: str) -> str:
    """"Alice kept 6 · Bob deciding (7 in hand) · Carol waiting (6 in hand)", in seat order."""
    parts = []
    for seat in table.status():
        name = names.get(seat.player, str(seat.player))
        count = seat.keeps if seat.state is SeatState.KEPT else seat.hand_size
        parts.append(t(f"mulligan.seat.{seat.state.value}", language, name=name, count=count))
    return t("mulligan.seat.separator", language).join(parts)


def instruction_text(instructions: Instruction | Iterable[Instruction], language: str) -> str:
    """What to do with the cards, e.g. "Draw 2." (several instructions joined by a space)."""
    if isinstance(instructions, Instruction):
        instructions = (instructions,)
    return " ".join(t(i.message_key, language, count=i.count) for i in instructions)


def error_text(error: MulliganError, language: str, names: Mapping[Hashable, str] | None = None) -> str:
    """The localized message of a refused decision; player ids in it are replaced by ``names``."""
    values = {key: (names or {}).get(value, value) if isinstance(value, Hashable) else value
              for key, value in error.values.items()}
    return t(error.key, language, **values)
