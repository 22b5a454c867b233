"""Small builders shared by the deck tests."""

from __future__ import annotations


def deck_text(commander: str, cards: list[str], *, basics: str = "Forest", sideboard: list[str] = ()) -> str:
    """A 100-card list: the commander, ``cards`` and enough ``basics`` to fill the 99."""
    lines = [f"Commander: {commander}", *[f"1 {name}" for name in cards]]
    filler = 99 - len(cards)
    if filler:
        lines.append(f"{filler} {basics}")
    if sideboard:
        lines += ["", "Sideboard", *[f"1 {name}" for name in sideboard]]
    return "\n".join(lines)
