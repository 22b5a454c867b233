"""The worked example of docs/players/seasons.md is what the bot shows: the game it describes is played
through the real bot, and the posted result and the standings are compared with the page's blocks."""

from __future__ import annotations

import re
from pathlib import Path

from bot.testing.harness import DiscordHarness
from tests.seasons.test_cog import play, result_message

PAGE = Path(__file__).resolve().parents[2] / "docs" / "players" / "seasons.md"


def example(name: str) -> str:
    """The fenced block right after ``<!-- example: NAME -->`` on the page."""
    found = re.search(
        rf"<!-- example: {name} -->\n```text\n(.*?)\n```", PAGE.read_text(encoding="utf-8"), re.S
    )
    assert found, f"no example {name} on {PAGE.name}"
    return found[1]


def as_written(h: DiscordHarness, text: str) -> str:
    """Mentions as the page writes them (``@alice``)."""
    for name in ("alice", "bob", "carol"):
        text = text.replace(f"<@{h.user(name).id}>", f"@{name}")
    return text


async def test_the_worked_example_is_what_the_bot_shows(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol")) as h:
        await h.slash("season open", user="admin", name="Spring", points="win=5 e=2", min_games=1)
        game_id = await play(h, ("alice", "bob", "carol"))  # alice takes bob to 0 in combat, carol concedes
        message = result_message(h, game_id)
        assert as_written(h, message.embeds[0]["description"]) == example("season-result")
        for name in ("alice", "bob", "carol"):
            await h.click(message, label="Confirm", user=name)
        standings = await h.slash("season standings", user="alice")
        assert as_written(h, standings.embed["description"]) == example("season-standings")
