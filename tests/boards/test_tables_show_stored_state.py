"""The messages a table shows are a function of its stored state, whatever order the updates run in.

Under load (presses under a second apart) a Hydra table's update after one action could run after the
update of the next: the next action's update then edited the Hydra's new question into the previous
turn's message (the message id it read was stale), and the message posted later for the new turn had
buttons that answered "That question has already been answered."
"""

from __future__ import annotations

import pytest

from bot.testing import DiscordHarness


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol")) as harness:
        harness.bot.get_cog("Hydra").fixed_seed = 5  # seed 5: the reveals are known
        yield harness


async def play_to_the_players_second_turn(h):
    """Start a table, let the Hydra's first turn (turn 2) run, and come back to the players (turn 3)."""
    lobby = await h.slash("hydra start", heads=2, window=0)
    await h.click(lobby, label="Start")
    await h.click(lobby, label="End our turn")
    turn_two = h.messages()[-1]
    await h.click(turn_two, label="Counter it")
    await h.click(turn_two, label="Take the damage")
    await h.settle()
    return lobby.message, turn_two


async def test_a_hydra_turns_message_never_shows_a_later_turn_when_updates_run_out_of_order(h):
    cog = h.bot.get_cog("Hydra")
    board, turn_two = await play_to_the_players_second_turn(h)
    shown_before = turn_two.content
    alice = h.user("alice").id
    # Two presses in quick succession, each committed under the table's lock: the players end turn 3
    # (the Hydra's turn 4 begins and asks whether to counter), then the question is answered.
    ended = await cog.service.act(1, alice, "end")
    answered = await cog.service.act(1, alice, f"choose {ended.table.game.pending.default}")
    before = len(h.messages())
    await cog.after(answered)  # the second press's update runs first (the first one's was delayed)
    await cog.after(ended)
    await h.settle()
    assert turn_two.content == shown_before and "Turn 4" not in turn_two.content  # turn 2 stays turn 2
    assert turn_two.buttons == []
    new = h.messages()[before:]
    turn_four = [m for m in new if "Turn 4: the Hydra's turn." in m.content]
    assert len(turn_four) == 1  # posted once
    assert "Disorienting Glower" in turn_four[0].content
    # its buttons are the question of the moment, which they answer
    assert {b["label"] for b in turn_four[0].buttons} >= {"Take the damage", "Prevent the damage"}
    await h.click(turn_four[0], label="Take the damage")
    assert "The heads deal" in turn_four[0].content and turn_four[0].buttons == []
    table = await cog.service.load(1)
    assert table.row.turn_message_id == turn_four[0].id and table.game.active == "players"
    assert "alice" in board.embeds[0]["description"]
