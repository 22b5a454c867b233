"""The helpers every cog shares (``cogs/_common.py``), called where a test sees them run.

Most of them run at import (``command_text`` builds each command's texts when its cog module loads), or only
on a path real Discord never takes (a guild-only command without a server), so the bot's own tests never
show when one breaks: a command text under the wrong key is only an untranslated name in the client, and a
check's message is only read by the developer it was written for. Here each runs in the test itself.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot.cards.index import choice_id
from bot.testing import DiscordHarness
from cogs._common import command_text, guild_id_of, is_organiser, rebuilt
from tests.cards.conftest import SUBSET


def test_a_cogs_command_texts_are_keyed_under_its_area_or_the_top_or_their_own_key() -> None:
    in_area = command_text("pods")("Start a game")
    assert (in_area.message, in_area.extras) == ("Start a game", {"key": "app.pods.Start a game"})
    at_top = command_text()("Help")
    assert (at_top.message, at_top.extras) == ("Help", {"key": "app.Help"})
    named = command_text("pods")("Life", key="app.life.name")
    assert (named.message, named.extras) == ("Life", {"key": "app.life.name"})


def test_a_guild_only_interaction_without_a_server_is_a_programming_error_named_as_such() -> None:
    assert guild_id_of(SimpleNamespace(guild_id=42)) == 42  # type: ignore[arg-type]
    with pytest.raises(AssertionError) as refused:
        guild_id_of(SimpleNamespace(guild_id=None))  # type: ignore[arg-type]
    assert str(refused.value) == "a guild-only interaction came without a server"


def test_a_rebuilt_component_of_another_kind_names_both_kinds() -> None:
    button = discord.ui.Button[discord.ui.View](label="ok")
    assert rebuilt(button, discord.ui.Button) is button
    with pytest.raises(AssertionError) as refused:
        rebuilt(button, discord.ui.Select)
    assert str(refused.value) == "Button where a Select was expected"


@pytest.mark.parametrize("guild_id", [None, 42], ids=["a direct message", "a server, no member sent"])
async def test_someone_discord_sent_as_no_member_is_no_organiser(guild_id: int | None) -> None:
    """Without a member there are no roles to hold: no organiser, and no server settings read (the
    interaction here has no bot behind it, so a read would fail the test)."""
    interaction = SimpleNamespace(permissions=discord.Permissions.none(), user=object(), guild_id=guild_id)
    assert await is_organiser(interaction) is False  # type: ignore[arg-type]


async def test_card_names_are_offered_in_the_language_the_member_chose(tmp_path: Path) -> None:
    """A member who chose Japanese replies (``/config my-language``) on an English client is offered the
    Japanese printed names: the bot's language for them, not only the client's, picks the names."""
    async with DiscordHarness.start(tmp_path, cards_path=str(SUBSET)) as harness:
        await harness.slash("config my-language", user="alice", locale="en-US", language="ja")
        choices = await harness.autocomplete("card", "name", "稲", user="alice", locale="en-US")
        assert choices[0] == {"name": "稲妻 (Lightning Bolt)", "value": choice_id("Lightning Bolt")}
        assert await harness.autocomplete("card", "name", "稲", user="bob", locale="en-US") == []
