"""The page server inside the real bot: its services are looked up on the bot's cogs each time, so a
cog unloaded (or reloaded) while the bot runs is seen by the next page read."""

from __future__ import annotations

from bot.web.server import BotSources
from tests.web.helpers import client, pod_game, start


async def test_a_page_whose_cog_was_unloaded_is_404_and_its_sources_say_none(tmp_path) -> None:
    """The leaderboard of a bot whose Stats cog is gone answers 404 (not a server error), and the pod
    page goes the same way once the Pods cog is gone; the other services are still found."""
    async with start(tmp_path) as h, client() as session:
        _, game_url = await pod_game(h)
        link = await h.bot.pages.links.link("stats", h.guild.id, guild_id=h.guild.id, created_by=None)
        board_url = h.bot.pages.url(link)
        async with session.get(board_url) as response:
            assert response.status == 200
        sources = BotSources(h.bot)
        assert sources.stats is h.bot.get_cog("Stats").service
        await h.bot.remove_cog("Stats")
        assert sources.stats is None and sources.pods is h.bot.get_cog("Pods").service
        async with session.get(board_url) as response:
            assert response.status == 404
        await h.bot.remove_cog("Pods")
        assert sources.pods is None and sources.match_tournaments is None  # matches need the Pods cog
        async with session.get(game_url) as response:
            assert response.status == 404
