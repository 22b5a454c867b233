"""A Commander game at the table as a list of events; the state is a fold over them.

Every change anybody makes (a life change, commander damage, a cast from the command zone, the next
turn, a concession …) is one :class:`Event` saying who did what and when. :func:`replay` folds the
events into a :class:`PodState`; undo is itself an event naming the events it drops, so the log is
append-only (restart-safe, auditable) while the state behaves as if the dropped events never happened.

Rules (``docs/rules/RULES.md``):

* G1 starting life 40 (overridable per game).
* G3 commander tax: G3a +{2} per previous cast from the command zone (``edh-2010``, ``commander``);
  G3b +{2} per death counter, a counter being added each time the commander is put into the command
  zone (``duel-zh``).
* G5 commander damage is combat damage, kept per (player hit, commander) pair, also lowers life; 21 or
  more from the same commander makes that player lose, whoever controls the commander.
* Poison: 10 counters make a player lose (today's rule 704.5c, kept by every ruleset here).
* 0 or less life makes a player lose (state-based action, 704.5a).

This module is plain Python: no Discord, no SQL, no clock, no randomness (seat shuffles arrive as an
already-shuffled order), so a replay is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

from bot.domain.errors import DomainError
from bot.domain.events import UNDO as UNDO  # re-exported: pod.UNDO, pod.Event name a game's log
from bot.domain.events import Event as Event
from bot.domain.events import dropped_seqs, effective
from bot.domain.mulligan import (
    Decision,
    Instruction,
    MulliganError,
    MulliganStyle,
    TableMulligan,
    parse_decision,
    style_for_ruleset,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_COMMANDERS = 2
STARTING_LIFE = 40  # G1
COMMANDER_DAMAGE_LIMIT = 21  # G5
POISON_LIMIT = 10
TAX_STEP = 2  # G3a / G3b: {2} per previous cast or per death counter
MAX_COUNTER_NAME = 32
# Bounds on every number a player types, set to what a real game reaches (a few thousand life after a
# big lifegain turn; one commander hit of a few hundred), so a typo such as 1000000 is refused with the
# bound named instead of being stored and breaking the board image.
LIFE_BOUND = 9_999  # a life total and one life change stay within ±9,999
MAX_COMMANDER_HIT = 999  # commander damage in one hit (21 already kills)
MAX_POISON_STEP = POISON_LIMIT  # poison counters given or removed at once
COUNTER_BOUND = 9_999  # a named counter and one change of it

RULESETS = ("commander", "edh-2010", "duel-zh")
# Which commander-tax variant each ruleset uses (docs/rules/RULES.md, table "Rulesets").
TAX_VARIANT = {"commander": "G3a", "edh-2010": "G3a", "duel-zh": "G3b"}

# Reasons a player leaves the game.
LOST_LIFE = "life"
LOST_COMMANDER_DAMAGE = "commander_damage"
LOST_POISON = "poison"
LOST_CONCEDED = "conceded"

# How a game ends.
END_LAST_STANDING = "last_standing"
END_DRAW = "draw"
END_STOPPED = "stopped"

# Event kinds. Each has an ``_apply_<kind>`` below; the service builds events, this module checks them.
CREATE = "create"
JOIN = "join"
SEATS = "seats"
COMMANDERS = "commanders"
MULLIGAN = "mulligan"
LIFE = "life"
SET_LIFE = "set_life"
COMMANDER_DAMAGE = "commander_damage"
CAST = "cast"
TO_COMMAND_ZONE = "to_command_zone"
POISON = "poison"
COUNTER = "counter"
MONARCH = "monarch"
INITIATIVE = "initiative"
NEXT_TURN = "next_turn"
CONCEDE = "concede"
DRAW_VOTE = "draw_vote"
STOP = "stop"
SWAP = "swap"  # sideboard swaps (D7/T1), checked against the deck by the service: bot/domain/sideboard.py
MAX_SWAPS_AT_ONCE = 10  # one SWAP event: a sideboard holds 10 cards (D7)
WISH = "wish"  # a "wish" card fetched a sideboard card during the game (D7), checked by the service
BRACKET = "bracket"  # a player declares their deck's Commander bracket (docs/rules/BRACKETS.md, BR7)
BRACKET_LEVELS = range(1, 6)


class PodError(DomainError):
    """A change the rules or the game's state refuse. ``key`` is an i18n message key under ``pod.error.``."""

    prefix = "pod.error."


@dataclass
class Commander:
    """A commander of one player (partners make two). ``index`` is 0 or 1 within its owner."""

    owner: int
    index: int
    name: str | None = None
    casts: int = 0  # G3a: casts from the command zone so far
    death_counters: int = 0  # G3b
    tax_paid: int = 0

    @property
    def key(self) -> str:
        return commander_key(self.owner, self.index)


@dataclass
class Elimination:
    player: int
    reason: str
    turn: int
    seq: int
    at: str
    by_commander: str | None = None  # commander key when reason is commander damage


@dataclass
class Player:
    user_id: int
    name: str
    life: int
    poison: int = 0
    commanders: list[Commander] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    deck: str | None = None  # the registered deck the player picked, if any
    bracket: int | None = None  # the Commander bracket the player declared (BR7)
    deck_bracket: int | None = None  # the lowest bracket the picked deck's check allows, when known
    commander_damage_taken: dict[str, int] = field(default_factory=dict)  # commander key -> damage (G5)
    eliminated: Elimination | None = None

    @property
    def alive(self) -> bool:
        return self.eliminated is None


@dataclass
class PodState:
    ruleset: str
    starting_life: int
    own_totals_only: bool
    created_by: int | None
    mulligan_style: MulliganStyle = MulliganStyle.LONDON
    mulligan: TableMulligan | None = None  # the mulligan step once someone has answered (before turn 1)
    players: list[Player] = field(default_factory=list)  # in seat order
    turn: int = 0  # 0 = before the first turn (joining, seats, mulligans)
    active_seat: int = 0
    monarch: int | None = None
    initiative: int | None = None
    draw_votes: set[int] = field(default_factory=set)
    eliminations: list[Elimination] = field(default_factory=list)
    ended: str | None = None  # END_* once the game is over
    ended_at: str | None = None
    last_seq: int = 0
    # Tournament statistics: turn -> source user id -> combat damage dealt (commander damage included).
    combat_damage: dict[int, dict[int, int]] = field(default_factory=dict)
    life_log: list[dict[str, Any]] = field(default_factory=list)
    cast_log: list[dict[str, Any]] = field(default_factory=list)
    # Matches and sideboards (G9, D7): {"id", "game", "swaps": {user id: earlier games' swaps}} or None,
    # each player's first commander declaration time, and this game's swaps (player, out, in, count).
    match: dict[str, Any] | None = None
    declared: dict[int, str] = field(default_factory=dict)
    swaps: list[dict[str, Any]] = field(default_factory=list)
    wishes: list[dict[str, Any]] = field(
        default_factory=list
    )  # sideboard cards fetched by wishes: player, card, turn

    # -- lookups -------------------------------------------------------------------------------------

    @property
    def tax_variant(self) -> str:
        return TAX_VARIANT[self.ruleset]

    @property
    def started(self) -> bool:
        return self.turn > 0

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    @property
    def active_player(self) -> Player | None:
        return self.players[self.active_seat] if self.started and self.players else None

    def player(self, user_id: int) -> Player:
        for candidate in self.players:
            if candidate.user_id == user_id:
                return candidate
        raise PodError("not_a_player")

    def is_player(self, user_id: int) -> bool:
        return any(p.user_id == user_id for p in self.players)

    def commander(self, key: str) -> Commander:
        owner, index = parse_commander_key(key)
        commanders = self.player(owner).commanders
        if not 0 <= index < len(commanders):
            raise PodError("unknown_commander")
        return commanders[index]

    def all_commanders(self) -> list[Commander]:
        return [c for p in self.players for c in p.commanders]

    def next_tax(self, commander: Commander) -> int:
        """The extra cost of the next cast from the command zone (G3a or G3b)."""
        if self.tax_variant == "G3b":
            return TAX_STEP * commander.death_counters
        return TAX_STEP * commander.casts

    def standings(self) -> list[tuple[int, list[int]]]:
        """Final standing: (place, user ids). Survivors share first place; the eliminated follow in
        reverse order of elimination (the last one out places just behind the survivors)."""
        places: list[tuple[int, list[int]]] = []
        survivors = [p.user_id for p in self.alive]
        if survivors:
            places.append((1, survivors))
        place = len(survivors) + 1
        for elimination in reversed(self.eliminations):
            places.append((place, [elimination.player]))
            place += 1
        return places


def commander_key(owner: int, index: int) -> str:
    return f"{owner}:{index}"


def parse_commander_key(key: str) -> tuple[int, int]:
    try:
        owner, index = str(key).split(":")
        return int(owner), int(index)
    except ValueError:
        raise PodError("unknown_commander") from None


# -- permissions -----------------------------------------------------------------------------------


def check_may_change(state: PodState, actor: int, target: int | None, *, manager: bool) -> None:
    """Who may change a game: its players (or members with Manage Server); with the game's
    "own totals only" option a player changes only their own totals (``target``)."""
    if manager:
        return
    if not state.is_player(actor):
        raise PodError("not_your_game")
    if state.own_totals_only and target is not None and target != actor:
        raise PodError("own_totals_only")


def check_seats_may_change(state: PodState) -> None:
    """Joining and shuffling seats, refused in a game of a match: a match is between exactly its two
    players, and who plays first is the match's (game 1: the seats it started with; later games: the
    loser's choice), so a third player or a shuffled order would change the match, not just the table."""
    if state.match:
        raise PodError("match_seats")


def event_target(event: Event) -> int | None:
    """The player whose totals an event changes (None for table-wide events like next turn)."""
    if event.kind == COMMANDER_DAMAGE:
        return event.data.get("target")
    if event.kind in (CAST, TO_COMMAND_ZONE):
        return parse_commander_key(event.data["commander"])[0]
    return event.data.get("player")


# -- the fold --------------------------------------------------------------------------------------


def replay(events: Iterable[Event]) -> PodState:
    """The state after ``events`` (in seq order), skipping those that an undo dropped.

    A stored event that today's rules refuse (a life change of 1,000,000 accepted before the bounds
    existed) is skipped rather than making the whole game unloadable; it stays in the log."""
    events = list(events)
    dropped = dropped_seqs(events)
    state: PodState | None = None
    for event in events:
        if event.kind == UNDO or event.seq in dropped:
            if state is not None:
                state.last_seq = event.seq
            continue
        if state is None:
            state = apply(state, event)
            continue
        try:  # handlers check before they change anything, so a refusal leaves the state as it was
            state = apply(state, event)
        except PodError:
            state.last_seq = event.seq
    if state is None:
        raise PodError("no_game")
    return state


def undoable(events: Iterable[Event], steps: int) -> list[int]:
    """The seqs of the last ``steps`` effective events an undo would drop (never the creation)."""
    seqs = [e.seq for e in effective(events) if e.kind != CREATE]
    if steps < 1:
        raise PodError("bad_amount")
    if not seqs:
        raise PodError("nothing_to_undo")
    return seqs[-steps:]


def step(state: PodState | None, events: list[Event], event: Event) -> PodState:
    """The state after appending ``event`` to ``events`` (whose state is ``state``).

    Ordinary events are applied in place; an undo refolds the log without the events it drops
    (a finished game is final: undo is refused like any other change)."""
    if event.kind != UNDO:
        return apply(state, event)
    if state is None:
        raise PodError("no_game")
    if state.finished:
        raise PodError("game_over")
    allowed = set(undoable(events, 1 if not events else len(events)))
    seqs = [int(s) for s in event.data.get("seqs", [])]
    if not seqs or not set(seqs) <= allowed:
        raise PodError("nothing_to_undo")
    return replay([*events, event])


def apply(state: PodState | None, event: Event) -> PodState:
    """Check ``event`` against ``state`` and apply it (mutating ``state``); raises PodError and
    changes nothing when the event is not allowed."""
    if event.kind == CREATE:
        if state is not None:
            raise PodError("already_created")
        return _create(event)
    if state is None:
        raise PodError("no_game")
    if state.finished:
        raise PodError("game_over")
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        raise PodError("unknown_change")
    handler(state, event)
    state.last_seq = event.seq
    if event.kind not in (DRAW_VOTE, STOP):
        state.draw_votes.clear()  # a draw is agreed on the current board, not an older one
    _check_losses(state, event)
    _check_end(state, event)
    return state


def _create(event: Event) -> PodState:
    data = event.data
    ruleset = data["ruleset"]
    if ruleset not in RULESETS:
        raise PodError("unknown_ruleset")
    life = _amount(data.get("starting_life", STARTING_LIFE), minimum=1, maximum=LIFE_BOUND)
    try:
        style = MulliganStyle(data.get("mulligan_style") or style_for_ruleset(ruleset))
    except ValueError:
        raise PodError("unknown_mulligan_style") from None
    state = PodState(
        ruleset=ruleset,
        starting_life=life,
        own_totals_only=bool(data.get("own_totals_only")),
        created_by=event.actor,
        mulligan_style=style,
        last_seq=event.seq,
        match=data.get("match"),
    )
    for entry in data.get("players", []):
        _add_player(state, int(entry["user_id"]), str(entry["name"]))
    if len(state.players) < 1:
        raise PodError("too_few_players")
    return state


def check_new_game(state: PodState) -> None:
    """A new game seats at least two players: a one-player "game" has nobody to win against.
    (Checked when a game is started, not in the fold, so games stored before the rule still load.)"""
    if len(state.players) < MIN_PLAYERS:
        raise PodError("too_few_players")


def _add_player(state: PodState, user_id: int, name: str) -> None:
    if state.is_player(user_id):
        raise PodError("already_joined")
    if len(state.players) >= MAX_PLAYERS:
        raise PodError("too_many_players")
    player = Player(user_id=user_id, name=name, life=state.starting_life)
    # One unnamed commander until the player names theirs (or says they have none / partners).
    player.commanders = [Commander(owner=user_id, index=0)]
    state.players.append(player)


def _amount(value: Any, *, minimum: int, maximum: int) -> int:
    """A typed whole number within what a real game reaches; the error names the bounds."""
    if isinstance(value, bool):
        raise PodError("bad_amount")
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise PodError("bad_amount") from None
    if not minimum <= number <= maximum:
        raise PodError("out_of_range", low=minimum, high=maximum)
    return number


def _life_total_in_bounds(total: int) -> None:
    if not -LIFE_BOUND <= total <= LIFE_BOUND:
        raise PodError("out_of_range", low=-LIFE_BOUND, high=LIFE_BOUND)


def _alive_player(state: PodState, user_id: Any) -> Player:
    player = state.player(int(user_id))
    if not player.alive:
        raise PodError("player_out")
    return player


def _before_first_turn(state: PodState) -> None:
    if state.started:
        raise PodError("already_started")


def _before_mulligans(state: PodState) -> None:
    _before_first_turn(state)
    if state.mulligan is not None:
        raise PodError("mulligans_started")


def _apply_join(state: PodState, event: Event) -> None:
    _before_mulligans(state)
    _add_player(state, int(event.data["player"]), str(event.data["name"]))


def _apply_seats(state: PodState, event: Event) -> None:
    """A new seat order (the service shuffles; the fold only checks it is the same players)."""
    _before_mulligans(state)
    order = [int(u) for u in event.data["order"]]
    if sorted(order) != sorted(p.user_id for p in state.players):
        raise PodError("bad_seat_order")
    by_id = {p.user_id: p for p in state.players}
    state.players = [by_id[u] for u in order]


def _apply_commanders(state: PodState, event: Event) -> None:
    """Name a player's commanders: 0, 1 or 2 (partners count as two).

    Being a commander is decided before the game (G6), so the number of commanders is fixed once turn 1
    starts; a player who forgot may still put names on them later (casts and damage are kept)."""
    player = state.player(int(event.data["player"]))
    names = [n if n is None else str(n).strip() or None for n in event.data["names"]]
    if len(names) > MAX_COMMANDERS:
        raise PodError("too_many_commanders")
    if state.started:
        if len(names) != len(player.commanders):
            raise PodError("already_started")
        for commander, name in zip(player.commanders, names, strict=True):
            commander.name = name
    else:
        player.commanders = [Commander(owner=player.user_id, index=i, name=n) for i, n in enumerate(names)]
    if event.data.get("deck"):
        player.deck = str(event.data["deck"])
        player.deck_bracket = _bracket_level(event.data.get("deck_bracket"), required=False)
    state.declared.setdefault(player.user_id, event.at)  # opens the sideboard window (T1)


def _bracket_level(value: Any, *, required: bool = True) -> int | None:
    """A bracket 1–5 from an event; anything else is refused (``pod.error.bracket_level``)."""
    if value is None and not required:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in BRACKET_LEVELS:
        raise PodError("bracket_level", low=BRACKET_LEVELS.start, high=BRACKET_LEVELS.stop - 1)
    return value


def _apply_bracket(state: PodState, event: Event) -> None:
    """A player's declared bracket (BR7): pre-game talk, so it may change until the game ends; the
    deck's own lowest bracket comes with it when the player has picked a registered deck."""
    player = state.player(int(event.data["player"]))
    player.bracket = _bracket_level(event.data.get("level"))
    if "deck_bracket" in event.data:
        player.deck_bracket = _bracket_level(event.data["deck_bracket"], required=False)


def brackets_above_declared(state: PodState) -> list[Player]:
    """Players whose picked deck checks above the bracket they declared (the board warns)."""
    return [
        p
        for p in state.players
        if p.bracket is not None and p.deck_bracket is not None and p.deck_bracket > p.bracket
    ]


def swaps_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The swaps of one SWAP event: a batch ``{"swaps": [{"out", "in", "count"}, ...]}`` (stored as one
    event, so a pasted batch is all or nothing), or one swap ``{"out", "in", "count"}`` (older events)."""
    listed = data.get("swaps", [data])
    return [{"out": str(s["out"]), "in": str(s["in"]), "count": s.get("count", 1)} for s in listed]


def _apply_swap(state: PodState, event: Event) -> None:
    """Sideboard swaps in the pre-game step, before the opening hands (D7, T1). The service checked
    them against the player's deck and the window; the fold keeps them for the record and for undo."""
    _before_mulligans(state)
    player = state.player(int(event.data["player"]))
    if not player.deck:
        raise PodError("sideboard.error.no_deck")
    swaps = swaps_of(event.data)
    if not 1 <= len(swaps) <= MAX_SWAPS_AT_ONCE:
        raise PodError("bad_amount")
    for swap in swaps:
        state.swaps.append(
            {
                "player": player.user_id,
                "out": swap["out"],
                "in": swap["in"],
                "count": _amount(swap["count"], minimum=1, maximum=10),
            }
        )  # D7: 10 at most


def _apply_wish(state: PodState, event: Event) -> None:
    """A wish fetched a card from the player's sideboard during the game (D7). The service checked the
    card against the deck as played; the fold keeps each player's fetched cards for this game."""
    player = _alive_player(state, event.data["player"])
    if not state.started:
        raise PodError("not_started")
    if not player.deck:
        raise PodError("sideboard.error.no_deck")
    card = str(event.data["card"])
    if any(w["player"] == player.user_id and w["card"].casefold() == card.casefold() for w in state.wishes):
        raise PodError("sideboard.error.wish_already", card=card)
    state.wishes.append({"player": player.user_id, "card": card, "turn": state.turn})


def _apply_mulligan(state: PodState, event: Event) -> None:
    """One answer in the table's mulligan step (M1 partial Paris, London, Vancouver), in seat order.

    The procedure itself is ``bot.domain.mulligan.TableMulligan``; the first answer fixes the seats
    (no joining or reseating afterwards). ``decision``: cards set aside (partial Paris) or keep/mulligan.

    ``prompt`` (optional): the number of answers the table had when the choice was shown to the player
    (``MulliganPrompt.number``). A press on an older prompt, or the second of a double press, is refused
    with ``mulligan_outdated`` here, under the game's lock, rather than being taken as the next answer."""
    _before_first_turn(state)
    player = _alive_player(state, event.data["player"])
    if len(state.players) < MIN_PLAYERS:
        raise PodError("too_few_players")
    table = state.mulligan or TableMulligan.start(state.mulligan_style, [p.user_id for p in state.players])
    prompt = event.data.get("prompt")
    if prompt is not None and prompt != len(table.decisions):
        raise PodError("mulligan_outdated")
    try:
        state.mulligan, _ = table.decide(player.user_id, parse_decision(event.data["decision"]))
    except MulliganError as error:
        raise PodError(error.key, **error.values) from None


@dataclass(frozen=True)
class MulliganPrompt:
    """The decision the table waits for: whose it is and the answers they may give.

    ``number`` is how many answers came before; a prompt shown to a player carries it, so an answer
    given on an outdated prompt is refused (see ``_apply_mulligan``)."""

    player: int
    number: int
    style: MulliganStyle
    hand_size: int
    to_bottom: int  # London: cards a keep now puts on the bottom
    choices: tuple[Decision, ...]


def mulligan_prompt(state: PodState) -> MulliganPrompt | None:
    """Whose mulligan decision it is now, or None when there is none to make (turn 1 has started, the
    game is over, everyone has kept, or fewer than two players sit at the table). Before the first
    answer the first seat decides: the step has not begun, but the question is already known."""
    if state.started or state.finished or len(state.players) < MIN_PLAYERS:
        return None
    table = state.mulligan or TableMulligan.start(state.mulligan_style, [p.user_id for p in state.players])
    player = table.whose_turn
    if player is None:
        return None
    hand = table.player(player)
    return MulliganPrompt(
        player=cast(int, player),
        number=len(table.decisions),
        style=table.style,
        hand_size=hand.hand_size,
        to_bottom=hand.to_bottom,
        choices=hand.choices(),
    )


def mulligan_instructions(state: PodState, player: int) -> tuple[Instruction, ...]:
    """What ``player`` does with their cards after their last answer (for the reply to that player)."""
    table = state.mulligan
    if table is None:
        return ()
    replayed = TableMulligan.start(table.style, table.seat_order, table.player_count)
    told: tuple[Instruction, ...] = ()
    for who, decision in table.decisions:
        replayed, instructions = replayed.decide(who, decision)
        if who == player:
            told = instructions
    return told


def _apply_life(state: PodState, event: Event) -> None:
    player = _alive_player(state, event.data["player"])
    amount = _amount(event.data["amount"], minimum=-LIFE_BOUND, maximum=LIFE_BOUND)
    if amount == 0:
        raise PodError("bad_amount")
    _change_life(state, event, player, amount)


def _apply_set_life(state: PodState, event: Event) -> None:
    player = _alive_player(state, event.data["player"])
    total = _amount(event.data["total"], minimum=-LIFE_BOUND, maximum=LIFE_BOUND)
    if total == player.life:
        raise PodError("no_change")
    _change_life(state, event, player, total - player.life)


def _change_life(state: PodState, event: Event, player: Player, amount: int) -> None:
    """Life changes, with the source player and combat flag kept for tournament statistics (T2)."""
    source = event.data.get("source")
    combat = bool(event.data.get("combat")) and amount < 0
    if source is not None:
        state.player(int(source))
        if combat and int(source) == player.user_id:  # nobody deals combat damage to themself
            raise PodError("own_seat_combat")
    _life_total_in_bounds(player.life + amount)
    player.life += amount
    state.life_log.append(
        {
            "turn": state.turn,
            "seq": event.seq,
            "player": player.user_id,
            "amount": amount,
            "source": None if source is None else int(source),
            "combat": combat,
        }
    )
    if combat and source is not None:
        _count_combat(state, int(source), -amount)


def _count_combat(state: PodState, source: int, damage: int) -> None:
    per_source = state.combat_damage.setdefault(state.turn, {})
    per_source[source] = per_source.get(source, 0) + damage


def _apply_commander_damage(state: PodState, event: Event) -> None:
    """G5: combat damage by a commander, per (player hit, commander); it lowers life too."""
    commander = state.commander(event.data["commander"])
    target = _alive_player(state, event.data["target"])
    amount = _amount(event.data["amount"], minimum=1, maximum=MAX_COMMANDER_HIT)
    controller = int(event.data.get("controller") or commander.owner)
    state.player(controller)
    if controller == target.user_id:  # combat damage is dealt to an opponent, never to oneself
        raise PodError("own_commander_damage")
    _life_total_in_bounds(target.life - amount)
    target.commander_damage_taken[commander.key] = (
        target.commander_damage_taken.get(commander.key, 0) + amount
    )
    target.life -= amount
    state.life_log.append(
        {
            "turn": state.turn,
            "seq": event.seq,
            "player": target.user_id,
            "amount": -amount,
            "source": controller,
            "combat": True,
            "commander": commander.key,
        }
    )
    _count_combat(state, controller, amount)


def _apply_cast(state: PodState, event: Event) -> None:
    """A cast from the command zone: the tax paid is the current tax (G3a or G3b), then a G3a cast
    raises the next one by {2}."""
    commander = state.commander(event.data["commander"])
    _alive_player(state, commander.owner)
    tax = state.next_tax(commander)
    commander.casts += 1
    commander.tax_paid += tax
    state.cast_log.append(
        {
            "turn": state.turn,
            "seq": event.seq,
            "commander": commander.key,
            "owner": commander.owner,
            "name": commander.name,
            "tax": tax,
        }
    )


def _apply_to_command_zone(state: PodState, event: Event) -> None:
    """G3b: a commander put into the command zone from anywhere gets a death counter."""
    commander = state.commander(event.data["commander"])
    _alive_player(state, commander.owner)
    if state.tax_variant != "G3b":
        raise PodError("no_death_counters")
    commander.death_counters += 1


def _apply_poison(state: PodState, event: Event) -> None:
    player = _alive_player(state, event.data["player"])
    amount = _amount(event.data["amount"], minimum=-MAX_POISON_STEP, maximum=MAX_POISON_STEP)
    if amount == 0 or player.poison + amount < 0:
        raise PodError("bad_amount")
    player.poison += amount


def _apply_counter(state: PodState, event: Event) -> None:
    """Custom named counters (energy, experience, storm …); a counter at 0 disappears."""
    player = _alive_player(state, event.data["player"])
    name = str(event.data["name"]).strip().lower()
    if not name or len(name) > MAX_COUNTER_NAME:
        raise PodError("bad_counter_name")
    amount = _amount(event.data["amount"], minimum=-COUNTER_BOUND, maximum=COUNTER_BOUND)
    value = player.counters.get(name, 0) + amount
    if amount == 0 or value < 0:
        raise PodError("bad_amount")
    if value > COUNTER_BOUND:
        raise PodError("out_of_range", low=0, high=COUNTER_BOUND)
    if value:
        player.counters[name] = value
    else:
        player.counters.pop(name, None)


def _apply_monarch(state: PodState, event: Event) -> None:
    holder = event.data.get("player")
    state.monarch = None if holder is None else _alive_player(state, holder).user_id


def _apply_initiative(state: PodState, event: Event) -> None:
    holder = event.data.get("player")
    state.initiative = None if holder is None else _alive_player(state, holder).user_id


def _apply_next_turn(state: PodState, event: Event) -> None:
    """Turn 1 starts with the first seat; each next turn passes to the next living player in seat order."""
    if not state.started:
        if len(state.players) < MIN_PLAYERS:
            raise PodError("too_few_players")
        if state.mulligan is not None and not state.mulligan.finished:
            raise PodError("mulligans_unfinished")
        state.turn, state.active_seat = 1, 0
        return
    seat = state.active_seat
    for _ in range(len(state.players)):
        seat = (seat + 1) % len(state.players)
        if state.players[seat].alive:
            break
    state.turn += 1
    state.active_seat = seat


def _apply_concede(state: PodState, event: Event) -> None:
    player = _alive_player(state, event.data["player"])
    if not state.started:
        raise PodError("not_started")
    _eliminate(state, event, player, LOST_CONCEDED)


def _apply_draw_vote(state: PodState, event: Event) -> None:
    """The remaining players agree on a draw: each living player votes; all votes end the game."""
    player = _alive_player(state, event.data["player"])
    if not state.started:
        raise PodError("not_started")
    if event.data.get("withdraw"):
        state.draw_votes.discard(player.user_id)
    else:
        state.draw_votes.add(player.user_id)


def _apply_stop(state: PodState, event: Event) -> None:
    """Stopped early (``/pod end``): whoever is alive is a survivor; not a draw, not a win."""
    state.ended, state.ended_at = END_STOPPED, event.at


_HANDLERS = {
    JOIN: _apply_join,
    SEATS: _apply_seats,
    COMMANDERS: _apply_commanders,
    MULLIGAN: _apply_mulligan,
    LIFE: _apply_life,
    SET_LIFE: _apply_set_life,
    COMMANDER_DAMAGE: _apply_commander_damage,
    CAST: _apply_cast,
    TO_COMMAND_ZONE: _apply_to_command_zone,
    POISON: _apply_poison,
    COUNTER: _apply_counter,
    MONARCH: _apply_monarch,
    INITIATIVE: _apply_initiative,
    NEXT_TURN: _apply_next_turn,
    CONCEDE: _apply_concede,
    DRAW_VOTE: _apply_draw_vote,
    STOP: _apply_stop,
    SWAP: _apply_swap,
    WISH: _apply_wish,
    BRACKET: _apply_bracket,
}


# -- state-based checks ------------------------------------------------------------------------------


def _check_losses(state: PodState, event: Event) -> None:
    """Automatic elimination: 0 life, 21+ combat damage from one commander (G5), 10 poison."""
    for player in state.alive:
        worst = max(player.commander_damage_taken.items(), key=lambda kv: kv[1], default=(None, 0))
        if worst[1] >= COMMANDER_DAMAGE_LIMIT:
            _eliminate(state, event, player, LOST_COMMANDER_DAMAGE, by_commander=worst[0])
        elif player.life <= 0:
            _eliminate(state, event, player, LOST_LIFE)
        elif player.poison >= POISON_LIMIT:
            _eliminate(state, event, player, LOST_POISON)


def _eliminate(
    state: PodState, event: Event, player: Player, reason: str, by_commander: str | None = None
) -> None:
    elimination = Elimination(
        player=player.user_id,
        reason=reason,
        turn=state.turn,
        seq=event.seq,
        at=event.at,
        by_commander=by_commander,
    )
    player.eliminated = elimination
    state.eliminations.append(elimination)
    state.draw_votes.discard(player.user_id)
    if state.monarch == player.user_id:
        state.monarch = None
    if state.initiative == player.user_id:
        state.initiative = None


def _check_end(state: PodState, event: Event) -> None:
    if state.finished or not state.started:
        return
    alive = state.alive
    if len(alive) <= 1:
        state.ended, state.ended_at = END_LAST_STANDING, event.at
    elif state.draw_votes and state.draw_votes >= {p.user_id for p in alive}:
        state.ended, state.ended_at = END_DRAW, event.at


# -- the record tournaments read --------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecordPlayer:
    user_id: int
    name: str
    seat: int
    commanders: list[str | None]
    deck: str | None
    final_life: int
    poison: int
    mulligans: int
    kept_cards: int | None  # None when the table skipped the mulligan step


@dataclass(frozen=True)
class PodGameRecord:
    """What a finished game leaves behind (dispatched as ``pod_game_finished``).

    ``combat_damage``: turn -> source user id -> combat damage dealt that turn (commander damage
    included), for T2 prizes such as "most combat damage in a single turn".
    ``commander_damage``: (player hit, commander key) -> damage. ``casts``: each cast from the command
    zone with the tax paid (T2 "most mana spent on casting one's commander").
    """

    guild_id: int | None
    channel_id: int | None
    game_id: int
    ruleset: str
    players: list[GameRecordPlayer]
    survivors: list[int]
    eliminations: list[Elimination]
    standings: list[tuple[int, list[int]]]
    draw: bool
    ended: str
    turns: int
    combat_damage: dict[int, dict[int, int]]
    commander_damage: dict[tuple[int, str], int]
    casts: list[dict[str, Any]]
    life_changes: list[dict[str, Any]]
    mulligans: dict[str, Any] | None  # TableMulligan.result(): style, per player mulligans/kept, decisions
    tournament_id: int | None = None
    round_number: int | None = None
    ended_at: str | None = None
    match_id: int | None = None  # G9: the match this game belongs to, and its number in it (1-3)
    match_game: int | None = None
    swaps: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # D7: deck as played = deck + these
    wishes: dict[int, list[str]] = field(default_factory=dict)  # D7: sideboard cards fetched by wishes

    @property
    def winner(self) -> int | None:
        return self.survivors[0] if self.ended == END_LAST_STANDING and len(self.survivors) == 1 else None


def game_record(
    state: PodState,
    *,
    game_id: int,
    guild_id: int | None,
    channel_id: int | None,
    tournament_id: int | None = None,
    round_number: int | None = None,
) -> PodGameRecord:
    table = state.mulligan
    hands = {s.player: s for s in table.status()} if table else {}
    players = [
        GameRecordPlayer(
            user_id=p.user_id,
            name=p.name,
            seat=i + 1,
            commanders=[c.name for c in p.commanders],
            deck=p.deck,
            final_life=p.life,
            poison=p.poison,
            mulligans=hands[p.user_id].mulligans if p.user_id in hands else 0,
            kept_cards=hands[p.user_id].keeps if p.user_id in hands else None,
        )
        for i, p in enumerate(state.players)
    ]
    return PodGameRecord(
        guild_id=guild_id,
        channel_id=channel_id,
        game_id=game_id,
        ruleset=state.ruleset,
        players=players,
        survivors=[p.user_id for p in state.alive],
        eliminations=list(state.eliminations),
        standings=state.standings(),
        draw=state.ended == END_DRAW,
        ended=state.ended or END_STOPPED,
        turns=state.turn,
        combat_damage={t: dict(s) for t, s in state.combat_damage.items()},
        commander_damage={
            (p.user_id, k): v for p in state.players for k, v in p.commander_damage_taken.items()
        },
        casts=list(state.cast_log),
        life_changes=list(state.life_log),
        mulligans=table.result() if table else None,
        tournament_id=tournament_id,
        round_number=round_number,
        ended_at=state.ended_at,
        match_id=(state.match or {}).get("id"),
        match_game=(state.match or {}).get("game"),
        swaps=played_swaps(state),
        wishes=fetched_by_wishes(state),
    )


def fetched_by_wishes(state: PodState) -> dict[int, list[str]]:
    """Each player's sideboard cards fetched by wishes this game, in order."""
    fetched: dict[int, list[str]] = {}
    for wish in state.wishes:
        fetched.setdefault(wish["player"], []).append(wish["card"])
    return fetched


def played_swaps(state: PodState) -> dict[int, list[dict[str, Any]]]:
    """Each player's swaps since the match began (earlier games, then this one): the deck as played."""
    earlier = (state.match or {}).get("swaps") or {}
    swaps = {p.user_id: [dict(s) for s in earlier.get(str(p.user_id), [])] for p in state.players}
    for swap in state.swaps:
        swaps[swap["player"]].append({k: swap[k] for k in ("out", "in", "count")})
    return {user: listed for user, listed in swaps.items() if listed}
