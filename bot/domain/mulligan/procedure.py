"""One player's way through a mulligan procedure (M1 partial Paris, London, Vancouver).

The same ``PlayerMulligan`` drives the table step of a pod game (``table.TableMulligan``, which only
adds turn order) and a practice hand (``practice.PracticeHand``, which adds real cards), so the
counting rules live in exactly one place.

Styles and their rules:

* **partial Paris** (docs/rules/RULES.md **M1**, seed 001, also called the "Brittany" mulligan; rulesets
  ``edh-2010`` and ``duel-zh``): the player sets aside any number of cards face down (0 = keep) and
  draws one fewer than they set aside. Whoever set aside at least one card may repeat; the hand shrinks
  by one each time. Set-aside cards stay out until everyone has kept, then each player shuffles their
  set-aside cards back into the library. There is no free mulligan in M1.
* **London** (today's ``commander`` ruleset, CR 103.5): a mulligan shuffles the hand away and draws
  7 again; on keeping, the player puts N cards on the bottom, N = mulligans taken, minus one in a
  multiplayer game (3+ players: the first mulligan is free, CR 103.5c).
* **Vancouver** (CR 103.4 of 2016-2019, offered for groups that still use it): a mulligan draws a new
  hand one card smaller (the first one is free in a multiplayer game, like London); once everyone has
  kept, each player whose hand is smaller than 7 may scry 1.

Everything here is immutable: ``decide`` returns a new state, so undo is "drop the last decision and
replay" (how the pod board stores games).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from bot.domain.errors import DomainError

OPENING_HAND = 7
MULTIPLAYER_PLAYERS = 3  # CR 103.5c: the free first mulligan applies from three players on


class MulliganStyle(StrEnum):
    PARTIAL_PARIS = "partial_paris"
    LONDON = "london"
    VANCOUVER = "vancouver"


class Choice(StrEnum):
    """A keep-or-mulligan answer (London, Vancouver). Partial Paris answers with a card count instead."""

    KEEP = "keep"
    MULLIGAN = "mulligan"


# A decision: ``Choice`` for London/Vancouver; for partial Paris the number of cards set aside
# (0 = keep; ``Choice.KEEP`` is accepted as 0).
Decision = Choice | int

_RULESET_STYLES = {
    "edh-2010": MulliganStyle.PARTIAL_PARIS,  # M1
    "duel-zh": MulliganStyle.PARTIAL_PARIS,  # M1
    "commander": MulliganStyle.LONDON,  # docs/rules/RULES.md, today's rules: London, first mulligan free in multiplayer
}


def style_for_ruleset(ruleset: str) -> MulliganStyle:
    """The mulligan a ruleset prescribes (docs/rules/RULES.md "Rulesets" table); unknown rulesets use today's London."""
    return _RULESET_STYLES.get(ruleset, MulliganStyle.LONDON)


def parse_decision(value: str | int | Choice) -> Decision:
    """Turn stored or typed input ("keep", "mulligan", "3", 3) into a ``Decision``.

    Raises ``MulliganError('mulligan.error.bad_decision')`` for anything else.
    """
    if isinstance(value, Choice):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in (Choice.KEEP.value, Choice.MULLIGAN.value):
        return Choice(text)
    if text.isdigit():
        return int(text)
    raise MulliganError("mulligan.error.bad_decision", value=str(value))


def free_first_mulligan(style: MulliganStyle, player_count: int) -> bool:
    """Whether the first mulligan costs nothing: London and Vancouver in games of 3+ players (CR 103.5c)."""
    return style is not MulliganStyle.PARTIAL_PARIS and player_count >= MULTIPLAYER_PLAYERS


class MulliganError(DomainError, ValueError):
    """A decision the procedure does not allow. ``key`` (in full) and ``values`` form a message of
    ``mulligan.toml``."""


@dataclass(frozen=True, slots=True)
class Instruction:
    """What the player must do with real cards after a decision (shown by the board or practice).

    Kinds (message key ``mulligan.instruction.<kind>``, placeholder ``{count}``):
    ``draw`` (partial Paris: draw ``count`` after setting cards aside), ``new_hand`` (London/Vancouver:
    shuffle the hand into the library and draw ``count``), ``bottom`` (London keep: put ``count`` cards
    on the bottom), ``keep`` (keep ``count`` cards as they are), ``shuffle_back`` (partial Paris, once
    all have kept: shuffle the ``count`` set-aside cards into the library), ``scry`` (Vancouver, once
    all have kept: scry ``count``).
    """

    kind: str
    count: int

    @property
    def message_key(self) -> str:
        return f"mulligan.instruction.{self.kind}"


@dataclass(frozen=True, slots=True)
class PlayerMulligan:
    """One player's state in a procedure.

    ``hand_size`` is the number of cards in hand right now (London: always the 7 drawn; what is kept
    after bottoming is ``keeps``). ``set_aside`` totals the cards set aside under partial Paris.
    """

    style: MulliganStyle
    free_first: bool = False
    mulligans: int = 0
    hand_size: int = OPENING_HAND
    set_aside: int = 0
    kept: bool = False

    @classmethod
    def start(cls, style: MulliganStyle, player_count: int) -> PlayerMulligan:
        return cls(
            style=MulliganStyle(style), free_first=free_first_mulligan(MulliganStyle(style), player_count)
        )

    @property
    def charged_mulligans(self) -> int:
        """Mulligans that cost a card (the free multiplayer one does not)."""
        return max(0, self.mulligans - (1 if self.free_first else 0))

    @property
    def to_bottom(self) -> int:
        """London: cards to put on the bottom on keeping (CR 103.5). 0 for the other styles."""
        if self.style is MulliganStyle.LONDON:
            return min(OPENING_HAND, self.charged_mulligans)
        return 0

    @property
    def keeps(self) -> int:
        """The size of the hand the player ends with if they keep now."""
        return self.hand_size - self.to_bottom

    @property
    def can_mulligan(self) -> bool:
        """A player may go on while the hand they would keep is not empty (CR 103.5; M1 runs out at 0)."""
        return not self.kept and self.keeps > 0

    def choices(self) -> tuple[Decision, ...]:
        """The answers this player may give now, keep first: partial Paris 0 (keep) to the whole hand
        set aside; London/Vancouver keep, and mulligan while the hand can still shrink. Empty once kept."""
        if self.kept:
            return ()
        if self.style is MulliganStyle.PARTIAL_PARIS:
            return tuple(range(self.hand_size + 1))
        return (Choice.KEEP, Choice.MULLIGAN) if self.can_mulligan else (Choice.KEEP,)

    def decide(self, decision: Decision) -> tuple[PlayerMulligan, tuple[Instruction, ...]]:
        """Apply one decision; return the new state and what to do with the cards.

        Raises ``MulliganError`` (state unchanged) when the decision does not fit the style or the hand.
        """
        if self.kept:
            raise MulliganError("mulligan.error.already_kept")
        if self.style is MulliganStyle.PARTIAL_PARIS:
            return self._partial_paris(decision)
        if decision == Choice.KEEP:  # also the plain string "keep"
            return self._keep()
        if decision == Choice.MULLIGAN:
            return self._mulligan()
        raise MulliganError("mulligan.error.keep_or_mulligan")

    def closing_instructions(self) -> tuple[Instruction, ...]:
        """What this player does once the whole table has kept: shuffle set-aside cards back (M1) or scry 1."""
        if self.style is MulliganStyle.PARTIAL_PARIS and self.set_aside:
            return (Instruction("shuffle_back", self.set_aside),)
        if self.style is MulliganStyle.VANCOUVER and self.hand_size < OPENING_HAND:
            return (Instruction("scry", 1),)
        return ()

    # -- the styles ---------------------------------------------------------------------------

    def _partial_paris(self, decision: Decision) -> tuple[PlayerMulligan, tuple[Instruction, ...]]:
        """M1: set aside ``decision`` cards (0 = keep), draw one fewer; the hand shrinks by one."""
        if decision == Choice.KEEP:  # also the plain string "keep"
            decision = 0
        if not isinstance(decision, int) or isinstance(decision, bool):
            raise MulliganError("mulligan.error.how_many")
        if decision < 0 or decision > self.hand_size:
            raise MulliganError("mulligan.error.set_aside_range", hand=self.hand_size)
        if decision == 0:
            return self._keep()
        after = replace(
            self,
            mulligans=self.mulligans + 1,
            hand_size=self.hand_size - 1,
            set_aside=self.set_aside + decision,
        )
        instructions = (Instruction("draw", decision - 1),)
        if after.hand_size == 0:  # nothing left to set aside: the procedure ends for this player
            after = replace(after, kept=True)
        return after, instructions

    def _keep(self) -> tuple[PlayerMulligan, tuple[Instruction, ...]]:
        kept = replace(self, kept=True)
        if self.to_bottom:
            return kept, (Instruction("bottom", self.to_bottom),)
        return kept, (Instruction("keep", self.hand_size),)

    def _mulligan(self) -> tuple[PlayerMulligan, tuple[Instruction, ...]]:
        """London: draw 7 again. Vancouver: draw one fewer (7 for a free first mulligan)."""
        if not self.can_mulligan:
            raise MulliganError("mulligan.error.no_more")
        after = replace(self, mulligans=self.mulligans + 1)
        if self.style is MulliganStyle.VANCOUVER:
            after = replace(after, hand_size=OPENING_HAND - after.charged_mulligans)
        instructions: tuple[Instruction, ...] = (Instruction("new_hand", after.hand_size),)
        if after.keeps == 0:  # an empty hand cannot be mulliganed further: it is kept as it is
            after, more = after._keep()
            instructions += more
        return after, instructions
