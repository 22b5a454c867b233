"""The sandbox serves the live pages and prints where, so a person can open them while clicking through."""

from __future__ import annotations

import aiohttp

from bot.sandbox.client import SandboxClient
from bot.sandbox.session import SandboxSession
from bot.testing.harness import default_config
from tests.web.helpers import link_in


async def test_the_sandbox_prints_a_working_overlay_link(tmp_path) -> None:
    session = SandboxSession(default_config(tmp_path), quiet=0.3)
    await session.start()
    try:
        assert session.pages_line() is not None and f":{session.bot.pages.port}/p/" in session.pages_line()
        client = SandboxClient(session, tmp_path / "files")
        await client.execute("/pod start players:@alice @bob")
        printed = "\n".join(await client.execute("/pod overlay"))
        url = link_in(printed)
        await client.execute("/pod life player:@bob amount:-4")
        async with aiohttp.ClientSession() as http, http.get(url) as response:
            assert response.status == 200 and ">36<" in await response.text()
    finally:
        await session.close()
