"""A board records the log position it rendered, not one read after the render.

A press stored while the board is being rendered (another process's, or this one's just before a crash)
is not on the picture that is sent. The board must be recorded as showing the log up to where it was read
before the render: then the reconcile pass after a start sees the board lag and edits it. Recording a
position read afterwards would mark the board up to date while it shows the old life totals, for good."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.testing import DiscordHarness
from tests.pods.test_cog import CARDS, cog, settled, start

pytestmark = pytest.mark.both_engines


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=("alice", "bob")) as harness:
        cog(harness).updater.delay = 0
        yield harness


async def test_a_press_stored_during_the_render_leaves_the_board_marked_behind(h, monkeypatch) -> None:
    await start(h, "alice", "bob")
    await settled(h)
    pods = cog(h)
    assert await pods.service.lagging_boards() == []
    bob = h.user("bob").id
    render = pods.board_payload

    async def render_while_a_press_is_stored(loaded):
        shown = await render(loaded)
        monkeypatch.setattr(pods, "board_payload", render)  # once
        await pods.service.change(1, bob, pod.LIFE, player=bob, amount=-3)  # its own refresh never comes
        return shown

    monkeypatch.setattr(pods, "board_payload", render_while_a_press_is_stored)
    await pods.refresh_board(1)
    assert await pods.service.lagging_boards() == [1]
