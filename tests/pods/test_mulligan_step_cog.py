"""The mulligan step at a 3-player table through the real bot (cogs/pods/mulligan.py): the board says whose
decision it is, that player is pinged (and nobody else), answers with one press on the line or on their
private panel, a press by anyone else is refused, the step ends by itself, and a restart mid-step loses
nothing."""

from __future__ import annotations

import pytest

from bot.testing import DiscordHarness
from cogs.pods.mulligan import PANEL_LIFETIME
from tests.pods.test_cog import CARDS, _no_delay, settled, start, state_of

PING = "your mulligan decision"


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS) as harness:
        _no_delay(harness)
        yield harness


def lines(h) -> list:
    """The ping lines in the channel now (deleted ones left out)."""
    return [m for m in h.messages("general") if PING in m.content]


def the_line(h, name: str):
    """The one ping line there must be, addressed to ``name``, mentioning nobody else."""
    current = lines(h)
    assert len(current) == 1, [m.content for m in current]
    line = current[0]
    assert line.content.startswith(f"<@{h.user(name).id}>: {PING}")
    sent = [
        r
        for r in h.fake.requests
        if r.method == "POST" and isinstance(r.json, dict) and r.json.get("content") == line.content
    ]
    mentions = sent[-1].json["allowed_mentions"]
    assert mentions["parse"] == [] and [int(u) for u in mentions["users"]] == [h.user(name).id]
    return line


def labels(message) -> list[str]:
    return [b["label"] for b in message.buttons]


def board_text(reply) -> str:
    return reply.message.embeds[0]["description"]


async def test_partial_paris_at_three_players_tells_each_player_and_ends_by_itself(h):
    board = await start(h, "alice", "bob", "carol", ruleset="edh-2010")
    assert "the first decision is alice's" in board_text(board)
    assert not lines(h)  # nobody is pinged while players still join and reseat

    carol = await h.click(board, label="Mulligan", user="carol")  # carol opens her private panel: it begins
    assert carol.ephemeral and "Waiting for alice's decision" in carol.content and not carol.message.buttons
    await settled(h)
    line = the_line(h, "alice")
    assert labels(line) == ["Keep", "1", "2", "3", "4", "5", "6", "7"]

    refused = await h.click(line, label="Keep", user="bob")  # not bob's decision
    assert refused.ephemeral and "it is alice's turn" in refused.content
    assert (await state_of(h)).mulligan is None and not line.deleted

    alice = await h.click(line, label="2", user="alice")  # one press: set 2 aside
    assert alice.ephemeral and "Draw 1." in alice.content and "Waiting for bob's decision" in alice.content
    await settled(h)
    assert line.deleted
    bob_line = the_line(h, "bob")
    assert "bob's decision" in board_text(board)
    assert "Waiting for bob's decision" in carol.message.content  # carol's panel updated itself

    await h.click(bob_line, label="Keep", user="bob")
    await settled(h)
    the_line(h, "carol")  # carol is pinged, and her open panel offers her choices
    assert labels(carol.message)[:2] == ["Keep", "1"]
    told = await h.click(carol.message, label="1", user="carol")  # answered on her panel instead
    assert "Draw 0." in told.content
    await settled(h)
    the_line(h, "alice")  # round 2: alice again, with one card fewer
    assert labels(alice.message) == ["Keep", "1", "2", "3", "4", "5", "6"]
    await h.click(alice.message, label="Keep", user="alice")
    await settled(h)
    last = await h.click(the_line(h, "carol"), label="Keep", user="carol")
    assert "Shuffle the 1 card you set aside back into your library." in last.content
    await settled(h)

    assert not lines(h)  # the step ended by itself: no line left, everyone told
    state = await state_of(h)
    assert state.mulligan.finished and state.turn == 0
    assert [[p, d] for p, d in state.mulligan.result()["decisions"]] == [
        [h.user("alice").id, 2],
        [h.user("bob").id, "keep"],
        [h.user("carol").id, 1],
        [h.user("alice").id, "keep"],
        [h.user("carol").id, "keep"],
    ]
    text = board_text(board)
    assert "alice kept 6" in text and "alice: Shuffle the 2 cards" in text and "press Start turn 1" in text
    assert "Everyone has kept" in alice.message.content and not alice.message.buttons
    await h.click(board, label="Start turn 1", user="bob")
    assert (await state_of(h)).turn == 1


async def test_london_at_three_players_one_press_per_decision_and_no_double_answers(h):
    board = await start(h, "alice", "bob", "carol")  # commander ruleset: London, first mulligan free
    alice = await h.click(board, label="Mulligan", user="alice")  # the decider opens her own panel
    assert labels(alice.message) == ["Keep", "Mulligan"]
    await settled(h)
    assert not lines(h)  # she is looking at her choices: no ping for her
    await h.click(alice.message, label="Mulligan", user="alice")
    await settled(h)
    bob_line = the_line(h, "bob")
    bob = await h.click(bob_line, label="Keep", user="bob")
    assert "Keep 7 cards." in bob.content
    again = await h.click(bob_line, label="Keep", user="bob")  # a second press on the same (old) line
    assert again.ephemeral and "not counted" in again.content
    await settled(h)
    assert len((await state_of(h)).mulligan.decisions) == 2

    carol_line = the_line(h, "carol")
    outsider = await h.click(carol_line, label="Mulligan", user="alice")
    assert outsider.ephemeral and "it is carol's turn" in outsider.content
    await h.click(carol_line, label="Keep", user="carol")
    await settled(h)
    assert labels(alice.message) == ["Keep", "Mulligan"]  # her panel asks again, by itself
    await h.click(alice.message, label="Mulligan", user="alice")  # the second mulligan costs a card
    await settled(h)
    assert labels(alice.message) == ["Keep, 1 card to the bottom", "Mulligan"]  # alone left: asked at once
    assert not lines(h)
    done = await h.click(alice.message, label="Keep, 1 card to the bottom", user="alice")
    assert "put 1 card from your hand on the bottom" in done.content and "Everyone has kept" in done.content
    await settled(h)
    assert not lines(h)
    state = await state_of(h)
    assert [s.keeps for s in state.mulligan.status()] == [6, 7, 7]
    assert "Everyone has kept: press Start turn 1." in board_text(board)


async def test_a_restart_mid_step_loses_nothing_and_old_lines_and_panels_answer_sensibly(h):
    board = await start(h, "alice", "bob", "carol", ruleset="edh-2010")
    carol = await h.click(board, label="Mulligan", user="carol")
    await settled(h)
    await h.click(the_line(h, "alice"), label="3", user="alice")
    await settled(h)
    bob_line = the_line(h, "bob")

    await h.restart()  # new bot process, same SQLite file and channel
    _no_delay(h)
    bob = await h.slash("pod mulligan", user="bob")  # bob answers on a fresh panel instead of the line
    assert labels(bob.message)[:2] == ["Keep", "1"]
    await h.click(bob.message, label="1", user="bob")
    await settled(h)
    assert bob_line.deleted  # the line the old process posted is swept away, not left beside the new one
    carol_line = the_line(h, "carol")
    # Panels opened before the restart stop updating themselves (their tokens died with the process) ...
    assert "Waiting for bob's decision" in carol.message.content

    await h.restart()
    _no_delay(h)
    told = await h.click(carol_line, label="Keep", user="carol")  # ... but a line from before still works
    assert told.ephemeral and "Keep 7 cards." in told.content
    await settled(h)
    assert carol_line.deleted
    alice_line = the_line(h, "alice")  # round 2: alice and bob set cards aside
    assert labels(alice_line) == ["Keep", "1", "2", "3", "4", "5", "6"]
    state = await state_of(h)
    assert [d for _, d in state.mulligan.decisions] == [3, 1, "keep"]
    assert "alice's decision" in board_text(board)


async def test_a_line_from_an_old_moment_gives_the_current_panel_and_undo_asks_again(h):
    board = await start(h, "alice", "bob", "carol", ruleset="edh-2010")
    bob = await h.click(board, label="Mulligan", user="bob")
    await settled(h)
    line = the_line(h, "alice")
    await h.click(line, label="1", user="alice")
    await settled(h)
    await h.click(the_line(h, "bob"), label="Keep", user="bob")
    await settled(h)
    old = await h.click(line, label="2", user="alice")  # her deleted first line, still on a slow client
    assert old.ephemeral and "not counted" in old.content and "Waiting for carol's decision" in old.content
    assert len((await state_of(h)).mulligan.decisions) == 2

    await h.click(board, label="Undo", user="carol")  # bob's keep is undone: he is asked again
    await settled(h)
    the_line(h, "bob")
    assert labels(bob.message)[0] == "Keep" and "bob's decision" in board_text(board)
    ja = await h.click(
        board, label="Mulligan", user="carol", locale="ja"
    )  # each panel in its reader's language
    assert "bobの決定を待っています" in ja.content
    await h.click(board, label="Undo", user="carol")  # and alice's answer: she is the first again
    await settled(h)
    assert "aliceの決定を待っています" in ja.message.content
    assert [m.content for m in lines(h)] == [the_line(h, "alice").content]


async def test_a_panel_older_than_its_token_is_left_alone_and_the_player_is_pinged(h):
    board = await start(h, "alice", "bob", "carol")
    bob = await h.click(board, label="Mulligan", user="bob")
    await settled(h)
    step = h.bot.get_cog("Pods").mulligan_step
    step.panels[(1, h.user("bob").id)].opened -= PANEL_LIFETIME + 1  # 14 minutes and more ago
    edits = len(bob.message.history)
    await h.click(the_line(h, "alice"), label="Keep", user="alice")
    await settled(h)
    assert len(bob.message.history) == edits  # Discord would refuse the expired token: not even tried
    assert (1, h.user("bob").id) not in step.panels
    the_line(h, "bob")  # the ping still reaches him


async def test_london_restart_mid_step_the_line_still_answers_and_the_step_still_ends(h):
    board = await start(h, "alice", "bob", "carol")
    await h.click(board, label="Mulligan", user="carol")
    await settled(h)
    await h.click(the_line(h, "alice"), label="Mulligan", user="alice")  # free first mulligan
    await settled(h)
    bob_line = the_line(h, "bob")
    await h.restart()
    _no_delay(h)
    refused = await h.click(bob_line, label="Keep", user="carol")  # after a restart, still only bob's
    assert refused.ephemeral and "it is bob's turn" in refused.content
    await h.click(bob_line, label="Keep", user="bob")
    await settled(h)
    await h.click(the_line(h, "carol"), label="Keep", user="carol")
    await settled(h)
    alice_line = the_line(h, "alice")
    assert labels(alice_line) == ["Keep", "Mulligan"]  # her first mulligan was free: nothing to bottom yet
    done = await h.click(alice_line, label="Keep", user="alice")
    assert "Keep 7 cards." in done.content and "Everyone has kept" in done.content
    await settled(h)
    assert not lines(h) and "Everyone has kept: press Start turn 1." in board_text(board)
    assert (await state_of(h)).mulligan.result()["players"][0]["mulligans"] == 1


async def test_naming_a_commander_mid_step_neither_pings_nor_edits_panels(h):
    board = await start(h, "alice", "bob", "carol", ruleset="edh-2010")
    alice = await h.click(board, label="Mulligan", user="alice")  # the decider, looking at her choices
    bob = await h.click(board, label="Mulligan", user="bob")
    await settled(h)
    assert not lines(h)
    edits = len(alice.message.history), len(bob.message.history)
    await h.slash("pod commander", user="carol", name="Atraxa, Praetors' Voice")
    await settled(h)
    assert not lines(h)  # still the same question, and alice is looking at it
    assert (len(alice.message.history), len(bob.message.history)) == edits
    await h.click(alice.message, label="Keep", user="alice")
    await settled(h)
    assert len(bob.message.history) == edits[1] + 1 and labels(bob.message)[0] == "Keep"
