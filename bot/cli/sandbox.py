"""``podkeeper sandbox``: try the real bot from the terminal, with no Discord account or token."""

from __future__ import annotations

import argparse

from bot.sandbox.cli import add_arguments, sandbox_command


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sandbox",
        help="run the real bot against a local pretend Discord and talk to it from the terminal",
        description="Start the real bot against a local Discord stand-in on 127.0.0.1 and open a terminal "
        "client: slash commands with options and completion, buttons, menus and forms, several "
        "users and channels, restarts. With --script, run lines from a file and print the transcript.",
    )
    add_arguments(parser)
    parser.set_defaults(func=sandbox_command)
