"""Reading the ``players:`` text of ``/pod start``: mentions, and names typed as plain words.

Discord turns a member picked from the mention list into ``<@id>``, but a name typed without picking
it stays plain text ("@dave", "Bob"). Those words were dropped silently, so a game started without a
player and nobody was told. This module splits the text, in seat order, into mentions and runs of
typed words; the cog looks the words up among the server's members and names every word it could
not match to exactly one member, so nothing the player typed is ignored.

Plain Python (no Discord): a parser of user input, property-tested.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A mention (``<@id>`` or ``<@!id>``), a bare user id (15-21 digits, as "copy user id" gives), or one
# typed word. Commas, semicolons and whitespace separate words; a comma or semicolon also ends a run of
# words, so "Mary Jane, Bob" reads as the two names "Mary Jane" and "Bob".
_PIECE = re.compile(r"<@!?(\d{1,21})>|(?<![\w@])(\d{15,21})(?!\w)|([,;])|([^\s,;]+)")
LONGEST_NAME_WORDS = 4  # a typed display name is tried over at most this many consecutive words
MAX_TYPED_WORDS = 40  # more typed words than any table needs is not a player list (it is refused)


@dataclass(frozen=True)
class Mentioned:
    """A member given as a mention or a user id."""

    user_id: int


@dataclass(frozen=True)
class Typed:
    """Consecutive typed words (no mention or comma between them): one name, or several names."""

    words: tuple[str, ...]


def parse_players(text: str) -> list[Mentioned | Typed]:
    """The pieces of ``text`` in the order typed. A leading "@" of a typed word is dropped (it was
    meant as a mention); a word that is only "@" is no name and is left out."""
    pieces: list[Mentioned | Typed] = []
    run: list[str] = []

    def end_run() -> None:
        if run:
            pieces.append(Typed(tuple(run)))
            run.clear()

    for match in _PIECE.finditer(text or ""):
        mention, bare_id, separator, word = match.groups()
        if mention or bare_id:
            end_run()
            pieces.append(Mentioned(int(mention or bare_id)))
        elif separator:
            end_run()
        elif word.lstrip("@"):
            run.append(word.lstrip("@"))
    end_run()
    return pieces
