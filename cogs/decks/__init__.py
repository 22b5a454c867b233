"""``/deck check|register|list|show|delete|export``: deck legality verdicts and registered decks.

Thin: options and attachments are read here, the work is ``DeckService`` (bot.services.decks), the
words and the summary image come from ``bot.render.deck``. A list comes from the ``list`` option (one
line: pasted newlines are lost, so "1 A 1 B" is split back into lines), an attached .txt/.dek/.cod/.dck/.csv file,
or — when neither is given — a modal with a long text field.

Buttons are ``DynamicItem``s registered at load. Delete confirmations carry the deck id and the person
who asked, so they work after a restart. Page buttons and overwrite confirmations point at results
kept in memory (a check that saved nothing has nowhere else to live); after a restart they answer
"expired" instead of failing.

Registered decks are re-checked when the server's ruleset changes (``on_ruleset_changed``, dispatched
by the admin cog), when the card data changed since a deck was checked (at load, every few minutes
after the cards feature reloaded its index, and on ``on_card_data_changed`` if anyone dispatches it),
and whenever a deck is shown.

The package: ``cog`` (the commands and reading input), ``buttons`` (what the buttons do), ``panels``
(verdict and list embeds, pages), ``components`` and ``modals`` (the Discord items), ``notices`` (the
private messages when new card data changed a verdict); texts in ``bot.render.deck_text``.
"""

from __future__ import annotations

from bot.client import PodkeeperBot
from cogs.decks.cog import DeckCog
from cogs.decks.notices import send_change_notices

__all__ = ["DeckCog", "send_change_notices", "setup"]


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(DeckCog(bot))
