"""``podkeeper sandbox --script`` run in this process (``run_sandbox``): what a run leaves behind."""

from __future__ import annotations

import asyncio
import gc
import logging
import tempfile
from pathlib import Path

import pytest

from bot.sandbox.cli import run_sandbox
from bot.sandbox.terminal import Terminal
from bot.testing.harness import HARNESS_CARDS, default_config

SCRIPT = """\
/pod start players:@alice @bob
:click Commander
/ping
"""


def test_a_script_run_removes_its_temporary_folder_and_ends_every_task(
    tmp_path: Path, monkeypatch, caplog, capsys
) -> None:
    """Every run left its temporary folder (31 of them, 24 MB, after an evening), and a transcript
    ended in "Task was destroyed but it is pending!" when a panel's timeout was still running."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    script = tmp_path / "script.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    terminals: list[Terminal] = []
    started = Terminal.__init__

    def kept(self, *args, **kwargs) -> None:
        started(self, *args, **kwargs)
        terminals.append(self)

    monkeypatch.setattr(Terminal, "__init__", kept)
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        status = run_sandbox(default_config(tmp_path, cards_path=HARNESS_CARDS), script=script, tour=False)
        gc.collect()  # a task left pending is reported when it is collected
    out = capsys.readouterr().out
    assert status == 0, out
    assert "Commander damage" in out and "Pong!" in out
    assert list(temporary.iterdir()) == []
    assert "Task was destroyed" not in caplog.text
    (terminal,) = terminals
    assert terminal.loop.is_closed() and not asyncio.all_tasks(terminal.loop)  # nothing left to destroy


@pytest.fixture(autouse=True)
def _no_token(monkeypatch) -> None:
    for name in ("DISCORD_TOKEN", "PODKEEPER_DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
