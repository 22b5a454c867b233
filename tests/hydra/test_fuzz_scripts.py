"""Bad challenge scripts get a clear error naming the line, never a traceback, and a refused script changes
nothing, fuzzed with Hypothesis through ``podkeeper hydra play --script`` and ``podkeeper challenge
play --deck hydra|horde|god --script``.

Scripts mix plausible commands (every verb, head numbers, ``all``, counts written ``²``, ``①``, ``١٢``, ``1_0``,
thousands of digits, ±10^30) with random text, comments and blank lines, and are written as UTF-8 (with a BOM,
with CRLF), UTF-16, or with binary bytes, lone surrogates or a huge line spliced in, in all four languages.
Every run must exit 0 (played), 1 (a line refused: stderr is one localized "Script line N: ..." with N a real
line, stdout empty: no board or JSON for a refused script) or 2 (a file too big to be a script). In process,
the game a refused script leaves is exactly the replay of the lines accepted before it: the refused line
changed nothing. A small count by default; ``--full`` runs 1,000 scripts through each CLI. Counts printed."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.cli._challenge_runner import MAX_SCRIPT_BYTES, read_script, run_script
from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.creatures import Seat
from bot.domain.challenge.randomplay import DECKS
from bot.domain.hydra import HydraGame
from bot.domain.hydra.actions import VERBS
from bot.i18n import LANGUAGES, t

ODD_NUMBERS = [
    "²",
    "①",
    "９",
    "１２",
    "١٢",
    "1_0",
    "+3",
    "-0",
    "0x10",
    "1e3",
    "-",
    "+",
    "9" * 4400,
    "-" + "9" * 30,
]
WORDS = [
    "all",
    "library",
    "graveyard",
    "from",
    "heads",
    "counter",
    "pass",
    "none",
    "prevent",
    "upkeep",
    "trigger",
    "blocks",
    "Ravenous Brute Head",
    "\u200b",
    "\ud800",
    "\x00",
    "Ａ" * 50,
]
tokens = st.one_of(
    st.integers(min_value=-3, max_value=12).map(str),
    st.sampled_from(ODD_NUMBERS + WORDS),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(max_size=12),
)
commands = st.builds(
    lambda verb, args: " ".join([verb, *args]),
    st.sampled_from([*VERBS, "hit", "undo", "at", "ATTACK", "Concede"]),
    st.lists(tokens, max_size=5),
)
small = st.integers(min_value=0, max_value=8).map(str)
head = st.integers(min_value=1, max_value=6).map(str)  # some heads are gone or never were: the game refuses
heads = st.one_of(st.just("all"), st.lists(head, min_size=1, max_size=3, unique=True).map(" ".join))
seat = st.integers(min_value=1, max_value=3).map(str)


def spaced(*parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(*parts).map(" ".join)


# Well-formed lines of every verb: they pass the parser, so the game itself judges (and refuses) them.
plain = st.one_of(
    spaced(st.just("attack"), head, small),
    spaced(st.just("attack"), head, small, head, small),
    spaced(st.sampled_from(["damage", "loselife"]), head, small),
    spaced(st.sampled_from(["sweep", "weaken"]), small, heads),
    spaced(st.just("counters"), st.integers(min_value=-3, max_value=3).map(str), heads),
    spaced(st.sampled_from(["destroy", "exile", "bounce", "tap", "sacrifice", "freeze"]), heads),
    spaced(st.just("copy"), head),
    spaced(st.sampled_from(["mill", "hit"]), small),
    spaced(st.just("exilecards library"), small),
    st.just("exilecards graveyard all"),
    spaced(st.just("prevent"), small, st.sampled_from(["", "1", "all", "all from heads", "from heads"])),
    spaced(st.just("life"), seat, st.integers(min_value=-5, max_value=5).map(str)),
    spaced(
        st.just("choose"), st.sampled_from(["pass", "counter", "none", "1", "2", "1 2", "yes", "no", "top"])
    ),
    spaced(st.just("at"), st.sampled_from(["counter", "prevent", "upkeep", "trigger", "blocks"])),
    spaced(st.just("concede"), st.sampled_from(["", "1", "2"])),
    st.sampled_from(["end", "end", "end", "undo", "extraturn"]),
)
lines = st.one_of(
    plain,
    plain,
    plain,
    plain,
    commands,
    st.text(max_size=40),
    st.just(""),
    st.builds(lambda c, x: f"{c} # {x}", commands, st.text(max_size=10)),
)
ENCODINGS = ["utf-8", "utf-8", "bom", "crlf", "utf-16", "binary", "huge line"]


@st.composite
def scripts(draw) -> bytes:
    clean = draw(st.booleans())  # half the scripts parse, so the game itself judges (and refuses) lines
    text = "\n".join(draw(st.lists(plain if clean else lines, max_size=25)))
    kind = draw(st.sampled_from(ENCODINGS))
    if kind == "utf-16":
        return text.encode("utf-16", "surrogatepass")
    data = text.replace("\n", "\r\n") if kind == "crlf" else text
    raw = ("\ufeff" if kind == "bom" else "").encode() + data.encode("utf-8", "surrogatepass")
    if kind in ("binary", "huge line"):
        cut = draw(st.integers(min_value=0, max_value=len(raw)))
        splice = draw(st.binary(min_size=1, max_size=40)) if kind == "binary" else b"attack 1 1 " * 20_000
        raw = raw[:cut] + splice + raw[cut:]
    return raw


def report(capsys, what: str, outcomes: Counter[str], unit: str = "scripts") -> None:
    with capsys.disabled():
        print(f"\n{what}: {sum(outcomes.values())} {unit}, {dict(sorted(outcomes.items()))}, 0 uncaught")


def line_prefixes(language: str, count: int) -> list[str]:
    """Every "Script line N: " a script of ``count`` lines may be refused with."""
    return [t("hydra.error.script_line", language, number=n, message="") for n in range(1, count + 1)]


def check_cli(args: list[str], path: Path, raw: bytes, language: str, capsys) -> str:
    path.write_bytes(raw)
    code = main([*args, "--seed", "7", "--language", language, "--script", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if code == 1:  # a refused line: named, nothing printed as if the game had been played
        assert out == ""
        assert err.count("\n") == 1 and err.startswith(tuple(line_prefixes(language, len(raw.splitlines()))))
        return "refused"
    if code == 2:
        assert len(raw) > MAX_SCRIPT_BYTES and out == "" and str(MAX_SCRIPT_BYTES) in err
        return "too big"
    assert code == 0 and out
    return "played"


BIG = b"end\n" * (MAX_SCRIPT_BYTES // 4 + 1)


@pytest.mark.parametrize(
    "cli",
    [["hydra", "play", "--heads", "3", "--players", "2"], ["challenge", "play"]],
    ids=["hydra", "challenge"],
)
def test_scripts_through_the_cli_are_played_or_refused_clearly(
    cli, tmp_path, monkeypatch, capsys, full_run
) -> None:
    monkeypatch.chdir(tmp_path)  # no ./config.toml
    outcomes: Counter[str] = Counter()
    wanted = 1_000 if full_run else 30

    @settings(
        max_examples=wanted,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )
    @given(scripts(), st.sampled_from(LANGUAGES), st.sampled_from(["hydra", "horde", "god"]))
    @example(b"\xff\xfe\x00\xd8garbage\n", "en", "hydra")
    @example("attack 1 ²\nattack 1 ".encode() + b"9" * 5000, "ja", "god")
    @example("end\n\ud800\n".encode("utf-8", "surrogatepass"), "zh-Hans", "horde")
    @example(b"tap 1 " * 100_000, "zh-Hant", "hydra")
    @example(BIG, "en", "horde")
    def check(raw: bytes, language: str, deck: str) -> None:
        args = cli if cli[0] == "hydra" else [*cli, "--deck", deck]
        outcomes[check_cli(args, tmp_path / "script.txt", raw, language, capsys)] += 1

    check()
    report(capsys, f"podkeeper {cli[0]} play --script", outcomes)
    assert sum(outcomes.values()) >= wanted


def new_game(deck: str):
    if deck == "hydra":
        return HydraGame.new(3, 2, seed=11)
    return DECKS[deck]([Seat("Player 1", ())], 11, 3 if deck == "horde" else 2)


def test_a_refused_script_line_changes_nothing(tmp_path, capsys, full_run) -> None:
    """The game a refused script leaves equals the replay of the lines played before the refused one; a line
    refused before play (not text, too long, not a command) leaves the game untouched."""
    outcomes: Counter[str] = Counter()
    wanted = 500 if full_run else 30

    @settings(
        max_examples=wanted,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )
    @given(scripts(), st.sampled_from(["hydra", "horde", "god"]))
    def check(raw: bytes, deck: str) -> None:
        path = tmp_path / "script.txt"
        path.write_bytes(raw)
        if len(raw) > MAX_SCRIPT_BYTES:
            return
        game, status = run_script(new_game(deck), read_script(path), "en")
        err = capsys.readouterr().err
        if status == 0:
            outcomes["played"] += 1
            return
        number = int(re.match(r"Script line (\d+): ", err).group(1))  # type: ignore[union-attr]
        if not game.actions:
            outcomes["refused before play"] += 1
        else:
            outcomes["refused in play"] += 1
        again = game.rebuild(list(game.actions))
        assert again.snapshot() == game.snapshot(), number
        assert again.events == game.events and again.pending == game.pending, number

    check()
    report(capsys, "refused scripts change nothing", outcomes)
    assert sum(outcomes.values()) >= wanted * 0.9


def state_of(game) -> tuple[object, ...]:
    return game.snapshot(), list(game.events), game.pending, list(game.actions), game.over


def test_every_line_the_game_refuses_leaves_it_as_it_was(capsys, full_run) -> None:
    """Line by line on a live game (parsed or not, in the players' turn or in a window): each refusal leaves
    the board, the log, the pending question and the action list exactly as they were."""
    outcomes: Counter[str] = Counter()
    wanted = 1_000 if full_run else 40

    @settings(
        max_examples=wanted,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(
        st.lists(st.one_of(plain, plain, commands), min_size=1, max_size=30),
        st.sampled_from(["hydra", "horde", "god"]),
        st.booleans(),
    )
    def check(script: list[str], deck: str, in_windows: bool) -> None:
        game = new_game(deck)
        for line in script:
            if game.over:
                break
            if not in_windows and game.pending is not None and game.pending.topic != "blocks":
                game.play_until_players()
                continue
            before = state_of(game)
            try:
                game.apply(line)
            except ChallengeError:
                assert state_of(game) == before, line
                outcomes["refused"] += 1
            else:
                outcomes["applied"] += 1

    check()
    report(capsys, f"lines of {wanted} scripts applied one by one", outcomes, "lines")
    assert outcomes["refused"] > 0


def test_a_binary_line_is_named_in_every_language(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "script.txt"
    path.write_bytes(b"end\n# fine\nattack 1 \xe3\x81\n")
    for language in LANGUAGES:
        assert (
            main(["challenge", "play", "--deck", "god", "--language", language, "--script", str(path)]) == 1
        )
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(t("hydra.error.script_line", language, number=3, message=""))
        assert "0xe3" in err
    assert main(["hydra", "play", "--heads", "2", "--script", str(path)]) == 1
    assert capsys.readouterr().err == (
        "Script line 3: this line is not UTF-8 text (byte 0xe3 at column 10); save the script as UTF-8.\n"
    )


def test_a_typo_late_in_a_script_is_refused_before_anything_is_played(tmp_path, capsys) -> None:
    path = tmp_path / "script.txt"
    path.write_text("end\n" * 50 + "atack 1 2\n", encoding="utf-8")
    game, status = run_script(HydraGame.new(3, 1, seed=2), read_script(path))
    assert status == 1 and game.actions == [] and game.turn == 1
    assert capsys.readouterr().err.startswith("Script line 51: Unknown command “atack”")


def test_numbers_past_the_bound_are_out_of_range_and_shown_short(tmp_path, capsys) -> None:
    path = tmp_path / "script.txt"
    path.write_text("damage 1 " + "9" * 450 + "\n", encoding="utf-8")
    game, status = run_script(HydraGame.new(3, 1, seed=2), read_script(path))
    err = capsys.readouterr().err
    assert status == 1 and "out of range: numbers go from -1000000 to 1000000" in err and len(err) < 400
    path.write_text("damage 1 １２\n", encoding="utf-8")  # full-width digits from a CJK keyboard are numbers
    game, status = run_script(HydraGame.new(3, 1, seed=2), read_script(path))
    assert status == 0 and game.actions[0] == "damage 1 12"
    path.write_text("damage 1 1_0\n", encoding="utf-8")
    assert run_script(HydraGame.new(3, 1, seed=2), read_script(path))[1] == 1
    assert "is not a whole number" in capsys.readouterr().err
