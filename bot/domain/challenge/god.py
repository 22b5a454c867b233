"""Defeat a God (TDAG): Xenagos's own rules, all in this module (docs/rules/CHALLENGE_DECKS.md §5b).

- Up to three different Hero cards per player. 1 to 4 players (the Wizards multiplayer rules of
  2014-05-23): the players share a life total of 20, and Xenagos starts with one more Rollicking
  Throng per additional player. Shared life works as in Two-Headed Giant: "each player" damage or
  life gain counts once per player.
- Set-up: Xenagos Ascended and two Rollicking Throng (difficulty: 1 easier, 3 harder) on the
  battlefield; their enter triggers don't trigger as the game begins. The players go first (as
  against the Hydra and the Horde) and skip their first draw.
- At the beginning of Xenagos's first main phase: reveal the top two cards, then he casts them.
- Xenagos and his Revelers attack only when a card says so (Ecstatic Piper, Xenagos's Scorn,
  Impulsive Charge, Dance of Panic, Maddened Oread); the players declare blocks.
- Xenagos Ascended can't leave the battlefield while a Reveler is on it; when he leaves, the
  players win.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.challenge import god_cards
from bot.domain.challenge.core import ChallengeError, Decision, Flow
from bot.domain.challenge.creatures import CreatureDeckGame, DeckCard, Permanent, Seat, load_cards
from bot.domain.challenge.decks import CURRENT_RULES, GOD

CARDS = load_cards(god_cards.CARD_ROWS)
XENAGOS, THRONG, PIPER, OREAD = "Xenagos Ascended", "Rollicking Throng", "Ecstatic Piper", "Maddened Oread"
CHARGE, DESTRUCTION, RETURN, RIP = (
    "Impulsive Charge",
    "Impulsive Destruction",
    "Impulsive Return",
    "Rip to Pieces",
)
SCORN, STRIKE, FLAME, PANIC = "Xenagos's Scorn", "Xenagos's Strike", "Dance of Flame", "Dance of Panic"
MIN_THRONGS, MAX_THRONGS, DEFAULT_THRONGS = GOD.min_difficulty, GOD.max_difficulty, GOD.default_difficulty
MAX_PLAYERS = GOD.max_players
DESTRUCTION_SACRIFICE = "destruction_sacrifice"  # Impulsive Destruction: per player, sacrifice | decline
# Hero's Reward: (life each player gains, whether each player draws a card)
REWARDS = {
    PIPER: (2, False),
    OREAD: (3, False),
    "Pheres-Band Revelers": (0, True),
    "Serpent Dancers": (0, True),
    "Wild Maenads": (3, False),
}


class GodGame(CreatureDeckGame):
    cards = CARDS
    deck_name = "god"
    prefix = "god"
    deck_rules = GOD
    max_players, max_heroes = GOD.max_players, GOD.max_heroes

    def __init__(
        self,
        seats: Sequence[Seat],
        seed: int,
        difficulty: int = DEFAULT_THRONGS,
        *,
        all_windows: bool = False,
        stable_ids: bool = True,
        life_per_player: bool = False,
        rules: int = CURRENT_RULES,
    ) -> None:
        if not MIN_THRONGS <= difficulty <= MAX_THRONGS:
            raise ChallengeError("god.error.throngs_range", min=MIN_THRONGS, max=MAX_THRONGS)
        self._throngs = difficulty + max(0, len(seats) - 1)
        super().__init__(
            seats,
            seed,
            difficulty,
            all_windows=all_windows,
            stable_ids=stable_ids,
            life_per_player=life_per_player,
            rules=rules,
        )

    def starting_permanents(self) -> list[str]:
        return [XENAGOS] + [THRONG] * min(self._throngs, self.cards[THRONG].count)

    # ------------------------------------------------------------------ queries
    def revelers(self) -> list[Permanent]:
        return [p for p in self.battlefield if p.card.has_subtype("Reveler")]

    def players_won(self) -> bool:
        return all(p.name != XENAGOS for p in self.battlefield)

    def can_leave(self, permanent: Permanent) -> bool:
        """Xenagos Ascended can't leave the battlefield as long as a Reveler is on the battlefield."""
        return permanent.name != XENAGOS or not self.revelers()

    def has_haste(self, permanent: Permanent) -> bool:
        if not permanent.card.has_subtype("Reveler"):
            return False
        return CHARGE in self.this_turn or (self._panic() and len(self.revelers()) >= 5)

    def _panic(self) -> bool:
        return any(p.name == PANIC for p in self.battlefield)

    def must_attack(self, permanent: Permanent) -> bool:
        if permanent.name == XENAGOS:
            return PIPER in self.this_turn or SCORN in self.this_turn
        if not permanent.card.has_subtype("Reveler"):
            return False
        many = len(self.revelers()) >= 5
        return CHARGE in self.this_turn or (self._panic() and many) or (permanent.name == OREAD and many)

    # ------------------------------------------------------------------ Xenagos's turn
    def main_phase(self) -> Flow:
        yield from self._reveal_and_cast(2)

    def on_enter(self, permanent: Permanent) -> Flow:
        if permanent.name not in (THRONG, PIPER) or not (yield from self._trigger(permanent.name, "enter")):
            return
        if permanent.name == THRONG:  # reveal the top card and Xenagos casts it
            yield from self._reveal_and_cast(1)
        else:
            self.this_turn.append(PIPER)  # "Xenagos Ascended attacks this turn if able"
            self._log("god.log.xenagos_will_attack", card=PIPER)

    def resolve_sorcery(self, name: str) -> Flow:
        self.this_turn.append(name)
        if name == STRIKE:
            self._damage(4, STRIKE)
        elif name == SCORN:
            self._log("god.log.xenagos_will_attack", card=SCORN)
        elif name == RETURN:
            pipers = [i for i in self.graveyard if self.name_of(i) == PIPER][:2]
            for card_id in pipers:
                self.graveyard.remove(card_id)
                permanent = self._enter(Permanent(card_id, self.cards[PIPER], entered_turn=self.turn))
                self._log("challenge.log.enters", card=PIPER)
                yield from self.on_enter(permanent)
        elif name == DESTRUCTION:
            declined = 0
            for seat in range(len(self.seats)):
                answer = yield Decision(
                    DESTRUCTION_SACRIFICE,
                    "option",
                    "decline",
                    player=seat,
                    options=("sacrifice", "decline"),
                    card=DESTRUCTION,
                )
                declined += answer == "decline"
            if declined:
                self._damage(3 * declined, DESTRUCTION, each_player=False)

    def beginning_of_combat(self) -> Flow:
        for _ in range(self.this_turn.count(RETURN)):
            self._damage(len(self.revelers()), RETURN)
        for _ in range(self.this_turn.count(RIP)):
            if self.revelers():  # and 1 to each of the players' creatures, per Reveler: a reminder
                self._damage(len(self.revelers()), RIP)
                self._log("god.log.rip_creatures", amount=len(self.revelers()))
                for creature in [p for p in self.creatures() if p.stolen]:  # the players' now
                    creature.damage += len(self.revelers())
        if SCORN in self.this_turn:
            self._log("god.log.trample")
        yield from ()

    def on_attack(self, permanent: Permanent) -> None:
        if permanent.card.has_subtype("Reveler"):
            for _ in range(sum(1 for p in self.battlefield if p.name == FLAME)):
                self._damage(1, FLAME)

    # ------------------------------------------------------------------ Hero's Reward
    def on_leave(self, card: DeckCard) -> Flow:
        life, draw = REWARDS.get(card.name, (0, False))
        if (life or draw) and not (yield from self._trigger(card.name, "reward")):
            return
        if life:
            self._gain(life, card.name)
        if draw:
            self._log("challenge.log.reward_draw")
        if card.name == XENAGOS:
            self._log("god.log.xenagos_leaves")
        yield from ()
