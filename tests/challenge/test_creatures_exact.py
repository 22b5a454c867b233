"""The shared creature engine of Battle the Horde and Defeat a God (``bot.domain.challenge.creatures``),
step by step with exact values: every log line with its values, every refusal with its key and values,
and the board (permanents, damage, tapped, life, library and graveyard) after each step.

The rules are docs/rules/CHALLENGE_DECKS.md §5a (the Horde) and §5b (the God), which follow the Hydra's where the
decks agree: the deck's cards can be countered (H11), its permanents that would leave to any zone other
than its library or graveyard go to its graveyard instead (H9), the players go first (H3) and make the
deck's choices (H9); "each player" damage and life gain with one shared life total count once per
player (CR 810.9, as in Two-Headed Giant).
"""

from __future__ import annotations

import random

import pytest

from bot.domain.challenge import horde
from bot.domain.challenge.core import ChallengeError, Decision, Event
from bot.domain.challenge.creatures import (
    CombatStep,
    CreatureDeckGame,
    DeckCard,
    Permanent,
    Seat,
    load_cards,
    replay,
)
from bot.domain.challenge.god import PIPER, STRIKE, THRONG, XENAGOS, GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.invariants import check_invariants

from .helpers import attacker, names, play, rig

GORE, YOUNG, CHOSEN, REAVER, RECKLESS = (
    "Minotaur Goreseeker",
    "Minotaur Younghorn",
    "Mogis's Chosen",
    "Phoberos Reaver",
    "Reckless Minotaur",
)
OREAD, PHERES, MAENADS, DANCERS, FLAME = (
    "Maddened Oread",
    "Pheres-Band Revelers",
    "Wild Maenads",
    "Serpent Dancers",
    "Dance of Flame",
)


def E(key: str, **values: object) -> Event:  # noqa: N802 - reads as a log line
    return Event(key, values)


def since(game: CreatureDeckGame, start: int) -> list[Event]:
    return game.events[start:]


def god(players: int = 1, **rigging: object) -> GodGame:
    return rig(GodGame([Seat(f"P{i + 1}") for i in range(players)], seed=1), **rigging)  # type: ignore[arg-type,return-value]


def horde_game(turns: int = 3, **rigging: object) -> HordeGame:
    return rig(HordeGame([Seat("P1")], seed=1, difficulty=turns), **rigging)  # type: ignore[arg-type,return-value]


def refused(game: CreatureDeckGame, line: str) -> tuple[str, dict[str, object]]:
    """The refusal of ``line``: its key and values; the game did not change."""
    before, events, actions = game.snapshot(), list(game.events), list(game.actions)
    with pytest.raises(ChallengeError) as caught:
        game.apply(line)
    assert (game.snapshot(), game.events, game.actions) == (before, events, actions)
    return caught.value.key, caught.value.values


class Bare(CreatureDeckGame):
    """The engine with none of its hooks overridden (the Horde's cards, no deck rules)."""

    cards = horde.CARDS


# ------------------------------------------------------------------ cards
def test_card_types_subtypes_and_keyword_lines() -> None:
    """Keywords are the one-word lines of the text, and "First strike" (Wild Maenads, §5b)."""
    gore, chosen, altar, rage = (horde.CARDS[n] for n in (GORE, CHOSEN, "Altar of Mogis", "Consuming Rage"))
    gods = GodGame.cards
    assert gore.keywords == {"haste"} and chosen.keywords == set() and altar.keywords == set()
    assert gods[MAENADS].keywords == {"first strike"} and gods[DANCERS].keywords == {"deathtouch"}
    assert gods[XENAGOS].keywords == set() and gods[FLAME].keywords == set()
    assert (gore.is_creature, altar.is_creature, rage.is_creature, gods[XENAGOS].is_creature) == (
        True,
        False,
        False,
        True,
    )
    assert (gore.is_permanent, altar.is_permanent, rage.is_permanent, gods[FLAME].is_permanent) == (
        True,
        True,
        False,
        True,
    )
    assert (
        gore.has_subtype("Minotaur")
        and not gore.has_subtype("Creature")
        and not altar.has_subtype("Artifact")
    )
    assert gods[THRONG].has_subtype("Human") and gods[THRONG].has_subtype("Reveler")
    assert not gods[XENAGOS].has_subtype("Reveler") and gods[XENAGOS].has_subtype("God")


def test_load_cards_reads_numbers_and_keeps_missing_power_as_none() -> None:
    rows = [
        {
            "name": "A",
            "count_in_deck": "2",
            "type_line": "Creature — Ox",
            "power": "3",
            "toughness": "4",
            "oracle_text": "Haste",
            "collector_number": "7",
        },
        {
            "name": "B",
            "count_in_deck": 1,
            "type_line": "Artifact",
            "power": None,
            "toughness": None,
            "oracle_text": "",
            "collector_number": 8,
        },
    ]
    assert load_cards(rows) == {
        "A": DeckCard("A", 2, "Creature — Ox", 3, 4, "Haste", 7),
        "B": DeckCard("B", 1, "Artifact", None, None, "", 8),
    }


def test_power_and_toughness_add_counters_and_until_end_of_turn_changes() -> None:
    gore = Permanent(0, horde.CARDS[GORE], entered_turn=0, counters=2, shrunk=1, pumped=3)
    assert (gore.power, gore.toughness, gore.name) == (3 + 2 - 1 + 3, 2 + 2 - 1, GORE)
    altar = Permanent(1, horde.CARDS["Altar of Mogis"], entered_turn=0, counters=1)
    assert (altar.power, altar.toughness) == (1, 1)
    fresh = Permanent(2, horde.CARDS[YOUNG], entered_turn=3)
    assert (
        fresh.tapped,
        fresh.damage,
        fresh.counters,
        fresh.shrunk,
        fresh.pumped,
        fresh.frozen_for,
        fresh.serial,
        fresh.attacking,
        fresh.doomed,
    ) == (False, 0, 0, 0, 0, 0, 0, False, False)


# ------------------------------------------------------------------ set-up
def test_seats_and_heroes_are_refused_with_the_limits() -> None:
    """The Horde: one player (§5a); the God: 1 to 4 (§5b); up to three different Hero cards each."""
    for make, count, limit in ((HordeGame, 0, 1), (HordeGame, 2, 1), (GodGame, 0, 4), (GodGame, 5, 4)):
        with pytest.raises(ChallengeError) as caught:
            make([Seat(str(i)) for i in range(count)], seed=1)
        assert (caught.value.key, caught.value.values) == ("challenge.error.players_range", {"max": limit})
    assert len(GodGame([Seat(str(i)) for i in range(4)], seed=1).seats) == 4
    a, b, c, d = "The Slayer", "The Hunter", "The Warrior", "The General"
    for heroes in ((a, b, c, d), (a, a), (a, b, a)):
        with pytest.raises(ChallengeError) as caught:
            HordeGame([Seat("P1", heroes)], seed=1)
        assert (caught.value.key, caught.value.values) == ("challenge.error.heroes", {"max": 3})
    assert HordeGame([Seat("P1", (b, c, d))], seed=1).seats == (Seat("P1", (b, c, d)),)
    with pytest.raises(ChallengeError) as caught:
        GodGame([Seat("P1", ("The Nobody",))], seed=1)
    assert (caught.value.key, caught.value.values) == ("hydra.error.unknown_hero", {"hero": "The Nobody"})


def test_set_up_numbers_the_starting_permanents_and_shuffles_the_rest_with_the_seed() -> None:
    """§5b: Xenagos and the Throngs start on the battlefield, out of the library, before the shuffle."""
    game = GodGame([Seat("P1")], seed=5)
    assert [(p.card_id, p.name, p.serial, p.entered_turn, p.tapped) for p in game.battlefield] == [
        (0, XENAGOS, 1, 0, False),
        (1, THRONG, 2, 0, False),
        (2, THRONG, 3, 0, False),
    ]
    expected = list(range(3, 60))
    random.Random(5).shuffle(expected)
    assert game.library == expected
    assert game.card_names[:8] == [XENAGOS] + [THRONG] * 6 + [PIPER] and len(game.card_names) == 60
    assert game.events == [
        E("god.log.setup", deck="god", players=1, difficulty=2),
        E("challenge.log.players_turn", turn=1),
    ]
    assert (game.turn, game.deck_turns, game.active, game.life, game.outcome, game.defeated) == (
        1,
        0,
        "players",
        20,
        "ongoing",
        0,
    )
    assert game.ledger == {"gained": 0, "adjusted": 0, "damage": 0, "lost": 0}
    assert (game.stable_ids, game.all_windows, game.seed, game.difficulty) == (True, False, 5, 2)
    assert (
        game.graveyard,
        game.exile,
        game.stack,
        game.revealed,
        game.shields,
        game.combat_steps,
        game.library_changed_by,
        game.this_turn,
        game.actions,
        game.pending,
    ) == ([], [], [], [], [], [], [], [], [], None)
    assert game.battlefield_numbers() == [1, 2, 3] and game.in_players_first_turn


def test_the_bare_engine_has_no_deck_rules() -> None:
    """Without a deck's hooks: no starting permanents, nothing cast, nobody attacks, nobody wins, one
    players' turn before the deck's; permanents can always leave; haste is the keyword."""
    game = Bare([Seat("P1")], seed=2, difficulty=7)
    assert game.events == [
        E("challenge.log.setup", deck="", players=1, difficulty=7),
        E("challenge.log.players_turn", turn=1),
    ]
    assert (game.battlefield, len(game.library), game.life) == ([], 60, 20)
    rig(game, battlefield=[GORE, CHOSEN])
    game.apply("end")
    assert game.events[2:] == [
        E("challenge.log.players_end", turn=1),
        E("challenge.log.deck_turn", turn=2),
        E("challenge.log.no_attack"),
        E("challenge.log.players_turn", turn=3),
        E("challenge.log.draw_reminder"),
    ]
    fresh = game._enter(Permanent(game.library.pop(), horde.CARDS[YOUNG], entered_turn=game.turn))
    assert fresh.serial == 3 and game.can_attack(fresh) and game.can_attack(game.battlefield[1])
    late = game._enter(Permanent(game.library.pop(), horde.CARDS[CHOSEN], entered_turn=game.turn))
    assert not game.can_attack(late)  # no haste, entered this turn
    game.apply("tap 2")
    assert not game.can_attack(game.battlefield[1]) and [p.name for p in game.creatures()] == [
        GORE,
        CHOSEN,
        YOUNG,
        CHOSEN,
    ]
    game.apply("destroy all")
    assert game.battlefield == [] and game.defeated == 4 and not game.over


# ------------------------------------------------------------------ numbers
def test_numbers_stay_with_their_permanents_and_a_gone_number_is_refused() -> None:
    game = god(battlefield=[XENAGOS, THRONG, THRONG])
    game.apply("destroy 2")
    assert game.battlefield_numbers() == [1, 3] and game.board_lines()[1] == "3. Rollicking Throng 1/3"
    assert refused(game, "tap 2") == (
        "challenge.error.no_such_permanent_id",
        {"number": 2, "numbers": (1, 3)},
    )
    assert refused(game, "tap 1 1") == ("challenge.error.same_twice", {})
    empty = horde_game()
    assert refused(empty, "damage 1 1") == (
        "challenge.error.no_such_permanent_id",
        {"number": 1, "numbers": "-"},
    )


def test_legacy_games_number_permanents_by_position() -> None:
    """Tables saved before stable numbers: "destroy 2" twice destroys both Throngs."""
    game = rig(GodGame([Seat("P1")], seed=1, stable_ids=False), battlefield=[XENAGOS, THRONG, THRONG])
    game.apply("destroy 2")
    assert game.battlefield_numbers() == [1, 2] and game.number_of(game.battlefield[1]) == 2
    assert refused(game, "tap 3") == ("challenge.error.no_such_permanent", {"number": 3, "count": 2})
    assert refused(game, "tap 0") == ("challenge.error.no_such_permanent", {"number": 0, "count": 2})
    game.apply("destroy 2")
    assert names(game) == [XENAGOS]
    again = game.rebuild(game.actions)
    assert again.stable_ids is False and names(again) == [XENAGOS] and again.snapshot() == game.snapshot()


# ------------------------------------------------------------------ the players' actions
def test_damage_kills_at_exactly_the_toughness() -> None:
    game = god(battlefield=[XENAGOS, THRONG, THRONG])
    game.apply("damage 2 2")
    assert game.events[-1:] == [E("challenge.log.damage", card=THRONG, amount=2)]
    assert [p.damage for p in game.battlefield] == [0, 2, 0] and names(game) == [XENAGOS, THRONG, THRONG]
    start = len(game.events)
    game.apply("damage 2 1")
    assert since(game, start) == [
        E("challenge.log.damage", card=THRONG, amount=1),
        E("challenge.log.leaves_dies", card=THRONG),
    ]
    assert names(game) == [XENAGOS, THRONG] and [game.name_of(i) for i in game.graveyard] == [THRONG]
    assert game.defeated == 1
    assert game.actions == ["damage 2 2", "damage 2 1"] and game.library_changed_by == [False, False]


def test_sweep_damages_each_named_permanent_and_the_dead_die_together() -> None:
    game = god(battlefield=[XENAGOS, THRONG, THRONG, PIPER])
    game.apply("sweep 2 3 4")
    assert game.events[-3:] == [
        E("challenge.log.swept", amount=2, cards=("Rollicking Throng", "Ecstatic Piper")),
        E("challenge.log.leaves_dies", card=PIPER),
        E("challenge.log.gain", card=PIPER, amount=2, life=22),
    ]  # its Hero's Reward
    start = len(game.events)
    game.apply("sweep 3 all")
    assert since(game, start) == [
        E(
            "challenge.log.swept",
            amount=3,
            cards=("Xenagos Ascended", "Rollicking Throng", "Rollicking Throng"),
        ),
        E("challenge.log.leaves_dies", card=THRONG),
        E("challenge.log.leaves_dies", card=THRONG),
    ]
    assert [(p.name, p.damage) for p in game.battlefield] == [(XENAGOS, 3)] and game.defeated == 3


def test_weaken_and_counters_change_both_numbers_and_zero_toughness_dies() -> None:
    game = god(battlefield=[XENAGOS, THRONG, THRONG])
    game.apply("weaken 2 2")
    game.apply("counters 2 3")
    assert [(p.power, p.toughness) for p in game.battlefield] == [(6, 5), (-1, 1), (3, 5)]
    assert game.events[-1].key == "challenge.log.players_turn"  # neither writes a log line
    game.apply("counters -1 2")
    assert names(game) == [XENAGOS, THRONG] and game.events[-1] == E("challenge.log.leaves_dies", card=THRONG)
    game.apply("weaken 1 all")
    assert [(p.power, p.toughness) for p in game.battlefield] == [(5, 4), (2, 4)]
    game.apply("counters 1 all")
    assert [(p.power, p.toughness) for p in game.battlefield] == [(6, 5), (3, 5)]


def test_every_way_of_leaving_goes_to_the_graveyard_with_its_own_line() -> None:
    """H9 / §5b: a permanent that would go to any other zone goes to the deck's graveyard."""
    game = god(battlefield=[XENAGOS, THRONG, THRONG, PHERES, FLAME])
    start = len(game.events)
    for line in ("exile 2", "bounce 3", "sacrifice 5", "destroy 4"):
        game.apply(line)
    assert since(game, start) == [
        E("challenge.log.leaves_exile", card=THRONG),
        E("challenge.log.leaves_bounce", card=THRONG),
        E("challenge.log.leaves_sacrificed", card=FLAME),
        E("challenge.log.leaves_destroyed", card=PHERES),
        E("challenge.log.reward_draw"),
    ]
    assert game.exile == [] and [game.name_of(i) for i in game.graveyard] == [THRONG, THRONG, FLAME, PHERES]
    assert game.defeated == 4 and names(game) == [XENAGOS]


def test_permanents_leave_together_then_their_triggers_resolve_in_order() -> None:
    """§5b: Hero's Reward of each one that left; Xenagos can't leave while a Reveler is there."""
    game = god(battlefield=[XENAGOS, PIPER, OREAD])
    start = len(game.events)
    game.apply("destroy all")
    assert since(game, start) == [
        E("god.log.cannot_leave", card=XENAGOS),
        E("challenge.log.leaves_destroyed", card=PIPER),
        E("challenge.log.leaves_destroyed", card=OREAD),
        E("challenge.log.gain", card=PIPER, amount=2, life=22),
        E("challenge.log.gain", card=OREAD, amount=3, life=25),
    ]
    assert game.ledger["gained"] == 5 and game.defeated == 2 and not game.over
    game.apply("destroy 1")
    assert game.events[-3:] == [
        E("challenge.log.leaves_destroyed", card=XENAGOS),
        E("god.log.xenagos_leaves"),
        E("challenge.log.won"),
    ]
    assert game.outcome == "won" and game.pending is None
    assert refused(game, "tap 1") == ("hydra.error.game_over", {})


def test_tap_and_freeze_skip_exactly_the_next_untap_step() -> None:
    game = god(battlefield=[XENAGOS, THRONG, THRONG], top=[PHERES, FLAME, PHERES, FLAME], library_size=4)
    start = len(game.events)
    game.apply("tap 2 3")
    game.apply("freeze 2")
    assert since(game, start) == [
        E("challenge.log.tapped", card=THRONG),
        E("challenge.log.tapped", card=THRONG),
        E("challenge.log.frozen", card=THRONG),
    ]
    assert [p.frozen_for for p in game.battlefield] == [0, 1, 0]
    assert game.board_lines() == [
        "1. Xenagos Ascended 6/5",
        "2. Rollicking Throng 1/3 [tapped]",
        "3. Rollicking Throng 1/3 [tapped]",
    ]
    game.apply("end")
    game.play_until_players()
    assert [(p.tapped, p.frozen_for) for p in game.battlefield[:3]] == [(False, 0), (True, 0), (False, 0)]
    game.apply("freeze all")
    assert [p.frozen_for for p in game.battlefield] == [2, 2, 2, 2, 2]
    game.apply("end")
    game.play_until_players()
    assert [p.tapped for p in game.battlefield[:3]] == [False, True, False]  # frozen, but untapped: stays so
    game.apply("end")
    game.play_until_players()
    assert [p.tapped for p in game.battlefield[:3]] == [False, False, False]


def test_mill_moves_the_top_cards_in_order_and_can_empty_the_library() -> None:
    game = horde_game(top=[GORE, YOUNG, REAVER], library_size=3)
    game.apply("mill 2")
    assert game.events[-1] == E(
        "challenge.log.milled", count=2, cards=("Minotaur Goreseeker", "Minotaur Younghorn")
    )
    assert [game.name_of(i) for i in game.graveyard[-2:]] == [GORE, YOUNG] and len(game.library) == 1
    assert game.library_changed_by == [True] and game.undo_refusal() == "challenge.error.undo_revealed"
    game.apply("mill 0")  # said so in words, not "0 cards go ...: ."
    assert game.events[-1] == E("challenge.log.mill_nothing") and game.library_changed_by[-1] is False
    game.apply("mill 5")
    assert game.events[-2:] == [E("challenge.log.milled", count=1, cards=(REAVER,)), E("challenge.log.won")]
    assert game.outcome == "won" and game.library == []


def test_life_changes_are_logged_with_a_sign_and_zero_life_loses() -> None:
    game = god()
    game.apply("life 1 +3")
    game.apply("life 1 -4")
    assert game.events[-2:] == [
        E("challenge.log.life", delta="+3", life=23),
        E("challenge.log.life", delta="-4", life=19),
    ]
    assert game.ledger["adjusted"] == -1 and game.undo_refusal() is None
    assert refused(game, "life 2 1") == ("hydra.error.no_such_player", {"player": 2, "count": 1})
    assert refused(game, "life 0 1") == ("hydra.error.no_such_player", {"player": 0, "count": 1})
    game.apply("life 1 -18")
    assert game.life == 1 and not game.over
    game.apply("life 1 -1")
    assert game.events[-2:] == [E("challenge.log.life", delta="-1", life=0), E("challenge.log.lost")]
    assert game.outcome == "lost"
    check_invariants(game)


def test_a_concession_ends_the_challenge_for_the_players() -> None:
    game = god(players=2)
    assert refused(game, "concede 3") == ("hydra.error.no_such_player", {"player": 3, "count": 2})
    game.apply("concede 2")
    assert (
        game.events[-2:] == [E("challenge.log.conceded"), E("challenge.log.lost")] and game.outcome == "lost"
    )
    assert game.undo_refusal() == "hydra.error.nothing_to_undo" and not game.in_players_first_turn
    solo = god()
    solo.apply("end")
    assert solo.pending is not None
    solo.apply("concede")
    assert (solo.outcome, solo.pending, solo._frames, solo.actions[-1]) == ("lost", None, [], "concede")


def test_prevention_shields_name_a_source_and_are_used_up_in_order() -> None:
    game = god(players=2)
    game.apply("prevent 3 from xenagos's strike")
    game.apply("prevent 2 from COMBAT")
    game.apply("prevent 4 2")
    assert game.events[-3:] == [
        E("challenge.log.shield", amount=3, source=STRIKE),
        E("challenge.log.shield", amount=2, source="combat"),
        E("challenge.log.shield", amount=4, source="*"),
    ]
    assert [(s.amount, s.source) for s in game.shields] == [(3, STRIKE), (2, "combat"), (4, None)]
    key, values = refused(game, "prevent 1 from Nowhere")
    assert key == "hydra.error.unknown_source" and values["source"] == "Nowhere"
    assert values["sources"] == ("combat", *GodGame.cards)
    assert refused(game, "prevent 1 3") == ("hydra.error.no_such_player", {"player": 3, "count": 2})
    start = len(game.events)
    game._damage(4, STRIKE)  # each player: 8 with the shared life total
    assert since(game, start) == [
        E("challenge.log.prevented", amount=7),
        E("challenge.log.damage_to_players", card=STRIKE, amount=1, life=19),
    ]
    assert [(s.amount, s.source) for s in game.shields] == [(2, "combat")] and game.ledger["damage"] == 1
    game._damage(3, "combat", each_player=False)
    assert game.events[-2:] == [
        E("challenge.log.prevented", amount=2),
        E("challenge.log.combat_damage", amount=1, life=18),
    ]
    game._damage(2, FLAME, each_player=False)
    assert game.events[-1] == E("challenge.log.damage_to_players", card=FLAME, amount=2, life=16)
    assert game.shields == [] and game.ledger["damage"] == 4
    game.apply("prevent 5")
    game.apply("end")
    assert game.shields == []  # "this turn": gone at the cleanup step
    check_invariants(game)


def test_gains_count_once_per_player_and_damage_to_zero_loses() -> None:
    game = god(players=3)
    game._gain(2, PIPER)
    assert (
        game.events[-1] == E("challenge.log.gain", card=PIPER, amount=6, life=26)
        and game.ledger["gained"] == 6
    )
    game._damage(26, STRIKE, each_player=False)
    assert game.events[-2:] == [
        E("challenge.log.damage_to_players", card=STRIKE, amount=26, life=0),
        E("challenge.log.lost"),
    ]
    assert game.outcome == "lost"


# ------------------------------------------------------------------ questions and windows
def test_answers_are_checked_against_the_question() -> None:
    game = horde_game(turns=2, top=[GORE, YOUNG])
    assert refused(game, "choose pass") == ("hydra.error.nothing_to_choose", {})
    with pytest.raises(ChallengeError) as caught:
        game.choose_default()
    assert caught.value.key == "hydra.error.nothing_to_choose"
    game.apply("end")
    game.apply("end")
    assert refused(game, "choose maybe") == (
        "hydra.error.bad_option",
        {"option": "maybe", "options": ("pass", "counter")},
    )
    assert refused(game, "end") == ("hydra.error.answer_first", {})
    game.apply("choose  PASS ")
    game.choose_default()
    assert game.pending == Decision("blocks", "heads", "none", min_heads=0, max_heads=2)
    assert game.allowed_numbers(game.pending) == [1, 2]
    assert refused(game, "tap 1") == ("hydra.error.answer_first", {})  # blocks are no response window
    assert refused(game, "choose 1 1") == ("challenge.error.same_twice", {})
    assert refused(game, "choose 1 2 3") == ("challenge.error.count", {"min": 0, "max": 2})
    assert refused(game, "choose 7") == (
        "challenge.error.no_such_permanent_id",
        {"number": 7, "numbers": (1, 2)},
    )
    game.apply("choose 1,2")
    assert game.events[-2:] == [E("challenge.log.blocked", card=GORE), E("challenge.log.blocked", card=YOUNG)]
    assert game.pending == Decision("prevent", "option", "pass", options=("pass", "prevent"))
    game.apply("choose pass")
    assert game.combat_steps == [CombatStep((), 0)] and game.life == 20
    assert game.events[-2:] == [E("challenge.log.players_turn", turn=4), E("challenge.log.draw_reminder")]


def test_only_attackers_may_be_named_as_blockers_targets() -> None:
    game = horde_game(turns=2, battlefield=[CHOSEN], top=[GORE, YOUNG])
    game.apply("tap 1")
    game.apply("freeze 1")  # stays tapped: it does not attack
    play(game, "end", "end", "choose pass", "choose pass")
    assert game.pending.topic == "blocks"
    assert refused(game, "choose 1") == ("challenge.error.not_allowed", {"options": "2 3"})
    assert game.events[-1] == E(
        "challenge.log.attack",
        cards=(attacker(2, "Minotaur Goreseeker", 3, 2), attacker(3, "Minotaur Younghorn", 2, 2)),
    )
    assert game._numbers([]) == "none"


def test_a_deck_turn_reveals_casts_and_attacks_with_exact_lines() -> None:
    """§5a: the player's turns first (difficulty), then the Horde casts its top two and its Minotaurs
    attack; a blocked attacker deals nothing; a shield from combat prevents combat damage."""
    game = horde_game(turns=2, top=[GORE, YOUNG])
    game.apply("end")
    assert game.events[-3:] == [
        E("challenge.log.players_end", turn=1),
        E("challenge.log.players_turn", turn=2),
        E("challenge.log.draw_reminder"),
    ]
    assert (game.active, game.deck_turns, game.pending) == ("players", 0, None)
    start = len(game.events)
    game.apply("end")
    assert game.pending == Decision("counter", "option", "pass", options=("pass", "counter"), card=GORE)
    assert game.snapshot()["resolving"] == [GORE, YOUNG] and game.active == "deck" and game.deck_turns == 1
    assert not game.in_players_first_turn and game.library_changed_by[-1] is True
    game.apply("choose pass")
    assert game.snapshot()["resolving"] == [YOUNG]
    game.apply("choose pass")
    game.apply("choose 1")
    game.apply("prevent 2 from combat")
    game.apply("choose pass")
    assert since(game, start) == [
        E("challenge.log.players_end", turn=2),
        E("horde.log.deck_turn", turn=3),
        E("horde.log.main_phase", count=2, artifacts=0),
        E("challenge.log.reveal", cards=("Minotaur Goreseeker", "Minotaur Younghorn")),
        E("challenge.log.enters", card=GORE),
        E("challenge.log.enters", card=YOUNG),
        E(
            "challenge.log.attack",
            cards=(attacker(1, "Minotaur Goreseeker", 3, 2), attacker(2, "Minotaur Younghorn", 2, 2)),
        ),
        E("challenge.log.blocked", card=GORE),
        E("challenge.log.shield", amount=2, source="combat"),
        E("challenge.log.prevented", amount=2),
        E("challenge.log.combat_damage", amount=0, life=20),
        E("challenge.log.players_turn", turn=4),
        E("challenge.log.draw_reminder"),
    ]
    assert game.combat_steps == [CombatStep(((YOUNG, 2),), 2)]
    assert [(p.tapped, p.attacking, p.entered_turn) for p in game.battlefield] == [
        (True, False, 3),
        (True, False, 3),
    ]
    assert game.actions == [
        "end",
        "end",
        "choose pass",
        "choose pass",
        "choose 1",
        "prevent 2 from combat",
        "choose pass",
    ]
    assert game.undo_refusal() == "hydra.error.nothing_to_undo"
    check_invariants(game)


def test_combat_damage_prevented_by_a_fog_is_logged_with_its_amount() -> None:
    game = horde_game(turns=2, battlefield=[REAVER], top=[GORE, CHOSEN])
    play(game, "end", "end", "choose pass", "choose pass")
    game.apply("choose none")
    start = len(game.events)
    game.apply("choose prevent")
    assert since(game, start)[:1] == [E("challenge.log.combat_prevented", amount=5)]
    assert game.combat_steps == [CombatStep(((REAVER, 2), (GORE, 3)), 0)] and game.life == 20
    assert [p.tapped for p in game.battlefield] == [True, True, True]  # Mogis's Chosen entered tapped


def test_a_countered_card_goes_to_the_graveyard_and_an_empty_library_reveals_nothing() -> None:
    """H11: the deck's cards can be countered."""
    game = god(top=[PHERES, STRIKE], library_size=2)
    game.apply("end")
    start = len(game.events)
    game.apply("choose counter")
    assert since(game, start) == [E("challenge.log.countered", card=PHERES)]
    game.apply("choose pass")
    assert since(game, start)[1:] == [
        E("challenge.log.resolves", card=STRIKE),
        E("challenge.log.damage_to_players", card=STRIKE, amount=4, life=16),
        E("challenge.log.no_attack"),
        E("challenge.log.players_turn", turn=3),
        E("challenge.log.draw_reminder"),
    ]
    assert [game.name_of(i) for i in game.graveyard[-2:]] == [PHERES, STRIKE] and game.stack == []
    start = len(game.events)
    game.apply("end")
    assert since(game, start) == [
        E("challenge.log.players_end", turn=3),
        E("god.log.deck_turn", turn=4),
        E("challenge.log.library_empty"),
        E("challenge.log.no_attack"),
        E("challenge.log.players_turn", turn=5),
        E("challenge.log.draw_reminder"),
    ]
    check_invariants(game)


def test_a_spell_on_the_stack_while_it_resolves_and_a_short_library() -> None:
    game = god(players=2, top=["Impulsive Destruction"], library_size=1)
    game.apply("end")
    game.apply("choose pass")
    assert game.pending.topic == "destruction_sacrifice"
    assert game.snapshot()["resolving"] == ["Impulsive Destruction"] and game.stack == [game.stack[0]]
    assert game.events[-2:] == [
        E("challenge.log.reveal", cards=("Impulsive Destruction",)),
        E("challenge.log.resolves", card="Impulsive Destruction"),
    ]


def test_with_every_window_the_upkeep_and_the_triggers_ask() -> None:
    game = rig(GodGame([Seat("P1")], seed=1, all_windows=True), top=[THRONG, PHERES, FLAME])
    game.apply("end")
    assert game.pending == Decision("upkeep", "option", "pass", options=("pass",))
    game.apply("tap 1")  # an instant in the upkeep window
    game.apply("choose pass")
    game.apply("choose pass")
    assert game.pending == Decision(
        "trigger", "option", "pass", options=("pass", "counter"), card=THRONG, detail="enter"
    )
    game.apply("choose pass")
    assert game.pending.card == FLAME and game.pending.topic == "counter"  # the Throng's card
    game.play_until_players()
    assert names(game) == [XENAGOS, THRONG, THRONG, THRONG, FLAME, PHERES]


def test_a_rebuilt_game_keeps_every_window_open() -> None:
    game = GodGame([Seat("P1")], seed=3, all_windows=True)
    game.apply("end")
    game.play_until_players()
    game.apply("tap 1")
    again = game.rebuild(game.actions)
    assert again.all_windows and again.snapshot() == game.snapshot() and again.events == game.events
    assert again.actions == game.actions and again.library_changed_by == game.library_changed_by


def test_the_horde_end_step_trigger_skips_a_permanent_that_already_left() -> None:
    """Two Reckless Minotaurs' end-step triggers; the first one is destroyed in the second's window."""
    game = rig(HordeGame([Seat("P1")], seed=1, all_windows=True), battlefield=[RECKLESS, RECKLESS, GORE])
    game.apply("end")
    game.apply("choose pass")
    game.apply("destroy 1")
    start = len(game.events)
    game.apply("choose pass")
    assert since(game, start) == [
        E("challenge.log.leaves_destroyed", card=RECKLESS),
        E("challenge.log.players_turn", turn=2),
        E("challenge.log.draw_reminder"),
    ]
    assert names(game) == [GORE] and game.defeated == 2


# ------------------------------------------------------------------ winning, undo, output
def test_the_players_win_when_an_action_leaves_the_deck_beaten() -> None:
    """§5a: no library and no creatures; an artifact left on the battlefield does not matter."""
    game = horde_game(battlefield=["Altar of Mogis"], library_size=0)
    game.apply("tap 1")
    assert game.outcome == "won" and game.events[-2:] == [
        E("challenge.log.tapped", card="Altar of Mogis"),
        E("challenge.log.won"),
    ]


def test_undo_only_the_players_own_actions_that_moved_no_library_card() -> None:
    game = god()
    assert game.undo_refusal() == "hydra.error.nothing_to_undo"
    game.apply("tap 2")
    assert game.undo_refusal() is None and game.in_players_first_turn
    game.apply("end")
    assert game.undo_refusal() == "hydra.error.nothing_to_undo"
    game.apply("choose pass")
    assert game.undo_refusal() == "hydra.error.nothing_to_undo"
    game.play_until_players()
    game.apply("life 1 1")
    assert game.undo_refusal() is None
    back = game.rebuild(game.actions[:-1])
    assert back.life == game.life - 1 and back.actions == game.actions[:-1]
    copy = replay(GodGame, game.seats, 1, 2, ["tap 2"])
    assert copy.snapshot()["permanents"][1]["tapped"] is True and copy.stable_ids


def test_snapshot_and_board_show_the_whole_state() -> None:
    game = rig(
        GodGame([Seat("P1", ("The Slayer",)), Seat("P2")], seed=1),
        battlefield=[XENAGOS, THRONG, FLAME],
        top=[STRIKE, PIPER],
        graveyard=[PIPER],
    )
    game.apply("damage 2 2")
    game.apply("tap 2")
    game.apply("end")
    snapshot = game.snapshot()
    assert snapshot == {
        "deck": "god",
        "turn": 2,
        "active": "deck",
        "outcome": "ongoing",
        "life": 27,  # The Slayer: +7
        "players": [{"name": "P1", "heroes": ["The Slayer"]}, {"name": "P2", "heroes": []}],
        "permanents": [
            {"name": XENAGOS, "power": 6, "toughness": 5, "damage": 0, "tapped": False},
            {"name": THRONG, "power": 1, "toughness": 3, "damage": 0, "tapped": False},
            {"name": FLAME, "power": 0, "toughness": 0, "damage": 0, "tapped": False},
        ],
        "library_count": 54,
        "graveyard": [PIPER],
        "exile": [],
        "resolving": [STRIKE, PIPER],
        "all_windows": False,
        "pending": {
            "topic": "counter",
            "kind": "option",
            "default": "pass",
            "options": ["pass", "counter"],
            "card": STRIKE,
        },
    }
    game.apply("damage 2 1")
    game.apply("tap 2")
    assert game.board_lines() == [
        "1. Xenagos Ascended 6/5",
        "2. Rollicking Throng 1/3 [tapped] [1 damage]",
        "3. Dance of Flame",
    ]
    game.play_until_players()
    assert game.snapshot()["pending"] is None and game.snapshot()["resolving"] == []


def test_until_end_of_turn_changes_and_damage_wear_off_at_the_cleanup_step() -> None:
    game = god(battlefield=[XENAGOS, THRONG, THRONG], library_size=0)
    game.apply("damage 1 4")
    game.apply("weaken 1 2")
    game.battlefield[2].pumped = 2
    assert [(p.power, p.toughness, p.damage) for p in game.battlefield] == [(6, 5, 4), (0, 2, 0), (3, 3, 0)]
    game.apply("end")
    assert [(p.power, p.toughness, p.damage, p.shrunk, p.pumped) for p in game.battlefield] == [
        (6, 5, 0, 0, 0),
        (1, 3, 0, 0, 0),
        (1, 3, 0, 0, 0),
    ]


def test_an_attacker_with_negative_power_deals_no_damage_and_counts_as_zero() -> None:
    """§5b Impulsive Charge: the Revelers attack; one weakened to -1/1 deals 0, not -1."""
    game = god(battlefield=[XENAGOS, THRONG, THRONG], top=["Impulsive Charge", PHERES])
    game.apply("end")
    game.apply("weaken 2 2")
    game.apply("weaken 1 3")
    game.apply("choose pass")
    game.apply("choose pass")
    assert game.events[-1] == E(
        "challenge.log.attack",
        cards=(
            attacker(2, "Rollicking Throng", -1, 1),
            attacker(3, "Rollicking Throng", 0, 2),
            attacker(4, "Pheres-Band Revelers", 4, 4),
        ),
    )
    assert game.pending.max_heads == 3 and game.allowed_numbers(game.pending) == [2, 3, 4]
    game.play_until_players()
    assert game.combat_steps == [CombatStep(((THRONG, 0), (THRONG, 0), (PHERES, 4)), 4)] and game.life == 16


def test_late_players_may_sit_down_only_before_anything_of_the_deck_is_seen() -> None:
    game = horde_game(turns=2)
    game.apply("life 1 0")
    assert game.in_players_first_turn
    game.apply("end")
    assert game.turn == 2 and game.active == "players" and not game.in_players_first_turn
    milled = horde_game()
    milled.apply("mill 1")
    assert not milled.in_players_first_turn


def test_the_engine_defaults_and_replay_defaults() -> None:
    bare = Bare([Seat("P1")], seed=1, difficulty=1)
    assert (bare.stable_ids, bare.all_windows, bare.max_players, bare.max_heroes, bare.starting_life) == (
        True,
        False,
        1,
        3,
        20,
    )
    copy = replay(GodGame, [Seat("P1")], 4, 3, [])
    assert (copy.all_windows, copy.stable_ids, copy.seed, copy.difficulty, copy.actions) == (
        False,
        True,
        4,
        3,
        [],
    )
    assert (
        copy.snapshot() == GodGame([Seat("P1")], seed=4, difficulty=3).snapshot()
        and len(copy.battlefield) == 4
    )


def test_a_deck_already_beaten_when_the_players_turn_ends_takes_no_turn() -> None:
    """A guard of the end of the players' turn: the win is checked before the next turn begins
    (§5a: no library and no creatures), here on a board rigged to be beaten but not yet declared so."""
    game = horde_game(battlefield=[], library_size=0)
    game.apply("end")
    assert game.events[-2:] == [E("challenge.log.players_end", turn=1), E("challenge.log.won")]
    assert (game.turn, game.outcome, game.pending) == (1, "won", None)


def test_every_instant_action_is_allowed_in_a_response_window() -> None:
    """The players act at instant speed while the deck's spell waits on the stack (H11)."""
    game = god(battlefield=[XENAGOS, THRONG, THRONG, PIPER, PIPER, PHERES, FLAME], top=[STRIKE, OREAD])
    game.apply("end")
    assert game.pending.topic == "counter"
    for line in (
        "damage 2 1",
        "sweep 1 2",
        "weaken 1 3",
        "weaken 1 3",
        "counters 1 4",
        "counters 1 4",
        "tap 6",
        "freeze 6",
        "life 1 -1",
        "prevent 1",
        "mill 1",
        "exile 7",
        "bounce 5",
        "sacrifice 6",
    ):
        game.apply(line)
    assert [(p.name, p.power, p.toughness, p.damage, p.tapped) for p in game.battlefield] == [
        (XENAGOS, 6, 5, 0, False),
        (THRONG, 1, 3, 2, False),
        (THRONG, -1, 1, 0, False),
        (PIPER, 4, 4, 0, False),
    ]
    assert game.life == 19 + 2 and game.pending.topic == "counter" and game.defeated == 3  # a Piper's reward
    assert refused(game, "end") == ("hydra.error.answer_first", {})
    game.apply("destroy 4")
    assert game.pending.topic == "counter" and game.life == 23


def test_a_players_action_outside_their_turn_is_refused() -> None:
    """A guard: with no question pending the players act only in their own turn."""
    game = god()
    game.active = "deck"
    assert refused(game, "tap 1") == ("hydra.error.not_your_turn", {})
    assert refused(game, "end") == ("hydra.error.not_your_turn", {})


def test_legacy_numbers_start_at_one() -> None:
    game = rig(GodGame([Seat("P1")], seed=1, stable_ids=False), battlefield=[XENAGOS, THRONG])
    game.apply("tap 1")
    game.apply("tap 2")
    assert [p.tapped for p in game.battlefield] == [True, True]


def test_a_typo_in_an_answer_is_echoed_with_the_answer() -> None:
    game = horde_game(turns=2, top=[GORE, YOUNG])
    play(game, "end", "end", "choose pass", "choose pass")
    assert refused(game, "choose 1 x") == ("hydra.error.not_a_number", {"value": "x", "line": "1 x"})


def test_a_countered_trigger_is_logged_with_its_card() -> None:
    game = rig(GodGame([Seat("P1")], seed=1, all_windows=True), top=[THRONG, PHERES, FLAME])
    game.apply("end")
    for _ in range(2):  # the upkeep, the Throng on the stack
        game.apply("choose pass")
    game.apply("choose counter")
    assert game.events[-1] == E("challenge.log.trigger_countered", card=THRONG)


def test_combat_damage_with_a_shared_life_total_counts_once() -> None:
    """§5b: Xenagos attacks the players' side once; combat damage is not "each player" damage."""
    game = god(players=2, top=[PIPER, PHERES])
    game.apply("end")
    game.play_until_players()
    assert game.combat_steps == [CombatStep(((XENAGOS, 6),), 6)] and game.life == 14
    assert game.events[-3] == E("challenge.log.combat_damage", amount=6, life=14)


def test_consuming_rage_destroys_its_attackers_at_end_of_combat() -> None:
    """§5a Consuming Rage: +2/+0, then "Destroy that creature at end of combat"."""
    game = horde_game(turns=2, battlefield=[REAVER], top=["Consuming Rage", "Unquenchable Fury"])
    game.apply("end")
    start = len(game.events)
    game.apply("end")
    game.play_until_players()
    assert since(game, start)[-4:] == [
        E("challenge.log.combat_damage", amount=4, life=16),
        E("challenge.log.leaves_destroyed", card=REAVER),
        E("challenge.log.players_turn", turn=4),
        E("challenge.log.draw_reminder"),
    ]


def test_shields_are_used_up_one_after_another_and_a_one_point_rest_stays() -> None:
    game = god()
    game.apply("prevent 3")
    game.apply("prevent 10")
    game._damage(8, STRIKE, each_player=False)
    assert game.events[-2:] == [
        E("challenge.log.prevented", amount=8),
        E("challenge.log.damage_to_players", card=STRIKE, amount=0, life=20),
    ]
    assert [(s.amount, s.source) for s in game.shields] == [(5, None)]
    game._damage(4, STRIKE)
    assert [(s.amount, s.source) for s in game.shields] == [(1, None)]
    game._damage(2, STRIKE)
    assert game.events[-2:] == [
        E("challenge.log.prevented", amount=1),
        E("challenge.log.damage_to_players", card=STRIKE, amount=1, life=19),
    ]
    assert game.shields == []
