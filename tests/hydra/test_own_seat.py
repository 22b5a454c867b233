"""One rule for a seat's fate: a challenger concedes, and changes the life total, of their own seat
only. ``life 2 -19`` typed by player 1 put player 2 out of the game although ``concede 2`` was refused;
now both are refused (in the reader's language) and change nothing. Through the board's forms."""

from __future__ import annotations

import pytest

from bot.i18n import t
from tests.hydra.test_cog import cog, h, open_table

__all__ = ["h"]  # the harness fixture of the Hydra cog tests


async def started(h):
    lobby = await open_table(h, "bob")
    await h.click(lobby, label="Start")
    return lobby


@pytest.mark.parametrize(("form", "text"), [("Life…", "2 -19"), ("Command…", "life 2 -19")])
async def test_a_player_cannot_change_another_seats_life(h, form, text) -> None:
    board = await started(h)
    opened = await h.click(board, label=form, user="alice")
    refused = await h.submit_modal(opened, {"text": text}, locale="ja")
    assert refused.followups[0].ephemeral
    assert refused.followups[0].content == t("hydra.error.only_your_seat", "ja", seat=1)
    table = await cog(h).service.load(1)
    assert table.actions == [] and not table.game.players[1].lost


async def test_a_player_still_changes_their_own_life(h) -> None:
    board = await started(h)
    opened = await h.click(board, label="Life…", user="bob")
    await h.submit_modal(opened, {"text": "2 -3"})
    table = await cog(h).service.load(1)
    assert [action.line for action in table.actions] == ["life 2 -3"]
