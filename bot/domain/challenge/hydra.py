"""Face the Hydra's rules module of the challenge engine: the bot plays the Hydra, the players tell it
what their cards do. The verbs every deck shares are :class:`~bot.domain.challenge.verbs.DeckGame`'s;
this module holds what only the Hydra does (its turn, its sorceries, heads growing back, a life total
per challenger); ``bot.domain.hydra`` re-exports it for its callers.

Rules cited are docs/rules/RULES.md H1–H13. The engine is deterministic: the only randomness is the shuffle at
set-up (``random.Random(seed)``), every choice the Hydra's cards need is made by the players (H9)
through :attr:`HydraGame.pending`, so ``replay(setup, actions)`` rebuilds any state exactly — that is
how games are saved, resumed and undone.

The Hydra's turn is written as a generator that ``yield``s a :class:`Decision` whenever the players
must answer (a choice, or a response window to counter a spell (H11) or prevent the damage step);
``choose`` sends the answer back in. Player actions at instant speed (damage, destroy, ...) are
allowed while a response window is open, never in the middle of a choice.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from bot.domain.challenge import hydra_cards as C
from bot.domain.challenge.actions import Action, parse_number
from bot.domain.challenge.core import ChallengeError, Decision, Flow, HydraError
from bot.domain.challenge.decks import CURRENT_RULES, HYDRA
from bot.domain.challenge.permanents import TOKEN_ID, Permanent
from bot.domain.challenge.players import LifePerPlayer, Player, Seat, Shield
from bot.domain.challenge.verbs import DeckGame
from bot.i18n.phrase import Phrase

MAX_PLAYERS = 4  # H10
MIN_HEADS, MAX_HEADS = 1, 11  # H2: difficulty is a number of the 11 "Hydra Head" cards
STARTING_LIFE = 20  # H2
HEADS_SOURCE = "heads"  # the source name of the heads' damage step, for prevention shields

# Decision topics and their documented defaults (used after a timeout, or when a script says nothing).
COUNTER = "counter"  # H11 window: "pass" (let it resolve) — default pass
PREVENT = "prevent"  # window before the damage step: "pass" — default pass
DISTRACT_SACRIFICE = "distract_sacrifice"  # "decline" (lose 3 life) — default decline ("may")
DISTRACT_TAP = "distract_tap"  # head to tap — default the first untapped head
SWALLOW_EXILE = "swallow_exile"  # creature exiled (free text) or "none" — default "a creature"
BREATH_MODE = "breath_mode"  # "damage" | "destroy" — default damage (the mode the bot can carry out)
STRIKE_TARGET = "strike_target"  # head to destroy — default the first non-elite head
NECK_TANGLE_TAP = "neck_tangle_tap"  # exactly two heads — default the first two untapped heads
TORN_TAP = "torn_tap"  # up to two heads — default the first two untapped heads
TRIGGER_ORDER = "trigger_order"  # which end-step trigger resolves next — default collector order
# Response windows of a table that asked for every window (GameSetup.all_windows):
UPKEEP = "upkeep"  # the Hydra's upkeep, after its untap step: "pass"
TRIGGER = "trigger"  # a triggered ability (growing heads, Hero's Reward, Swallow's return, end step)
#                      is on the stack: "pass" | "counter" (e.g. Stifle) — default pass

WINDOW_TOPICS = (COUNTER, PREVENT, UPKEEP, TRIGGER)


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    name: str
    heroes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything needed, with the action log, to rebuild a game."""

    heads: int
    players: tuple[PlayerSetup, ...]
    seed: int
    # Every response window (the Hydra's upkeep, each trigger), not just counter and prevent.
    all_windows: bool = False
    # HEAD numbers of the action language are the heads' serials, fixed for the life of the game (a
    # script's "destroy 3" means the same head whatever died before). False only for tables saved
    # before migration 0016, whose logs number heads by their position at the time.
    stable_ids: bool = True
    # The rules version the table was created with (bot.domain.challenge.decks): its log replays as played.
    rules: int = CURRENT_RULES


# A Head on the battlefield: the challenge decks' one permanent type over the Hydra's cards (an elite
# head, Impenetrable Hide's mark and a token copy are data of it).
Head: TypeAlias = Permanent[C.HydraCard]


@dataclass(slots=True)
class SwallowWindow:
    """Swallow the Hero Whole's return: until the Hydra's turn ``ends_at`` begins."""

    ends_at: int
    exiled: list[tuple[int, str]] = field(default_factory=list)  # (player index, creature)


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered ability waiting to go on the stack: ``kind`` reward | grow | swallow | end_step."""

    kind: str
    card: C.HydraCard


@dataclass(frozen=True, slots=True)
class DamageStep:
    """What the heads dealt in one damage step (H6 step 3), recorded at the moment it was dealt:
    the untapped heads then, what they add up to, and what each challenger was dealt or prevented."""

    hydra_turn: int
    untapped: tuple[str, ...]  # names of the untapped heads when the damage was dealt
    untapped_output: int  # 1 per untapped Hydra Head, 2 per untapped elite Head, at that moment
    dealt: int  # the heads' damage as dealt (before any per-player prevention); 0 when all prevented
    # untapped token copies of a Hydra Head then: among ``untapped``, but no *card* named Hydra Head
    tokens: int = 0


class HydraGame(DeckGame[C.HydraCard]):
    """One Face the Hydra game. Build with :meth:`new` or :func:`replay`; drive with :meth:`apply`.
    The verbs every deck shares are :class:`DeckGame`'s; this class holds the Hydra's rules and
    the hooks those verbs call, in the Hydra's own log words (``hydra.log.*``, a head by ``head``)."""

    window_topics = WINDOW_TOPICS
    deck_rules = HYDRA
    error = HydraError
    log_prefix, name_key, names_key = "hydra", "head", "heads"
    logs_no_change = False  # 0 damage, or tapping a tapped head, says nothing
    logs_toughness = True  # −X/−X and counters say the head's new toughness

    def __init__(self, setup: GameSetup) -> None:
        super().__init__()
        _validate_setup(setup)
        self.setup = setup
        names = C.deck_list()
        self.card_names: list[str] = names
        ids = list(range(C.DECK_SIZE))
        starting = [i for i in ids if names[i] == C.HYDRA_HEAD][: setup.heads]
        library = [i for i in ids if i not in set(starting)]
        random.Random(setup.seed).shuffle(library)
        self.library: list[int] = library  # the top card is the LAST element
        self._serials = 0
        self.battlefield: list[Head] = [self._new_head(i) for i in starting]
        self.graveyard: list[int] = []
        self.stack: list[int] = []
        # H10: a life total per challenger; the side keeps their shields and life ledgers.
        self.side = LifePerPlayer([self._new_player(p) for p in setup.players])
        self.turn = 1  # overall turn number; turn 1 is the players' first turn (H3)
        self.hydra_turns = 0
        self.active = "players"
        self.glower_until = 0  # Hydra turn whose start ends Disorienting Glower's lock (0: no lock)
        self.swallows: list[SwallowWindow] = []
        self.extra_turns = 0
        self.players_extra_turns = 0
        self.exile: list[int] = []  # Hydra cards the players' cards exiled from its library or graveyard
        self.library_changed_by: list[bool] = []  # per action: did it move hidden cards (no undo)
        self.heads_severed = 0
        self.damage_steps: list[DamageStep] = []
        self.triggers: list[Trigger] = []  # triggered abilities not yet put on the stack
        self._log("hydra.log.setup", heads=setup.heads, players=len(self.players))
        self._log("hydra.log.players_turn", turn=self.turn)
        self._log("hydra.log.no_first_draw")

    @classmethod
    def new(
        cls, heads: int, players: Sequence[PlayerSetup] | int = 1, seed: int = 0, *, all_windows: bool = False
    ) -> HydraGame:
        if isinstance(players, int):
            players = tuple(PlayerSetup(f"Player {i + 1}") for i in range(players))
        return cls(GameSetup(heads=heads, players=tuple(players), seed=seed, all_windows=all_windows))

    @classmethod
    def from_seats(
        cls,
        seats: Sequence[Seat],
        seed: int,
        difficulty: int,
        *,
        all_windows: bool,
        stable_ids: bool,
        rules: int,
        life_per_player: bool,
    ) -> HydraGame:
        """The Hydra's game from every deck's one set-up (``games.new_game``): its difficulty is its
        starting heads, and its players have a life total each, so the shared-life house rule is refused."""
        if life_per_player:
            raise ChallengeError("challenge.error.house_rule_hydra")
        players = tuple(PlayerSetup(seat.name, seat.heroes) for seat in seats)
        return cls(
            GameSetup(
                heads=difficulty,
                players=players,
                seed=seed,
                all_windows=all_windows,
                stable_ids=stable_ids,
                rules=rules,
            )
        )

    # ----------------------------------------------------------------- set-up helpers
    def _new_head(self, card_id: int, card: C.HydraCard | None = None) -> Head:
        self._serials += 1
        return Head(card_id, card or C.CARDS[self.card_names[card_id]], serial=self._serials)

    def position_of(self, serial: int) -> int | None:
        """The HEAD number of the script language of the head ``serial`` (the serial itself, or its
        1-based position in a game saved before stable numbers), or None once it has left the battlefield."""
        return next((self.number_of(h) for h in self.battlefield if h.serial == serial), None)

    @staticmethod
    def _new_player(setup: PlayerSetup) -> Player:
        bonus = sum(C.HEROES[name].starting_life_bonus for name in setup.heroes)
        return Player(setup.name, setup.heroes, STARTING_LIFE + bonus, STARTING_LIFE + bonus)

    # ----------------------------------------------------------------- queries
    @property
    def seed(self) -> int:
        """The shuffle seed (the one surface every deck's runner reads)."""
        return self.setup.seed

    @property
    def defeated(self) -> int:
        """Heads severed: every deck's score of a table (an event's, a profile's)."""
        return self.heads_severed

    @property
    def in_players_first_turn(self) -> bool:
        """The players' first turn (H3) that nobody has ended yet: late challengers may still sit down."""
        return not self.over and self.turn == 1 and self.active == "players"

    @property
    def spells_locked(self) -> bool:
        """Disorienting Glower: players can't cast spells until the Hydra's next turn."""
        return self.glower_until > self.hydra_turns

    @property
    def players(self) -> list[Player]:
        """The challengers, in seat order (each with a life total of their own)."""
        return self.side.players

    @property
    def shields(self) -> list[Shield]:
        """The players' prevention shields of this turn, oldest first."""
        return self.side.shields

    def alive(self) -> list[int]:
        return self.side.alive()

    def name_of(self, card_id: int) -> str:
        return self.card_names[card_id]

    def head_damage_output(self) -> int:
        """H6 step 3: 1 per untapped card named Hydra Head, 2 per untapped elite Head."""
        total = 0
        for head in self.battlefield:
            if not head.tapped:
                total += 2 if head.card.elite else (1 if self._is_hydra_head_card(head) else 0)
        return total

    def _is_hydra_head_card(self, head: Head) -> bool:
        """A *card* named Hydra Head: a token copy is none (tables of the first rules version counted it)."""
        return head.name == C.HYDRA_HEAD and (not head.token or self.setup.rules < CURRENT_RULES)

    # ----------------------------------------------------------------- driving
    def rebuild(self, actions: Sequence[str]) -> HydraGame:
        """The same game replayed with ``actions`` (undo)."""
        return replay(self.setup, actions)

    def undo_refusal(self) -> str | None:
        """Why the players' last action can't be undone (an i18n key), or None if it can. Undo never
        un-reveals: an action that revealed or moved cards of the Hydra's library is final."""
        if not undoable(self.actions):
            return "hydra.error.nothing_to_undo"
        if self.library_changed_by and self.library_changed_by[-1]:
            return "hydra.error.undo_revealed"
        return None

    # ----------------------------------------------------------------- player actions
    def _head_at(self, number: int) -> Head:
        """The head a HEAD number names (see :meth:`number_of`)."""
        if self.setup.stable_ids:
            head = next((h for h in self.battlefield if h.serial == number), None)
            if head is None:
                raise HydraError(
                    "hydra.error.no_such_head_id",
                    head=number,
                    heads=tuple(h.serial for h in self.battlefield) or "-",
                )
            return head
        if not 1 <= number <= len(self.battlefield):
            raise HydraError("hydra.error.no_such_head", head=number, count=len(self.battlefield))
        return self.battlefield[number - 1]

    # ----------------------------------------------------------------- the shared verbs' hooks
    @property
    def stable_ids(self) -> bool:
        return self.setup.stable_ids

    @property
    def deck_turn_count(self) -> int:
        return self.hydra_turns

    def _target(self, number: int) -> Head:
        return self._head_at(number)

    def _marked(self) -> None:
        self._check_lethal()

    def _remove(self, permanents: list[Head], how: str) -> None:
        self._leave(permanents, how=how)

    def _after_action(self) -> None:
        if self.triggers and not self.over:  # the players' action made abilities trigger
            self._start_flow(self._resolve_triggers())

    def _do_attack(self, action: Action) -> None:
        """H4: attackers are assigned to heads; all combat damage is dealt at once, then the
        state-based check destroys every head with lethal damage together."""
        self._require(instant=False)
        pairs = list(zip(action.numbers[::2], action.numbers[1::2], strict=True))
        targets = [(self._head_at(pos), amount) for pos, amount in pairs]
        for head, amount in targets:
            if amount:
                head.damage += amount
                self._log("hydra.log.combat_damage", head=head.name, amount=amount)
        self._check_lethal()

    def _do_loselife(self, action: Action) -> None:
        """H8: life the Hydra would lose (or damage to it) is dealt to a head the players choose."""
        self._require(instant=True)
        head = self._head_at(action.numbers[0])
        if action.numbers[1]:
            head.damage += action.numbers[1]
            self._log("hydra.log.redirected", head=head.name, amount=action.numbers[1])
        self._check_lethal()

    def _targets(self, action: Action, skip: int = 0) -> list[Head]:
        """The heads an action names (positions after ``skip`` numbers, or ``all``), all picked
        before anything happens, so positions never shift half-way through a sweeper."""
        if action.all_heads:
            return list(self.battlefield)
        positions = action.numbers[skip:]
        if len(set(positions)) != len(positions):
            raise HydraError("hydra.error.same_head_twice")
        return [self._head_at(position) for position in positions]

    def _do_tuck(self, action: Action) -> None:
        """H9: a head put into the library goes to the Hydra's graveyard instead (it still leaves)."""
        self._require(instant=True)
        self._leave(self._targets(action), how="library")

    def _do_copy(self, action: Action) -> None:
        """A token copy of a head: a Head for the win (H7), Unified Lunge and the damage step; it
        triggers growing new heads and Hero's Reward when it leaves, then ceases to exist."""
        self._require(instant=True)
        original = self._head_at(action.numbers[0])
        self.battlefield.append(self._new_head(TOKEN_ID, original.card))
        self._log("hydra.log.copied", head=original.name)

    def _do_prevent(self, action: Action) -> None:
        self._require(instant=True)
        amount = action.numbers[0]
        seats = [self._player_at(action.numbers[1])] if len(action.numbers) > 1 else self.alive()
        source = self._damage_source(action.text.removeprefix("from ").strip()) if action.text else None
        self.side.add_shields(amount, source, seats)
        self._log(
            "hydra.log.shield",
            amount=amount,
            players=tuple(self.players[i].name for i in seats),
            source=source or "*",
        )

    @staticmethod
    def _damage_source(text: str) -> str:
        """``heads`` or the exact name of a Hydra card that deals damage (case-insensitive)."""
        if text.lower() == HEADS_SOURCE:
            return HEADS_SOURCE
        for name in C.DAMAGE_SOURCES:
            if name.casefold() == text.casefold():
                return name
        raise HydraError("hydra.error.unknown_source", source=text, sources=(HEADS_SOURCE, *C.DAMAGE_SOURCES))

    def _do_mill(self, action: Action) -> None:
        self._require(instant=True)
        milled = [self.library.pop() for _ in range(min(action.numbers[0], len(self.library)))]
        self.graveyard.extend(milled)
        if milled:
            self._log("hydra.log.milled", count=len(milled), cards=tuple(self.name_of(i) for i in milled))
        else:
            self._log("hydra.log.mill_nothing")

    def _player_at(self, seat: int) -> int:
        if not 1 <= seat <= len(self.players):
            raise HydraError("hydra.error.no_such_player", player=seat, count=len(self.players))
        if self.players[seat - 1].lost:
            raise HydraError("hydra.error.player_out", player=self.players[seat - 1].name)
        return seat - 1

    def _do_life(self, action: Action) -> None:
        """A player's own cards changed their life (lifelink, paying life, ...)."""
        self._require(instant=True)
        index = self._player_at(action.numbers[0])
        delta = action.numbers[1]
        self.side.change_life(index, delta)
        player = self.players[index]
        self._log("hydra.log.life", player=player.name, delta=f"{delta:+d}", life=player.life)
        self._check_players()

    def _do_concede(self, action: Action) -> None:
        seats = [self._player_at(action.numbers[0])] if action.numbers else self.alive()
        for index in seats:
            self.players[index].lost = True
            self._log("hydra.log.conceded", player=self.players[index].name)
        self._check_players_after_concession()

    def _check_players_after_concession(self) -> None:
        if not self.alive() and not self.over:
            self._finish("lost")
            self._end_flows()
        # a question asked of a player who just left the game takes its default
        while (
            self.pending is not None
            and self.pending.player is not None
            and self.players[self.pending.player].lost
        ):
            self._advance(self._answer(self.pending, self._left_game_answer(self.pending)))

    @staticmethod
    def _left_game_answer(decision: Decision) -> str:
        """A player who left the game does nothing more: no creature exiled by Swallow the Hero
        Whole, no sacrifice; other questions take their default."""
        return "none" if decision.topic == SWALLOW_EXILE else decision.default

    def _do_end(self, action: Action) -> None:
        self._require(instant=False)
        self._log("hydra.log.players_end", turn=self.turn)
        self._cleanup()
        if self._win_check():
            return
        if self.players_extra_turns:
            self.players_extra_turns -= 1
            self._begin_players_turn(extra=True)
            return
        self._start_flow(self._hydra_phase())

    def _begin_players_turn(self, *, extra: bool = False) -> None:
        self.turn += 1
        self.active = "players"
        if extra:
            self._log("hydra.log.players_extra_turn")
        self._log("hydra.log.players_turn", turn=self.turn)
        self._log("hydra.log.draw_reminder")
        if self.spells_locked:
            self._log("hydra.log.glower_active")

    # ----------------------------------------------------------------- answers
    def _answer(self, decision: Decision, text: str) -> object:
        text = text.strip()
        if decision.kind == "option":
            lowered = text.lower()
            if lowered not in decision.options:
                raise HydraError("hydra.error.bad_option", option=text, options=decision.options)
            return lowered
        if decision.kind == "text":
            if not text:
                raise HydraError("hydra.error.usage", usage="choose OPTION")
            return None if text.lower() == "none" else text
        tokens = [] if text.lower() == "none" else text.replace(",", " ").split()
        positions: list[int] = []
        for token in tokens:
            positions.append(parse_number(token, text))
        if len(set(positions)) != len(positions):
            raise HydraError("hydra.error.same_head_twice")
        if not decision.min_heads <= len(positions) <= decision.max_heads:
            raise HydraError("hydra.error.head_count", min=decision.min_heads, max=decision.max_heads)
        return [self._head_at(p) for p in positions]

    @staticmethod
    def _ask_heads(decision: Decision) -> Generator[Decision, object, list[Head]]:
        """Ask a "heads" question (``heads = yield from self._ask_heads(...)``): a flow receives every
        answer as ``object``, and a heads answer is the list of heads ``_answer`` made."""
        answer = yield decision
        assert isinstance(answer, list) and all(isinstance(head, Permanent) for head in answer), answer
        return answer

    def default_heads(self, count: int, prefer: str = "untapped") -> str:
        """The documented default pick: the first ``count`` heads in printed order, untapped ones
        first (``prefer='nonelite'`` puts non-elite heads first instead)."""
        order = list(range(len(self.battlefield)))
        if prefer == "untapped":
            order.sort(key=lambda i: self.battlefield[i].tapped)
        else:
            order.sort(key=lambda i: self.battlefield[i].card.elite)
        chosen = sorted(order[:count])
        return " ".join(str(self.number_of(self.battlefield[i])) for i in chosen) or "none"

    # ----------------------------------------------------------------- the flow machinery
    # ----------------------------------------------------------------- the Hydra's turns (H6)
    def _hydra_phase(self) -> Flow:
        yield from self._hydra_turn()
        while not self.over and self.extra_turns:
            self.extra_turns -= 1
            self._log("hydra.log.extra_turn")
            yield from self._hydra_turn()
        if not self.over:
            self._begin_players_turn()

    def _hydra_turn(self) -> Flow:
        self.turn += 1
        self.hydra_turns += 1
        self.active = "hydra"
        number = self.hydra_turns
        self._log("hydra.log.hydra_turn", turn=self.turn)
        self._begin_hydra_turn(number)
        self._untap_step(number)
        if self.setup.all_windows:
            yield Decision(UPKEEP, "option", "pass", options=("pass",))
        yield from self._reveal_and_cast()
        yield from self._damage_step()
        yield from self._end_step()
        self._cleanup()
        self._win_check()

    def _begin_hydra_turn(self, number: int) -> None:
        """Effects lasting "until the Hydra's next turn" end as this turn begins."""
        if self.glower_until and self.glower_until <= number:
            self.glower_until = 0
            self._log("hydra.log.glower_ends")
        for window in [w for w in self.swallows if w.ends_at <= number]:
            self.swallows.remove(window)
            if window.exiled:
                self._log(
                    "hydra.log.swallow_closed",
                    creatures=tuple(
                        Phrase("core.label_value", {"label": self.players[p].name, "value": c})
                        for p, c in window.exiled
                    ),
                )

    def _untap_step(self, number: int) -> None:
        for head in self.battlefield:
            if head.frozen_for == number:
                head.frozen_for = 0
                if head.tapped:
                    self._log("hydra.log.stays_tapped", head=head.name)
            elif head.tapped:
                head.tapped = False
        self._log("hydra.log.untap")

    def _reveal_and_cast(self) -> Flow:
        """H6 step 2: reveal the top card and cast it; an empty library just does nothing (H7)."""
        if not self.library:
            self._log("hydra.log.library_empty")
            return
        card_id = self.library.pop()
        self._log("hydra.log.reveal", card=self.name_of(card_id))
        yield from self._cast(card_id)

    def _cast(self, card_id: int) -> Flow:
        """The Hydra casts a card: targets are chosen, the players may counter it (H11), it resolves."""
        name = self.name_of(card_id)
        if card_id not in self.stack:
            self.stack.append(card_id)
        target: Head | None = None
        if name == C.STRIKE_THE_WEAK_SPOT:
            if not self.battlefield:
                self._log("hydra.log.no_target", card=name)
                self._to_graveyard_from_stack(card_id)
                return
            heads = yield from self._ask_heads(
                Decision(
                    STRIKE_TARGET,
                    "heads",
                    self.default_heads(1, "nonelite"),
                    card=name,
                    min_heads=1,
                    max_heads=1,
                )
            )
            target = heads[0]
            self._log("hydra.log.targets", card=name, head=target.name)
        answer = yield Decision(COUNTER, "option", "pass", options=("pass", "counter"), card=name)
        if answer == "counter":
            self._log("hydra.log.countered", card=name)
            self._to_graveyard_from_stack(card_id)
            return
        card = C.CARDS[name]
        if card.is_head:
            self.stack.remove(card_id)
            self.battlefield.append(self._new_head(card_id))
            self._log("hydra.log.head_enters", head=name)
            return
        follow_up = yield from self._resolve_sorcery(name, target)
        self._to_graveyard_from_stack(card_id)
        yield from self._resolve_triggers()
        if follow_up is not None:
            yield from self._cast(follow_up)

    def _to_graveyard_from_stack(self, card_id: int) -> None:
        self.stack.remove(card_id)
        self.graveyard.append(card_id)

    def _damage_step(self) -> Flow:
        """H6 step 3: all at once, combat damage (so Fog-style prevention works). The amount is
        counted when the damage is dealt, after the players' window: a head tapped or removed in
        that window deals nothing."""
        if self.head_damage_output() == 0 or not self.alive():
            self._log("hydra.log.no_damage")
            return
        answer = yield Decision(PREVENT, "option", "pass", options=("pass", "prevent"))
        amount = self.head_damage_output()
        untapped = tuple(h.name for h in self.battlefield if not h.tapped)
        tokens = sum(
            1
            for h in self.battlefield
            if not h.tapped and h.name == C.HYDRA_HEAD and not self._is_hydra_head_card(h)
        )
        if answer == "prevent" and amount:
            self.damage_steps.append(DamageStep(self.hydra_turns, untapped, amount, 0, tokens))
            self._log("hydra.log.damage_prevented", amount=amount)
            return
        self.damage_steps.append(DamageStep(self.hydra_turns, untapped, amount, amount, tokens))
        if amount == 0 or not self.alive():
            self._log("hydra.log.no_damage")
            return
        self._log("hydra.log.heads_attack", amount=amount)
        self._damage_players(amount)

    def _end_step(self) -> Flow:
        """Elite heads' "at the beginning of the Hydra's end step" triggers; the players order them (H9)."""
        triggers = [
            h.name
            for h in self.battlefield
            if h.name in (C.SAVAGE_VIGOR_HEAD, C.SHRIEKING_TITAN_HEAD, C.SNAPPING_FANG_HEAD)
        ]
        triggers.sort(key=lambda n: C.CARDS[n].collector_number)
        while triggers:
            if len(triggers) > 1:
                chosen = yield Decision(
                    TRIGGER_ORDER, "option", triggers[0].lower(), options=tuple(t.lower() for t in triggers)
                )
                name = next(t for t in triggers if t.lower() == chosen)
            else:
                name = triggers[0]
            triggers.remove(name)
            yield from self._end_step_trigger(name)

    def _end_step_trigger(self, name: str) -> Flow:
        self._log("hydra.log.trigger", head=name)
        if self.setup.all_windows:
            answer = yield Decision(
                TRIGGER, "option", "pass", options=("pass", "counter"), card=name, detail="end_step"
            )
            if answer == "counter":
                self._log("hydra.log.trigger_countered", head=name, kind="end_step")
                return
        if name == C.SAVAGE_VIGOR_HEAD:
            yield from self._reveal_and_cast()
        elif name == C.SHRIEKING_TITAN_HEAD:
            self._log("hydra.log.each_discards")  # exactly one card each (not two: CHALLENGE_DECKS §6)
        else:
            self._damage_players(1, source=name)

    def _cleanup(self) -> None:
        """End of a turn: marked damage wears off and "until end of turn" effects end at the same
        time (CR 514.2), so a head losing indestructible here does not die of old damage."""
        for head in self.battlefield:
            head.damage = 0
            head.shrunk = 0
            if self.active == "hydra" and head.indestructible_through == self.hydra_turns:
                head.indestructible_through = 0
        self.side.clear_shields()  # "this turn"

    def _win_check(self) -> bool:
        """H7: at the end of any turn, no heads on the battlefield means the players win."""
        if not self.battlefield and not self.over:
            self._finish("won")
            return True
        return False

    def _finish(self, outcome: str) -> None:
        self.outcome = outcome
        self._log("hydra.log.won" if outcome == "won" else "hydra.log.lost")

    # ----------------------------------------------------------------- sorceries
    def _resolve_sorcery(self, name: str, target: Head | None) -> Generator[Decision, object, int | None]:
        """Each card does what its oracle text says, no more; returns a card to cast afterwards."""
        number = self.hydra_turns
        if name == C.DISORIENTING_GLOWER:
            self.glower_until = max(self.glower_until, number + 1)
            self._log("hydra.log.glower")
        elif name == C.DISTRACT_THE_HYDRA:
            yield from self._distract()
        elif name == C.GROWN_FROM_THE_STUMP:
            self._grown_from_the_stump()
        elif name == C.IMPENETRABLE_HIDE:
            for head in self.battlefield:  # only the heads there now (CHALLENGE_DECKS §6)
                head.indestructible_through = max(head.indestructible_through, number + 1)
            self._log("hydra.log.hide", count=len(self.battlefield))
        elif name == C.NECK_TANGLE:
            if len(self.battlefield) >= 5:
                heads = yield from self._ask_heads(
                    Decision(
                        NECK_TANGLE_TAP, "heads", self.default_heads(2), card=name, min_heads=2, max_heads=2
                    )
                )
                self._tap_and_freeze(heads, number + 1)
            else:
                self._log("hydra.log.neck_tangle_cast")
                if not self.library:
                    self._log("hydra.log.library_empty")
                    return None
                card_id = self.library.pop()
                self.stack.append(card_id)  # cast during Neck Tangle's resolution
                self._log("hydra.log.reveal", card=self.name_of(card_id))
                return card_id
        elif name == C.NOXIOUS_HYDRA_BREATH:
            mode = yield Decision(BREATH_MODE, "option", "damage", options=("damage", "destroy"), card=name)
            if mode == "damage":
                self._damage_players(5, source=name)
            else:
                self._log("hydra.log.destroy_tapped_creatures")
        elif name == C.STRIKE_THE_WEAK_SPOT:
            assert target is not None
            if target not in self.battlefield:
                self._log("hydra.log.fizzles", card=name)  # its only target is gone: it does nothing
                return None
            was_elite = target.card.elite
            self._destroy(target)
            if was_elite:  # "If that Head was elite" — whether or not it was destroyed
                self.extra_turns += 1
                self._log("hydra.log.extra_turn_earned")
        elif name == C.SWALLOW_THE_HERO_WHOLE:
            yield from self._swallow(number)
        elif name == C.TORN_BETWEEN_HEADS:
            most = min(2, len(self.battlefield))
            heads = yield from self._ask_heads(
                Decision(TORN_TAP, "heads", self.default_heads(most), card=name, min_heads=0, max_heads=most)
            )
            self._tap_and_freeze(heads, number + 1)
            self._damage_players(5, source=name)
        elif name == C.UNIFIED_LUNGE:
            self._damage_players(len(self.battlefield), source=name)
        return None

    def _distract(self) -> Flow:
        sacrificed: list[int] = []
        for index in self.alive():
            answer = yield Decision(
                DISTRACT_SACRIFICE,
                "option",
                "decline",
                player=index,
                options=("sacrifice", "decline"),
                card=C.DISTRACT_THE_HYDRA,
            )
            if answer == "sacrifice":
                sacrificed.append(index)
                self._log("hydra.log.sacrifices", player=self.players[index].name)
        for index in sacrificed:
            if not self.battlefield:
                break
            heads = yield from self._ask_heads(
                Decision(
                    DISTRACT_TAP,
                    "heads",
                    self.default_heads(1),
                    player=index,
                    card=C.DISTRACT_THE_HYDRA,
                    min_heads=1,
                    max_heads=1,
                )
            )
            if not heads[0].tapped:
                heads[0].tapped = True
            self._log("hydra.log.player_taps", player=self.players[index].name, head=heads[0].name)
        losers = [i for i in self.alive() if i not in sacrificed]
        for index in losers:
            self._lose_life(index, 3)
        self._check_players()

    def _swallow(self, number: int) -> Flow:
        window = SwallowWindow(ends_at=number + 1)
        for index in self.alive():
            creature = yield Decision(
                SWALLOW_EXILE, "text", "a creature", player=index, card=C.SWALLOW_THE_HERO_WHOLE
            )
            if creature is None:
                self._log("hydra.log.nothing_to_exile", player=self.players[index].name)
            else:
                window.exiled.append((index, str(creature)))
                self._log("hydra.log.exiles", player=self.players[index].name, creature=creature)
        self.swallows.append(window)

    def _grown_from_the_stump(self) -> None:
        in_graveyard = [i for i in self.graveyard if self.name_of(i) == C.HYDRA_HEAD]
        if len(in_graveyard) >= 2:
            for card_id in in_graveyard[:2]:
                self.graveyard.remove(card_id)
                self.battlefield.append(self._new_head(card_id))
            self._log("hydra.log.stump_graveyard")
            return
        revealed: list[int] = []
        while self.library:
            card_id = self.library.pop()
            if C.CARDS[self.name_of(card_id)].is_head:
                self.battlefield.append(self._new_head(card_id))
                self._log("hydra.log.stump_library", head=self.name_of(card_id), milled=len(revealed))
                break
            revealed.append(card_id)
        else:
            self._log("hydra.log.stump_nothing", milled=len(revealed))
        self.graveyard.extend(revealed)

    def _tap_and_freeze(self, heads: Iterable[Head], untap_step: int) -> None:
        for head in heads:
            head.tapped = True
            head.frozen_for = untap_step
            self._log("hydra.log.tapped_frozen", head=head.name)

    # ----------------------------------------------------------------- heads leaving (H5, H9)
    def _check_lethal(self) -> None:
        """State-based actions: heads with lethal damage are destroyed together."""
        no_toughness = [h for h in self.battlefield if h.toughness <= 0]  # not destruction: Hide can't help
        dying = [h for h in self.battlefield if h not in no_toughness and h.damage >= h.toughness]
        survivors = [h for h in dying if self.is_indestructible(h)]
        for head in survivors:
            self._log("hydra.log.indestructible", head=head.name)
        dead = no_toughness + [h for h in dying if h not in survivors]
        if dead:
            self._leave(dead, how="dies")

    def _destroy(self, head: Head) -> None:
        if self.is_indestructible(head):
            self._log("hydra.log.indestructible", head=head.name)
            return
        self._leave([head], how="destroyed")

    def _leave(self, heads: list[Head], how: str) -> None:
        """Heads leave the battlefield. Whatever the way, they go to the graveyard (H9), and each
        departure triggers Hero's Reward, growing new heads (H5) and any Swallow return."""
        for head in heads:
            self.battlefield.remove(head)
            if not head.token:  # a token copy ceases to exist
                self.graveyard.append(head.card_id)
            self.heads_severed += 1
            self._log(f"hydra.log.leaves_{how}", head=head.name)
        for head in heads:  # they go on the stack the next time a player would get priority
            self.triggers += [Trigger("reward", head.card), Trigger("grow", head.card)]
            if any(w.exiled for w in self.swallows):
                self.triggers.append(Trigger("swallow", head.card))

    def _resolve_triggers(self) -> Flow:
        """Put the waiting triggers on the stack one by one; with every window, the players may
        respond to each or counter it (a Stifle)."""
        while self.triggers and not self.over:
            trigger = self.triggers.pop(0)
            if self.setup.all_windows:
                answer = yield Decision(
                    TRIGGER,
                    "option",
                    "pass",
                    options=("pass", "counter"),
                    card=trigger.card.name,
                    detail=trigger.kind,
                )
                if answer == "counter":
                    self._log("hydra.log.trigger_countered", head=trigger.card.name, kind=trigger.kind)
                    continue
            if trigger.kind == "reward":
                self._heros_reward(trigger.card)
            elif trigger.kind == "grow":
                self._grow_new_heads()
            else:
                self._swallow_return()
        self._check_players()

    def _heros_reward(self, card: C.HydraCard) -> None:
        self.side.gain_each_player(card.reward_life)
        self._log("hydra.log.reward", head=card.name, life=card.reward_life)
        if card.reward_draw:
            self._log("hydra.log.reward_draw")

    def _grow_new_heads(self) -> None:
        """H5: reveal the top two cards; heads onto the battlefield, the rest into the graveyard."""
        revealed = [self.library.pop() for _ in range(min(2, len(self.library)))]
        if not revealed:
            self._log("hydra.log.grow_empty")
            return
        for card_id in revealed:
            if C.CARDS[self.name_of(card_id)].is_head:
                self.battlefield.append(self._new_head(card_id))
            else:
                self.graveyard.append(card_id)
        self._log("hydra.log.grow", cards=tuple(self.name_of(i) for i in revealed))

    def _swallow_return(self) -> None:
        for window in self.swallows:
            for index, creature in window.exiled:
                if not self.players[index].lost:
                    self._log("hydra.log.swallow_return", player=self.players[index].name, creature=creature)
            window.exiled.clear()

    # ----------------------------------------------------------------- players' life
    def _damage_players(self, amount: int, source: str | None = None) -> None:
        """The Hydra's card (or its heads, ``source`` None) deals ``amount`` to each challenger;
        the players' prevention shields for that player and source are used up first."""
        if source:
            self._log("hydra.log.deals_damage", card=source, amount=amount)
        for result in self.side.damage_each_player(amount, source or HEADS_SOURCE):
            if result.prevented:
                assert result.player is not None  # a life total per player
                self._log(
                    "hydra.log.prevented_for",
                    player=self.players[result.player].name,
                    amount=result.prevented,
                )
        self._check_players()

    def _lose_life(self, index: int, amount: int) -> None:
        self.side.lose_life(index, amount)
        self._log("hydra.log.loses_life", player=self.players[index].name, amount=amount)

    def _check_players(self) -> None:
        """A player at 0 life or less loses; with no challenger left the Hydra has won."""
        for player in self.side.newly_lost():
            self._log("hydra.log.player_loses", player=player.name)
        if self.side.defeated and not self.over:
            self._finish("lost")
            self._stop()

    # ----------------------------------------------------------------- output
    def snapshot(self) -> dict[str, object]:
        """The state as plain data (the CLI's ``--json``; log lines are added by the caller)."""
        return {
            "turn": self.turn,
            "active": self.active,
            "outcome": self.outcome,
            "players": [
                {"name": p.name, "life": p.life, "lost": p.lost, "heroes": list(p.heroes)}
                for p in self.players
            ],
            "heads": [
                {
                    "name": h.name,
                    "damage": h.damage,
                    "tapped": h.tapped,
                    "elite": h.card.elite,
                    "toughness": h.toughness,
                    "indestructible": self.is_indestructible(h),
                    "skips_untap": h.frozen_for > self.hydra_turns,
                    "counters": h.counters,
                    "token": h.token,
                }
                for h in self.battlefield
            ],
            "library_count": len(self.library),
            "graveyard": [self.name_of(i) for i in self.graveyard],
            "exile": [self.name_of(i) for i in self.exile],
            "resolving": [self.name_of(i) for i in self.stack],
            "players_extra_turns": self.players_extra_turns,
            "spells_locked": self.spells_locked,
            "swallowed": [
                {"player": self.players[p].name, "creature": c} for w in self.swallows for p, c in w.exiled
            ],
            "heads_severed": self.heads_severed,
            "pending": None
            if self.pending is None
            else {
                "topic": self.pending.topic,
                "kind": self.pending.kind,
                "default": self.pending.default,
                "options": list(self.pending.options),
                "card": self.pending.card,
                "player": None if self.pending.player is None else self.players[self.pending.player].name,
            },
        }


def _validate_setup(setup: GameSetup) -> None:
    if not MIN_HEADS <= setup.heads <= MAX_HEADS:
        raise HydraError("hydra.error.heads_range", min=MIN_HEADS, max=MAX_HEADS)
    if not 1 <= len(setup.players) <= MAX_PLAYERS:
        raise HydraError("hydra.error.players_range", max=MAX_PLAYERS)
    for player in setup.players:
        if len(player.heroes) > C.MAX_HEROES_PER_PLAYER:
            raise HydraError("hydra.error.too_many_heroes", max=C.MAX_HEROES_PER_PLAYER)
        for hero in player.heroes:
            if hero not in C.HEROES:
                raise HydraError("hydra.error.unknown_hero", hero=hero)


def replay(setup: GameSetup, actions: Iterable[str]) -> HydraGame:
    """Rebuild a game from its seed and action log (deterministic: same input, same state)."""
    game = HydraGame(setup)
    for line in actions:
        game.apply(line)
    return game


def undoable(actions: Sequence[str]) -> bool:
    """The players may undo their last action if it was taken in their current turn (not an
    ``end``, not an answer to the Hydra, not a concession)."""
    return bool(actions) and actions[-1].split()[0] not in ("end", "choose", "concede")
