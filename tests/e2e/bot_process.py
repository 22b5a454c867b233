"""``podkeeper run`` as a real process against the local Discord stand-in, for the tests that kill it
(the crash test) or starve it (the page flood): started in a process group of its own, its log kept in
``bot.log`` next to its SQLite file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.testing.fakediscord.server import FakeDiscordServer
from tests.e2e.process_groups import reap

TOKEN = "fake-token"
ROOT = Path(__file__).parents[2]
CARDS = ROOT / "bot" / "testing" / "data" / "harness_cards.jsonl"
# ``podkeeper run`` exactly, with discord.py pointed at the stand-in (as tests/e2e and the sandbox do);
# argv[3], when given, is the open-file limit the process runs under (soft and hard: it cannot raise it).
LAUNCH = (
    "import resource, sys\n"
    "if len(sys.argv) > 3:\n"
    "    resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[3]), int(sys.argv[3])))\n"
    "from bot.testing.fakediscord.server import redirect_discord_py\n"
    "with redirect_discord_py(sys.argv[1], sys.argv[2]):\n"
    "    from bot.cli import main\n"
    "    sys.exit(main(['run']))\n"
)


class BotProcess:
    def __init__(
        self,
        server: FakeDiscordServer,
        tmp_path: Path,
        *,
        environment: dict[str, str] | None = None,
        open_files: int | None = None,
    ) -> None:
        self.server, self.tmp_path, self.open_files = server, tmp_path, open_files
        self.db_path = tmp_path / "podkeeper.sqlite3"
        self.log_path = tmp_path / "bot.log"
        (tmp_path / "config.toml").write_text("", encoding="utf-8")
        self.env = {
            **os.environ,
            "PODKEEPER_CONFIG": str(tmp_path / "config.toml"),
            "PODKEEPER_DISCORD_TOKEN": TOKEN,
            "PODKEEPER_DATABASE_PATH": str(self.db_path),
            "PODKEEPER_CARDS_PATH": str(CARDS),
            "PODKEEPER_LOGGING_LEVEL": "WARNING",
            **(environment or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.started: list[int] = []  # every bot process (its own process group), reaped by ``stop``

    async def start(self) -> None:
        for session in self.server.sessions:  # the killed process's socket: forget it
            if not session.ws.closed:
                await session.ws.close()
        self.server.sessions.clear()
        self.process = self._spawn()
        await self.server.wait_until_connected(timeout=60)

    def _spawn(self) -> subprocess.Popen[bytes]:
        limit = [] if self.open_files is None else [str(self.open_files)]
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the descriptor
            process = subprocess.Popen(
                [sys.executable, "-c", LAUNCH, self.server.url, self.server.gateway_url, *limit],
                env=self.env,
                cwd=ROOT,
                stderr=log,
                start_new_session=True,
            )
        self.started.append(process.pid)
        return process

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        try:
            if self.process is not None and self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                self.process.wait(30)
        finally:
            reap(self.started)  # the workers each killed bot left behind

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")
