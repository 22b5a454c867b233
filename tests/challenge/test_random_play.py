"""The random players of the fuzz tests and the benchmark (``randomloop`` for every deck, ``randomplay``
for the Horde and the God): each option is drawn with exactly the chances and ranges written, the loop
answers, acts in windows and ends turns exactly as documented, and a seed gives the same game every time.

``Rolls`` is a real ``random.Random`` whose ``random()`` returns chosen rolls (the thresholds are then
tested at their exact boundaries); ``randint``, ``choice`` and ``sample`` stay the seeded generator's.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.domain.challenge.core import ChallengeError, Decision
from bot.domain.challenge.creatures import CreatureDeckGame, Seat
from bot.domain.challenge.god import GodGame
from bot.domain.challenge.horde import HordeGame
from bot.domain.challenge.randomloop import ACTIONS_PER_TURN, play_random, random_option, some_numbers
from bot.domain.challenge.randomplay import (
    DECKS,
    MAX_TURNS,
    new_random_game,
    play_random_game,
    random_action,
    random_answer,
)

from .helpers import rig

GORE, YOUNG = "Minotaur Goreseeker", "Minotaur Younghorn"


class Rolls(random.Random):
    """``random()`` returns ``roll`` (or the next of ``rolls``); every other draw is the seeded generator's."""

    def __init__(self, roll: float = 0.0, *, rolls: list[float] | None = None, seed: int = 0) -> None:
        super().__init__(seed)
        self.roll, self.rolls = roll, list(rolls or [])

    def random(self) -> float:
        return self.rolls.pop(0) if self.rolls else self.roll

    def getrandbits(self, k: int) -> int:  # keeps randint/choice/sample on the seeded bits, not on random()
        return super().getrandbits(k)


def horde_with(*battlefield: str) -> HordeGame:
    return rig(HordeGame([Seat("P1")], seed=1, difficulty=2), battlefield=list(battlefield))  # type: ignore[return-value]


# ------------------------------------------------------------------ randomloop: some_numbers, random_option
def test_some_numbers_is_all_below_the_all_chance_and_one_to_most_distinct_numbers_otherwise() -> None:
    assert some_numbers([4, 5], Rolls(0.2999), all_chance=0.3) == "all"
    assert some_numbers([4, 5], Rolls(0.0999)) == "all"  # the default chance is 0.1
    assert some_numbers([4], Rolls(0.1)) == "4"  # at the chance itself: numbers
    assert some_numbers([4], Rolls(0.3), all_chance=0.3) == "4"
    assert some_numbers([4], Rolls(0.0), all_chance=0) == "4"
    counts = set()
    for seed in range(300):
        picked = some_numbers([1, 2, 3, 4, 5, 6], Rolls(0.5, seed=seed)).split(" ")
        assert len(set(picked)) == len(picked) and set(picked) <= {"1", "2", "3", "4", "5", "6"}
        counts.add(len(picked))
    assert counts == {1, 2, 3}  # most=3 by default
    assert {len(some_numbers([1, 2, 3], Rolls(0.5, seed=s), most=2).split(" ")) for s in range(100)} == {1, 2}
    assert {some_numbers([7, 8], Rolls(0.5, seed=s), most=1) for s in range(100)} == {"7", "8"}


def test_random_option_draws_one_option_or_min_to_max_allowed_numbers() -> None:
    option = Decision("counter", "option", "pass", options=("pass", "counter", "x"))
    assert {random_option(option, random.Random(s), [1, 2]) for s in range(100)} == {"pass", "counter", "x"}
    heads = Decision("blocks", "heads", "none", min_heads=1, max_heads=2)
    answers = [random_option(heads, random.Random(s), [4, 5, 6]).split(" ") for s in range(200)]
    assert all(len(set(a)) == len(a) and set(a) <= {"4", "5", "6"} for a in answers)
    assert {len(a) for a in answers} == {1, 2}
    capped = Decision("blocks", "heads", "none", min_heads=0, max_heads=5)
    assert {random_option(capped, random.Random(s), [9]) for s in range(100)} == {"none", "9"}
    assert random_option(Decision("blocks", "heads", "none"), random.Random(1), [3, 4]) == "none"


# ------------------------------------------------------------------ randomplay: the actions and their chances
BOUNDARIES = [  # (roll, the first word of the Horde's action with permanents on the battlefield)
    (0.0, "hit"),
    (0.3499, "hit"),
    (0.35, "damage"),
    (0.5999, "damage"),
    (0.6, "removal"),
    (0.6999, "removal"),
    (0.7, "all"),
    (0.7299, "all"),
    (0.73, "life"),
    (0.7799, "life"),
    (0.78, "prevent"),
    (0.7999, "prevent"),
    (0.8, "mill"),
    (0.8099, "mill"),
    (0.81, "rarer"),
    (0.8399, "rarer"),
    (0.84, "end"),
    (0.9999, "end"),
]
REMOVAL = {"destroy", "exile", "bounce", "tap", "sacrifice", "freeze"}
RARER = {"extraturn", "exilecards", "steal", "giveback", "cantattack", "cantblock", "tuck", "attack"}


def kind(line: str) -> str:
    verb = line.split()[0]
    if verb in REMOVAL:
        return "removal"
    if verb in RARER:
        return "rarer"
    return "all" if verb in ("sweep", "weaken", "counters") else verb


@pytest.mark.parametrize("roll, expected", BOUNDARIES)
def test_each_roll_picks_the_action_written_for_it(roll: float, expected: str) -> None:
    horde = horde_with(GORE, YOUNG)
    assert kind(random_action(horde, Rolls(roll), False)) == expected
    god = rig(GodGame([Seat("P1")], seed=1), battlefield=["Xenagos Ascended"])
    assert kind(random_action(god, Rolls(roll), False)) == ("damage" if expected == "hit" else expected)


def test_the_last_option_ends_the_turn_or_in_a_window_hands_back_to_choose() -> None:
    assert random_action(horde_with(GORE), Rolls(0.84), False) == "end"
    assert random_action(horde_with(GORE), Rolls(0.84), True) == "choose"


def test_without_permanents_the_options_that_name_one_fall_through_to_life() -> None:
    horde = horde_with()
    assert [kind(random_action(horde, Rolls(roll), False)) for roll in (0.1, 0.35, 0.65, 0.71, 0.79)] == [
        "hit",
        "life",
        "life",
        "life",
        "prevent",
    ]


def lines_for(roll: float, game: CreatureDeckGame | None = None, draws: int = 300) -> list[str]:
    game = game or horde_with(GORE, YOUNG)
    return [random_action(game, Rolls(roll, seed=seed), False) for seed in range(draws)]


def test_each_action_draws_its_amounts_and_targets_from_the_ranges_written() -> None:
    assert {line for line in lines_for(0.1)} == {f"hit {n}" for n in range(1, 7)}
    assert {line for line in lines_for(0.5)} == {f"damage {t} {n}" for t in (1, 2) for n in range(1, 6)}
    assert {line for line in lines_for(0.65)} == {f"{verb} {t}" for verb in REMOVAL for t in (1, 2)}
    assert {line for line in lines_for(0.72)} == (
        {f"counters {n} all" for n in range(-1, 4)}
        | {f"{v} {n} all" for v in ("sweep", "weaken") for n in range(4)}
    )
    assert {line for line in lines_for(0.75)} == {"life 1 -2", "life 1 1", "life 1 3"}
    assert {line for line in lines_for(0.79)} == {
        f"prevent {n}{s}" for n in range(1, 5) for s in ("", " from combat")
    }
    assert {line for line in lines_for(0.805)} == {"mill 1"}


def test_removal_names_one_permanent_never_all() -> None:
    horde = horde_with(GORE, YOUNG)
    lines = [random_action(horde, Rolls(0.0, rolls=[0.65], seed=seed), False) for seed in range(50)]
    assert {line.split()[1] for line in lines} == {"1", "2"}  # even when some_numbers' own roll is 0


def test_random_answer_answers_the_pending_question_from_its_allowed_numbers() -> None:
    game = horde_with(GORE, YOUNG, "Phoberos Reaver")
    game.apply("end")
    game.apply("end")  # the Horde's turn: Goreseeker, Younghorn and Reaver (there since turn 0) attack
    while game.pending is not None and game.pending.topic != "blocks":
        game.apply("choose pass")
    assert game.pending is not None and game.allowed_numbers(game.pending) == [1, 2, 3]
    answers = {random_answer(game, random.Random(seed)) for seed in range(300)}
    assert "none" in answers and "1 2 3" in {" ".join(sorted(a.split())) for a in answers}
    assert all(set(a.split()) <= {"1", "2", "3"} for a in answers if a != "none")


def test_a_new_random_game_draws_its_difficulty_players_and_windows_from_the_ranges_written() -> None:
    hordes = [new_random_game("horde", seed, random.Random(seed)) for seed in range(60)]
    assert all(isinstance(g, HordeGame) and [s.name for s in g.seats] == ["P1"] for g in hordes)
    assert {(g.difficulty, g.all_windows) for g in hordes} == {
        (d, w) for d in (2, 3, 4) for w in (True, False)
    }
    assert [g.seed for g in hordes] == list(range(60))
    gods = [new_random_game("god", seed, random.Random(seed)) for seed in range(100)]
    assert all(isinstance(g, GodGame) for g in gods) and [g.seed for g in gods] == list(range(100))
    assert {tuple(s.name for s in g.seats) for g in gods} == {
        ("P1",),
        ("P1", "P2"),
        ("P1", "P2", "P3"),
        ("P1", "P2", "P3", "P4"),
    }
    assert {(g.difficulty, g.all_windows) for g in gods} == {(d, w) for d in (1, 2, 3) for w in (True, False)}
    assert {"horde": HordeGame, "god": GodGame} == DECKS
    # windows: a roll below 0.5; the first roll decides
    assert new_random_game("horde", 1, Rolls(0.4999)).all_windows is True
    assert new_random_game("god", 1, Rolls(0.5)).all_windows is False


# ------------------------------------------------------------------ randomloop: play_random
def scripted(
    window_lines: list[str],
    *,
    window_chance: float = 1.0,
    max_turns: int = 4,
    rng: random.Random | None = None,
) -> tuple[list[str], list[bool], list[int], HordeGame]:
    """A Horde game (two first turns; Goreseeker then Younghorn on top) played by the loop with
    scripted players: outside windows they shield 1, in a window they say the next of ``window_lines``;
    every question is answered with its default. Returns the lines, the instant flags the players were
    asked with, the turns ``on_too_long`` saw, and the game."""
    game = HordeGame([Seat("P1")], seed=1, difficulty=2)
    rig(game, top=[GORE, YOUNG])
    lines: list[str] = []
    asked: list[bool] = []
    too_long: list[int] = []

    def action(g: HordeGame, _rng: random.Random, instant: bool) -> str:
        asked.append(instant)
        return window_lines.pop(0) if instant else "prevent 1"

    def answer(g: HordeGame, _rng: random.Random) -> str:
        assert g.pending is not None
        return g.pending.default

    def on_too_long(g: HordeGame) -> None:
        assert not too_long, "on_too_long ran twice"
        too_long.append(g.turn)

    def before_apply(g: HordeGame, line: str) -> Callable[[], None]:
        lines.append(line)
        return lambda: lines.append(f"applied {g.actions[-1]}")

    result = play_random(
        game,
        rng or random.Random(0),
        label="scripted",
        action=action,
        answer=answer,
        window_chance=window_chance,
        max_turns=max_turns,
        on_too_long=on_too_long,
        before_apply=before_apply,
    )
    assert result is game
    return [line for line in lines if not line.startswith("applied")], asked, too_long, game


def test_the_loop_ends_the_turn_after_four_actions_counting_answers_and_stops_past_max_turns() -> None:
    lines, asked, too_long, game = scripted([], window_chance=0)
    assert ACTIONS_PER_TURN == 4
    assert lines == ["prevent 1"] * 4 + ["end"] + ["prevent 1"] * 4 + ["end"] + [
        "choose pass",
        "choose pass",
        "choose none",
        "choose pass",  # the Horde's turn 3: two casts, blocks, Fog
        "end",
    ]  # turn 4: the four answers count as actions, so the players end at once
    assert asked == [False] * 8 and too_long == [5] and game.turn == 5 and not game.over
    assert game.life == 20 - 5 and game.actions == lines


def test_in_a_window_the_players_may_act_but_choose_or_end_there_answers_the_question() -> None:
    lines, asked, _, _ = scripted(["hit 1", "end", "choose", "prevent 2", "end"])
    assert lines[10:] == [
        "hit 1",
        "choose pass",  # the first cast's window: act, then "end" answers
        "choose pass",  # the second: "choose" answers
        "choose none",  # blocks: no window, the players are not asked
        "prevent 2",
        "choose pass",  # Fog's window: act, then "end" answers
        "end",
    ]  # six actions this turn already
    assert asked == [False] * 8 + [True] * 5


def test_the_window_chance_is_a_roll_below_it() -> None:
    below = scripted(["hit 1", "end", "end", "end"], window_chance=0.5, rng=Rolls(0.4999))[0]
    at = scripted([], window_chance=0.5, rng=Rolls(0.5))[0]
    assert below[10:12] == ["hit 1", "choose pass"] and at[10:14] == [
        "choose pass",
        "choose pass",
        "choose none",
        "choose pass",
    ]


def test_each_step_is_checked_after_it_is_applied_and_seen_by_after_step() -> None:
    game = rig(HordeGame([Seat("P1")], seed=1, difficulty=2), top=[GORE, YOUNG])
    seen: list[tuple[int, int]] = []
    checks: list[str] = []
    play_random(
        game,
        random.Random(3),
        label="x",
        action=lambda g, r, i: "end",
        answer=lambda g, r: "pass",
        window_chance=0,
        max_turns=2,
        on_too_long=lambda g: None,
        before_apply=lambda g, line: lambda: checks.append(g.actions[-1]),
        after_step=lambda g: seen.append((len(g.actions), g.turn)),
    )
    assert game.actions == ["end", "end"] and checks == game.actions
    assert seen == [(1, 2), (2, 3)]  # the Horde's turn 3 waits on its first cast: past max_turns 2


def test_a_refused_line_fails_with_the_label_and_the_refusal() -> None:
    game = horde_with(GORE)
    with pytest.raises(AssertionError) as failed:
        play_random(
            game,
            random.Random(1),
            label="horde game 9",
            action=lambda g, r, i: "destroy 7",
            answer=lambda g, r: "pass",
            window_chance=0,
            max_turns=5,
            on_too_long=lambda g: None,
        )
    assert str(failed.value) == (
        "horde game 9: legal action 'destroy 7' refused: "
        "challenge.error.no_such_permanent_id {'number': 7, 'numbers': (1,)}"
    )
    assert isinstance(failed.value.__cause__, ChallengeError)


# ------------------------------------------------------------------ randomplay: whole games from a seed
def test_play_random_game_names_the_deck_and_seed_when_a_line_is_refused() -> None:
    def not_the_players_turn(game: CreatureDeckGame) -> None:
        game.active = "deck"

    with pytest.raises(
        AssertionError, match=r"^god game 8: legal action '.+' refused: hydra\.error\.not_your_turn$"
    ):
        play_random_game("god", 8, after_step=not_the_players_turn)


def test_a_game_past_max_turns_is_conceded_there() -> None:
    assert MAX_TURNS == 200
    steps: list[int] = []

    def long_game(turn: int) -> Callable[[CreatureDeckGame], None]:
        def after(game: CreatureDeckGame) -> None:
            steps.append(len(game.actions))
            if len(game.actions) == 1:
                game.turn = turn

        return after

    for deck in DECKS:
        steps.clear()
        game = play_random_game(deck, 2, after_step=long_game(MAX_TURNS + 1))
        assert game.outcome == "lost" and len(game.actions) == 2 and game.actions[-1] == "concede"
        assert steps == [1]  # the concession ends the loop (no step after it)
        kept = play_random_game(deck, 2, after_step=long_game(MAX_TURNS))
        assert kept.actions[1] != "concede"


@pytest.mark.parametrize("deck", ["horde", "god"])
def test_a_seed_plays_the_same_game_every_time(deck: str) -> None:
    first = play_random_game(deck, 11)
    again = play_random_game(deck, 11)
    assert (
        again.actions == first.actions
        and again.events == first.events
        and again.snapshot() == first.snapshot()
    )
    assert play_random_game(deck, 12).actions != first.actions


PINNED: dict[tuple[str, int], tuple[list[str], int, str]] = {  # the first actions, how many, the outcome
    ("horde", 3): (
        [
            "hit 5",
            "life 1 3",
            "hit 1",
            "end",
            "life 1 3",
            "hit 6",
            "choose counter",
            "choose pass",
            "choose pass",
            "choose counter",
            "end",
            "life 1 3",
            "life 1 -2",
            "life 1 3",
        ],
        132,
        "lost",
    ),
    ("horde", 8): (
        [
            "hit 6",
            "hit 2",
            "hit 5",
            "choose pass",
            "end",
            "life 1 1",
            "life 1 3",
            "hit 4",
            "hit 2",
            "choose counter",
            "end",
            "life 1 1",
            "end",
            "choose pass",
        ],
        123,
        "lost",
    ),
    ("god", 3): (
        [
            "end",
            "choose pass",
            "choose counter",
            "choose pass",
            "choose sacrifice",
            "choose decline",
            "end",
            "choose pass",
            "choose pass",
            "choose pass",
            "choose counter",
            "choose none",
            "choose pass",
            "end",
        ],
        53,
        "lost",
    ),
    ("god", 8): (
        [
            "damage 1 1",
            "damage 5 2",
            "damage 1 4",
            "damage 4 4",
            "end",
            "choose pass",
            "damage 1 3",
            "choose counter",
            "choose counter",
            "end",
            "choose pass",
            "steal 5",
            "choose pass",
            "choose pass",
        ],
        48,
        "lost",
    ),
}


def test_seeded_games_are_exactly_the_recorded_ones() -> None:
    """Reproducible from the seed alone: a failing fuzz seed replays to the same game anywhere."""
    for (deck, seed), (head, length, outcome) in PINNED.items():
        game = play_random_game(deck, seed)
        assert (game.actions[: len(head)], len(game.actions), game.outcome) == (head, length, outcome), (
            deck,
            seed,
        )


def test_the_after_step_sees_every_step() -> None:
    seen: list[int] = []
    game = play_random_game("horde", 4, after_step=lambda g: seen.append(len(g.actions)))
    assert seen == list(range(1, len(game.actions) + 1))


def test_the_rarer_actions_cover_every_new_verb_and_only_legal_targets() -> None:
    """Across seeds, the rarer branch plays each verb the players' decks need, names permanents that are
    there (a stolen one for giveback, blockers only for the Horde's attack), and attacks only at sorcery
    speed; the God gets no cantblock (his creatures never block)."""
    from bot.domain.challenge.randomplay import _rarer_action

    horde = horde_with(GORE, YOUNG)
    horde.apply("steal 2")
    lines = {
        _rarer_action(horde, random.Random(seed), horde.battlefield_numbers(), False) for seed in range(300)
    }
    verbs = {line.split()[0] for line in lines}
    assert verbs == {
        "extraturn",
        "exilecards",
        "steal",
        "cantattack",
        "tuck",
        "cantblock",
        "giveback",
        "attack",
    }
    assert {line for line in lines if line.startswith("giveback")} == {"giveback 2"}
    assert all(line.split()[1] == "1" for line in lines if line.startswith("attack"))  # not the stolen 2
    instant = {
        _rarer_action(horde, random.Random(seed), horde.battlefield_numbers(), True) for seed in range(300)
    }
    assert not any(line.startswith("attack") for line in instant)
    god = rig(GodGame([Seat("P1")], seed=1), battlefield=["Xenagos Ascended"])
    god_lines = {
        _rarer_action(god, random.Random(seed), god.battlefield_numbers(), False) for seed in range(300)
    }
    assert not any(line.startswith(("cantblock", "giveback")) for line in god_lines)
    assert any(line.startswith("attack 1 ") for line in god_lines)
    empty = horde_with()
    assert {_rarer_action(empty, random.Random(s), [], False) for s in range(50)} == {
        "extraturn",
        "exilecards library 1",
        "exilecards graveyard all",
    }
