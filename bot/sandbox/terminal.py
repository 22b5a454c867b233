"""The terminal around a ``SandboxClient``: prompt with readline completion, or a script, or stdin.

The bot and the stand-in run on an asyncio loop in a background thread; the main thread reads
lines (``input()`` with readline on a terminal) and hands each one to the loop, so typing never
blocks the bot's heartbeats and Ctrl-C/Ctrl-D always get the user out. Every way out goes through
``close()``: the bot closes its database, the loop stops, and the (daemon) thread cannot keep the
process alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections.abc import Iterable
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any, TextIO

from bot.sandbox import guide
from bot.sandbox.client import SandboxClient
from bot.sandbox.session import SandboxSession

log = logging.getLogger(__name__)


class Terminal:
    def __init__(
        self,
        session: SandboxSession,
        files_dir: Path,
        out: TextIO | None = None,
        *,
        open_images: bool = False,
    ) -> None:
        self.session = session
        self.client = SandboxClient(session, files_dir, open_images=open_images)
        self.out = out or sys.stdout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="sandbox-loop", daemon=True)
        self._completions: list[str] = []
        self._busy = threading.Lock()  # held while a line runs, so background output never interleaves
        self._watching = threading.Event()

    # -- running coroutines on the bot's loop --------------------------------------------------------

    def call(self, coroutine: Any, timeout: float | None = None) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def start(self) -> None:
        self.thread.start()
        self.call(self.session.start())

    def tour(self) -> list[str]:
        """The guided tour, built from the commands the bot just synced (see ``bot.sandbox.guide``)."""
        return guide.tour(self.client.catalog(), self.session.locale_of())

    def close(self) -> None:
        """Close the bot, then end every task still pending on the loop (a view's timeout, a timer) before
        the loop stops: a task left pending is destroyed with the loop, and Python says so on stderr
        ("Task was destroyed but it is pending!") at the end of every transcript."""
        if self.thread.is_alive():
            with contextlib.suppress(Exception):
                self.call(self.session.close(), timeout=20)
            with contextlib.suppress(Exception):
                self.call(_end_pending_tasks(), timeout=10)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=5)
        if not self.thread.is_alive() and not self.loop.is_closed():
            self.loop.close()

    # -- lines ------------------------------------------------------------------------------------

    def print(self, lines: Iterable[str]) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def run_line(self, line: str, *, echo: bool) -> bool:
        """Run one line; False when the user asked to quit."""
        with self._busy:
            if echo and line.strip():
                self.print([f"{self.prompt()}{line.rstrip()}"])
            self.print(self.call(self.client.execute(line)))
        return not self.client.quit_requested

    def prompt(self) -> str:
        return f"{self.session.current_user}@#{self.session.current_channel}> "

    def run_lines(self, lines: Iterable[str]) -> None:
        """Script mode: every line echoed with its output (a transcript). ``lines`` may be a pipe: each line
        runs as soon as it arrives, so a program can drive the sandbox and read the answers as it goes."""
        for line in lines:
            if line.strip().startswith("#"):
                self.print([line.rstrip()])
                continue
            if not self.run_line(line, echo=True):
                break

    def run_interactive(self) -> None:
        self._setup_readline()
        self._watching.set()
        watcher = threading.Thread(target=self._watch, name="sandbox-watch", daemon=True)
        watcher.start()
        try:
            while True:
                try:
                    line = input(self.prompt())
                except EOFError:
                    self.print(["", "bye"])
                    return
                except KeyboardInterrupt:
                    self.print(["", "(Ctrl-C) bye"])
                    return
                if not self.run_line(line, echo=False):
                    return
        finally:
            self._watching.clear()

    def _watch(self, interval: float = 0.5) -> None:
        """While the user is at the prompt, show what the bot does on its own (timers, a Hydra turn)."""
        while self._watching.wait(interval) and self._watching.is_set():
            if not self._busy.acquire(blocking=False):
                continue
            try:
                lines = self.call(self._background_output(), timeout=5)
                if lines:
                    typed = _line_buffer()
                    self.print(["\r\x1b[K" + lines[0], *lines[1:]])
                    self.out.write(self.prompt() + typed)
                    self.out.flush()
            except Exception:  # noqa: BLE001 - the watcher must never take the prompt down
                log.debug("background output watcher failed", exc_info=True)
            finally:
                self._busy.release()

    async def _background_output(self) -> list[str]:
        return self.client.shown()

    # -- completion -------------------------------------------------------------------------------

    def _setup_readline(self) -> None:
        try:
            import readline
        except ImportError:  # pragma: no cover - Windows without pyreadline
            return
        readline.set_completer_delims("")  # we complete whole lines
        readline.set_completer(self._complete)
        binding = "bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete"
        readline.parse_and_bind(binding)

    def _complete(self, text: str, state: int) -> str | None:
        if state == 0:
            try:
                found = self.client.complete_static(text)
                if found is None:
                    found = self.call(self.client.complete_with_bot(text), timeout=3)
            except (FutureTimeout, Exception):  # noqa: BLE001 - completion must never crash the prompt
                found = []
            self._completions = found
        return self._completions[state] if state < len(self._completions) else None


def _line_buffer() -> str:
    """What the user has typed so far at the prompt (to redraw it after background output)."""
    try:
        import readline
    except ImportError:  # pragma: no cover
        return ""
    return readline.get_line_buffer()


async def _end_pending_tasks() -> None:
    """Cancel every other task of the running loop and wait until each has ended."""
    current = asyncio.current_task()
    pending = [task for task in asyncio.all_tasks() if task is not current and not task.done()]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
