"""The players' actions as one-line commands: the CLI script language and the saved action log.

A game is saved as its seed plus the list of these lines (canonical form, see :meth:`Action.line`),
so the CLI, the Discord buttons and replay all go through the same parser. HEAD is the 1-based
position of a head in the list of heads as printed; PLAYER is the 1-based seat.

    attack HEAD AMOUNT [HEAD AMOUNT ...]   combat damage from attackers to heads (H4)
    damage HEAD AMOUNT                     non-combat damage to a head
    loselife HEAD AMOUNT                   the Hydra would lose life: that head is dealt the damage (H8)
    destroy HEAD | exile HEAD | bounce HEAD | tap HEAD
    mill AMOUNT                            cards from the top of the Hydra's library into its graveyard
    life PLAYER DELTA                      a player's life changes by DELTA (+/-), from the players' own cards
    choose OPTION                          answer the pending choice (OPTION text, or HEAD [HEAD])
    concede [PLAYER]                       one player (or, without PLAYER, every player) concedes
    end                                    the players end their turn; the Hydra plays its turn
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.hydra.errors import HydraError

HEAD_VERBS = ("destroy", "exile", "bounce", "tap")
AMOUNT_VERBS = ("damage", "loselife")
VERBS = ("attack", *AMOUNT_VERBS, *HEAD_VERBS, "mill", "life", "choose", "concede", "end")
MAX_AMOUNT = 1_000_000  # keeps arithmetic sane whatever is typed


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed player action. ``numbers`` holds the verb's integers in the order written."""

    verb: str
    numbers: tuple[int, ...] = ()
    text: str = ""

    def line(self) -> str:
        """The canonical one-line form stored in the action log."""
        parts = [self.verb, *(str(n) for n in self.numbers)]
        if self.text:
            parts.append(self.text)
        return " ".join(parts)


def _int(token: str, line: str) -> int:
    try:
        value = int(token)
    except ValueError:
        raise HydraError("hydra.error.not_a_number", value=token, line=line) from None
    if abs(value) > MAX_AMOUNT:
        raise HydraError("hydra.error.not_a_number", value=token, line=line)
    return value


def parse_action(line: str) -> Action:
    """Parse one command line; raises :class:`HydraError` with a message key on bad input."""
    stripped = line.strip()
    tokens = stripped.split()
    if not tokens:
        raise HydraError("hydra.error.empty_action")
    verb, rest = tokens[0].lower(), tokens[1:]
    if verb not in VERBS:
        raise HydraError("hydra.error.unknown_verb", verb=tokens[0], verbs=", ".join(VERBS))
    if verb == "choose":
        if not rest:
            raise HydraError("hydra.error.usage", usage="choose OPTION")
        return Action("choose", text=" ".join(rest))
    numbers = tuple(_int(token, stripped) for token in rest)
    usage = _USAGE[verb]
    if verb == "attack":
        if not numbers or len(numbers) % 2:
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb in AMOUNT_VERBS or verb == "life":
        if len(numbers) != 2:
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb in HEAD_VERBS or verb == "mill":
        if len(numbers) != 1:
            raise HydraError("hydra.error.usage", usage=usage)
    elif verb == "concede":
        if len(numbers) > 1:
            raise HydraError("hydra.error.usage", usage=usage)
    elif numbers:  # end
        raise HydraError("hydra.error.usage", usage=usage)
    if verb in ("attack", *AMOUNT_VERBS, "mill") and any(n < 0 for n in numbers):
        raise HydraError("hydra.error.negative", line=stripped)
    return Action(verb, numbers)


_USAGE = {
    "attack": "attack HEAD AMOUNT [HEAD AMOUNT ...]",
    "damage": "damage HEAD AMOUNT",
    "loselife": "loselife HEAD AMOUNT",
    "destroy": "destroy HEAD",
    "exile": "exile HEAD",
    "bounce": "bounce HEAD",
    "tap": "tap HEAD",
    "mill": "mill AMOUNT",
    "life": "life PLAYER DELTA",
    "concede": "concede [PLAYER]",
    "end": "end",
}
