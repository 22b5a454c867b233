"""What Battle the Horde and Defeat a God share: a 60-card deck that reveals and casts cards each
turn, numbered permanents that fight, combat against the players, and one life total on the
players' side (the Horde is a single-player challenge; against the God the players share 20 life).

The players' own cards are not tracked: they say what their cards did with the same one-line
language as the Hydra (``bot.domain.challenge.actions``), numbers being the positions of the deck's
permanents as printed. A subclass (:mod:`.horde`, :mod:`.god`) holds its deck's own rules through
a few hooks: what the deck does in its main phase, who must attack, what happens at the beginning
of combat, when a card leaves or is put into a graveyard, and when the players win.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from bot.domain.challenge import permanents
from bot.domain.challenge.actions import Action, parse_number
from bot.domain.challenge.core import ChallengeError, Decision, Flow
from bot.domain.challenge.decks import CREATURE_DECK, CURRENT_RULES, DeckRules, check_heroes
from bot.domain.challenge.hydra_cards import HEROES
from bot.domain.challenge.players import Seat, SharedLife, Shield
from bot.domain.challenge.verbs import DeckGame
from bot.i18n.phrase import Phrase

COUNTER = "counter"  # window: the deck casts a card — "pass" | "counter"
BLOCKS = "blocks"  # the attackers the players block (permanent numbers) — default none
PREVENT = "prevent"  # window before combat damage — "pass" | "prevent" (e.g. Fog)
# With every window (``all_windows``): the deck's upkeep ("pass"), and each of its triggered abilities
# (Hero's Reward, enter-the-battlefield, end step) on the stack — "pass" | "counter" (a Stifle).
UPKEEP = "upkeep"
TRIGGER = "trigger"
WINDOW_TOPICS = (COUNTER, PREVENT, UPKEEP, TRIGGER)
CREATURE_VERBS = ("attack", "damage", "sweep", "weaken", "counters")  # they mark damage or change toughness
SHIELD_SOURCE = "combat"  # prevention shields name a source: "combat", or a card of the deck


@dataclass(frozen=True, slots=True)
class DeckCard:
    """One of the 15 different cards of a challenge deck (exact texts in ``*_cards.py``)."""

    name: str
    count: int
    type_line: str
    power: int | None
    toughness: int | None
    oracle_text: str
    collector_number: int
    elite: bool = False  # no creature deck's card is an elite Head (the one permanent type reads it)

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.type_line

    @property
    def is_permanent(self) -> bool:
        return "Sorcery" not in self.type_line

    def has_subtype(self, subtype: str) -> bool:
        return subtype in self.type_line.partition("—")[2].split()

    @property
    def keywords(self) -> set[str]:
        """Keyword lines of the text (Haste, Deathtouch, First strike)."""
        return {
            line.strip().lower()
            for line in self.oracle_text.split("\n")
            if " " not in line.strip() or line.strip().lower() == "first strike"
        }


def load_cards(rows: Iterable[dict[str, object]]) -> dict[str, DeckCard]:
    cards = {}
    for row in rows:
        power, toughness = row["power"], row["toughness"]
        cards[str(row["name"])] = DeckCard(
            name=str(row["name"]),
            count=int(row["count_in_deck"]),  # type: ignore[call-overload]
            type_line=str(row["type_line"]),
            power=None if power is None else int(power),  # type: ignore[call-overload]
            toughness=None if toughness is None else int(toughness),  # type: ignore[call-overload]
            oracle_text=str(row["oracle_text"]),
            collector_number=int(row["collector_number"]),  # type: ignore[call-overload]
        )
    return cards


# A permanent of the deck: the challenge decks' one permanent type over a creature deck's cards.
Permanent: TypeAlias = permanents.Permanent[DeckCard]


@dataclass(frozen=True, slots=True)
class CombatStep:
    """Combat damage as dealt: the unblocked attackers then (name, power) and what they dealt."""

    attackers: tuple[tuple[str, int], ...]
    dealt: int  # before the players' own prevention shields; 0 when prevented (Fog)


class CreatureDeckGame(DeckGame[DeckCard]):
    """Shared rules of the Horde and the God. Subclasses set the class attributes and hooks; the verbs
    every deck shares are :class:`DeckGame`'s, in the creature decks' log words (``challenge.log.*``)."""

    window_topics = WINDOW_TOPICS
    prefix = "challenge"  # i18n key prefix of the log lines
    cards: dict[str, DeckCard] = {}
    deck_rules: DeckRules = CREATURE_DECK
    max_players = 1  # the subclass's deck_rules.max_players (read from the class by the service)
    max_heroes = 3

    def __init__(
        self,
        seats: Sequence[Seat],
        seed: int,
        difficulty: int,
        *,
        all_windows: bool = False,
        stable_ids: bool = True,
        life_per_player: bool = False,
        rules: int = CURRENT_RULES,
    ) -> None:
        super().__init__()
        if not 1 <= len(seats) <= self.max_players:
            raise ChallengeError("challenge.error.players_range", max=self.max_players)
        for seat in seats:
            check_heroes(self.deck_rules, seat.heroes)
        if life_per_player and self.max_players == 1:
            raise ChallengeError("challenge.error.house_rule_multiplayer")
        self.seats = tuple(seats)
        self.seed, self.difficulty, self.all_windows = seed, difficulty, all_windows
        # House rule (the God's multiplayer): the shared life total starts at 20 per player, not 20.
        self.life_per_player = life_per_player
        self.rules = rules  # the rules version the table was created with (bot.domain.challenge.decks)
        self.players_extra_turns = 0
        self.extra_turns_taken = (
            0  # the players' extra turns so far (not among the turns before the deck's first)
        )
        self._held: set[int] = set()  # serials already said to stay on the battlefield with lethal damage
        # The numbers of the action language are serials, fixed while a permanent stays on the
        # battlefield; False only for tables saved before migration 0016 (numbered by position).
        self._stable_ids = stable_ids
        self._serials = 0
        self.card_names = [
            c.name
            for c in sorted(self.cards.values(), key=lambda c: c.collector_number)
            for _ in range(c.count)
        ]
        self.library: list[int] = list(range(len(self.card_names)))  # the top card is the LAST element
        self.battlefield: list[Permanent] = []
        self.graveyard: list[int] = []
        self.exile: list[int] = []
        self.stack: list[int] = []
        self.revealed: list[int] = []  # revealed, waiting to be cast (in order)
        self.turn = 1
        self.deck_turns = 0
        self.active = "players"
        # One life total for the players' side; it keeps their shields and the life ledger.
        self.side = SharedLife(len(self.seats), self._starting_life())
        self.combat_steps: list[CombatStep] = []
        self.library_changed_by: list[bool] = []
        self.this_turn: list[str] = []  # the deck's sorceries that resolved this turn (each acts "this turn")
        self.defeated = 0  # the deck's permanents that left the battlefield (an event's score)
        starting = self.starting_permanents()
        for name in starting:
            card_id = next(i for i in self.library if self.card_names[i] == name)
            self.library.remove(card_id)
            self._enter(Permanent(card_id, self.cards[name], entered_turn=0))
        random.Random(seed).shuffle(self.library)
        self._log(
            f"{self.prefix}.log.setup", deck=self.deck_name, players=len(self.seats), difficulty=difficulty
        )
        if life_per_player:
            self._log("challenge.log.house_rule_life", life=self.starting_life, players=len(self.seats))
        elif self.starting_life != self.deck_rules.starting_life:
            self._log("challenge.log.starting_life", life=self.starting_life)
        self._log("challenge.log.players_turn", turn=self.turn)

    def _starting_life(self) -> int:
        """The players' one life total: 20 (printed), 20 per player under the house rule, plus 7 for
        each The Slayer ("You start the game with an additional 7 life")."""
        base = self.deck_rules.starting_life * (len(self.seats) if self.life_per_player else 1)
        return base + sum(HEROES[hero].starting_life_bonus for seat in self.seats for hero in seat.heroes)

    # ------------------------------------------------------------------ the players' side
    @property
    def starting_life(self) -> int:
        return self.side.starting_life

    @property
    def life(self) -> int:
        """The players' one life total."""
        return self.side.life

    @life.setter
    def life(self, value: int) -> None:
        self.side.life = value

    @property
    def ledger(self) -> dict[str, int]:
        """Every point of the players' life gained and lost, by kind (the invariant checks add it up)."""
        return self.side.ledger

    @property
    def shields(self) -> list[Shield]:
        """The players' prevention shields of this turn, oldest first."""
        return self.side.shields

    # ------------------------------------------------------------------ hooks of each deck
    deck_name = ""

    def starting_permanents(self) -> list[str]:
        return []

    def main_phase(self) -> Flow:
        """The deck's precombat main phase (reveal and cast)."""
        yield from ()

    def must_attack(self, permanent: Permanent) -> bool:
        return False

    def has_haste(self, permanent: Permanent) -> bool:
        return "haste" in permanent.card.keywords

    def beginning_of_combat(self) -> Flow:
        yield from ()

    def on_attack(self, permanent: Permanent) -> None:
        """A creature of the deck attacks (Consuming Rage, Dance of Flame)."""

    def resolve_sorcery(self, name: str) -> Flow:
        yield from ()

    def on_enter(self, permanent: Permanent) -> Flow:
        yield from ()

    def on_leave(self, card: DeckCard) -> Flow:
        """A permanent of the deck left the battlefield (Hero's Reward)."""
        yield from ()

    def on_graveyard(self, card: DeckCard) -> Flow:
        """A card of the deck was put into its graveyard from anywhere (the Horde's artifacts)."""
        yield from ()

    def can_leave(self, permanent: Permanent) -> bool:
        return True

    def players_won(self) -> bool:
        return False

    def end_step(self) -> Flow:
        yield from ()

    # ------------------------------------------------------------------ queries
    def name_of(self, card_id: int) -> str:
        return self.card_names[card_id]

    def creatures(self) -> list[Permanent]:
        return [p for p in self.battlefield if p.card.is_creature]

    def controlled(self) -> list[Permanent]:
        """The permanents the deck controls (not those the players' cards took)."""
        return [p for p in self.battlefield if not p.stolen]

    def can_attack(self, permanent: Permanent) -> bool:
        """Untapped, a creature the deck controls since its turn began (or haste), and under no "can't
        attack" effect."""
        return (
            permanent.card.is_creature
            and not permanent.tapped
            and not permanent.stolen
            and permanent.no_attack_for != self.deck_turns
            and (permanent.entered_turn < self.turn or self.has_haste(permanent))
        )

    def cant_attack_now(self, permanent: Permanent) -> bool:
        """Under a "can't attack" effect for the deck's coming (or current) turn."""
        coming = self.deck_turns + (0 if self.active == "deck" else 1)
        return permanent.no_attack_for == coming and permanent.no_attack_for > 0

    def attacker_phrase(self, permanent: Permanent) -> Phrase:
        """An attacker as the log names it: its number, name and current power and toughness."""
        return Phrase(
            "challenge.log.attacker",
            {
                "number": self.number_of(permanent),
                "card": permanent.name,
                "power": permanent.power,
                "toughness": permanent.toughness,
            },
        )

    @property
    def in_players_first_turn(self) -> bool:
        """The players' first turn, nobody has ended it yet and no card of the deck's library has been
        seen or moved: late players may still sit down. Seats are part of the set-up (a Throng per
        player, taken out of the library before the shuffle), so a seat may be added only while the
        library is still unseen."""
        return (
            not self.over and self.turn == 1 and self.active == "players" and not any(self.library_changed_by)
        )

    def allowed_numbers(self, decision: Decision) -> list[int]:
        """The numbers a permanents-question may be answered with."""
        return [self.number_of(p) for p in self._allowed(decision)]

    def _enter(self, permanent: Permanent) -> Permanent:
        """A permanent of the deck enters the battlefield and gets the next serial."""
        self._serials += 1
        permanent.serial = self._serials
        self.battlefield.append(permanent)
        return permanent

    def rebuild(self, actions: Sequence[str]) -> CreatureDeckGame:
        """The same game replayed with ``actions`` (undo)."""
        game = type(self)(
            self.seats,
            self.seed,
            self.difficulty,
            all_windows=self.all_windows,
            stable_ids=self.stable_ids,
            life_per_player=self.life_per_player,
            rules=self.rules,
        )
        for line in actions:
            game.apply(line)
        return game

    def undo_refusal(self) -> str | None:
        """Why the last action can't be undone: only the players' own actions of their current turn,
        and never one that revealed or moved cards of the deck's library."""
        if not self.actions or self.actions[-1].split()[0] in ("end", "choose", "concede"):
            return "hydra.error.nothing_to_undo"
        if self.library_changed_by[-1]:
            return "challenge.error.undo_revealed"  # the deck's library, not the Hydra's
        return None

    # ------------------------------------------------------------------ driving
    def _at(self, number: int) -> Permanent:
        """The permanent a number of the action language names (see :meth:`number_of`)."""
        if self.stable_ids:
            found = next((p for p in self.battlefield if p.serial == number), None)
            if found is None:
                raise ChallengeError(
                    "challenge.error.no_such_permanent_id",
                    number=number,
                    numbers=tuple(p.serial for p in self.battlefield) or "-",
                )
            return found
        position = number
        if not 1 <= position <= len(self.battlefield):
            raise ChallengeError(
                "challenge.error.no_such_permanent", number=position, count=len(self.battlefield)
            )
        return self.battlefield[position - 1]

    def _targets(self, action: Action, skip: int = 0) -> list[Permanent]:
        """The permanents an action names, all picked before anything happens (no shifting numbers).
        Damage and toughness changes are for creatures: ``all`` means every creature, and a number
        naming an artifact or enchantment is refused (tables of the first rules version excepted)."""
        creatures_only = action.verb in CREATURE_VERBS and self.rules >= CURRENT_RULES
        if action.all_heads:
            return self.creatures() if creatures_only else list(self.battlefield)
        positions = action.numbers[skip:]
        if len(set(positions)) != len(positions):
            raise ChallengeError("challenge.error.same_twice")
        targets = [self._at(p) for p in positions]
        if creatures_only:
            for target in targets:
                self._require_creature(target)
        return targets

    def _require_creature(self, permanent: Permanent) -> None:
        if not permanent.card.is_creature:
            raise ChallengeError(
                "challenge.error.not_a_creature", number=self.number_of(permanent), card=permanent.name
            )

    # ------------------------------------------------------------------ the shared verbs' hooks
    @property
    def stable_ids(self) -> bool:
        return self._stable_ids

    @property
    def deck_turn_count(self) -> int:
        return self.deck_turns

    def _target(self, number: int) -> Permanent:
        """Damage is for creatures (tables of the first rules version excepted)."""
        target = self._at(number)
        if self.rules >= CURRENT_RULES:
            self._require_creature(target)
        return target

    def _marked(self) -> None:
        self._run(self._state_check())

    def _remove(self, permanents: list[Permanent], how: str) -> None:
        self._run(self._leave(permanents, how))

    def _after_action(self) -> None:
        if not self.over and self.active == "players" and self.pending is None:
            self._check_win()

    def _run(self, flow: Flow) -> None:
        """Run what an action set off (leave and graveyard triggers) now, or stacked on a window."""
        self._start_flow(flow)

    # ------------------------------------------------------------------ player actions
    def _do_attack(self, action: Action) -> None:
        """The players' attackers deal their combat damage to the deck's creatures, all at once (one
        attack may damage several), then one state-based check. Damage to the deck itself: ``hit``."""
        self._require(instant=False)
        pairs = list(zip(action.numbers[::2], action.numbers[1::2], strict=True))
        targets = [(self._at(number), amount) for number, amount in pairs]
        for target, _ in targets:
            self._require_creature(target)
            self.check_attacked(target)
        for target, amount in targets:
            if amount:
                target.damage += amount
                self._log("challenge.log.combat_damage_to", card=target.name, amount=amount)
        self._run(self._state_check())

    def check_attacked(self, permanent: Permanent) -> None:
        """Refuse combat damage a deck's creature can't be dealt (the Horde's: only its blockers)."""

    def _do_steal(self, action: Action) -> None:
        """The players' cards gain control of permanents: still the deck's cards on the battlefield (a
        stolen Reveler still protects Xenagos), but they no longer attack or count as the deck's."""
        self._require(instant=True)
        for target in self._targets(action):
            target.stolen, target.attacking = True, False
            self._log("challenge.log.stolen", card=target.name)
        self._check_win()

    def _do_giveback(self, action: Action) -> None:
        """A control-changing effect ends: the deck controls the permanent again."""
        self._require(instant=True)
        targets = [p for p in self.battlefield if p.stolen] if action.all_heads else self._targets(action)
        for target in targets:
            if not target.stolen:
                raise ChallengeError(
                    "challenge.error.not_stolen", number=self.number_of(target), card=target.name
                )
        for target in targets:
            target.stolen = False
            target.entered_turn = self.turn  # it has not been under the deck's control since its turn began
            self._log("challenge.log.given_back", card=target.name)

    def _do_cantattack(self, action: Action) -> None:
        self._require(instant=True)
        turn = self.deck_turns + (0 if self.active == "deck" else 1)
        for target in self._targets(action):
            target.no_attack_for = turn
            self._log("challenge.log.cant_attack", card=target.name)

    def _do_cantblock(self, action: Action) -> None:
        self._require(instant=True)
        for target in self._targets(action):
            target.no_block_turn = self.turn
            self._log("challenge.log.cant_block", card=target.name)

    def _do_tuck(self, action: Action) -> None:
        """Permanents go into the deck's library (an allowed zone for its cards): on top, at the bottom,
        or shuffled in (a shuffle of its own, drawn from the seed and the action's place in the log)."""
        self._require(instant=True)
        place = action.text.split()[0]
        self._run(self._leave(self._targets(action), "library", zone=place))

    def _do_exilecards(self, action: Action) -> None:
        """The players' cards exile the deck's cards from its library (top first) or graveyard: no
        Hero's Reward (they don't go to the graveyard), and fewer cards for the deck to use."""
        super()._do_exilecards(action)
        self._check_win()

    def _do_mill(self, action: Action) -> None:
        self._require(instant=True)
        self._run(self._mill(action.numbers[0]))

    def _do_prevent(self, action: Action) -> None:
        self._require(instant=True)
        if len(action.numbers) > 1:
            self._seat(action.numbers[1])
        source = action.text.removeprefix("from ").strip() if action.text else None
        if source is not None:
            source = self._source_name(source)
        self.side.add_shields(action.numbers[0], source, [None])
        self._log("challenge.log.shield", amount=action.numbers[0], source=source or "*")

    def _source_name(self, text: str) -> str:
        if text.lower() == SHIELD_SOURCE:
            return SHIELD_SOURCE
        for name in self.cards:
            if name.casefold() == text.casefold():
                return name
        raise ChallengeError("hydra.error.unknown_source", source=text, sources=(SHIELD_SOURCE, *self.cards))

    def _seat(self, number: int) -> None:
        """Refuse a player number nobody sits at (one life total: no action needs the seat itself)."""
        if not 1 <= number <= len(self.seats):
            raise ChallengeError("hydra.error.no_such_player", player=number, count=len(self.seats))

    def _do_life(self, action: Action) -> None:
        """A player's own cards changed the players' life (lifelink, paying life, ...)."""
        self._require(instant=True)
        self._seat(action.numbers[0])
        self.side.change_life(action.numbers[0] - 1, action.numbers[1])
        self._log("challenge.log.life", delta=f"{action.numbers[1]:+d}", life=self.life)
        self._check_life()

    def _do_concede(self, action: Action) -> None:
        """One life total on the players' side: a concession ends the challenge for them."""
        if action.numbers:
            self._seat(action.numbers[0])
        self._log("challenge.log.conceded")
        self._finish("lost")
        self._end_flows()

    def _do_end(self, action: Action) -> None:
        self._require(instant=False)
        self._log("challenge.log.players_end", turn=self.turn)
        self._start_flow(self._after_players_turn())

    def _answer(self, decision: Decision, text: str) -> object:
        text = text.strip()
        if decision.kind == "option":
            if text.lower() not in decision.options:
                raise ChallengeError("hydra.error.bad_option", option=text, options=decision.options)
            return text.lower()
        tokens = [] if text.lower() == "none" else text.replace(",", " ").split()
        positions = [parse_number(token, text) for token in tokens]
        if len(set(positions)) != len(positions):
            raise ChallengeError("challenge.error.same_twice")
        if not decision.min_heads <= len(positions) <= decision.max_heads:
            raise ChallengeError("challenge.error.count", min=decision.min_heads, max=decision.max_heads)
        chosen = [self._at(p) for p in positions]
        allowed = self._allowed(decision)
        if any(p not in allowed for p in chosen):
            raise ChallengeError("challenge.error.not_allowed", options=self._numbers(allowed))
        return chosen

    def _allowed(self, decision: Decision) -> list[Permanent]:
        """The permanents a permanents-question may name (blocks: the attackers)."""
        if decision.topic == BLOCKS:
            return [p for p in self.battlefield if p.attacking]
        return self.creatures()

    def _numbers(self, permanents: Iterable[Permanent]) -> str:
        return " ".join(str(self.number_of(p)) for p in permanents) or "none"

    # ------------------------------------------------------------------ turns
    def _after_players_turn(self) -> Flow:
        yield from self.end_step()
        yield from self._state_check()
        self._cleanup()
        self._check_win()  # a win stops this flow here (GameOver)
        if self.players_extra_turns:
            self.players_extra_turns -= 1
            self.extra_turns_taken += 1
            self._log("hydra.log.players_extra_turn")
            self._begin_players_turn()
            return
        if self.turn - self.extra_turns_taken < self.players_first_turns():
            self._begin_players_turn()
            return
        yield from self._deck_turn()
        if not self.over:
            self._begin_players_turn()

    def players_first_turns(self) -> int:
        """How many turns the players take before the deck's first one."""
        return 1

    def _begin_players_turn(self) -> None:
        self.turn += 1
        self.active = "players"
        self._log("challenge.log.players_turn", turn=self.turn)
        self._log("challenge.log.draw_reminder")

    def _deck_turn(self) -> Flow:
        self.turn += 1
        self.deck_turns += 1
        self.active = "deck"
        self.this_turn.clear()
        self._log(f"{self.prefix}.log.deck_turn", turn=self.turn)
        for permanent in self.battlefield:
            if permanent.frozen_for == self.deck_turns:
                permanent.frozen_for = 0
            else:
                permanent.tapped = False
        if self.all_windows:
            yield Decision(UPKEEP, "option", "pass", options=("pass",))
        yield from self.main_phase()
        yield from self._combat()
        yield from self.end_step()
        yield from self._state_check()
        self._cleanup()
        self._check_win()

    def _cleanup(self) -> None:
        for permanent in self.battlefield:
            permanent.damage = permanent.shrunk = permanent.pumped = 0
        self.side.clear_shields()
        self._held.clear()

    # ------------------------------------------------------------------ casting
    def _reveal(self, count: int) -> list[int]:
        revealed = [self.library.pop() for _ in range(min(count, len(self.library)))]
        if revealed:
            self._log("challenge.log.reveal", cards=tuple(self.name_of(i) for i in revealed))
        else:
            self._log("challenge.log.library_empty")
        return revealed

    def _trigger(self, card: str, kind: str) -> Generator[Decision, object, bool]:
        """A triggered ability of the deck goes on the stack; with every window open the players may
        respond or counter it. Returns whether it resolves."""
        if not self.all_windows:
            return True
        answer = yield Decision(
            TRIGGER, "option", "pass", options=("pass", "counter"), card=card, detail=kind
        )
        if answer == "counter":
            self._log("challenge.log.trigger_countered", card=card)
            return False
        return True

    def _reveal_and_cast(self, count: int) -> Flow:
        """Reveal the top ``count`` cards, then the deck casts them one by one in that order."""
        revealed = self._reveal(count)
        self.revealed.extend(revealed)
        for card_id in revealed:
            self.revealed.remove(card_id)
            yield from self._cast(card_id)

    def _cast(self, card_id: int) -> Flow:
        """The deck casts a card: the players may counter it, then it resolves."""
        name = self.name_of(card_id)
        self.stack.append(card_id)
        answer = yield Decision(COUNTER, "option", "pass", options=("pass", "counter"), card=name)
        self.stack.remove(card_id)
        if answer == "counter":
            self._log("challenge.log.countered", card=name)
            yield from self._to_graveyard([card_id])
            return
        card = self.cards[name]
        if card.is_permanent:
            permanent = self._enter(Permanent(card_id, card, entered_turn=self.turn))
            self._log("challenge.log.enters", card=name)
            yield from self.on_enter(permanent)
        else:
            self._log("challenge.log.resolves", card=name)
            self.stack.append(card_id)  # on the stack while it resolves
            yield from self.resolve_sorcery(name)
            self.stack.remove(card_id)
            yield from self._to_graveyard([card_id])
        yield from self._state_check()

    # ------------------------------------------------------------------ combat
    def _combat(self) -> Flow:
        yield from self.beginning_of_combat()
        yield from self._state_check()
        if self.over:
            return
        attackers = [p for p in self.battlefield if self.can_attack(p) and self.must_attack(p)]
        if not attackers:
            self._log("challenge.log.no_attack")
            return
        for attacker in attackers:
            attacker.tapped = attacker.attacking = True
            self.on_attack(attacker)
        self._log("challenge.log.attack", cards=tuple(self.attacker_phrase(a) for a in attackers))
        self._check_life()
        blocked = yield Decision(BLOCKS, "heads", "none", min_heads=0, max_heads=len(attackers))
        for permanent in blocked:  # type: ignore[attr-defined]
            self._log("challenge.log.blocked", card=permanent.name)
        answer = yield Decision(PREVENT, "option", "pass", options=("pass", "prevent"))
        unblocked = [a for a in self.battlefield if a.attacking and a not in blocked]  # type: ignore[operator]
        powers = tuple((a.name, max(0, a.power)) for a in unblocked)  # counted when dealt
        amount = sum(power for _, power in powers)
        if answer == "prevent":
            self.combat_steps.append(CombatStep(powers, 0))
            self._log(
                "challenge.log.combat_prevented" if amount else "challenge.log.combat_nothing_to_prevent",
                amount=amount,
            )
        else:
            self.combat_steps.append(CombatStep(powers, amount))
            if amount:
                self._damage(amount, SHIELD_SOURCE, each_player=False)
        yield from self._end_of_combat()

    def _end_of_combat(self) -> Flow:
        doomed = [p for p in self.battlefield if p.doomed]
        for permanent in self.battlefield:
            permanent.attacking = permanent.doomed = False
        if doomed:
            yield from self._leave(doomed, "destroyed")

    # ------------------------------------------------------------------ zones
    def _state_check(self) -> Flow:
        """State-based actions: creatures with lethal damage (or 0 toughness) die together."""
        dead = [p for p in self.creatures() if p.toughness <= 0 or p.damage >= p.toughness]
        if dead:
            yield from self._leave(dead, "dies")

    def _leave(self, permanents: list[Permanent], how: str, *, zone: str = "graveyard") -> Flow:
        """Permanents leave the battlefield: to the deck's library when put there (``zone`` top, bottom
        or shuffle), else, whatever the zone named, to its graveyard (its rules); then their leave and
        graveyard triggers resolve in order. Something that leaves may let a permanent held on the
        battlefield go (the last Reveler, and Xenagos with lethal damage): state-based actions are
        checked again at once — before the triggers go on the stack, where the players could act with
        Xenagos doomed but still there — as the rules repeat them until nothing more happens."""
        leaving = [p for p in permanents if p in self.battlefield and self._may_leave(p)]
        for permanent in leaving:  # they leave together; then their triggers resolve in order
            self.battlefield.remove(permanent)
            self._held.discard(permanent.serial)
            if zone == "graveyard":
                self.graveyard.append(permanent.card_id)
            else:
                self._into_library(permanent.card_id, zone)
            self.defeated += 1
            self._log(f"challenge.log.leaves_{how}", card=permanent.name)
        if leaving and self.rules >= CURRENT_RULES:
            yield from self._state_check()  # before their triggers go on the stack, as the rules check first
        for permanent in leaving:
            yield from self.on_leave(permanent.card)
            if zone == "graveyard":
                yield from self.on_graveyard(permanent.card)
        self._check_life()
        self._check_win()

    def _may_leave(self, permanent: Permanent) -> bool:
        """Whether ``permanent`` can leave now; one that can't is said so once while it stays held
        (every time, on tables of the first rules version, whose logs were written that way)."""
        if self.can_leave(permanent):
            return True
        if self.rules < CURRENT_RULES or permanent.serial not in self._held:
            self._held.add(permanent.serial)
            self._log(f"{self.prefix}.log.cannot_leave", card=permanent.name)
        return False

    def _into_library(self, card_id: int, place: str) -> None:
        """A card put into the library: the top card is the last element."""
        if place == "top":
            self.library.append(card_id)
        elif place == "bottom":
            self.library.insert(0, card_id)
        else:
            self.library.append(card_id)
            random.Random(f"{self.seed}:{len(self.actions)}").shuffle(self.library)

    def _to_graveyard(self, card_ids: list[int]) -> Flow:
        """Cards go to the graveyard together; then their triggers resolve in order."""
        self.graveyard.extend(card_ids)
        for card_id in card_ids:
            yield from self.on_graveyard(self.cards[self.name_of(card_id)])

    def _mill(self, count: int) -> Flow:
        milled = [self.library.pop() for _ in range(min(count, len(self.library)))]
        if milled:
            self._log("challenge.log.milled", count=len(milled), cards=tuple(self.name_of(i) for i in milled))
        else:
            self._log("challenge.log.mill_nothing")
        yield from self._to_graveyard(milled)
        self._check_win()

    # ------------------------------------------------------------------ the players' life
    def _damage(self, amount: int, source: str, *, each_player: bool = True) -> None:
        """Damage to the players' side; "each player" with a shared life total counts once per
        player (CR 810.9, as in Two-Headed Giant)."""
        result = (
            self.side.damage_each_player(amount, source)[0]
            if each_player
            else self.side.damage(amount, source)
        )
        if result.prevented:
            self._log("challenge.log.prevented", amount=result.prevented)
        dealt = result.dealt
        if source == SHIELD_SOURCE:
            self._log("challenge.log.combat_damage", amount=dealt, life=self.life)
        else:
            self._log("challenge.log.damage_to_players", card=source, amount=dealt, life=self.life)
        self._check_life()

    def _gain(self, amount: int, source: str) -> None:
        total = self.side.gain_each_player(amount)  # "each player gains" with one life total
        self._log("challenge.log.gain", card=source, amount=total, life=self.life)

    def _check_life(self) -> None:
        if self.side.defeated and not self.over:
            self._finish("lost")
            self._stop()

    def _check_win(self) -> None:
        if not self.over and self.players_won():
            self._finish("won")
            self._stop()

    def _finish(self, outcome: str) -> None:
        self.outcome = outcome
        self._log("challenge.log.won" if outcome == "won" else "challenge.log.lost")

    # ------------------------------------------------------------------ output
    def snapshot(self) -> dict[str, object]:
        return {
            "deck": self.deck_name,
            "turn": self.turn,
            "active": self.active,
            "outcome": self.outcome,
            "life": self.life,
            "players": [{"name": s.name, "heroes": list(s.heroes)} for s in self.seats],
            "permanents": [
                {
                    "name": p.name,
                    "power": p.power,
                    "toughness": p.toughness,
                    "damage": p.damage,
                    "tapped": p.tapped,
                }
                for p in self.battlefield
            ],
            "library_count": len(self.library),
            "graveyard": [self.name_of(i) for i in self.graveyard],
            "exile": [self.name_of(i) for i in self.exile],
            "resolving": [self.name_of(i) for i in self.stack + self.revealed],
            "all_windows": self.all_windows,
            "pending": None
            if self.pending is None
            else {
                "topic": self.pending.topic,
                "kind": self.pending.kind,
                "default": self.pending.default,
                "options": list(self.pending.options),
                "card": self.pending.card,
            },
        }

    def board_lines(self) -> list[str]:
        """The permanents as numbered in the action language (card names stay English)."""
        lines = []
        for p in self.battlefield:
            stats = f" {p.power}/{p.toughness}" if p.card.is_creature else ""
            marks = "".join(
                (
                    " [tapped]" if p.tapped else "",
                    f" [{p.damage} damage]" if p.damage else "",
                    " [yours]" if p.stolen else "",
                    " [can't attack]" if self.cant_attack_now(p) else "",
                )
            )
            lines.append(f"{self.number_of(p)}. {p.name}{stats}{marks}")
        return lines


def replay(
    game_type: type[CreatureDeckGame],
    seats: Sequence[Seat],
    seed: int,
    difficulty: int,
    actions: Iterable[str],
    *,
    all_windows: bool = False,
    stable_ids: bool = True,
) -> CreatureDeckGame:
    """Rebuild a game from its set-up and action log (deterministic)."""
    game = game_type(seats, seed, difficulty, all_windows=all_windows, stable_ids=stable_ids)
    for line in actions:
        game.apply(line)
    return game


__all__ = ["CreatureDeckGame", "DeckCard", "Permanent", "Seat", "load_cards", "replay"]
