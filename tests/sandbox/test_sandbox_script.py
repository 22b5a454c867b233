"""The sandbox end to end, as a user runs it: ``podkeeper sandbox --script`` and ``podkeeper run`` with no token.

Real processes (so "exiting must not hang" is tested for real), the real bot, the real SQLite file,
the stand-in on 127.0.0.1. The script registers a deck, starts a pod with two users, changes life
and commander damage, restarts the bot and presses a button on the old board.
"""

from __future__ import annotations

import contextlib
import io
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.testing.harness import HARNESS_CARDS

pytestmark = pytest.mark.slow  # subprocesses and a pty

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
:select 2
:click +5
/ping
:quit
/ping
"""


def podkeeper(args: list[str], tmp_path: Path, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PODKEEPER_DISCORD_TOKEN")}
    env["PODKEEPER_CARDS_PATH"] = str(HARNESS_CARDS)  # a small card file keeps the fresh import fast
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


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
    assert "2 bob (33)" in after_restart, "bob picked himself in the old board's menu and pressed +5"
    assert "bob@#general> /ping" in out and "(only bob can see this)" in out
    assert out.rstrip().endswith("bye"), "nothing after :quit runs"

    images = re.findall(r"\[image: (\S+\.png)\]", out)
    assert len(images) >= 4
    with Image.open(images[-1]) as board:
        assert board.width >= 400 and board.height >= 200
    assert database.exists() and not Path(f"{database}-wal").exists(), "the database was closed cleanly"


def test_piped_lines_run_as_they_arrive_and_the_run_ends_cleanly(tmp_path: Path) -> None:
    """A program drives the sandbox through a pipe: it sees /ping's answer before it sends the next line,
    and leaving with a view's timeout still pending logs no "Task was destroyed but it is pending!"."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PODKEEPER_DISCORD_TOKEN")}
    env["PODKEEPER_CARDS_PATH"] = str(HARNESS_CARDS)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox", "--no-tour"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"/ping\n")
        process.stdin.flush()
        seen = _read_until(
            process.stdout, b"Pong!", timeout=90
        )  # stdin is still open: the line ran on arrival
        assert b"alice@#general> /ping" in seen
        # the Commander button opens a panel with a 10-minute timeout, still pending when we quit
        out, err = process.communicate(
            b"/pod start players:@alice @bob\n:click Commander\n:quit\n", timeout=60
        )
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err.decode()
    assert b"Commander damage" in out and out.rstrip().endswith(b"bye")
    assert b"alice@#general> /ping" not in out, "what was read before is not printed twice"
    assert b"Task was destroyed" not in err and b"ERROR" not in err, err.decode()


def _read_until(stream, marker: bytes, timeout: float) -> bytes:
    seen, deadline = b"", time.monotonic() + timeout
    while marker not in seen:
        assert time.monotonic() < deadline, f"never saw {marker!r}; got:\n{seen.decode(errors='replace')}"
        ready, _, _ = select.select([stream], [], [], 0.2)
        if ready:
            chunk = os.read(stream.fileno(), 65536)
            assert chunk, f"the sandbox ended early:\n{seen.decode(errors='replace')}"
            seen += chunk
    return seen


def test_run_without_token_on_a_terminal_completes_and_exits_at_once(tmp_path: Path) -> None:
    """``podkeeper run`` with no token on a TTY: the interactive sandbox, readline completion, Ctrl-D."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PODKEEPER_DISCORD_TOKEN")}
    env["PODKEEPER_CARDS_PATH"] = str(HARNESS_CARDS)
    pid, fd = pty.fork()
    if pid == 0:  # the child: podkeeper run, on a pseudo-terminal
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "bot", "run"], env)
    screen = PseudoTerminal(fd)
    try:
        screen.until("alice@#general> ")
        screen.type("/pi\t\n")  # Tab completes /ping
        screen.until("Pong!")
        screen.type("/deck check commander:Atra\t decklist:1 Sol Ring\n")  # Tab asks the bot's autocomplete
        screen.until("Commander: Atraxa, Praetors' Voice")
        screen.until("alice@#general> ", new=True)  # back at the prompt: a Ctrl-D typed while busy is lost
        screen.type("\x04")  # Ctrl-D
        started, status = time.monotonic(), None
        while status is None and time.monotonic() - started < 15:
            done, code = os.waitpid(pid, os.WNOHANG)
            status = code if done else None
            screen.drain()
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    assert status is not None, "leaving the sandbox must not hang"
    assert os.waitstatus_to_exitcode(status) == 0


class PseudoTerminal:
    def __init__(self, fd: int) -> None:
        self.fd, self.screen, self.seen = fd, b"", 0

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def drain(self) -> None:
        ready, _, _ = select.select([self.fd], [], [], 0.1)
        if ready:
            with contextlib.suppress(OSError):  # the child closed the terminal
                self.screen += os.read(self.fd, 65536)

    def until(self, text: str, timeout: float = 60, *, new: bool = False) -> None:
        """Wait for ``text`` on the screen (with ``new``: printed after the last wait)."""
        deadline = time.monotonic() + timeout
        start = self.seen if new else 0
        while text.encode() not in self.screen[start:]:
            assert time.monotonic() < deadline, (
                f"never saw {text!r}; screen:\n{self.screen.decode(errors='replace')}"
            )
            ready, _, _ = select.select([self.fd], [], [], 0.2)
            if ready:
                self.screen += os.read(self.fd, 65536)
        self.seen = self.screen.index(text.encode(), start) + len(text)


@pytest.fixture
def no_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no ./config.toml
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("PODKEEPER_DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("PODKEEPER_CARDS_PATH", str(HARNESS_CARDS))


def test_run_without_token_and_without_a_terminal_runs_stdin(no_token, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("/ping\n/nope\n/config show\n"))
    assert main(["run"]) == 1, "a failed line makes the exit status 1"
    captured = capsys.readouterr()
    assert "! no slash command /nope" in captured.out and "(1 line(s) failed" in captured.out
    assert "no Discord token configured" in captured.err and "sandbox" in captured.err
    assert "alice@#general> /ping" in captured.out and "Pong!" in captured.out
    assert "Server settings" in captured.out, "the lines after a failure still run"


def test_run_without_token_and_no_input_exits_at_once(no_token, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["run"]) == 0
    out = capsys.readouterr().out
    assert "nothing to run" in out and "/help" in out  # the tour, then a clear note
