"""``podkeeper run``: start the bot against Discord (or the local sandbox when no token is set)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from typing import Any

from bot.allocator import tune_allocator
from bot.config import Config, ConfigError
from bot.gcpause import resume_collection
from bot.shards import ShardSpecError, validate_shards

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
  4. Invite the bot with the scopes bot + applications.commands (see the manual's
     docs/operators/discord-application.md).
"""


# Gateway close codes by which Discord refuses a shard set-up (https://discord.com/developers/docs/topics/
# opcodes-and-status-codes#gateway-gateway-close-event-codes).
SHARD_REFUSALS = {
    4010: "invalid shard (an id not below the shard count)",
    4011: "sharding required (too many servers for this shard count)",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="start the bot (without a token: explain what to configure and start the sandbox)",
        description="Start the bot: load every cog, sync slash commands, serve until SIGINT/SIGTERM.",
    )
    parser.add_argument("--no-sync", action="store_true", help="do not sync slash commands at start")
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="without a token, only print what to configure instead of starting the sandbox",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="total gateway shards of the bot (overrides [discord] shard_count; 0 = no sharding)",
    )
    parser.add_argument(
        "--shard-ids",
        metavar="IDS",
        help="the shards this process runs, e.g. 0-3 or 0-3,6 (overrides [discord] shard_ids; default all)",
    )
    # starts_bot: bot.cli.main keeps garbage collection paused until the bot has set up (bot.gcpause)
    parser.set_defaults(func=run_command, starts_bot=True)


def with_shard_options(config: Config, args: argparse.Namespace) -> Config:
    """``config`` with ``--shard-count``/``--shard-ids`` applied and checked together (ConfigError if not)."""
    overrides: dict[str, object] = {}
    if args.shard_count is not None:
        overrides["discord__shard_count"] = args.shard_count
    if args.shard_ids is not None:
        overrides["discord__shard_ids"] = args.shard_ids
    if not overrides:
        return config
    changed = config.with_values(**overrides)
    try:
        validate_shards(changed.shard_count, changed.shard_ids)
    except ShardSpecError as exc:
        raise ConfigError(f"--shard-count / --shard-ids: {exc}") from None
    return changed


def run_command(args: argparse.Namespace) -> int:
    config = with_shard_options(args.config_obj, args)
    if not config.token:
        resume_collection()  # no bot of ours starts here (the sandbox runs as any other command)
        print(NO_TOKEN_HELP, file=sys.stderr)
        if args.no_sandbox:
            return 1
        try:
            from bot.sandbox.cli import start_sandbox_from_run
        except ImportError:
            return 1
        return start_sandbox_from_run(args)
    tune_allocator()  # before the bot starts any thread: fewer malloc arenas, big buffers unmapped when freed
    return asyncio.run(serve(config, sync=not args.no_sync))


async def serve(config: Config, *, sync: bool = True, **bot_options: Any) -> int:
    """Run the bot until it is closed or the process gets SIGINT/SIGTERM."""
    import discord

    from bot.cli import note_default_database
    from bot.client import make_bot
    from bot.storage.db import Database

    note_default_database(config, always=True)
    # Take the database (and its one-bot lock) before logging in: a second bot on the same file stops
    # here with a clear message instead of connecting and applying every press a second time.
    database = await Database.open(
        config.database_url,
        exclusive=True,
        pool_size=config.pool_size,
        statement_timeout=config.statement_timeout,
    )
    bot = make_bot(config, sync_commands=sync, **bot_options)
    bot.db = database
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
        print(
            "podkeeper: Discord rejected the token. Check DISCORD_TOKEN / [discord] token.", file=sys.stderr
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print("podkeeper: Discord refused the requested intents.", file=sys.stderr)
        return 1
    except discord.ConnectionClosed as exc:
        if exc.code not in SHARD_REFUSALS:
            raise
        print(
            f"podkeeper: Discord refused the shards: {SHARD_REFUSALS[exc.code]} (close code {exc.code}). "
            f"Check --shard-count / [discord] shard_count.",
            file=sys.stderr,
        )
        return 1
    finally:
        stopper.cancel()
        await bot.close()
        if not runner.done():
            runner.cancel()
    log.info("stopped cleanly")
    return 0
