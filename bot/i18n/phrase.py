"""A part of a sentence that each language words its own way, named by a catalogue key.

The domain never assembles reader's text: where a value of a message is itself a small phrase ("3.
Minotaur Goreseeker (3/2)", "Alice: Grizzly Bears"), it passes a ``Phrase`` — a key and its values — and
``t()`` words it in the language of the sentence it fills, so the colon, the parentheses and the order of
the parts are the reader's. A tuple of phrases is joined with the language's list separator like any
other list. Plain data: building one reads no catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Phrase:
    """The message ``key`` with ``values``, to be worded inside another message."""

    key: str
    values: dict[str, object] = field(default_factory=dict)
