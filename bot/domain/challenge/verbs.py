"""The players' verbs that every challenge deck carries out the same way, written once.

The Hydra's heads and the Horde's and the God's creatures are one permanent type
(:mod:`.permanents`), so what the players' cards do to them — damage, a sweeper, −X/−X, counters,
destroy, exile, bounce, sacrifice, tap, freeze, exiling the deck's cards, an extra turn — and how an
action is applied, refused or answered is the same code for every deck. What differs is a hook of
the deck's engine: how an action names its permanents, what the state-based check after damage is
(at once for the Hydra, a flow with the deck's triggers for the creature decks), how permanents leave,
and the words of the log. Each deck keeps its own log keys (``hydra.log.*``, ``challenge.log.*``):
they are part of what a stored game replays to.
"""

from __future__ import annotations

from typing import Generic

from bot.domain.challenge.actions import VERBS, Action, parse_action
from bot.domain.challenge.core import ChallengeError, Decision, Event, FlowGame, exile_cards
from bot.domain.challenge.decks import DeckRules
from bot.domain.challenge.permanents import CardT, Permanent


class DeckGame(FlowGame, Generic[CardT]):
    """The shared verbs of one challenge deck's game; a deck's engine fills in the hooks below."""

    deck_rules: DeckRules
    verbs: tuple[str, ...] = VERBS  # one language for every deck; ``deck_rules`` refuses what a deck forbids
    error: type[ChallengeError] = ChallengeError  # the type of the deck's refusals (the Hydra's own subtype)
    log_prefix = "challenge"  # the key prefix of the verbs' log lines: each deck's stored logs keep theirs
    name_key = "card"  # what a log line calls one permanent ("head" for the Hydra)
    names_key = "cards"  # ... and several ("heads")
    # Whether a verb that changes nothing (0 damage, tapping a tapped permanent) still writes its line,
    # and whether −X/−X and counters write one: as each deck's stored logs were written.
    logs_no_change = True
    logs_toughness = False

    battlefield: list[Permanent[CardT]]
    library: list[int]
    graveyard: list[int]
    exile: list[int]
    library_changed_by: list[bool]
    active: str
    players_extra_turns: int

    # ------------------------------------------------------------------ hooks of each deck
    @property
    def stable_ids(self) -> bool:
        """Whether the numbers of the action language are serials (False: positions, old tables)."""
        raise NotImplementedError

    @property
    def deck_turn_count(self) -> int:
        """How many turns the deck has begun (a freeze lasts through the next one's untap step)."""
        raise NotImplementedError

    def name_of(self, card_id: int) -> str:
        raise NotImplementedError

    def _target(self, number: int) -> Permanent[CardT]:
        """The permanent one number of a damage action names (refused if it may not be dealt damage)."""
        raise NotImplementedError

    def _targets(self, action: Action, skip: int = 0) -> list[Permanent[CardT]]:
        """The permanents an action names after ``skip`` numbers (or ``all``), all picked first."""
        raise NotImplementedError

    def _marked(self) -> None:
        """Damage or toughness changed: the state-based check (lethal damage, 0 toughness)."""
        raise NotImplementedError

    def _remove(self, permanents: list[Permanent[CardT]], how: str) -> None:
        """Permanents leave the battlefield ``how`` (destroyed, exile, bounce, sacrificed)."""
        raise NotImplementedError

    def _answer(self, decision: Decision, text: str) -> object:
        """The players' answer to ``decision`` as the deck's flow takes it (refused if not allowed)."""
        raise NotImplementedError

    def _after_action(self) -> None:
        """What follows any action of the players (the Hydra's triggers, a creature deck's win check)."""

    # ------------------------------------------------------------------ numbers
    def number_of(self, permanent: Permanent[CardT]) -> int:
        """How the action language, the board and every question name ``permanent``: its serial, which
        never changes while it stays on the battlefield (a legacy game: its current position)."""
        return permanent.serial if self.stable_ids else self.battlefield.index(permanent) + 1

    def battlefield_numbers(self) -> list[int]:
        """The numbers of the deck's permanents, in printed order: the only ones actions may name."""
        return [self.number_of(p) for p in self.battlefield]

    @staticmethod
    def is_indestructible(permanent: Permanent[CardT]) -> bool:
        """Hydra's Impenetrable Hide (no creature deck's card makes its permanents indestructible)."""
        return permanent.indestructible_through > 0

    # ------------------------------------------------------------------ driving
    def apply(self, action: Action | str) -> list[Event]:
        """Apply one player action; returns the events it caused. Raises the deck's error, changing
        nothing (every check happens before the first change)."""
        if isinstance(action, str):
            action = parse_action(action, self.verbs)
        if self.over:
            raise self.error("hydra.error.game_over")
        refusal = self.deck_rules.refusal(action.verb)
        if refusal is not None:
            raise ChallengeError(refusal)
        start, library = len(self.events), len(self.library)
        getattr(self, f"_do_{action.verb}")(action)
        self._after_action()
        self.actions.append(action.line())
        self.library_changed_by.append(len(self.library) != library)
        return self.events[start:]

    def choose_default(self) -> list[Event]:
        """Answer the pending decision with its documented default (a timeout, or a silent script)."""
        if self.pending is None:
            raise self.error("hydra.error.nothing_to_choose")
        return self.apply(Action("choose", text=self.pending.default))

    def play_until_players(self) -> None:
        """Answer every pending decision with its default until the players may act (or it ends)."""
        while self.pending is not None and not self.over:
            self.choose_default()

    def _require(self, *, instant: bool) -> None:
        """Sorcery-speed actions need the players' own turn with nothing pending; instant-speed ones
        may also be taken while a response window is open (never in the middle of a choice)."""
        if self.pending is not None:
            if not (instant and self.pending.topic in self.window_topics):
                raise self.error("hydra.error.answer_first")
        elif self.active != "players":
            raise self.error("hydra.error.not_your_turn")

    def _say(self, kind: str, permanent: Permanent[CardT], **values: object) -> None:
        self._log(f"{self.log_prefix}.log.{kind}", **{self.name_key: permanent.name}, **values)

    # ------------------------------------------------------------------ the shared verbs
    def _do_choose(self, action: Action) -> None:
        if self.pending is None:
            raise self.error("hydra.error.nothing_to_choose")
        self._advance(self._answer(self.pending, action.text))

    def _do_damage(self, action: Action) -> None:
        self._require(instant=True)
        target, amount = self._target(action.numbers[0]), action.numbers[1]
        if amount or self.logs_no_change:
            target.damage += amount
            self._say("damage", target, amount=amount)
        self._marked()

    def _do_sweep(self, action: Action) -> None:
        """Damage to several permanents at once; one state-based check afterwards."""
        self._require(instant=True)
        amount, targets = action.numbers[0], self._targets(action, skip=1)
        if amount or self.logs_no_change:
            for target in targets:
                target.damage += amount
            self._log(
                f"{self.log_prefix}.log.swept",
                amount=amount,
                **{self.names_key: tuple(t.name for t in targets)},
            )
        self._marked()

    def _do_weaken(self, action: Action) -> None:
        """−X/−X until end of turn: one at 0 toughness is put into the graveyard (not destroyed)."""
        self._require(instant=True)
        amount, targets = action.numbers[0], self._targets(action, skip=1)
        for target in targets:
            target.shrunk += amount
            if self.logs_toughness:
                self._say("weakened", target, amount=amount, toughness=target.toughness)
        self._marked()

    def _do_counters(self, action: Action) -> None:
        self._require(instant=True)
        delta, targets = action.numbers[0], self._targets(action, skip=1)
        for target in targets:
            target.counters += delta
            if self.logs_toughness:
                self._say("counters", target, delta=f"{delta:+d}", toughness=target.toughness)
        self._marked()

    def _do_destroy(self, action: Action) -> None:
        self._require(instant=True)
        targets = self._targets(action)
        for target in [t for t in targets if self.is_indestructible(t)]:
            self._say("indestructible", target)
        self._remove([t for t in targets if not self.is_indestructible(t)], "destroyed")

    def _do_exile(self, action: Action) -> None:
        self._require(instant=True)
        self._remove(self._targets(action), "exile")

    def _do_bounce(self, action: Action) -> None:
        self._require(instant=True)
        self._remove(self._targets(action), "bounce")

    def _do_sacrifice(self, action: Action) -> None:
        """The deck sacrifices permanents (an edict): indestructible doesn't stop it."""
        self._require(instant=True)
        self._remove(self._targets(action), "sacrificed")

    def _do_tap(self, action: Action) -> None:
        self._require(instant=True)
        for target in self._targets(action):
            if not target.tapped or self.logs_no_change:
                target.tapped = True
                self._say("tapped", target)

    def _do_freeze(self, action: Action) -> None:
        """ "Doesn't untap during its controller's next untap step" (The Savant)."""
        self._require(instant=True)
        for target in self._targets(action):
            target.frozen_for = self.deck_turn_count + 1
            self._say("frozen", target)

    def _do_extraturn(self, action: Action) -> None:
        self._require(instant=True)
        self.players_extra_turns += 1
        self._log("hydra.log.players_extra_turn_earned")

    def _do_exilecards(self, action: Action) -> None:
        """The players' cards exile the deck's cards from its library (top first) or graveyard: they go
        to no graveyard (no Hero's Reward), and the deck has fewer cards to use."""
        self._require(instant=True)
        where, moved = exile_cards(self, action, self.log_prefix, self.error)
        self._log(
            f"{self.log_prefix}.log.exiled_from_{where}",
            count=len(moved),
            cards=tuple(self.name_of(i) for i in moved),
        )
