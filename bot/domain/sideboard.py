"""Sideboard swaps (docs/rules/RULES.md D7, T1): cards move 1-for-1 between the main deck and the sideboard.

Between the games of a 1-vs-1 match (000 §3.2), and — when a server turns the optional rule of 001 on —
within 3 minutes after the commanders are declared, each player may swap cards one for one between
deck and sideboard. The commander can't be swapped, and the main deck keeps its size.

Plain Python: a :class:`ResolvedDeck` and swaps in, the deck as it will be played and its verdict out.
The deck is re-checked as a whole (``bot.domain.rules.check_deck``: singleton over all 110 cards, colour
identity …); a swap is refused when the deck as played has a problem the deck before it did not have
(so a deck that was already unverifiable does not block every swap for the same old reason).

The window of the optional rule is computed from stored timestamps and an injected "now", so it closes
by itself, also across a restart: nothing has to be running when it ends.

Wishes (D7, 001: "cards left out of the deck can be fetched by 'wish' cards"): during a game, a card such
as Burning Wish brings a card the player owns "from outside the game" into the game; with a sideboard
that is a sideboard card. :func:`check_wish` says which sideboard card (as played, after the swaps) a
wish may fetch: each sideboard card once per game (a sideboard is singleton, D7); the next game starts
again from the whole sideboard (a fetched card returns between games).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot.domain.decklist import DeckLine, Section
from bot.domain.errors import DomainError
from bot.domain.pod import MAX_SWAPS_AT_ONCE as MAX_SWAPS  # more at once can only repeat or undo each other
from bot.domain.rules import ResolvedDeck, Verdict, check_deck, get_ruleset
from bot.domain.rules.deck import DeckCard

WINDOW = timedelta(minutes=3)  # T1 / 001: "3 minutes after the commanders are announced"
MAX_LINE = 200

_ARROW = re.compile(r"\s*(?:->|=>|→|＞|>)\s*")
_COUNT = re.compile(r"^(?P<count>\d{1,3})\s*[xX×]?\s+(?P<name>.+)$")


class SwapError(DomainError):
    """A refused swap; ``key`` is an i18n key under ``sideboard.error.``, ``values`` its placeholders."""

    prefix = "sideboard.error."

    def __reduce__(self) -> tuple[Any, ...]:  # raised in a worker of the pool, re-raised in the bot whole
        return _swap_error, (self.key, self.values)


def _swap_error(key: str, values: dict[str, object]) -> SwapError:
    return SwapError(key, **values)


@dataclass(frozen=True)
class Swap:
    """``count`` copies of ``out`` leave the main deck; ``count`` copies of ``into`` come from the sideboard."""

    out: str
    into: str
    count: int = 1

    def as_data(self) -> dict[str, Any]:
        return {"out": self.out, "in": self.into, "count": self.count}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Swap:
        return cls(out=str(data["out"]), into=str(data["in"]), count=int(data.get("count", 1)))


def _side(text: str, line: int) -> tuple[int, str]:
    text = text.strip()
    match = _COUNT.match(text)
    count, name = (int(match["count"]), match["name"].strip()) if match else (1, text)
    if not name:  # never longer than MAX_LINE: parse_swaps refuses a longer line first
        raise SwapError("bad_line", line=line)
    return count, name


def parse_swaps(text: str) -> list[Swap]:
    """Pasted lines ``out -> in`` (also ``=>``, ``→``, ``>``), each side optionally ``N name``.

    ``2 Forest -> 1 Island`` is refused (the main deck would shrink); blank lines are skipped."""
    swaps: list[Swap] = []
    for number, raw in enumerate(str(text).splitlines(), start=1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE:
            raise SwapError("bad_line", line=number)
        parts = _ARROW.split(raw.strip(), maxsplit=1)
        if len(parts) != 2:
            raise SwapError("bad_line", line=number)
        (out_count, out), (in_count, into) = _side(parts[0], number), _side(parts[1], number)
        if out_count != in_count or out_count < 1:
            raise SwapError("size_change", out=out_count, into=in_count)
        swaps.append(Swap(out, into, out_count))
    if not swaps:
        raise SwapError("no_swaps")
    if len(swaps) > MAX_SWAPS:
        raise SwapError("too_many", limit=MAX_SWAPS)
    return swaps


def _same(card: DeckCard, name: str) -> bool:
    wanted = name.casefold()
    return card.entry.name.casefold() == wanted or card.name.casefold() == wanted


def _find(cards: list[DeckCard], name: str, section: Section) -> int | None:
    for index, card in enumerate(cards):
        if card.section is section and _same(card, name):
            return index
    return None


def _move(cards: list[DeckCard], index: int, count: int, to: Section) -> None:
    """Move ``count`` copies of ``cards[index]`` to section ``to`` (merging with a line already there)."""
    card = cards[index]
    left = card.count - count
    if left:
        cards[index] = card._replace(entry=card.entry._replace(count=left))
    else:
        del cards[index]
    there = next((i for i, c in enumerate(cards) if c.section is to and c.name == card.name), None)
    if there is None:
        cards.append(card._replace(entry=DeckLine(count, card.entry.name, to, card.entry.line)))
    else:
        other = cards[there]
        cards[there] = other._replace(entry=other.entry._replace(count=other.count + count))


def apply_swaps(deck: ResolvedDeck, swaps: Iterable[Swap]) -> ResolvedDeck:
    """The deck after ``swaps`` in order; raises :class:`SwapError` for what D7 forbids."""
    cards = list(deck.cards)
    for swap in swaps:
        if swap.count < 1:
            raise SwapError("size_change", out=swap.count, into=swap.count)
        for name in (swap.out, swap.into):
            if any(_same(c, name) for c in cards if c.section is Section.COMMANDER):
                raise SwapError("commander", card=name)
        out = _find(cards, swap.out, Section.MAIN)
        if out is None or cards[out].count < swap.count:
            raise SwapError("not_in_main", card=swap.out)
        into = _find(cards, swap.into, Section.SIDEBOARD)
        if into is None or cards[into].count < swap.count:
            raise SwapError("not_in_sideboard", card=swap.into)
        _move(cards, out, swap.count, Section.SIDEBOARD)
        into = _find(cards, swap.into, Section.SIDEBOARD)
        assert into is not None  # it was there before the out-card joined the sideboard
        _move(cards, into, swap.count, Section.MAIN)
    # 1-for-1: each swap moves as many copies into the main deck as out of it, so it keeps its size.
    return replace(deck, cards=tuple(cards))  # its list's issues, ignored lines and notes stay with it


@dataclass(frozen=True)
class SwapVerdict:
    """The deck as it will be played after the swaps, and its legality under the ruleset."""

    deck: ResolvedDeck
    verdict: Verdict
    swaps: tuple[Swap, ...]


def _problem_keys(verdict: Verdict) -> set[tuple[str, str | None, str]]:
    return {(str(p.check), p.card, p.key) for p in verdict.problems}


def check_swaps(deck: ResolvedDeck, ruleset: str, before: Sequence[Swap], new: Sequence[Swap]) -> SwapVerdict:
    """Apply earlier swaps (``before``: the match so far), then ``new``, and re-check the whole deck.

    Refuses (``SwapError("illegal")``) when the new swaps bring a problem the deck did not have."""
    rules = get_ruleset(ruleset)
    current = apply_swaps(deck, before)
    played = apply_swaps(current, new)
    verdict = check_deck(played, rules)
    introduced = _problem_keys(verdict) - _problem_keys(check_deck(current, rules))
    if introduced:
        problem = next(p for p in verdict.problems if (str(p.check), p.card, p.key) in introduced)
        raise SwapError(
            "illegal",
            rule=problem.rule,
            card=problem.card or "-",
            problem=problem.key,
            values=dict(problem.values),
        )
    return SwapVerdict(played, verdict, tuple(new))


def names_in(deck: ResolvedDeck, section: Section) -> list[str]:
    """Card names of a section (English where known), for autocomplete from a player's own list."""
    return [card.name for card in deck.in_section(section)]


# -- the window -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """When swaps are allowed in a game's pre-game step: ``closes_at`` None = until the mulligans."""

    open: bool
    closes_at: datetime | None = None
    reason: str = ""  # why it is closed (an i18n key suffix under sideboard.error.)

    def seconds_left(self, now: datetime) -> int | None:
        if self.closes_at is None:
            return None
        return max(0, int((self.closes_at - now).total_seconds() + 0.999))


def parse_time(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


def swap_window(
    *, started: bool, between_games: bool, rule_on: bool, declared_at: str | None, now: datetime
) -> Window:
    """Whether swaps are allowed now.

    * ``started``: the opening hands are being drawn (mulligans) or turn 1 has begun — always closed.
    * ``between_games``: game 2 or 3 of a match (000 §3.2): open for the whole pre-game step.
    * ``rule_on``: the server's optional rule (001): 3 minutes from ``declared_at``, the moment every
      player's commanders were declared; before that the window has not opened yet.
    """
    if started:
        return Window(False, reason="window_closed")
    if between_games:
        return Window(True)
    if not rule_on:
        return Window(False, reason="not_allowed")
    if declared_at is None:
        return Window(False, reason="not_declared")
    closes = parse_time(declared_at) + WINDOW
    if now >= closes:
        return Window(False, closes_at=closes, reason="window_closed")
    return Window(True, closes_at=closes)


# -- wishes ------------------------------------------------------------------------------------------

WISH_TEXT = "outside the game"  # Burning Wish, Living Wish, Karn, the Great Creator … (Oracle wording)


def is_wish(card: DeckCard) -> bool:
    """Whether a card fetches cards from outside the game, i.e. from the sideboard (by its Oracle text)."""
    if card.card is None:
        return False
    texts = [card.card.oracle_text, *(face.oracle_text for face in card.card.faces)]
    return any(WISH_TEXT in text.casefold() for text in texts)


def wish_cards(deck: ResolvedDeck) -> list[str]:
    """The main-deck and commander cards that can fetch from the sideboard (shown beside the sideboard)."""
    return [card.name for card in deck.in_section(Section.COMMANDER, Section.MAIN) if is_wish(card)]


def wishable(deck: ResolvedDeck, fetched: Sequence[str]) -> list[str]:
    """The sideboard cards (as played) a wish may still fetch this game: those not fetched yet."""
    gone = {name.casefold() for name in fetched}
    return [name for name in names_in(deck, Section.SIDEBOARD) if name.casefold() not in gone]


def check_wish(deck: ResolvedDeck, fetched: Sequence[str], card: str) -> str:
    """The sideboard card a wish fetches, by its name as played (English where known).

    Refused (:class:`SwapError`) when it is not in the sideboard as it will be played (after the match's
    swaps), or was already fetched this game (the sideboard holds one of each, D7)."""
    index = _find(list(deck.cards), card.strip(), Section.SIDEBOARD)
    if index is None:
        raise SwapError("wish_not_in_sideboard", card=card)
    name = deck.cards[index].name
    if name.casefold() in {n.casefold() for n in fetched}:
        raise SwapError("wish_already", card=name)
    return name
