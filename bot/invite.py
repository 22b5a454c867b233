"""The Discord permissions Podkeeper asks for when it is invited, and why each one.

Plain Python (no discord import) so the README, the invite link, the test stand-in (which gives the
bot exactly these in its test server) and a test that recomputes the integer all read one list.
Ask for what the code uses and nothing more: a server admin should be able to tell why every box is ticked.
"""

from __future__ import annotations

# name (as discord.Permissions spells it) -> (bit, what Podkeeper does with it)
PERMISSIONS: dict[str, tuple[int, str]] = {
    "view_channel": (1 << 10, "see the channels it posts boards and announcements in"),
    "send_messages": (1 << 11, "post pod boards, Hydra tables, event announcements and results"),
    "send_messages_in_threads": (1 << 38, "post boards and seat lists inside game and event threads"),
    "create_public_threads": (1 << 35, "open a thread per pod game, Hydra table or event table"),
    "embed_links": (1 << 14, "send its embeds (boards, standings, cards)"),
    "attach_files": (1 << 15, "send board, leaderboard and card images"),
    "create_events": (
        1 << 44,
        "create a Discord scheduled event for a Hydra event night, and update its own",
    ),
    "manage_roles": (
        1 << 28,
        "give the winner role (only if you configure one; it must sit below the bot's role)",
    ),
}

# Title-case names as Discord's invite screen and server settings show them.
DISPLAY_NAMES = {
    "view_channel": "View Channels",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "create_events": "Create Events",
    "manage_roles": "Manage Roles",
}


def permissions_integer(names: list[str] | None = None) -> int:
    """The ``permissions=`` integer of the invite link for these permissions (default: all of ours)."""
    return sum(PERMISSIONS[name][0] for name in (names if names is not None else PERMISSIONS))


def invite_url(application_id: int | str = "YOUR_APPLICATION_ID") -> str:
    return (
        "https://discord.com/oauth2/authorize?client_id="
        f"{application_id}&scope=bot+applications.commands&permissions={permissions_integer()}"
    )
