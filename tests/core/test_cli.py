"""The `podkeeper` command line: help for every subcommand, db maintenance, no-token start-up."""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import build_parser, main


def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_help_lists_every_subcommand_and_each_has_its_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    names = subcommands(parser)
    assert {"run", "db"} <= set(names)
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    top_help = capsys.readouterr().out
    for name in names:
        assert name in top_help
        with pytest.raises(SystemExit) as sub_exit:
            main([name, "--help"])
        assert sub_exit.value.code == 0
        assert f"podkeeper {name}" in capsys.readouterr().out


def test_no_command_prints_help_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: podkeeper" in capsys.readouterr().out


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[database]\npath = "{tmp_path / "db.sqlite3"}"\n')
    return path


def test_db_migrate_then_backup(
    config_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["--config", str(config_file), "db", "migrate"]) == 0
    assert "schema version" in capsys.readouterr().out
    target = tmp_path / "backup.sqlite3"
    assert main(["--config", str(config_file), "db", "backup", str(target)]) == 0
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] >= 1
    assert main(["--config", str(config_file), "db", "backup", str(target)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_db_refuses_a_foreign_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    foreign = tmp_path / "db.sqlite3"
    foreign.write_text("not a database")
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{foreign}"\n')
    assert main(["--config", str(config), "db", "migrate"]) == 2
    assert "not an SQLite database" in capsys.readouterr().err
    assert foreign.read_text() == "not a database"


def test_config_error_is_reported_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[discord]\ntokn = 'x'\n")
    assert main(["--config", str(config), "db", "migrate"]) == 2
    err = capsys.readouterr().err
    assert "unknown key [discord] tokn" in err and "Traceback" not in err


def test_run_without_token_says_what_to_configure(
    config_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("PODKEEPER_DISCORD_TOKEN", raising=False)
    assert main(["--config", str(config_file), "run", "--no-sandbox"]) == 1
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "config.toml" in err and "applications.commands" in err


@pytest.mark.slow  # a subprocess
def test_console_script_is_installed() -> None:
    script = shutil.which("podkeeper", path=str(Path(sys.executable).parent))
    assert script, "pip install -e . should install the podkeeper console script"
    result = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith("podkeeper ")
