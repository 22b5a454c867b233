"""The texts of a Hydra table's turn messages and players' reports: what was revealed (with the
cards' texts), what happened, and the question of the moment. Moved out of the Hydra cog."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from bot.domain.hydra import Event, HydraGame
from bot.domain.hydra.cards import CARDS
from bot.i18n.glossary import card_name
from bot.render.hydra import decision_text, event_text

if TYPE_CHECKING:
    from bot.services.hydra import HydraTable

MESSAGE_LIMIT = 2000  # Discord's limit for a message's content


def turn_starts(game: HydraGame | None) -> list[int]:
    """Where each Hydra turn begins in the game log (one turn message each)."""
    return [] if game is None else [i for i, e in enumerate(game.events) if e.key == "hydra.log.hydra_turn"]


def turn_content(table: HydraTable, start: int) -> str:
    """One Hydra turn (its ``hydra_turn`` event at ``start``): revealed cards with their texts,
    what happened, the damage, and — for the turn in progress — the question of the moment."""
    game, language = table.game, table.row.language
    assert game is not None
    lines = []
    for index, event in enumerate(game.events[start:], start=start):
        if index > start and event.key in ("hydra.log.hydra_turn", "hydra.log.players_turn"):
            break
        text = event_text(event, language)
        lines.append(f"**{text}**" if index == start else text)
        if event.key == "hydra.log.reveal":
            lines.append("> " + CARDS[str(event.values["card"])].oracle_text.replace("\n", "\n> "))
    else:
        if game.pending is not None:
            owner = table.user_to_answer()
            lines.append("")
            lines.append((f"<@{owner}> " if owner else "") + decision_text(game, game.pending, language))
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else "…" + text[-(MESSAGE_LIMIT - 1) :]


def report_content(table: HydraTable, events: list[Event]) -> str:
    """What the players' own action did to the Hydra, explained like a Hydra turn: the heads
    that left, Hero's Reward (and the draw reminder), the cards revealed with the texts of the
    heads that grew, and the question of the moment."""
    game, language = table.game, table.row.language
    assert game is not None
    lines = []
    for event in events:
        lines.append(event_text(event, language))
        if event.key == "hydra.log.grow":
            grown = [name for name in cast(tuple[str, ...], event.values["cards"]) if CARDS[name].is_head]
            lines += [
                "> " + f"**{card_name(name, language)}** — " + CARDS[name].oracle_text.replace("\n", "\n> ")
                for name in grown
            ]
    if game.pending is not None:
        owner = table.user_to_answer()
        lines += ["", (f"<@{owner}> " if owner else "") + decision_text(game, game.pending, language)]
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else "…" + text[-(MESSAGE_LIMIT - 1) :]
