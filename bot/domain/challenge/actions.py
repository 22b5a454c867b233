"""The players' actions as one-line commands: the CLI script language and the saved action log.

A game is saved as its seed plus the list of these lines (canonical form, see :meth:`Action.line`),
so the CLI, the Discord buttons and replay all go through the same parser. HEAD is the number of a
head as printed on the board: it stays with that head for the whole game (a head that leaves takes
its number with it; new heads get new numbers). PLAYER is the 1-based seat.

HEADS is one or more HEAD numbers, or ``all``; the heads are picked before anything happens.

    attack HEAD AMOUNT [HEAD AMOUNT ...]   combat damage from attackers to heads (H4)
    damage HEAD AMOUNT                     non-combat damage to a head
    sweep AMOUNT HEADS                     the same damage to several heads at once (a sweeper)
    loselife HEAD AMOUNT                   the Hydra would lose life: that head is dealt the damage (H8)
    destroy HEADS | exile HEADS | bounce HEADS | tap HEADS | sacrifice HEADS
    freeze HEADS                           those heads don't untap during the Hydra's next untap step
                                           (The Savant: "tap all" then "freeze all")
    weaken AMOUNT HEADS                    -AMOUNT/-AMOUNT until end of turn (The Tyrant: "weaken 1 all")
    counters DELTA HEADS                   DELTA +1/+1 counters (or -1/-1 counters if DELTA < 0)
    copy HEAD                              a token copy of a head enters (it is a Head for every rule)
    tuck top|bottom|shuffle HEADS          put heads into the library (the Hydra's rules: its graveyard instead)
    steal HEADS | giveback HEADS           the players gain control of permanents, or give them back
                                           (the Horde and the God only: players can't gain control of heads)
    cantattack HEADS                       they can't attack during the deck's next turn (Horde, God)
    cantblock HEADS                        they can't block this turn (the Horde's creatures only)
    hit AMOUNT                             the Horde would lose AMOUNT life: its library is milled
    mill AMOUNT                            cards from the top of the Hydra's library into its graveyard
    exilecards library AMOUNT              exile cards from the top of the Hydra's library
    exilecards graveyard all|CARD NAME     exile the Hydra's graveyard, or one card of it
    prevent AMOUNT [PLAYER|all] [from SOURCE]
                                           prevent the next AMOUNT damage this turn to a player (default:
                                           each player), from any source or only SOURCE ("heads" for
                                           the heads' damage, or a Hydra card name)
    extraturn                              the players take an extra turn after this one
    life PLAYER DELTA                      a player's life changes by DELTA (+/-), from the players' own cards
    choose OPTION                          answer the pending choice (OPTION text, or HEAD [HEAD])
    concede [PLAYER]                       one player (or, without PLAYER, every player) concedes
    end                                    the players end their turn; the Hydra plays its turn
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.challenge.core import HydraError
from bot.text import ECHO, fit

HEAD_VERBS = (
    "destroy",
    "exile",
    "bounce",
    "tap",
    "sacrifice",
    "freeze",
    "steal",
    "giveback",
    "cantattack",
    "cantblock",
)  # HEADS
AMOUNT_HEADS_VERBS = ("sweep", "weaken", "counters")  # AMOUNT HEADS
AMOUNT_VERBS = ("damage", "loselife")
TEXT_VERBS = ("choose", "prevent", "exilecards", "tuck")  # parsed by their own rules, kept as text
# One language for every challenge deck: a deck refuses, with its reason, what its rules forbid
# (bot.domain.challenge.decks), so a script never needs to know which deck's verb list it is written for.
VERBS = (
    "attack",
    *AMOUNT_VERBS,
    *AMOUNT_HEADS_VERBS,
    *HEAD_VERBS,
    "copy",
    "tuck",
    "mill",
    "exilecards",
    "prevent",
    "extraturn",
    "hit",
    "life",
    "choose",
    "concede",
    "end",
)
TUCK_PLACES = ("top", "bottom", "shuffle")
ALL = "all"
MAX_AMOUNT = 1_000_000  # keeps arithmetic sane whatever is typed


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed player action. ``numbers`` holds the verb's integers in the order written."""

    verb: str
    numbers: tuple[int, ...] = ()
    text: str = ""

    @property
    def all_heads(self) -> bool:
        """A HEADS list written as ``all`` (``tuck``: after the place in the library)."""
        return self.text == ALL or self.text.endswith(f" {ALL}")

    def line(self) -> str:
        """The canonical one-line form stored in the action log."""
        numbers = [str(n) for n in self.numbers]
        if self.verb in ("exilecards", "tuck"):  # the zone (or the place in the library) comes first
            return " ".join([self.verb, self.text, *numbers])
        parts = [self.verb, *numbers]
        if self.text:
            parts.append(self.text)
        return " ".join(parts)


def parse_number(token: str, line: str) -> int:
    """A whole number within ±MAX_AMOUNT: decimal digits of any script (full-width ``１２`` from a Japanese
    or Chinese keyboard counts) with an optional sign; not ``1_0``, ``²`` or ``①``. A number too long to read
    (thousands of digits) is "out of range", as is any past the bound; what is echoed back is cut short."""
    shown = fit(token, ECHO, escape=False)
    digits = token[1:] if token[:1] in "+-" else token
    if not digits.isdecimal():
        raise HydraError("hydra.error.not_a_number", value=shown, line=fit(line, ECHO * 2, escape=False))
    if len(digits) > 30 or abs(int(token)) > MAX_AMOUNT:  # int() refuses past 4,300 digits: never ask it
        raise HydraError(
            "hydra.error.number_out_of_range",
            value=shown,
            max=MAX_AMOUNT,
            line=fit(line, ECHO * 2, escape=False),
        )
    return int(token)


def parse_action(line: str, verbs: tuple[str, ...] = VERBS) -> Action:
    """Parse one command line; raises :class:`HydraError` with a message key on bad input.
    ``verbs`` lets the Horde and the God use the same language with their own verb list (``hit``:
    the Horde would lose AMOUNT life)."""
    stripped = line.strip()
    tokens = stripped.split()
    if not tokens:
        raise HydraError("hydra.error.empty_action")
    verb, rest = tokens[0].lower(), tokens[1:]
    if verb not in verbs:
        raise HydraError("hydra.error.unknown_verb", verb=tokens[0], verbs=tuple(verbs))
    if verb == "choose":
        if not rest:
            raise HydraError("hydra.error.usage", usage="choose OPTION")
        return Action("choose", text=" ".join(rest))
    if verb == "prevent":
        return _parse_prevent(rest, stripped)
    if verb == "exilecards":
        return _parse_exilecards(rest, stripped)
    if verb == "tuck":
        return _parse_tuck(rest, stripped)
    usage = _USAGE[verb]
    text = ""
    if verb in HEAD_VERBS + AMOUNT_HEADS_VERBS and rest and rest[-1].lower() == ALL:
        rest, text = rest[:-1], ALL
    numbers = tuple(parse_number(token, stripped) for token in rest)
    if verb == "attack":
        if not numbers or len(numbers) % 2:
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb in AMOUNT_VERBS or verb == "life":
        if len(numbers) != 2:
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb in HEAD_VERBS:
        if (text == ALL) == bool(numbers):
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb in AMOUNT_HEADS_VERBS:
        if not numbers or (text == ALL) == (len(numbers) > 1):
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb in ("mill", "copy", "hit"):
        if len(numbers) != 1:
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb == "concede":
        if len(numbers) > 1:
            raise HydraError("hydra.error.usage", usage=usage)
    elif numbers:  # end, extraturn
        raise HydraError("hydra.error.usage", usage=usage)
    if verb in ("attack", *AMOUNT_VERBS, "mill", "hit", "sweep", "weaken") and any(n < 0 for n in numbers):
        raise HydraError("hydra.error.negative", line=stripped)
    return Action(verb, numbers, text)


def _parse_prevent(rest: list[str], line: str) -> Action:
    """``prevent AMOUNT [PLAYER|all] [from SOURCE]`` → numbers (AMOUNT[, PLAYER]), text the source."""
    usage = _USAGE["prevent"]
    lowered = [token.lower() for token in rest]
    source = ""
    if "from" in lowered:
        at = lowered.index("from")
        source = " ".join(rest[at + 1 :])
        rest = rest[:at]
        if not source:
            raise HydraError("hydra.error.usage", usage=usage)
    if rest[1:] and rest[1].lower() == ALL:  # "all" stands for the player, so nothing may follow it
        rest = rest[:1] if len(rest) == 2 else rest
    if len(rest) not in (1, 2):
        raise HydraError("hydra.error.usage", usage=usage)
    numbers = tuple(parse_number(token, line) for token in rest)
    if numbers[0] < 0:
        raise HydraError("hydra.error.negative", line=line)
    return Action("prevent", numbers, f"from {source}" if source else "")


def _parse_exilecards(rest: list[str], line: str) -> Action:
    """``exilecards library AMOUNT`` or ``exilecards graveyard all|CARD NAME`` (zone kept in text)."""
    usage = _USAGE["exilecards"]
    if len(rest) < 2 or rest[0].lower() not in ("library", "graveyard"):
        raise HydraError("hydra.error.usage", usage=usage)
    zone = rest[0].lower()
    if zone == "library":
        if len(rest) != 2:
            raise HydraError("hydra.error.usage", usage=usage)
        amount = parse_number(rest[1], line)
        if amount < 0:
            raise HydraError("hydra.error.negative", line=line)
        return Action("exilecards", (amount,), "library")
    return Action("exilecards", (), "graveyard " + " ".join(rest[1:]))


def _parse_tuck(rest: list[str], line: str) -> Action:
    """``tuck top|bottom|shuffle HEADS``: the place in the library is kept in ``text`` (with ``all``)."""
    if len(rest) < 2 or rest[0].lower() not in TUCK_PLACES:
        raise HydraError("hydra.error.usage", usage=_USAGE["tuck"])
    place, heads = rest[0].lower(), rest[1:]
    if heads == [ALL] or [h.lower() for h in heads] == [ALL]:
        return Action("tuck", (), f"{place} {ALL}")
    return Action("tuck", tuple(parse_number(token, line) for token in heads), place)


_USAGE = {
    "attack": "attack HEAD AMOUNT [HEAD AMOUNT ...]",
    "damage": "damage HEAD AMOUNT",
    "loselife": "loselife HEAD AMOUNT",
    "sweep": "sweep AMOUNT HEAD [HEAD ...] | sweep AMOUNT all",
    "weaken": "weaken AMOUNT HEAD [HEAD ...] | weaken AMOUNT all",
    "counters": "counters DELTA HEAD [HEAD ...] | counters DELTA all",
    "destroy": "destroy HEAD [HEAD ...] | destroy all",
    "exile": "exile HEAD [HEAD ...] | exile all",
    "bounce": "bounce HEAD [HEAD ...] | bounce all",
    "tap": "tap HEAD [HEAD ...] | tap all",
    "sacrifice": "sacrifice HEAD [HEAD ...] | sacrifice all",
    "freeze": "freeze HEAD [HEAD ...] | freeze all",
    "steal": "steal HEAD [HEAD ...] | steal all",
    "giveback": "giveback HEAD [HEAD ...] | giveback all",
    "cantattack": "cantattack HEAD [HEAD ...] | cantattack all",
    "cantblock": "cantblock HEAD [HEAD ...] | cantblock all",
    "copy": "copy HEAD",
    "tuck": "tuck top|bottom|shuffle HEAD [HEAD ...] | tuck top|bottom|shuffle all",
    "mill": "mill AMOUNT",
    "exilecards": "exilecards library AMOUNT | exilecards graveyard all|CARD NAME",
    "prevent": "prevent AMOUNT [PLAYER|all] [from SOURCE]",
    "extraturn": "extraturn",
    "hit": "hit AMOUNT",
    "life": "life PLAYER DELTA",
    "concede": "concede [PLAYER]",
    "end": "end",
}
