"""``podkeeper run``: start the bot against Discord (or the local sandbox when no token is set)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from typing import Any

from bot.config import Config

log = logging.getLogger(__name__)

NO_TOKEN_HELP = """\
Podkeeper has no Discord token configured, so it cannot connect to Discord.

To run it in your server:
  1. Create an application and a bot at https://discord.com/developers/applications
     (Bot tab: Reset Token, copy it; no privileged intents are needed).
  2. Give the token to Podkeeper in one of these ways:
       export DISCORD_TOKEN=...            (environment; recommended)
       cp config.example.toml config.toml  then set [discord] token = "..."
  3. Optional, for instant command updates while testing:
       [discord] dev_guild_id = <your server id>   (or PODKEEPER_DISCORD_DEV_GUILD_ID)
  4. Invite the bot with the scopes bot + applications.commands (see README.md, "Discord set-up").
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="start the bot (without a token: explain what to configure and start the sandbox)",
        description="Start the bot: load every cog, sync slash commands, serve until SIGINT/SIGTERM.")
    parser.add_argument("--no-sync", action="store_true", help="do not sync slash commands at start")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="without a token, only print what to configure instead of starting the sandbox")
    parser.set_defaults(func=run_command)


def run_command(args: argparse.Namespace) -> int:
    config: Config = args.config_obj
    if not config.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        if args.no_sandbox:
            return 1
        try:
            from bot.sandbox.cli import start_sandbox_from_run
        except ImportError:
            return 1
        return start_sandbox_from_run(args)
    return asyncio.run(serve(config, sync=not args.no_sync))


async def serve(config: Config, *, sync: bool = True, **bot_options: Any) -> int:
    """Run the bot until it is closed or the process gets SIGINT/SIGTERM."""
    import discord

    from bot.client import PodkeeperBot

    bot = PodkeeperBot(config, sync_commands=sync, **bot_options)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def request_stop(signame: str) -> None:
        log.info("received %s, shutting down", signame)
        stopping.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # non-Unix event loops
            loop.add_signal_handler(sig, request_stop, sig.name)
    runner = asyncio.create_task(bot.start(config.token))
    stopper = asyncio.create_task(stopping.wait())
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            runner.result()
    except discord.LoginFailure:
        print("podkeeper: Discord rejected the token. Check DISCORD_TOKEN / [discord] token.", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("podkeeper: Discord refused the requested intents.", file=sys.stderr)
        return 1
    finally:
        stopper.cancel()
        await bot.close()
        if not runner.done():
            runner.cancel()
    log.info("stopped cleanly")
    return 0
