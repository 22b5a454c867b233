"""Fit user-typed text into Discord's limits: escape Markdown, then shorten on a safe boundary.

Discord refuses a message whose content passes 2,000 characters or an embed field 1,024, and a user
can type 6,000 characters into one string option. Escaping (``*`` → ``\\*``) can double a text's
length, so we escape first and then cut, never inside an escape, a combining sequence or an emoji
joined with ZWJ, and mark the cut with "…". Plain Python (no discord import): cogs and the domain both use it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

ELLIPSIS = "…"
# Characters Discord's Markdown gives a meaning to anywhere (bold, italics, underline, strike, code,
# spoiler, masked links, escapes themselves), and those that only matter at the start of a line
# (quote, heading, list), as discord.py's escape_markdown sees them.
_MARKDOWN = set("\\*_~`|[]")
_LINE_START = set(">#-")
_JOINERS = {"\u200d", "\ufe0e", "\ufe0f"}  # zero-width joiner, text/emoji variation selectors
SAFE_CUT_WINDOW = 12  # look this far back for a space to cut at, so a word is not split
ECHO = 100  # how much of a user-typed name a reply shows back (enough to recognise it, never a flood)


def escape_markdown(text: str) -> str:
    """Every Markdown character escaped with a backslash, so the text shows as typed."""
    return "".join(_tokens(text))


def _tokens(text: str) -> list[str]:
    """The escaped text as indivisible pieces: ``\\*`` stays whole; lone surrogates are dropped."""
    tokens: list[str] = []
    line_start = True
    for char in text:
        if "\ud800" <= char <= "\udfff":
            continue
        special = char in _MARKDOWN or (line_start and char in _LINE_START)
        tokens.append("\\" + char if special else char)
        if char == "\n":
            line_start = True
        elif not char.isspace():
            line_start = False
    return tokens


def _glued(char: str) -> bool:
    """True when ``char`` belongs to the character before it (a cut before it would split a glyph)."""
    return bool(unicodedata.combining(char)) or char in _JOINERS or "\U0001f3fb" <= char <= "\U0001f3ff"


def fit(text: str, budget: int, *, escape: bool = True, ellipsis: str = ELLIPSIS) -> str:
    """``text`` (Markdown-escaped unless ``escape=False``) in at most ``budget`` characters.

    A text that fits is returned whole; otherwise it is cut at a token boundary (preferring a space
    among the last few characters) that does not split a glyph, and ``ellipsis`` is added.
    """
    tokens = _tokens(text) if escape else [c for c in text if not "\ud800" <= c <= "\udfff"]
    if sum(map(len, tokens)) <= budget:
        return "".join(tokens)
    room = budget - len(ellipsis)
    if room <= 0:
        return ellipsis[: max(budget, 0)]
    count, used = 0, 0
    while count < len(tokens) and used + len(tokens[count]) <= room:
        used += len(tokens[count])
        count += 1
    while count > 0 and count < len(tokens) and _glued(tokens[count][-1]):
        count -= 1  # don't leave an accent or a ZWJ sequence half-shown
    spaces = [i for i in range(max(count - SAFE_CUT_WINDOW, 1), count) if tokens[i].isspace()]
    if spaces:
        count = spaces[-1]
    return "".join(tokens[:count]).rstrip() + ellipsis


def fit_lines(
    lines: Sequence[str],
    budget: int,
    more: Callable[[int], str],
    *,
    separator: str = "\n",
    keep_last: bool = False,
) -> str:
    """As many whole ``lines`` as fit in ``budget`` characters, then ``more(n)`` for the ``n`` left out.

    ``more`` gives the localized "and N more"; the result never passes ``budget`` (a single line
    longer than the budget is itself shortened with :func:`fit`, without escaping again).
    ``keep_last`` keeps the last lines instead (a history, newest last) with ``more`` first.
    """
    joined = separator.join(lines)
    if len(joined) <= budget:
        return joined
    if keep_last:
        kept = _fitting(list(reversed(lines)), budget, more, separator)
        return (
            separator.join([more(len(lines) - len(kept)), *reversed(kept)])
            if kept
            else fit_lines(list(reversed(lines)), budget, more, separator=separator)
        )
    kept = _fitting(list(lines), budget, more, separator)
    if kept:
        return separator.join([*kept, more(len(lines) - len(kept))])
    suffix = more(len(lines) - 1)
    room = budget - len(separator) - len(suffix)
    if room < len(ELLIPSIS) + 1:
        return fit(suffix, budget, escape=False)
    return fit(lines[0], room, escape=False) + separator + suffix


def _fitting(lines: list[str], budget: int, more: Callable[[int], str], separator: str) -> list[str]:
    """The leading lines that fit in ``budget`` together with the "and N more" for the rest."""
    kept: list[str] = []
    for line in lines:
        if len(separator.join([*kept, line, more(len(lines) - len(kept) - 1)])) > budget:
            break
        kept.append(line)
    return kept


# Characters that change how the text around them is shown without being seen themselves: direction
# overrides and isolates (a name ending in U+202E flips the rest of a board line), directional marks,
# and zero-width spaces and joiners that can make a name look empty or like another one.
_INVISIBLE = {
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
    "\u200e",
    "\u200f",
    "\u061c",
    "\u200b",
    "\u200c",
    "\u2060",
    "\ufeff",
    "\u180e",
    "\u00ad",
}
MAX_MARKS = 2  # combining marks kept on one character: enough for any script, not for "Zalgo" text


def shown_name(text: str) -> str:
    """A name as the bot stores and shows it (decks, players on boards and pages): NFC, without the
    invisible format characters above (the joiner inside an emoji sequence stays), at most
    ``MAX_MARKS`` combining marks on a character, spaces collapsed. An empty result means the name
    had nothing visible in it."""
    kept: list[str] = []
    marks = 0
    visible = "".join(c for c in text or "" if c not in _INVISIBLE and not "\ud800" <= c <= "\udfff")
    for char in unicodedata.normalize("NFC", visible):  # composed after the removal: a mark meets its letter
        if unicodedata.combining(char):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(char)
    name = " ".join("".join(kept).split())
    return name if any(unicodedata.category(char) not in _UNSEEN for char in name) else ""


_UNSEEN = {"Cf", "Cc", "Mn", "Me", "Zs", "Zl", "Zp"}  # categories that show nothing on their own


def member_name(name: str, user_id: int) -> str:
    """A member's display name as seats, entrants and boards keep it (``shown_name``); one with nothing
    visible gets the end of the member's id, so two such players stay apart (a button label cannot show
    a mention)."""
    return shown_name(name) or f"#{str(user_id)[-4:]}"
