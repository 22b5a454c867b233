"""The sandbox end to end, as a user runs it: ``podkeeper sandbox --script`` and ``podkeeper run`` with no token.

Real processes (so "exiting must not hang" is tested for real), the real bot, the real SQLite file,
the stand-in on 127.0.0.1. The script registers a deck, starts a pod with two users, changes life
and commander damage, restarts the bot and presses a button on the old board.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from bot.testing.harness import HARNESS_CARDS

SCRIPT = """\
# register a deck, start a pod, change totals, restart, press an old button
/deck register name:Atraxa decklist:"1 Atraxa, Praetors' Voice\\n1 Sol Ring\\n1 Command Tower" commander:Atraxa, Praetors' Voice
/deck list
/pod start players:@alice @bob
/pod life player:bob amount:-5
/pod damage owner:alice target:bob amount:7
:restart
:click -5
:as bob
/ping
:quit
/ping
"""


def podkeeper(args: list[str], tmp_path: Path, stdin: str | None = None, timeout: float = 90
              ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PODKEEPER_DISCORD_TOKEN")}
    env["PODKEEPER_CARDS_PATH"] = str(HARNESS_CARDS)  # a small card file keeps the fresh import fast
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


def test_script_mode_runs_a_pod_through_a_restart(tmp_path: Path) -> None:
    script = tmp_path / "demo.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    database = tmp_path / "kept.sqlite3"
    done = podkeeper(["sandbox", "--script", str(script), "--db", str(database)], tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "alice@#general> /deck register name:Atraxa" in out and "Saved “Atraxa”" in out
    assert "Atraxa** — Atraxa, Praetors' Voice" in out, "/deck list shows the registered deck"
    board_numbers = re.findall(r"#(\d+) Podkeeper in #general\n  ┌─\n  │ \*\*Pod #1", out)
    assert board_numbers, "the pod board was posted"
    assert "2 bob (35)" in out and "2 bob (28)" in out, "life -5, then 7 commander damage"
    after_restart = out.split("bot restarted (same database)")[1]
    assert f"#{board_numbers[0]} Podkeeper in #general — updated" in after_restart
    assert "1 alice (35)" in after_restart, "the old board's -5 button worked after the restart"
    assert "bob@#general> /ping" in out and "(only bob can see this)" in out
    assert out.rstrip().endswith("bye"), "nothing after :quit runs"

    images = re.findall(r"\[image: (\S+\.png)\]", out)
    assert len(images) >= 4
    with Image.open(images[-1]) as board:
        assert board.width >= 400 and board.height >= 200
    assert database.exists() and not Path(f"{database}-wal").exists(), "the database was closed cleanly"


def test_run_without_token_and_without_a_terminal_reads_stdin_to_the_end(tmp_path: Path) -> None:
    done = podkeeper(["run"], tmp_path, stdin="/ping\n/config show\n")
    assert done.returncode == 0, done.stderr
    assert "no Discord token configured" in done.stderr and "sandbox" in done.stderr
    assert "Pong!" in done.stdout and "Server settings" in done.stdout


def test_run_without_token_and_no_input_exits_at_once(tmp_path: Path) -> None:
    done = podkeeper(["run"], tmp_path, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "nothing to run" in done.stdout and "/ping" in done.stdout  # the tour, then a clear note
