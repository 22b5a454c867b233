"""The ``podkeeper`` command line.

Each module of this package with a ``register(subparsers)`` function adds one subcommand (``run``,
``db``, ``cards``, ``deck``, ...). ``register`` sets ``func`` on its parser: a callable taking the
parsed ``argparse.Namespace`` and returning the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import sys
from collections.abc import Sequence

from bot import __version__
from bot.config import Config, ConfigError, load_config
from bot.gcpause import pause_collection, resume_collection
from bot.paths import IN_CHECKOUT, default_database_note
from bot.storage.db import DatabaseError

log = logging.getLogger("bot.cli")


def note_default_database(config: Config, *, always: bool = False) -> None:
    """An installed bot with no database configured keeps its data in the user's data folder, a place the
    operator never chose: say where when the bot starts (``always``), and when a command is about to create
    the file. A checkout keeps ``data/`` under the folder it runs in, as its set-up commands say."""
    if IN_CHECKOUT or not config.database_is_default:
        return
    if always or not config.database_path.exists():
        log.info(default_database_note(config.database_path))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="podkeeper",
        description="Podkeeper: a Discord bot for Commander (EDH) playgroups, and its tools.",
    )
    parser.add_argument("--version", action="version", version=f"podkeeper {__version__}")
    parser.add_argument("--config", metavar="PATH", help="config file (default: ./config.toml when present)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    package = importlib.import_module(__name__)
    for module_info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if module_info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        if hasattr(module, "register"):
            module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Importing the subcommands (and, for ``run``, the bot until it has set up) builds modules, classes and
    # tables, next to no garbage: collection waits meanwhile (bot.gcpause), and is back on when main returns.
    pause_collection()
    try:
        code = _main(argv)
        sys.stdout.flush()  # a reader gone already shows here, inside the handler, not at interpreter exit
        return code
    except BrokenPipeError:
        return _reader_gone()
    finally:
        resume_collection()


def _reader_gone() -> int:
    """The reader of our output left early (``podkeeper deck check … | head``): stop quietly with the
    status of a process ended by SIGPIPE, as Unix tools do, instead of a traceback. What is still
    buffered would fail again when Python flushes stdout at exit, so stdout is pointed at /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # stdout is no file (a test's capture): nothing to flush
        pass
    return 128 + 13  # SIGPIPE


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "starts_bot", False):
        resume_collection()  # any other command runs with the collector as usual
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        args.config_obj = load_config(args.config)
    except ConfigError as exc:
        print(f"podkeeper: configuration error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, args.config_obj.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLogger().level))
    if not getattr(args, "starts_bot", False):
        note_default_database(args.config_obj)
    try:
        return int(args.func(args) or 0)
    except (DatabaseError, ConfigError) as exc:
        print(f"podkeeper: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
