"""The one shape of a refusal in the domain: a message key and the values that fill it.

Every feature raises its own subclass (``PodError``, ``TournamentError``, ``HydraError``/``EventError``,
``MulliganError``) so callers can still catch one feature's refusals, but all of them carry ``key`` (a full
i18n message key) and ``values``, so a front end words any of them in the user's language the same way:
``error.localized(language)``. A subclass names its catalogue once with ``prefix``; a key without a dot
is looked up under it, a dotted key is already a full key (a refusal worded by another catalogue).
The domain does no I/O: the text is looked up only when asked for.
"""

from __future__ import annotations

from typing import ClassVar


class DomainError(Exception):
    """Refused input or a change the rules do not allow; nothing was changed."""

    prefix: ClassVar[str] = ""  # e.g. "pod.error.": where keys without a dot live
    # Values that are member ids when they are ints (a front end names the member: Discord shows a mention).
    member_values: ClassVar[tuple[str, ...]] = ()

    def __init__(self, key: str, **values: object) -> None:
        self.key = key if "." in key or not self.prefix else f"{self.prefix}{key}"
        self.values = values
        super().__init__(f"{self.key} {values}" if values else self.key)

    def localized(self, language: str) -> str:
        """The message in ``language`` (falling back as the catalogues do)."""
        from bot.i18n import t  # the catalogues load lazily; the domain imports nothing that reads files

        return t(self.key, language, **self.values)
