"""The stand-in's gateway when a bot process dies mid-event: its websocket is not yet closed, but its
transport already is. Discord cannot deliver to such a connection; the stand-in says so the way it says
"no process runs this shard" (a HarnessError), never with a stray aiohttp error from inside the send."""

from __future__ import annotations

from typing import Any

import pytest

from bot.testing.fakediscord.driver import HarnessError
from bot.testing.fakediscord.server import FakeDiscordServer, GatewaySession


class DyingSocket:
    """A websocket whose process was killed: ``closed`` is still False, every write is refused."""

    closed = False

    async def send_str(self, data: str) -> None:
        raise ConnectionResetError("Cannot write to closing transport")

    async def send_bytes(self, data: bytes) -> None:
        raise ConnectionResetError("Cannot write to closing transport")


class LiveSocket(DyingSocket):
    def __init__(self) -> None:
        self.frames: list[Any] = []

    async def send_str(self, data: str) -> None:
        self.frames.append(data)

    async def send_bytes(self, data: bytes) -> None:
        self.frames.append(data)


def session(ws: Any, compress: bool = False) -> GatewaySession:
    made = GatewaySession(ws, compress)
    made.identified = True
    return made


@pytest.mark.parametrize("compress", [False, True])
async def test_a_frame_to_a_dying_connection_is_not_delivered(compress: bool) -> None:
    assert await session(DyingSocket(), compress).dispatch("INTERACTION_CREATE", {}) is False
    live = LiveSocket()
    assert await session(live, compress).dispatch("INTERACTION_CREATE", {}) is True
    assert len(live.frames) == 1


async def test_an_event_only_a_dying_process_would_get_is_refused_as_undeliverable() -> None:
    server = FakeDiscordServer.__new__(FakeDiscordServer)  # its routing only: no port is opened
    server.sessions = [session(DyingSocket())]
    with pytest.raises(HarnessError, match="no bot is connected"):
        await server.dispatch("INTERACTION_CREATE", {"guild_id": "1"})
    live = LiveSocket()
    server.sessions.append(session(live))
    await server.dispatch("INTERACTION_CREATE", {"guild_id": "1"})  # one live process still gets it
    assert len(live.frames) == 1
