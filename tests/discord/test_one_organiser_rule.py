"""One rule for "who is a manager" and one for "who is an organiser": the same member is judged
the same way by every command that asks, and no cog carries a second copy of either rule.

``cogs._common.is_manager`` (Manage Server, as Discord resolved it for the interaction; Administrator and
the owner imply it) and ``cogs._common.is_organiser`` (a manager, or the holder of the server's organiser
role). The probes below are commands whose answer shows the verdict without changing anything: a refusal
for lack of the right, or the next refusal in line (no tournament, no event) for a member who has it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.testing import DiscordHarness

COGS = Path(__file__).parents[2] / "cogs"

# member -> (manager, organiser)
EXPECTED = {
    "admin": (True, True),  # the server's owner
    "plain": (False, False),
    "moderator": (False, False),  # Manage Channels and Manage Messages: powers, but not Manage Server
    "manager": (True, True),
    "administrator": (True, True),
    "role_manager": (True, True),  # Manage Server through a role
    "organiser": (False, True),  # the /config organiser role
}

ORGANISER_ONLY = "Only organisers (Manage Server or"
MANAGER_ONLY = "You need the Manage Server permission for this."


async def _verdicts(h: DiscordHarness, user: str) -> dict[str, bool]:
    """What each entry point decided about ``user``: True where they were let through."""
    pair = await h.slash("tournament pair", user=user)
    end = await h.slash("tournament end", user=user)
    cancel = await h.slash("hydra event cancel", user=user)
    for reply in (pair, end):
        assert reply.ephemeral and (
            ORGANISER_ONLY in reply.content or "There is no tournament running" in reply.content
        ), reply.content
    assert cancel.ephemeral and (
        ORGANISER_ONLY in cancel.content or "There is no such Hydra event" in cancel.content
    ), cancel.content
    reveal = await h.slash("tournament reveal-votes", user=user, enabled=False)
    config = await h.slash("config pod-threads", user=user, enabled=False)
    return {
        "tournament pair": ORGANISER_ONLY not in pair.content,
        "tournament end": ORGANISER_ONLY not in end.content,
        "hydra event cancel": ORGANISER_ONLY not in cancel.content,
        "tournament reveal-votes": reveal.content != MANAGER_ONLY,
        "config pod-threads": config.content != MANAGER_ONLY,
    }


ORGANISER_PROBES = ("tournament pair", "tournament end", "hydra event cancel")
MANAGER_PROBES = ("tournament reveal-votes", "config pod-threads")


async def test_every_entry_point_judges_a_member_the_same_way(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("plain",)) as h:
        organisers = h.add_role("Tournament organisers")
        await h.bot.guild_settings.update(h.guild.id, organiser_role_id=organisers.id)
        h.add_member("moderator", permissions=["manage_channels", "manage_messages"])
        h.add_member("manager", permissions="manage_guild")
        h.add_member("administrator", permissions="administrator")
        h.add_member("role_manager", roles=[h.add_role("Staff", permissions="manage_guild")])
        h.add_member("organiser", roles=[organisers])
        for user, (manager, organiser) in EXPECTED.items():
            verdicts = await _verdicts(h, user)
            expected = {
                **dict.fromkeys(ORGANISER_PROBES, organiser),
                **dict.fromkeys(MANAGER_PROBES, manager),
            }
            assert verdicts == expected, user
        settings = await h.bot.guild_settings.get(h.guild.id)
        assert settings.pod_threads is False and settings.organiser_role_id == organisers.id


# A cog reading a member's permissions or the organiser role itself is a second copy of the rule. Allowed:
# the rules (_common.py), /config showing and setting the role (admin.py), and checking the bot's own
# permissions before it gives a role (_permissions.py); none of those judges the member acting.
_RULE_PARTS = re.compile(
    r"\.manage_guild\b|\.administrator\b|guild_permissions|has_permissions|organiser_role_id"
)
_ALLOWED = {
    "_common.py": re.compile(".*"),
    "admin.py": re.compile(r"settings\.organiser_role_id|organiser_role_id=role"),
    "_permissions.py": re.compile(r"\bme\.guild_permissions"),
}


@pytest.mark.parametrize("path", sorted(COGS.rglob("*.py")), ids=lambda path: str(path.relative_to(COGS)))
def test_no_cog_decides_who_is_a_manager_or_an_organiser_by_itself(path: Path) -> None:
    allowed = _ALLOWED.get(str(path.relative_to(COGS)))
    found = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if _RULE_PARTS.search(line) and not (allowed and allowed.search(line))
    ]
    assert not found, f"use cogs._common.is_manager / is_organiser instead of: {found}"
