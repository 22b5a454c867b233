"""Battle the Horde, pinned event by event: what each Horde card does and logs, with its exact values
(the rules and the verbatim card texts of docs/rules/CHALLENGE_DECKS.md §5a: "If the Horde would lose life, put
that many cards from the top of its library into its graveyard"; the artifacts' "Hero's Reward — When
... is put into a graveyard from anywhere"; Mogis's Chosen "enters the battlefield tapped"; Intervention
of Keranos "deals 3 damage to each creature"; Consuming Rage "+2/+0")."""

from __future__ import annotations

import pytest

from bot.domain.challenge.core import ChallengeError, Decision, Event
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.horde import HordeGame

from .helpers import play, rig

GORE, YOUNG, CHOSEN, REAVER = "Minotaur Goreseeker", "Minotaur Younghorn", "Mogis's Chosen", "Phoberos Reaver"
RECKLESS = "Reckless Minotaur"
ELIXIR, STATUE, SALVE, ALTAR = "Refreshing Elixir", "Plundered Statue", "Vitality Salve", "Altar of Mogis"
KERANOS, RAGE, DESCEND, TOUCH = (
    "Intervention of Keranos",
    "Consuming Rage",
    "Descend on the Prey",
    "Touch of the Horned God",
)


def horde(turns: int = 3, *, all_windows: bool = False, **rigging) -> HordeGame:
    game = HordeGame([Seat("P1")], seed=1, difficulty=turns, all_windows=all_windows)
    return rig(game, **rigging)  # type: ignore[return-value]


def events_of(game: HordeGame, *lines: str) -> list[Event]:
    start = len(game.events)
    for line in lines:
        game.apply(line)
    return game.events[start:]


def test_hitting_the_horde_mills_and_each_milled_artifact_gives_its_own_reward() -> None:
    game = horde(top=[GORE, STATUE, SALVE, ELIXIR])
    assert events_of(game, "hit 4") == [
        Event("horde.log.hit", {"amount": 4}),
        Event("challenge.log.milled", {"count": 4, "cards": (GORE, STATUE, SALVE, ELIXIR)}),
        Event("horde.log.reward", {"card": STATUE}),
        Event("challenge.log.reward_draw", {}),
        Event("horde.log.reward", {"card": SALVE}),
        Event("horde.log.salve", {}),
        Event("horde.log.reward", {"card": ELIXIR}),
        Event("challenge.log.gain", {"card": ELIXIR, "amount": 5, "life": 25}),
    ]


def test_with_every_window_a_reward_is_a_trigger_that_can_be_countered() -> None:
    game = horde(all_windows=True, top=[ELIXIR])
    game.apply("hit 1")
    assert game.pending == Decision(
        "trigger", "option", "pass", options=("pass", "counter"), card=ELIXIR, detail="reward"
    )
    assert events_of(game, "choose counter") == [Event("challenge.log.trigger_countered", {"card": ELIXIR})]
    assert game.life == 20


def test_an_artifact_adds_a_card_from_the_turn_after_it_entered_and_chosen_enters_tapped() -> None:
    game = horde(turns=2, battlefield=[ELIXIR, GORE], top=[CHOSEN, YOUNG, KERANOS])
    game.apply("end")
    assert events_of(game, "end", "choose pass", "choose pass", "choose pass") == [
        Event("challenge.log.players_end", {"turn": 2}),
        Event("horde.log.deck_turn", {"turn": 3}),
        Event("horde.log.main_phase", {"count": 3, "artifacts": 1}),
        Event("challenge.log.reveal", {"cards": (CHOSEN, YOUNG, KERANOS)}),
        Event("challenge.log.enters", {"card": CHOSEN}),
        Event("challenge.log.enters", {"card": YOUNG}),
        Event("challenge.log.resolves", {"card": KERANOS}),
        Event("horde.log.keranos", {"amount": 3}),
        Event("challenge.log.leaves_dies", {"card": GORE}),
        Event("challenge.log.leaves_dies", {"card": YOUNG}),
        Event("challenge.log.no_attack", {}),
        Event("challenge.log.players_turn", {"turn": 4}),
        Event("challenge.log.draw_reminder", {}),
    ]
    assert [(p.name, p.tapped) for p in game.battlefield] == [(ELIXIR, False), (CHOSEN, True)]
    assert game.battlefield[1].tapped is True


def test_keranos_adds_its_3_damage_to_damage_already_marked() -> None:
    game = horde(turns=2, battlefield=[ELIXIR], top=[CHOSEN, YOUNG, KERANOS])
    play(game, "end", "end", "choose pass", "choose pass")
    game.apply("damage 2 1")  # Mogis's Chosen (5/4), while Keranos waits to be countered
    game.play_until_players()
    assert [p.name for p in game.battlefield] == [ELIXIR]  # 1 + 3 damage: the Chosen died too


def test_two_keranos_deal_6_and_the_attack_reminders_name_the_sorceries_cast() -> None:
    game = horde(turns=2, battlefield=[ALTAR, STATUE], top=[KERANOS, KERANOS, DESCEND, TOUCH])
    game.apply("end")
    game.apply("end")
    game.play_until_players()
    assert Event("horde.log.keranos", {"amount": 6}) in game.events
    assert Event("horde.log.combat_reminders", {"cards": (DESCEND, TOUCH)}) in game.events


def test_two_consuming_rages_give_each_attacking_minotaur_plus_4() -> None:
    game = horde(turns=2, battlefield=[REAVER], top=[RAGE, RAGE])
    game.apply("end")
    game.apply("end")
    game.play_until_players()
    assert game.combat_steps[-1].attackers == ((REAVER, 6),) and game.life == 14 and game.battlefield == []


def test_altar_of_mogis_asks_for_two_minotaurs_then_they_are_sacrificed() -> None:
    game = horde(battlefield=[GORE, YOUNG, REAVER], top=[ALTAR])
    game.apply("hit 1")
    assert game.pending == Decision("altar_sacrifice", "heads", "1 2", card=ALTAR, min_heads=2, max_heads=2)
    assert events_of(game, "choose 2 3") == [
        Event("challenge.log.leaves_sacrificed", {"card": YOUNG}),
        Event("challenge.log.leaves_sacrificed", {"card": REAVER}),
    ]
    single = horde(battlefield=[ELIXIR, GORE], top=[ALTAR])
    single.apply("hit 1")
    assert single.pending == Decision("altar_sacrifice", "heads", "2", card=ALTAR, min_heads=1, max_heads=1)
    assert single.allowed_numbers(single.pending) == [2]


def test_only_attackers_may_be_named_as_blocked() -> None:
    game = horde(turns=2, battlefield=[GORE], top=[CHOSEN, YOUNG])
    play(game, "end", "end", "choose pass", "choose pass")
    assert game.pending is not None and game.pending.topic == "blocks"
    assert game.allowed_numbers(game.pending) == [1, 3]  # Goreseeker and Younghorn; the Chosen is tapped
    with pytest.raises(ChallengeError, match="not_allowed"):
        game.apply("choose 2")


def test_two_to_four_first_turns_and_the_set_up_flags_are_kept() -> None:
    for turns in (1, 5):
        with pytest.raises(ChallengeError) as refused:
            HordeGame([Seat("a")], seed=1, difficulty=turns)
        assert (refused.value.key, refused.value.values) == ("horde.error.turns_range", {"min": 2, "max": 4})
    game = HordeGame([Seat("a")], seed=1, difficulty=4, all_windows=True, stable_ids=False)
    assert (game.difficulty, game.all_windows, game.stable_ids) == (4, True, False)


def test_reckless_minotaur_is_destroyed_by_an_end_step_trigger_that_can_be_countered() -> None:
    game = horde(all_windows=True, battlefield=[RECKLESS, RECKLESS, GORE])
    game.apply("end")
    assert game.pending == Decision(
        "trigger", "option", "pass", options=("pass", "counter"), card=RECKLESS, detail="end_step"
    )
    game.apply("choose pass")
    assert events_of(game, "choose counter") == [
        Event("challenge.log.trigger_countered", {"card": RECKLESS}),
        Event("challenge.log.leaves_destroyed", {"card": RECKLESS}),
        Event("challenge.log.players_turn", {"turn": 2}),
        Event("challenge.log.draw_reminder", {}),
    ]
    assert [p.name for p in game.battlefield] == [RECKLESS, GORE] and game.number_of(game.battlefield[0]) == 2


def test_the_horde_can_be_hit_at_instant_speed_in_a_window_but_not_while_blocks_are_asked() -> None:
    game = horde(turns=2, top=[GORE, YOUNG, SALVE])
    game.apply("end")
    game.apply("end")
    assert game.pending is not None and game.pending.topic == "counter"
    assert [e.key for e in events_of(game, "hit 1")] == [
        "horde.log.hit",
        "challenge.log.milled",
        "horde.log.reward",
        "horde.log.salve",
    ]
    game.apply("choose pass")
    game.apply("choose pass")
    assert game.pending is not None and game.pending.topic == "blocks"
    with pytest.raises(ChallengeError, match="answer_first"):
        game.apply("hit 1")
