"""``/pod concede player:``: conceding for a player who left the table, through the real bot and
the strict stand-in. Only Manage Server (or a tournament game's organisers) may, it is asked for twice (a
private confirmation button), and the permission and the player's seat are checked again on the press."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA
from tests.pods.test_integrity import board_of, pair_one_table

CARDS = TEST_DATA / "pods_cards.jsonl"


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=("alice", "bob", "carol")) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        harness.add_member("mod", permissions=["manage_guild"])
        yield harness


async def started(h, *names: str):
    board = await h.slash("pod start", players=" ".join(f"<@{h.user(n).id}>" for n in names))
    await h.click(board, label="Start turn 1", user=names[0])
    return board


async def player(h, name: str):
    state = (await h.bot.get_cog("Pods").service.get(1)).state
    return state.player(h.user(name).id)


async def concessions(h) -> int:
    return int(await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'concede'"))


async def test_a_player_cannot_concede_for_another_in_any_language(h) -> None:
    await started(h, "alice", "bob", "carol")
    refused = await h.slash("pod concede", player="bob", user="alice")
    assert refused.ephemeral and refused.content == t("pod.error.concede_for_others", "en")
    refused = await h.slash("pod concede", player="bob", user="alice", locale="ja")
    assert refused.content == t("pod.error.concede_for_others", "ja") and "サーバー管理" in refused.content
    assert await concessions(h) == 0 and (await player(h, "bob")).alive


async def test_a_manager_concedes_for_an_absent_player_after_confirming(h) -> None:
    board = await started(h, "alice", "bob", "carol")
    asked = await h.slash("pod concede", player="bob", user="mod", locale="zh-CN")
    assert asked.ephemeral and asked.content == t("pod.confirm_concede", "zh-Hans", player="bob", game=1)
    [button] = asked.message.buttons
    assert button["label"] == t("pod.button.confirm_concede", "zh-Hans", player="bob")
    assert button["style"] == 4  # danger
    assert await concessions(h) == 0  # asking changed nothing
    done = await h.click(asked, label=button["label"], user="mod", locale="zh-CN")
    assert done.message.content == t("pod.conceded_for", "zh-Hans", player="bob", game=1)
    assert done.message.buttons == []  # the confirmation can't be pressed twice
    assert not (await player(h, "bob")).alive and (await player(h, "alice")).alive
    await h.settle()
    await h.bot.get_cog("Pods").updater.flush()
    labels = [option["label"] for option in board.message.selects[0]["options"]]
    assert labels and not any("bob" in label for label in labels)  # the board lists only who is still in


async def test_the_confirmation_is_checked_again_when_pressed(h) -> None:
    board = await started(h, "alice", "bob", "carol")
    asked = await h.slash("pod concede", player="bob", user="mod")
    await h.click(board, label="Concede", user="bob")  # bob came back and conceded himself meanwhile
    late = await h.click(asked, label=asked.message.buttons[0]["label"], user="mod")
    assert late.ephemeral and late.content == t("pod.error.player_out", "en")
    assert await concessions(h) == 1


async def test_conceding_the_last_opponent_ends_the_game_with_a_winner(h) -> None:
    await started(h, "alice", "bob")
    asked = await h.slash("pod concede", player="bob", user="mod")
    await h.click(asked, label=asked.message.buttons[0]["label"], user="mod")
    state = (await h.bot.get_cog("Pods").service.get(1)).state
    assert state.finished and [p.name for p in state.alive] == ["alice"]
    again = await h.slash("pod concede", player="alice", user="mod", game=1)
    assert again.content == t("pod.error.game_over", "en")


async def test_conceding_for_yourself_needs_no_confirmation(h) -> None:
    await started(h, "alice", "bob", "carol")
    reply = await h.slash("pod concede", user="carol")
    assert reply.ephemeral and reply.content == t("pod.done_game", "en", game=1)
    assert not (await player(h, "carol")).alive and await concessions(h) == 1


async def test_a_player_who_is_not_seated_is_refused_before_any_button(h) -> None:
    await started(h, "alice", "bob")
    refused = await h.slash("pod concede", player="carol", user="mod", game=1)
    assert refused.content == t("pod.error.not_a_player", "en") and refused.message.buttons == []


async def test_a_tournament_organiser_may_concede_for_an_absent_player(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol", "dave")) as h:
        h.bot.get_cog("Pods").updater.delay = 0
        organisers = h.add_role("Organisers")
        h.add_member("olga", roles=[organisers])
        h.add_member("mia")  # neither an organiser nor Manage Server
        await h.slash("config organiser-role", user="admin", role=organisers)
        _, game_id = await pair_one_table(h)
        await h.click(board_of(h, game_id), label="Start turn 1", user="alice")
        refused = await h.slash("pod concede", player="dave", user="mia", channel="games", game=game_id)
        assert refused.content == t("pod.error.concede_for_others", "en")
        asked = await h.slash("pod concede", player="dave", user="olga", channel="games", game=game_id)
        await h.click(asked, label=asked.message.buttons[0]["label"], user="olga")
        state = (await h.bot.get_cog("Pods").service.get(game_id)).state
        assert not state.player(h.user("dave").id).alive and len(state.alive) == 3
