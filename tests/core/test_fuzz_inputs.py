"""Bad input gets a clear error, never a traceback, fuzzed with Hypothesis:
Hydra event ``start:`` values, configuration values and files, and ``tournament score`` files
(150 inputs each by default, 1,200 with ``--full``).

Each test counts what every generated input led to and prints the counts (shown even without ``-s``);
the only outcomes allowed are a valid result or the parser's own error type with a message.
"""

from __future__ import annotations

import json
import string
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.cli.tournament import UnreadableGames, load_games, standings_rows
from bot.config import SETTINGS, ConfigError, load_config
from bot.domain.hydra_events import LATEST_START, EventError, parse_start
from bot.domain.tournament import TournamentError
from bot.domain.tournament.scoring import scoring_rule

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FUZZ = settings(
    deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
FULL_EXAMPLES, QUICK_EXAMPLES = 1_200, 150  # `--full` (CI's randomized run) / the default run


def examples(full_run: bool) -> settings:
    return settings(FUZZ, max_examples=FULL_EXAMPLES if full_run else QUICK_EXAMPLES)


def least_inputs(full_run: bool) -> int:
    """How many inputs a run must have checked: 1,000 at the full count, most of the quick count."""
    return 1_000 if full_run else QUICK_EXAMPLES - 20


ODD_DIGITS = "0123456789²³①٣９"  # superscripts, circled and non-ASCII decimal digits
numbers = st.one_of(
    st.integers(min_value=0, max_value=10**30).map(str),
    st.text(ODD_DIGITS, min_size=1, max_size=40),
    st.integers(min_value=1, max_value=5000).map(lambda n: "9" * n),
)


def report(capsys, what: str, outcomes: Counter[str]) -> None:
    with capsys.disabled():
        print(f"\n{what}: {sum(outcomes.values())} inputs, {dict(sorted(outcomes.items()))}, 0 uncaught")


# -- Hydra event start times ----------------------------------------------------------------------------

start_texts = st.one_of(
    st.text(max_size=60),
    numbers,
    numbers.map(lambda n: f"<t:{n}:F>"),
    numbers.map(lambda n: f"<t:{n}>"),
    st.tuples(numbers, numbers).map(lambda hm: f"in {hm[0]}h{hm[1]}m"),
    numbers.map(lambda n: f"in {n}h"),
    numbers.map(lambda n: f"{n}m"),
    st.datetimes(timezones=st.sampled_from([UTC, None])).map(lambda d: d.isoformat(sep=" ")),
    st.text(string.digits + "-:T +Z.", max_size=30),
)


def test_event_start_values_give_a_time_or_a_clear_error(capsys, full_run: bool) -> None:
    outcomes: Counter[str] = Counter()

    @examples(full_run)
    @given(start_texts)
    @example("99999999999999999999")
    @example("<t:99999999999999:F>")
    @example("in 99999999999h")
    @example("in 2000000000m")
    @example("²")
    @example("①")
    @example("\ud800")
    @example("now")
    def check(text: str) -> None:
        try:
            start = parse_start(text, NOW)
        except EventError as error:
            assert error.key.startswith("hydra_events.error.")
            outcomes[error.key.rsplit(".", 1)[1]] += 1
            return
        assert NOW - timedelta(minutes=1) <= start <= NOW + LATEST_START and start.tzinfo == UTC
        outcomes["accepted"] += 1

    check()
    report(capsys, "hydra event start", outcomes)
    assert sum(outcomes.values()) >= least_inputs(full_run)


# -- configuration ----------------------------------------------------------------------------------------


def _toml_value(value: object) -> str:
    """A TOML literal for ``value`` (floats as TOML spells inf and nan)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {float("inf"): "inf", float("-inf"): "-inf"}.get(
            value, "nan" if value != value else repr(value)
        )
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


setting_names = st.sampled_from([(s.section, s.key) for s in SETTINGS])
toml_values = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(),
    st.booleans(),
    st.sampled_from(["inf", "1e30", "-5", "1.9", "0x10", "", "commander", "ja"]),
    st.text(max_size=30).filter(lambda s: not any(0xD800 <= ord(c) <= 0xDFFF for c in s)),
    st.lists(st.integers(), max_size=3),
    st.sampled_from(["0x10", "0o17", "0b101", "1_000", "inf", "nan", "1e30", "-5", "1.9"]).map(
        lambda raw: ("raw", raw)
    ),
)
env_values = st.one_of(
    numbers,
    st.sampled_from(["inf", "1e30", "-5", "1.9", "0x10", " 12 ", "+7"]),
    st.text(max_size=30).filter(lambda s: "\x00" not in s),
)
config_inputs = st.one_of(
    st.tuples(st.just("toml"), setting_names, toml_values),
    st.tuples(st.just("env"), setting_names, env_values),
    st.tuples(st.just("bytes"), st.just(("", "")), st.binary(max_size=200)),
    st.tuples(st.just("text"), st.just(("", "")), st.text(max_size=200)),
)


def test_config_values_and_files_load_or_say_what_is_wrong(tmp_path: Path, capsys, full_run: bool) -> None:
    outcomes: Counter[str] = Counter()
    path = tmp_path / "config.toml"

    @examples(full_run)
    @given(config_inputs)
    @example(("toml", ("discord", "dev_guild_id"), ("raw", "inf")))
    @example(("toml", ("discord", "dev_guild_id"), 1e30))
    @example(("toml", ("discord", "dev_guild_id"), 1.9))
    @example(("env", ("discord", "dev_guild_id"), "-5"))
    @example(("bytes", ("", ""), b"\xff\xfe[discord]\n"))
    @example(("text", ("", ""), "a = " + "[" * 5000))
    def check(case: tuple) -> None:
        kind, (section, key), value = case
        environ = {"PODKEEPER_CONFIG": str(path)}
        if kind == "toml":
            literal = value[1] if isinstance(value, tuple) else _toml_value(value)
            path.write_text(f"[{section}]\n{key} = {literal}\n", encoding="utf-8")
        elif kind == "env":
            path.write_text("", encoding="utf-8")
            environ[f"PODKEEPER_{section}_{key}".upper()] = value
        elif kind == "bytes":
            path.write_bytes(value)
        else:
            path.write_text(value, encoding="utf-8", errors="surrogatepass")
        try:
            config = load_config(environ=environ)
        except ConfigError as error:
            assert str(error) and "Traceback" not in str(error)
            outcomes[f"{kind} refused"] += 1
            return
        for setting in SETTINGS:  # whatever was accepted has the declared type and bounds
            got = config.get(setting.section, setting.key)
            assert isinstance(got, setting.type) and (setting.type is bool or not isinstance(got, bool))
            if setting.type is int:
                assert max(0, setting.minimum or 0) <= got < 2**63
        outcomes[f"{kind} accepted"] += 1

    check()
    report(capsys, "config", outcomes)
    assert sum(outcomes.values()) >= least_inputs(full_run)


# -- tournament score files -------------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**20), max_value=10**20),
        st.floats(allow_nan=False),
        st.text(max_size=8),
        st.sampled_from(["alice", "bob", "carol", "dave"]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(
            st.sampled_from(["players", "survivors", "votes", "draw", "x", "alice", "bob"]),
            children,
            max_size=5,
        ),
    ),
    max_leaves=25,
)
names = st.lists(
    st.sampled_from(["alice", "bob", "carol", "dave", "erin"]), min_size=1, max_size=5, unique=True
)
games = st.fixed_dictionaries(
    {"players": st.one_of(names, json_values)},
    optional={
        "survivors": st.one_of(names, json_values),
        "votes": st.one_of(
            st.dictionaries(
                st.sampled_from(["alice", "bob", "carol"]), st.sampled_from(["alice", "bob", "dave"])
            ),
            json_values,
        ),
        "draw": st.one_of(st.booleans(), json_values),
    },
)
score_files = st.one_of(
    st.lists(games, max_size=4).map(lambda data: json.dumps(data).encode()),
    json_values.map(lambda data: json.dumps(data).encode()),
    st.binary(max_size=200),
    st.integers(min_value=1, max_value=100_000).map(lambda depth: ("[" * depth + "]" * depth).encode()),
    st.integers(min_value=4_000, max_value=9_000).map(
        lambda digits: f'[{{"players": {"7" * digits}}}]'.encode()
    ),
)


def test_tournament_score_files_score_or_say_what_is_wrong(tmp_path: Path, capsys, full_run: bool) -> None:
    outcomes: Counter[str] = Counter()
    path = tmp_path / "games.json"
    rule = scoring_rule("democratic")

    @examples(full_run)
    @given(score_files)
    @example(b'[{"players": 5}]')
    @example(b'[{"players": 5}, {"players": ["a", "b"]}]')
    @example(b"\x00\x01\xff binary")
    @example(b'[{"players": ' + b"[" * 200_000 + b"]" * 200_000 + b"}]")
    @example(b'[{"players": ["a", "b"], "survivors": ["a"], "votes": {"a": "b", "b": "a"}}]')
    def check(content: bytes) -> None:
        path.write_bytes(content)
        try:
            loaded = load_games(path)
            standings_rows(loaded, rule)
        except UnreadableGames as error:
            assert str(error)
            outcomes["unreadable"] += 1
            return
        except TournamentError as error:
            assert error.key
            outcomes["invalid"] += 1
            return
        outcomes["scored"] += 1

    check()
    report(capsys, "tournament score files", outcomes)
    assert sum(outcomes.values()) >= least_inputs(full_run)
