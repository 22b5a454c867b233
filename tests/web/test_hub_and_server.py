"""The change hub and the page server without Discord: a real database and pod service, the server on a
real socket, Hypothesis for what a visitor can type into the address bar (tokens, ?lang=)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.changes import ChangeHub, publishes
from bot.config import ConfigError, load_config
from bot.domain import pod
from bot.i18n import LANGUAGES
from bot.services.pods import PodService
from bot.storage.db import Database
from bot.web.server import PageServer
from tests.web.helpers import client, stream_get


async def test_a_subscription_wakes_once_for_a_burst_and_follows_its_topics() -> None:
    hub = ChangeHub()
    with hub.subscribe(["pod:1"]) as sub:
        hub.publish("pod:2")
        assert not await sub.wait(0.01)
        for _ in range(5):
            hub.publish("pod:1")
        assert await sub.wait(0.01) and not await sub.wait(0.01)  # five notices, one wake-up
        sub.watch(["pod:2"])
        assert hub.subscriber_count("pod:1") == 0 and hub.subscriber_count("pod:2") == 1
        hub.publish("pod:2")
        assert await sub.wait(0.01)
    assert hub.subscriber_count("pod:2") == 0 and hub.version("pod:1") == 5


async def test_publishes_only_after_the_method_returned() -> None:
    class Service:
        changes = ChangeHub()

        @publishes(lambda result, game: f"pod:{game}")
        async def change(self, game: int, fail: bool = False) -> int:
            if fail:
                raise ValueError("refused")
            return game

    service = Service()
    with pytest.raises(ValueError):
        await service.change(3, fail=True)
    assert service.changes.version("pod:3") == 0
    assert await service.change(3) == 3 and service.changes.version("pod:3") == 1


def test_web_settings_come_from_the_environment(tmp_path: Path) -> None:
    config = load_config(
        _empty(tmp_path), environ={"PODKEEPER_WEB_ENABLED": "yes", "PODKEEPER_WEB_PORT": "9000"}
    )
    assert config.web_enabled is True and config.web_public_url == "http://127.0.0.1:9000"
    assert load_config(_empty(tmp_path), environ={}).web_enabled is False
    with pytest.raises(ConfigError, match="expected true or false"):
        load_config(_empty(tmp_path), environ={"PODKEEPER_WEB_ENABLED": "maybe"})


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('[web]\npublic_url = ""\n')
    return path


class _Sources:
    def __init__(self, pods: PodService) -> None:
        self.pods, self.tournaments, self.match_tournaments, self.hydra_events = pods, None, None, None

    async def language(self, guild_id: int | None) -> str:
        return "en"


@pytest.fixture
async def served(tmp_path: Path):
    db = await Database.open(tmp_path / "pages.sqlite3")
    pods = PodService(db)
    game = await pods.start_game(
        guild_id=1,
        channel_id=2,
        created_by=10,
        ruleset="commander",
        players=[(10, "Ann <script>alert(1)</script>"), (11, "Ben")],
    )
    server = PageServer(db, _Sources(pods), port=0)
    await server.start()
    link = await server.links.link("pod", game.game_id, guild_id=1, created_by=10)
    try:
        yield server, link, pods, game.game_id
    finally:
        await server.stop()
        await db.close()


async def test_names_are_escaped_and_a_stopping_server_ends_open_streams(served) -> None:
    server, link, pods, game_id = served
    async with client() as session:
        async with session.get(server.url(link)) as response:
            html = await response.text()
        assert "&lt;script&gt;" in html and "<script>alert" not in html
        events = await stream_get(session, server.url(link) + "/events")
        assert (await events.content.readline()).startswith(b"event: update")
        await pods.change(game_id, 10, pod.LIFE, player=11, amount=-1)
        await asyncio.wait_for(server.stop(), 5)  # the open stream does not hold the shutdown
        events.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    token=st.text(
        alphabet=st.characters(codec="ascii", categories=("L", "N", "Pd", "Pc")), min_size=1, max_size=60
    ),
    lang=st.text(max_size=12),
)
async def test_any_other_token_is_404_and_any_lang_gives_a_page(served, token: str, lang: str) -> None:
    server, link, _, _ = served
    async with client() as session:
        if token != link.token:
            async with session.get(f"{server.public_url}/p/{token}") as response:
                assert response.status == 404 and "Ben" not in await response.text()
        async with session.get(server.url(link), params={"lang": lang}) as response:
            assert response.status == 200
            html = await response.text()
        assert any(f'<html lang="{language}">' in html for language in LANGUAGES) and "Ben" in html
