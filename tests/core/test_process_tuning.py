"""What ``podkeeper run`` sets up for its own process: garbage collection paused while it starts
(bot.gcpause) and glibc's malloc told to give large buffers back (bot.allocator)."""

from __future__ import annotations

import gc
import platform
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.allocator import release_freed_memory, tune_allocator
from bot.cli import main
from bot.client import freeze_startup_objects
from bot.gcpause import pause_collection, resume_collection


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    resume_collection()
    gc.unfreeze()
    if was:
        gc.enable()


def test_a_pause_stops_collection_until_resumed() -> None:
    gc.enable()
    pause_collection()
    assert not gc.isenabled()
    pause_collection()  # already paused: still one pause
    resume_collection()
    assert gc.isenabled()


def test_resume_leaves_a_collector_someone_else_turned_off_alone() -> None:
    gc.disable()
    pause_collection()
    resume_collection()
    assert not gc.isenabled(), "only a pause of ours is undone"


def test_the_bot_resumes_collection_once_it_froze_its_start_up_objects() -> None:
    gc.enable()
    pause_collection()
    freeze_startup_objects()
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0


def test_other_commands_run_with_the_collector_on(capsys: pytest.CaptureFixture[str]) -> None:
    gc.enable()
    with pytest.raises(SystemExit):
        main(["--version"])
    assert gc.isenabled()
    with pytest.raises(SystemExit):
        main(["no-such-command"])
    assert gc.isenabled()
    assert "podkeeper" in capsys.readouterr().out


def test_run_without_a_token_starts_the_sandbox_with_the_collector_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import bot.sandbox.cli

    monkeypatch.chdir(tmp_path)  # no config.toml here
    for name in ("PODKEEPER_DISCORD_TOKEN", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    seen: list[bool] = []
    monkeypatch.setattr(
        bot.sandbox.cli, "start_sandbox_from_run", lambda args: seen.append(gc.isenabled()) or 0
    )
    gc.enable()
    assert main(["run"]) == 0
    assert seen == [True], "the sandbox runs as any other command: collecting"
    assert gc.isenabled()


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's mallopt"
)
def test_glibc_takes_the_allocator_settings() -> None:
    assert tune_allocator()
    release_freed_memory()  # hands freed pages back; must not fail
