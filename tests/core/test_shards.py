"""Shard ids and counts: ``--shard-ids 0-3,6 --shard-count 8``, the config keys, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from bot.config import ConfigError, load_config
from bot.shards import ShardSpecError, format_shard_ids, parse_shard_ids, shard_of, validate_shards


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("0-3", (0, 1, 2, 3)),
        ("0-3,6", (0, 1, 2, 3, 6)),
        (" 6 , 0 - 1 ", (0, 1, 6)),
        ("2,2,1-2", (1, 2)),
        ("", ()),
        ("  ", ()),
        ("5", (5,)),
    ],
)
def test_shard_ids_are_ids_and_inclusive_ranges(text: str, ids: tuple[int, ...]) -> None:
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("0-", "not a number or a range"),
        ("a", "not a number"),
        ("1,,2", "not a number"),
        ("-1", "not a number"),
        ("3-1", "runs backwards"),
        ("0-70000", "above the limit"),
        ("1.5", "not a number"),
    ],
)
def test_malformed_shard_ids_are_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(ShardSpecError, match=says):
        parse_shard_ids(text)


@given(st.sets(st.integers(min_value=0, max_value=300), max_size=40))
def test_formatted_ids_read_back_the_same(ids: set[int]) -> None:
    spelled = format_shard_ids(list(ids))
    assert parse_shard_ids(spelled) == tuple(sorted(ids))
    assert len(spelled.split(",")) <= max(1, len(ids))


@given(st.text(alphabet="0123456789-, x", max_size=20))
def test_any_typed_text_parses_or_is_refused_cleanly(text: str) -> None:
    try:
        ids = parse_shard_ids(text)
    except ShardSpecError:
        return
    assert list(ids) == sorted(set(ids)) and all(i >= 0 for i in ids)


def test_ids_must_lie_within_the_count_and_need_one() -> None:
    validate_shards(8, (0, 1, 2, 3))
    validate_shards(0, ())
    with pytest.raises(ShardSpecError, match="8-9 are outside 0-7"):
        validate_shards(8, (0, 8, 9))
    with pytest.raises(ShardSpecError, match="need a shard count"):
        validate_shards(0, (0, 1))
    with pytest.raises(ShardSpecError, match="between 0"):
        validate_shards(-1, ())


def test_discord_formula_for_a_guilds_shard() -> None:
    assert shard_of(41771983423143937, 4) == (41771983423143937 >> 22) % 4
    assert {shard_of(i << 22, 3) for i in range(6)} == {0, 1, 2}


def test_config_keys_from_file_and_environment(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[discord]\nshard_count = 8\nshard_ids = "0-3,6"\n')
    config = load_config(path, environ={})
    assert (config.shard_count, config.shard_ids) == (8, (0, 1, 2, 3, 6))
    config = load_config(path, environ={"PODKEEPER_DISCORD_SHARD_IDS": "7"})
    assert config.shard_ids == (7,)
    unsharded = load_config(
        tmp_path / "config.toml",
        environ={"PODKEEPER_DISCORD_SHARD_COUNT": "0", "PODKEEPER_DISCORD_SHARD_IDS": ""},
    )
    assert (unsharded.shard_count, unsharded.shard_ids) == (0, ())


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        ('shard_count = 4\nshard_ids = "2-5"', "4-5 are outside 0-3"),
        ('shard_ids = "0-1"', "need a shard count"),
        ('shard_count = 4\nshard_ids = "zero"', "not a number"),
        ("shard_count = -2", "out of range"),
        ("shard_ids = [0, 1]", "expected text"),
    ],
)
def test_bad_shard_config_is_a_config_error_naming_the_keys(tmp_path: Path, toml: str, says: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[discord]\n{toml}\n")
    with pytest.raises(ConfigError, match=says):
        load_config(path, environ={})


def test_run_refuses_bad_shard_options_before_connecting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    assert main(["run", "--shard-count", "4", "--shard-ids", "0-4"]) == 2
    assert "--shard-count / --shard-ids: shard ids 4 are outside 0-3" in capsys.readouterr().err
    assert main(["run", "--shard-ids", "0-1"]) == 2
    assert "need a shard count" in capsys.readouterr().err
    assert not (tmp_path / "data").exists(), "nothing was opened or created"


def test_a_shard_count_makes_a_sharded_bot_and_none_keeps_the_plain_one(tmp_path: Path) -> None:
    import discord

    from bot.client import PodkeeperBot, make_bot
    from bot.testing.harness import default_config

    plain = make_bot(default_config(tmp_path))
    assert type(plain) is PodkeeperBot and not isinstance(plain, discord.AutoShardedClient)
    some = make_bot(default_config(tmp_path, discord__shard_count=8, discord__shard_ids="0-3,6"))
    assert isinstance(some, PodkeeperBot) and isinstance(some, discord.AutoShardedClient)
    assert (some.shard_count, some.shard_ids) == (8, [0, 1, 2, 3, 6])
    every = make_bot(default_config(tmp_path, discord__shard_count=3))
    assert every.shard_ids == [0, 1, 2]
    for bot in (plain, some, every):
        bot.workers.close()
