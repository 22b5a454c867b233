"""``podkeeper ARGS...`` in this process, with discord.py pointed at a local stand-in (argv[1] = its URL).

The real command line (``bot.cli.main``) runs unchanged; only Discord's address differs, as in the sandbox.
Used by ``tests/e2e/test_shards.py`` to start real bot processes.
"""

from __future__ import annotations

import sys

from bot.cli import main
from bot.testing.fakediscord.server import redirect_discord_py

if __name__ == "__main__":
    url = sys.argv[1]
    with redirect_discord_py(url, url.replace("http", "ws", 1) + "/ws"):
        sys.exit(main(sys.argv[2:]))
