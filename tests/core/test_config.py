"""Configuration: defaults < config.toml < environment, with errors that name the key and file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import SETTINGS, ConfigError, example_toml, load_config


def test_defaults_without_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = load_config(environ={})
    assert config.token == ""
    assert config.database_path == Path("data/podkeeper.sqlite3")
    assert (config.default_ruleset, config.default_locale, config.log_level) == ("commander", "en", "INFO")


def test_file_overrides_defaults_and_environment_overrides_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[database]\npath = "from-file.sqlite3"\n[defaults]\nruleset = "edh-2010"\n')
    config = load_config(path, environ={"PODKEEPER_DEFAULTS_RULESET": "duel-zh", "DISCORD_TOKEN": "abc"})
    assert config.database_path == Path("from-file.sqlite3")
    assert config.default_ruleset == "duel-zh"
    assert config.token == "abc"


def test_prefixed_token_wins_over_discord_token(tmp_path: Path) -> None:
    config = load_config(
        environ={
            "PODKEEPER_DISCORD_TOKEN": "a",
            "DISCORD_TOKEN": "b",
            "PODKEEPER_CONFIG": str(_empty(tmp_path)),
        }
    )
    assert config.token == "a"


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.toml"
    path.write_text("")
    return path


def test_unknown_key_names_key_and_file(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[database]\nfile = "x"\n')
    with pytest.raises(ConfigError, match=r"config.toml: unknown key \[database\] file"):
        load_config(path, environ={})


def test_wrong_type_names_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[discord]\ndev_guild_id = "soon"\n')
    with pytest.raises(
        ConfigError, match=r"\[discord\] dev_guild_id in .*config.toml: expected a whole number"
    ):
        load_config(path, environ={})


def test_bad_choice_in_environment_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not one of commander, edh-2010, duel-zh"):
        load_config(_empty(tmp_path), environ={"PODKEEPER_DEFAULTS_RULESET": "vintage"})


def test_syntax_error_gives_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[discord]\ndev_guild_id = 1\ntoken = "unterminated\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    assert "line 3" in str(caught.value) and "token" in str(caught.value)


def test_explicit_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_config(tmp_path / "nope.toml", environ={})


def test_example_file_is_current_and_loads(tmp_path: Path) -> None:
    committed = (Path(__file__).parents[2] / "config.example.toml").read_text()
    assert committed == example_toml(), "regenerate config.example.toml from bot.config.example_toml()"
    path = tmp_path / "config.toml"
    path.write_text(committed)
    config = load_config(path, environ={})
    for setting in SETTINGS:
        assert config.get(setting.section, setting.key) == setting.default
