"""Battle the Horde (TBTH): the Horde's own rules, all in this module (docs/rules/CHALLENGE_DECKS.md §5a).

- A single-player challenge (printed: "This deck is a single-player challenge ... not convertible to a
  multiplayer experience"); up to three different Hero cards; 20 life.
- The player takes three turns before the Horde's first (difficulty: 2 harder, 4 easier) and may
  attack the Horde as though it were a player from the start.
- The Horde has no life total: if it would lose life (damage included), that many cards of its
  library go to its graveyard (``hit AMOUNT``).
- At the beginning of the Horde's precombat main phase: reveal the top two cards and cast them, plus
  one per artifact that was already on the battlefield as the turn began (each artifact's trigger).
- Every Minotaur attacks each turn if able; the player declares blocks and settles what blocked
  creatures do (first strike, deathtouch, "must be blocked", "two or more" are the player's to apply).
- The artifacts' Hero's Reward triggers when they are put into a graveyard from ANYWHERE, milling
  included.
- The player wins as soon as the Horde's library is empty and it controls no creatures.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.challenge import horde_cards
from bot.domain.challenge.actions import Action
from bot.domain.challenge.core import ChallengeError, Decision, Flow
from bot.domain.challenge.creatures import CreatureDeckGame, DeckCard, Permanent, Seat, load_cards
from bot.domain.challenge.decks import CURRENT_RULES, HORDE

CARDS = load_cards(horde_cards.CARD_ROWS)
# the player's turns before the Horde's first
MIN_TURNS, MAX_TURNS, DEFAULT_TURNS = HORDE.min_difficulty, HORDE.max_difficulty, HORDE.default_difficulty
ALTAR_SACRIFICE = "altar_sacrifice"  # Altar of Mogis: the Horde sacrifices two Minotaurs (the player picks)

ALTAR, MASSACRE_TOTEM, STATUE, ELIXIR, SALVE = (
    "Altar of Mogis",
    "Massacre Totem",
    "Plundered Statue",
    "Refreshing Elixir",
    "Vitality Salve",
)
CONSUMING_RAGE, DESCEND, KERANOS, TOUCH, FURY = (
    "Consuming Rage",
    "Descend on the Prey",
    "Intervention of Keranos",
    "Touch of the Horned God",
    "Unquenchable Fury",
)
RECKLESS = "Reckless Minotaur"
MOGIS_CHOSEN = "Mogis's Chosen"


class HordeGame(CreatureDeckGame):
    cards = CARDS
    deck_name = "horde"
    prefix = "horde"
    deck_rules = HORDE
    max_players, max_heroes = HORDE.max_players, HORDE.max_heroes

    def __init__(
        self,
        seats: Sequence[Seat],
        seed: int,
        difficulty: int = DEFAULT_TURNS,
        *,
        all_windows: bool = False,
        stable_ids: bool = True,
        life_per_player: bool = False,
        rules: int = CURRENT_RULES,
    ) -> None:
        if not MIN_TURNS <= difficulty <= MAX_TURNS:
            raise ChallengeError("horde.error.turns_range", min=MIN_TURNS, max=MAX_TURNS)
        super().__init__(
            seats,
            seed,
            difficulty,
            all_windows=all_windows,
            stable_ids=stable_ids,
            life_per_player=life_per_player,
            rules=rules,
        )

    def players_first_turns(self) -> int:
        return self.difficulty

    # ------------------------------------------------------------------ the player's side
    def _do_hit(self, action: Action) -> None:
        """The Horde would lose life (damage dealt to it, life loss): mill that many cards."""
        self._require(instant=True)
        self._log("horde.log.hit", amount=action.numbers[0])
        self._run(self._mill(action.numbers[0]))

    def players_won(self) -> bool:
        """ "The Horde has no cards left in its library and the Horde controls no creatures"."""
        return not self.library and not any(p.card.is_creature for p in self.controlled())

    def check_attacked(self, permanent: Permanent) -> None:
        """The player attacks the Horde as a player: combat damage reaches its creatures only as
        blockers, so a tapped one, one under a "can't block" effect or one the player controls can't
        have been dealt it."""
        if permanent.tapped or permanent.stolen or permanent.no_block_turn == self.turn:
            raise ChallengeError(
                "horde.error.cannot_block", number=self.number_of(permanent), card=permanent.name
            )

    # ------------------------------------------------------------------ the Horde's turn
    def main_phase(self) -> Flow:
        """Two cards, plus one per artifact's trigger (artifacts that were there as the turn began)."""
        extra = sum(
            1 for p in self.battlefield if "Artifact" in p.card.type_line and p.entered_turn < self.turn
        )
        self._log("horde.log.main_phase", count=2 + extra, artifacts=extra)
        yield from self._reveal_and_cast(2 + extra)

    def on_enter(self, permanent: Permanent) -> Flow:
        if permanent.name == MOGIS_CHOSEN:
            permanent.tapped = True  # "enters the battlefield tapped"
        yield from ()

    def resolve_sorcery(self, name: str) -> Flow:
        self.this_turn.append(name)  # each of them acts "this turn"
        yield from ()

    def must_attack(self, permanent: Permanent) -> bool:
        return permanent.card.has_subtype("Minotaur")  # "attacks each turn if able"

    def beginning_of_combat(self) -> Flow:
        amount = 3 * self.this_turn.count(KERANOS)
        if amount:  # 3 damage to each creature, per copy (the player's creatures too: a reminder)
            for creature in self.creatures():
                creature.damage += amount
            self._log("horde.log.keranos", amount=amount)
        reminders = [name for name in (DESCEND, TOUCH, FURY) if name in self.this_turn]
        if reminders:
            self._log("horde.log.combat_reminders", cards=tuple(reminders))
        yield from ()

    def on_attack(self, permanent: Permanent) -> None:
        rages = self.this_turn.count(CONSUMING_RAGE)
        if rages and permanent.card.has_subtype("Minotaur"):
            permanent.pumped += 2 * rages  # and it is destroyed at end of combat
            permanent.doomed = True

    def end_step(self) -> Flow:
        """Reckless Minotaur: "At the beginning of the end step" — every end step, the player's too."""
        reckless = [p for p in self.battlefield if p.name == RECKLESS]
        doomed = []
        for permanent in reckless:
            if (yield from self._trigger(RECKLESS, "end_step")):
                doomed.append(permanent)
        if doomed:
            yield from self._leave(doomed, "destroyed")

    # ------------------------------------------------------------------ Hero's Reward (artifacts)
    def on_graveyard(self, card: DeckCard) -> Flow:
        if "Artifact" not in card.type_line or not (yield from self._trigger(card.name, "reward")):
            return
        self._log("horde.log.reward", card=card.name)
        if card.name == ALTAR:
            minotaurs = self._minotaurs()
            if minotaurs:
                count = min(2, len(minotaurs))
                chosen = yield Decision(
                    ALTAR_SACRIFICE,
                    "heads",
                    self._numbers(minotaurs[:count]),
                    card=ALTAR,
                    min_heads=count,
                    max_heads=count,
                )
                yield from self._leave(list(chosen), "sacrificed")  # type: ignore[call-overload]
        elif card.name == MASSACRE_TOTEM:
            yield from self._mill(7)
        elif card.name == ELIXIR:
            self._gain(5, card.name)
        elif card.name == STATUE:
            self._log("challenge.log.reward_draw")
        elif card.name == SALVE:
            self._log("horde.log.salve")

    def _minotaurs(self) -> list[Permanent]:
        """The Minotaurs the Horde controls ("the Horde sacrifices two Minotaurs")."""
        return [p for p in self.controlled() if p.card.has_subtype("Minotaur")]

    def _allowed(self, decision: Decision) -> list[Permanent]:
        if decision.topic == ALTAR_SACRIFICE:
            return self._minotaurs()
        return super()._allowed(decision)
