"""The installed bot is whole: its bundled files travel in the wheel and are found from any folder, it has one
version, and with no database configured it keeps its data in the user's data folder, not under whatever
folder it was started in. A checkout keeps working as its set-up commands say (``data/`` under the folder)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

import bot
from bot import paths
from bot.cards import index_file
from bot.cli import main, note_default_database
from bot.config import load_config
from tests.packaging.wheels import build_wheel, install_wheel, installed_environment, source_copy

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_written_once() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert metadata.version("podkeeper") == bot.__version__


def test_a_checkout_finds_its_assets_and_keeps_data_under_the_folder_it_runs_in() -> None:
    assert paths.IN_CHECKOUT
    assert (
        paths.BUNDLED_CARDS == ROOT / "assets" / "cards" / "cards.jsonl.gz" and paths.BUNDLED_CARDS.is_file()
    )
    assert paths.FONT_REGULAR.is_file() and paths.FONT_BOLD.is_file()
    assert paths.default_database_path() == Path("data/podkeeper.sqlite3")
    assert load_config(environ={}).database_is_default


def test_an_installed_bot_keeps_its_data_in_the_users_data_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert (
        paths.default_database_path(in_checkout=False) == tmp_path / "xdg" / "podkeeper" / "podkeeper.sqlite3"
    )
    note = paths.default_database_note(tmp_path / "xdg" / "podkeeper" / "podkeeper.sqlite3")
    assert str(tmp_path / "xdg" / "podkeeper" / "podkeeper.sqlite3") in note and "[database] path" in note


def test_a_configured_database_is_not_the_default(tmp_path) -> None:
    assert not load_config(
        environ={"PODKEEPER_DATABASE_PATH": str(tmp_path / "x.sqlite3")}
    ).database_is_default
    assert not load_config(environ={"PODKEEPER_DATABASE_URL": "sqlite:///x.sqlite3"}).database_is_default


def test_an_installed_cli_says_where_it_creates_the_database(tmp_path, monkeypatch, caplog) -> None:
    """As installed (no checkout around the package), a command that is about to create the default database
    names it; the same command on the existing file says nothing more."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    installed = paths.default_database_path(in_checkout=False)
    monkeypatch.setattr("bot.cli.IN_CHECKOUT", False)
    monkeypatch.setattr("bot.config.default_database_path", lambda: installed)
    monkeypatch.setenv("PODKEEPER_DATABASE_PATH", str(installed))  # what the default would be when installed
    monkeypatch.setenv("PODKEEPER_CARDS_PATH", str(ROOT / "bot" / "testing" / "data" / "harness_cards.jsonl"))
    caplog.set_level("INFO", logger="bot.cli")
    assert main(["cards", "lookup", "Sol Ring"]) == 0
    assert [r.getMessage() for r in caplog.records if r.name == "bot.cli"] == [
        paths.default_database_note(installed)
    ]
    assert installed.is_file() and not (tmp_path / "data").exists()
    caplog.clear()
    assert main(["cards", "lookup", "Sol Ring"]) == 0
    assert [r for r in caplog.records if r.name == "bot.cli"] == []


@pytest.mark.slow
def test_the_wheel_carries_the_assets_and_runs_from_any_folder(tmp_path) -> None:
    """Built without network (the test extra has setuptools), unpacked into a folder of its own and run from
    another one: the card data, its ready-built index and the fonts come from inside the package, the
    database from the user's data folder. (.ci/run also installs the wheel with its dependencies into a fresh
    virtualenv and checks that its first start reads that index.)"""
    wheel = build_wheel(source_copy(tmp_path / "src"), tmp_path / "dist")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "bot/assets/cards/cards.jsonl.gz",
        # the index of the data as it is now, in the current format: a change of either is rebuilt
        f"bot/assets/cards/prebuilt/{index_file.file_name(paths.BUNDLED_CARDS)}",
        "bot/assets/fonts/NotoSansCJK-Regular.ttc",
        "bot/assets/fonts/NotoSansCJK-Bold.ttc",
        "bot/storage/migrations/0001_core.sql",
    } <= names
    packaged = ROOT / "bot"
    data_files = {f"bot/{p.relative_to(packaged)}" for p in packaged.glob("**/data/*") if p.is_file()}
    # the package's own data folders (the challenge decks, the stand-in's contract) travel too
    assert data_files and data_files <= names
    assert [name for name in names if "/prebuilt/" in name] == [
        f"bot/assets/cards/prebuilt/{index_file.file_name(paths.BUNDLED_CARDS)}"
    ]
    assert not any(name.startswith(("assets/", "tests/")) for name in names)
    site = install_wheel(wheel, tmp_path / "site")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import json, bot.paths as p; from bot.cards import first_start as f; "
        "print(json.dumps([str(p.BUNDLED_CARDS), p.FONT_BOLD.is_file(), p.IN_CHECKOUT, "
        "str(p.default_database_path()), f.cached_import(p.BUNDLED_CARDS) is not None]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=elsewhere,
        env=installed_environment(
            site, XDG_DATA_HOME=str(tmp_path / "xdg"), PODKEEPER_CACHE_DIR=str(tmp_path / "c")
        ),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    cards, fonts, in_checkout, database, indexed = json.loads(out)
    assert cards == str(tmp_path / "site" / "bot" / "assets" / "cards" / "cards.jsonl.gz")
    assert fonts is True and in_checkout is False and indexed is True
    assert database == str(tmp_path / "xdg" / "podkeeper" / "podkeeper.sqlite3")


def test_an_installed_bot_names_its_default_database_at_every_start(tmp_path, monkeypatch, caplog) -> None:
    """``podkeeper run`` (``serve``) says where the data is each time it starts, not only the first time."""
    installed = tmp_path / "xdg" / "podkeeper" / "podkeeper.sqlite3"
    installed.parent.mkdir(parents=True)
    installed.touch()
    monkeypatch.setattr("bot.cli.IN_CHECKOUT", False)
    monkeypatch.setattr("bot.config.default_database_path", lambda: installed)
    config = load_config(environ={"PODKEEPER_DATABASE_PATH": str(installed)})
    caplog.set_level("INFO", logger="bot.cli")
    note_default_database(config)
    assert caplog.records == []  # an existing file, a command other than run: nothing to say
    note_default_database(config, always=True)
    assert [r.getMessage() for r in caplog.records] == [paths.default_database_note(installed)]
    caplog.clear()
    monkeypatch.setattr("bot.cli.IN_CHECKOUT", True)
    note_default_database(config, always=True)
    assert caplog.records == []  # a checkout keeps data/ where its set-up commands say


def test_the_changelog_has_the_current_version_and_its_migrations() -> None:
    """Each release has a CHANGELOG entry naming its version (the tag is v<version>) and its migrations, which
    tell an operator whether rolling back is safe."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    entries = text.split("\n## [")[1:]
    assert entries[0].startswith("Unreleased]") and any(
        e.startswith(f"{bot.__version__}] - ") for e in entries
    )
    assert all("\n### Migrations\n" in entry for entry in entries)
    newest = max((ROOT / "bot" / "storage" / "migrations").glob("*.sql")).stem
    assert newest in text, f"the migration {newest} is in no CHANGELOG entry (add it under [Unreleased])"
