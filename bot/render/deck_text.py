"""The words of ``/deck`` replies that need no Discord object: pasted lists read back into lines, pages
of problems, the verdict's texts and image (built in the work pool), the "verdict changed" note.

Moved out of the deck cog next to ``bot.render.deck``, which words single problems.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.i18n import Translate
from bot.render.deck import note_message, problem_message, rule_tag, summary_image
from bot.text import ECHO, fit

if TYPE_CHECKING:
    from bot.services.decks import DeckCheck
    from bot.storage.deck_changes import DeckChange

PROBLEMS_PER_PAGE = 12
PAGE_CHARACTERS = 3500  # an embed description holds 4096
_INLINE_ENTRY = re.compile(r"\s+(?=\d{1,3}x?\s+\S)")
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")  # discord.utils.escape_mentions' pattern


def escape(text: str) -> str:
    """User text (deck names, unknown card names) shown as written, never as markdown or a ping,
    and cut to ``ECHO`` characters: an option can hold 6,000, a message 2,000. Mentions are broken
    with a zero-width space, as ``discord.utils.escape_mentions`` does."""
    return fit(_MENTION.sub("@\u200b\\1", text), ECHO)


def unflatten(text: str) -> str:
    """A list pasted into a one-line option ("1 Sol Ring 1 Island") back into lines."""
    if "\n" in text or len(_INLINE_ENTRY.findall(text)) < 1:
        return text
    return _INLINE_ENTRY.sub("\n", text.strip())


def paginate(lines: list[str], per_page: int = PROBLEMS_PER_PAGE, budget: int = PAGE_CHARACTERS) -> list[str]:
    """Lines grouped into pages by count and length; a very long line gets a page of its own."""
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        line = line if len(line) <= budget else line[: budget - 1] + "…"
        if pages[-1] and (len(pages[-1]) >= per_page or size + len(line) + 1 > budget):
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    return ["\n".join(page) for page in pages]


def change_line(tr: Translate, change: DeckChange | None) -> str:
    """The /deck list note under a deck whose verdict new card data changed."""
    if change is None:
        return ""
    return "\n" + tr(
        "deck.list.changed",
        date=change.changed_at[:10],
        old=tr(f"deck.status.{change.old_status}"),
        new=tr(f"deck.status.{change.new_status}"),
    )


def printed_names(cards: Any, language: str) -> Callable[[str], str]:
    """``english -> the card's printed name in language`` (the English name for unknown cards)."""

    def name_for(english: str) -> str:
        card = cards.get(english)
        return card.printed_name(language) if card is not None else english

    return name_for


def verdict_parts(result: DeckCheck, language: str, cards: Any) -> tuple[list[str], bytes]:
    """The verdict's pages of problems and notes and its summary image. A 1,000-line list has 1,000
    problems to word: this runs in the work pool (``cards``: the shared card database, for printed names)."""
    verdict = result.verdict
    name_for = printed_names(cards, language)
    lines = [
        f"`{rule_tag(p.rule, language)}` {escape(problem_message(p, language, name_for))}"
        for p in verdict.problems
    ]
    lines += [f"ℹ️ {escape(note_message(note, language))}" for note in verdict.notes]
    return (paginate(lines) if lines else [""]), summary_image(
        result.summary, verdict.colour_identity, language
    )
