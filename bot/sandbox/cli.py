"""Entry points: ``podkeeper sandbox`` and ``podkeeper run`` without a token."""

from __future__ import annotations

import argparse
import itertools
import logging
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TextIO

from bot.config import Config

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="SQLite file to use and keep (default: a fresh one in a temporary folder)",
    )
    parser.add_argument(
        "--cards",
        metavar="PATH",
        help="card data to import into a fresh database (default: the configured or bundled data set)",
    )
    parser.add_argument(
        "--script",
        type=Path,
        metavar="FILE",
        help="run the client lines in FILE without prompting and print the transcript",
    )
    parser.add_argument(
        "--files-dir",
        type=Path,
        metavar="DIR",
        help="where images and other files the bot sends are saved (default: beside the database)",
    )
    parser.add_argument(
        "--open-images",
        action="store_true",
        help="also open each image the bot sends in the system's image viewer",
    )
    parser.add_argument("--no-tour", action="store_true", help="do not print the guided tour at start")


def sandbox_command(args: argparse.Namespace) -> int:
    return run_sandbox(
        args.config_obj,
        db=args.db,
        cards=args.cards,
        script=args.script,
        files_dir=args.files_dir,
        tour=not args.no_tour,
        open_images=args.open_images,
    )


def start_sandbox_from_run(args: argparse.Namespace) -> int:
    """``podkeeper run`` with no token: the sandbox on a fresh database (script from stdin without a TTY)."""
    print(
        "Starting the local sandbox instead (the real bot against a pretend Discord on 127.0.0.1).\n",
        file=sys.stderr,
    )
    return run_sandbox(args.config_obj)


def run_sandbox(
    config: Config,
    *,
    db: Path | None = None,
    cards: str | None = None,
    script: Path | None = None,
    files_dir: Path | None = None,
    tour: bool = True,
    open_images: bool = False,
) -> int:
    from bot.sandbox.session import SandboxSession
    from bot.sandbox.terminal import Terminal

    lines: Iterable[str] | None = None
    if script is not None:
        try:
            lines = script.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            print(f"podkeeper sandbox: cannot read {script}: {error.strerror}", file=sys.stderr)
            return 2
    elif not sys.stdin.isatty():
        lines = _piped_lines(sys.stdin)  # no terminal (CI, a pipe): each line runs as it arrives
        if lines is None:
            print(
                "(no terminal and no input: nothing to run; pipe lines in, e.g. `echo /help | podkeeper sandbox`, "
                "or use --script FILE)"
            )
            return 0

    workdir = Path(tempfile.mkdtemp(prefix="podkeeper-sandbox-"))
    database = db or workdir / "sandbox.sqlite3"
    database.parent.mkdir(parents=True, exist_ok=True)
    overrides = {"database__path": str(database)}
    if cards:
        overrides["cards__path"] = str(cards)
    session = SandboxSession(config.with_values(**overrides))
    restore_logging = _log_to_file(workdir / "sandbox.log")
    terminal = Terminal(session, files_dir or database.parent / "sandbox-files", open_images=open_images)
    terminal.print(
        [
            f"(database: {database}; bot log: {workdir / 'sandbox.log'})",
            "starting the bot… (a fresh database first imports the card data: a few seconds)",
        ]
    )
    status = 0
    try:
        terminal.start()
        terminal.print([f"bot ready: {len(session.fake.synced_commands.get(None, []))} commands synced"])
        pages = session.pages_line()
        if pages:
            terminal.print([pages])
        if tour and script is None:
            terminal.print(terminal.tour())
        if lines is not None:
            terminal.run_lines(lines)
            failures = terminal.client.failures
            if failures:
                terminal.print([f"({failures} line(s) failed: see the lines starting with '!')"])
                status = 1
        else:
            terminal.run_interactive()
    except KeyboardInterrupt:
        terminal.print(["(interrupted)"])
    except Exception as error:  # noqa: BLE001 - a start-up failure should read as a message
        log.exception("sandbox failed")
        print(f"podkeeper sandbox: {error}", file=sys.stderr)
        status = 1
    finally:
        terminal.close()
        restore_logging()
    _remove_workdir(workdir, status)
    return status


def _remove_workdir(workdir: Path, status: int) -> None:
    """The temporary folder (a fresh database, the bot's log, the files the bot sent) goes when the
    sandbox ends: every run left one behind. After a failure it stays, so its log can be read; ``--db``
    and ``--files-dir`` put what should be kept elsewhere."""
    if status == 0:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"podkeeper sandbox: the bot's log is kept in {workdir / 'sandbox.log'}", file=sys.stderr)


def _piped_lines(stream: TextIO) -> Iterator[str] | None:
    """The lines of a pipe, read lazily; ``None`` when it ends without a non-blank line.

    Only the first non-blank line is waited for before the bot starts; the rest are read one at a time
    while the bot runs, so a line's answer is printed before the next line is even read.
    """
    waiting: list[str] = []
    for line in stream:
        waiting.append(line.rstrip("\n"))
        if line.strip():
            return itertools.chain(waiting, (rest.rstrip("\n") for rest in stream))
    return None


def _log_to_file(path: Path) -> Callable[[], None]:
    """Send the bot's log to a file so it does not interleave with the conversation.

    Returns a function that puts the previous handlers back (the sandbox may run inside a test).
    """
    root = logging.getLogger()
    removed = [h for h in root.handlers if type(h) is logging.StreamHandler]
    for handler in removed:
        root.removeHandler(handler)
    file_handler = logging.FileHandler(path, encoding="utf-8")
    file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(file_handler)
    previous_level = root.level
    root.setLevel(logging.INFO)

    def restore() -> None:
        root.removeHandler(file_handler)
        file_handler.close()
        for handler in removed:
            root.addHandler(handler)
        root.setLevel(previous_level)

    return restore
