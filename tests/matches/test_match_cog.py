"""Matches and swaps through the real bot (DiscordHarness): the score on the board, Next game for the
loser only, the private swap panel and its modal, /sideboard swap with autocomplete, /config sideboard-rule,
and /pod history naming the swaps."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.services.decks import DeckService
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA
from tests.matches.conftest import SIDEBOARD_DECK, WISH_DECK

CARDS = TEST_DATA / "deck_cards.jsonl"


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


def cog(h):
    return h.bot.get_cog("Pods")


async def settled(h) -> None:
    await h.settle()
    await cog(h).updater.flush()


async def _declare_decks(h, game_id: int, deck=SIDEBOARD_DECK) -> None:
    decks = DeckService(h.bot.db, h.bot.cards)
    for name in ("alice", "bob"):
        user = h.user(name)
        result = await decks.register(
            h.guild.id, user.id, "Kaalia", deck.read_text(encoding="utf-8"), "duel-zh"
        )
        assert result.record is not None
        await cog(h).service.change(
            game_id, user.id, pod.COMMANDERS, player=user.id, names=["Kaalia of the Vast"], deck="Kaalia"
        )
    await cog(h).refresh_board(game_id)


def _fields(message) -> str:
    return " ".join(f"{f['name']} {f['value']}" for e in message.embeds for f in e.get("fields", []))


async def test_config_sideboard_rule_is_for_managers(h):
    refused = await h.slash("config sideboard-rule", user="alice", enabled=True)
    assert refused.ephemeral and not await cog(h).match_step.service.sideboard_rule(h.guild.id)
    reply = await h.slash("config sideboard-rule", user="admin", enabled=True, locale="ja")
    assert "T1" in reply.content and "3分間" in reply.content
    assert await cog(h).match_step.service.sideboard_rule(h.guild.id)


async def test_a_match_on_the_board_with_swaps_and_next_game(h):
    alice, bob = h.user("alice"), h.user("bob")
    await h.slash("config sideboard-rule", user="admin", enabled=True)
    board = await h.slash("pod start", players=f"{alice.mention} {bob.mention}", ruleset="duel-zh")
    assert "Match · game 1 of 3" in _fields(board.message)
    await _declare_decks(h, 1)
    await settled(h)
    assert "Swaps close <t:" in _fields(board.message)  # the countdown: a relative Discord timestamp

    panel = await h.click(board, label="Sideboard", user="alice")
    assert panel.ephemeral and "Lightning Bolt" in panel.content
    opened = await h.click(panel, label="Swap cards…", user="alice")
    bad = await h.submit_modal(opened, {"swaps": "Kaalia of the Vast -> Lightning Bolt"})
    assert "commander can't be swapped" in bad.text
    opened = await h.click(panel, label="Swap cards…", user="alice")
    done = await h.submit_modal(opened, {"swaps": "Anger -> Lightning Bolt\nMountain -> Badlands"})
    assert "2 swaps made" in done.text and "legal" in done.text
    assert h.bot.workers.ran["check_registered_swaps"] >= 2  # the checks ran in the work pool, off the loop

    choices = await h.autocomplete("sideboard swap", "out", "ang", user="alice")
    assert "Anger" not in [c["value"] for c in choices]  # in the sideboard now
    choices = await h.autocomplete("sideboard swap", "in", "", user="alice")
    assert "Anger" in [c["value"] for c in choices] and "Akoum Refuge" not in [c["value"] for c in choices]
    swapped = await h.slash("sideboard swap", user="bob", out="Vow of Duty", into="Duress")
    assert "1 swap made" in swapped.text
    late = await h.slash("sideboard swap", user="bob", out="Anger", into="Duress")
    assert "Duress is not in your sideboard" in late.text  # it went into bob's main deck just before
    typed = await h.slash("sideboard swap", user="bob", out="Anger", into="**" + "x" * 190)
    assert "\\*\\*xxx" in typed.text and "…" in typed.text  # echoed escaped and cut, not as Markdown

    history = await h.slash("pod history", user="alice")
    assert "swapped (out → in): 1 × Anger → Lightning Bolt; 1 × Mountain → Badlands" in history.text

    await h.click(board, label="Start", user="alice")
    refused = await h.slash("sideboard swap", user="bob", out="Anger", into="Chaos Warp")
    assert "Too late" in refused.text
    await h.click(board, label="Concede", user="alice")
    await settled(h)
    assert "alice 0 – 1 bob (0 draws)" in _fields(board.message)
    assert "who plays first? Chosen by alice." in _fields(board.message)

    not_yours = await h.click(board, label="Next game", user="bob")
    assert not_yours.ephemeral and "loser of the last game" in not_yours.content
    offer = await h.click(board, label="Next game", user="alice")
    assert offer.ephemeral and [b["label"] for b in offer.message.buttons] == [
        "I play first",
        "Let bob play first",
    ]
    started = await h.click(offer, label="Let bob play first", user="alice")
    await settled(h)
    new_board = started.channel_messages[-1]
    assert "Match · game 2 of 3" in _fields(new_board)
    game2 = (await cog(h).service.get(2)).state
    assert [p.user_id for p in game2.players] == [bob.id, alice.id]
    assert game2.match["swaps"][str(alice.id)][0]["in"] == "Lightning Bolt"
    assert "Next game" not in [b["label"] for b in board.message.buttons]  # the old board lost its button


def _with_seat_buttons(message, game_id: int) -> None:
    """The board as an earlier version posted it, with Join and Shuffle seats in its last row: such a
    board stays in the channel, and its persistent buttons still reach the bot."""
    message.components[-1]["components"][:0] = [
        {"type": 2, "style": 3, "label": "Join", "custom_id": f"pod:{game_id}:join"},
        {"type": 2, "style": 2, "label": "Shuffle seats", "custom_id": f"pod:{game_id}:shuffle"},
    ]


async def test_a_match_keeps_its_two_players_and_the_chosen_first_player(h):
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    board = await h.slash("pod start", players=f"{alice.mention} {bob.mention}", ruleset="duel-zh")
    labels = [b["label"] for b in board.message.buttons]
    assert "Join" not in labels and "Shuffle seats" not in labels
    assert (
        "Join, shuffle" not in board.embed["description"]
        and "Name your commanders" in board.embed["description"]
    )
    _with_seat_buttons(board.message, 1)
    joined = await h.click(board, label="Join", user="carol")
    assert "match between its two players" in joined.text
    shuffled = await h.click(board, label="Shuffle seats", user="bob")
    assert "match between its two players" in shuffled.text
    assert [p.user_id for p in (await cog(h).service.get(1)).state.players] == [alice.id, bob.id]
    assert not (await cog(h).service.get(1)).state.is_player(carol.id)

    await h.click(board, label="Start", user="alice")
    await h.click(board, label="Concede", user="alice")
    await settled(h)
    offer = await h.click(board, label="Next game", user="alice")
    started = await h.click(offer, label="I play first", user="alice")
    await settled(h)
    game2 = started.channel_messages[-1]
    assert "First player: alice (chosen by alice)." in _fields(game2)
    _with_seat_buttons(game2, 2)
    refused = await h.click(game2, label="Shuffle seats", user="bob")
    assert "match between its two players" in refused.text
    await h.click(game2, label="Start", user="alice")
    assert (await cog(h).service.get(2)).state.active_player.user_id == alice.id  # the loser's choice holds
    match = await cog(h).match_step.service.get(1)
    assert match.state.score == (0, 1) and match.state.players == (alice.id, bob.id)


async def test_a_commander_game_can_be_a_match_on_request(h):
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    board = await h.slash(
        "pod start", players=f"{alice.mention} {bob.mention}", ruleset="commander", match="best-of-3"
    )
    assert "Match · game 1 of 3" in _fields(board.message)
    single = await h.slash("pod start", players=f"{alice.mention} {bob.mention}", ruleset="commander")
    assert "Match" not in _fields(single.message)
    three = await h.slash(
        "pod start", players=f"{alice.mention} {bob.mention} {carol.mention}", match="best-of-3"
    )
    assert three.ephemeral and "exactly two players" in three.content


async def test_the_board_loses_its_sideboard_button_when_the_window_closes_also_after_a_restart(h):
    def on_bot_clock() -> None:  # the pod service stamps events with the harness's fake clock
        cog(h).service.clock = lambda: h.clock.now().isoformat(timespec="seconds")

    on_bot_clock()
    alice, bob = h.user("alice"), h.user("bob")
    await h.slash("config sideboard-rule", user="admin", enabled=True)
    board = await h.slash("pod start", players=f"{alice.mention} {bob.mention}", ruleset="commander")
    await _declare_decks(h, 1)
    await settled(h)
    assert "Sideboard" in [b["label"] for b in board.message.buttons]
    closes_at, _ = cog(h).match_step._closing[1]  # a board refresh waits for the deadline
    assert closes_at.timestamp() == int(h.clock.now().timestamp()) + 180

    await h.advance(minutes=2, seconds=59)
    assert "Sideboard" in [b["label"] for b in board.message.buttons]
    await h.advance(seconds=2)  # time advanced, not slept: the timer fires and the board is edited
    await cog(h).updater.flush()
    assert "Sideboard" not in [b["label"] for b in board.message.buttons]
    assert "Swaps close" not in _fields(board.message) and 1 not in cog(h).match_step._closing
    late = await h.slash("sideboard swap", user="alice", out="Anger", into="Duress")
    assert "Too late" in late.text

    await h.restart()
    on_bot_clock()
    again = await h.slash("sideboard swap", user="bob", out="Anger", into="Duress")
    assert "Too late" in again.text
    assert (await cog(h).service.get(1)).state.swaps == []


async def test_a_wrong_choice_of_who_plays_first_is_taken_back(h):
    alice, bob = h.user("alice"), h.user("bob")
    board = await h.slash("pod start", players=f"{alice.mention} {bob.mention}", ruleset="duel-zh")
    await h.click(board, label="Start", user="alice")
    await h.click(board, label="Concede", user="bob")
    await settled(h)
    offer = await h.click(board, label="Next game", user="bob")
    started = await h.click(offer, label="Let alice play first", user="bob")  # meant "I play first"
    await settled(h)
    assert "Game 2 started, first player: alice" in started.message.content
    wrong = started.channel_messages[-1]
    assert "First player: alice (chosen by bob)." in _fields(wrong)
    assert "Next game" not in [b["label"] for b in board.message.buttons]

    await h.restart()  # the button is a dynamic item: it works on the old message after a restart
    undone = await h.click(started, label="Undo: choose again", user="bob")
    await settled(h)
    assert "took back the start of game 2" in undone.message.content and undone.message.buttons == []
    assert wrong.embeds == [] and wrong.buttons == [] and "took back" in wrong.content  # the board is closed
    assert "Next game" in [b["label"] for b in board.message.buttons]  # choose again on the old board
    offer = await h.click(board, label="Next game", user="bob")
    again = await h.click(offer, label="I play first", user="bob", locale="ja")
    await settled(h)
    right = again.channel_messages[-1]
    assert "First player: bob (chosen by bob)." in _fields(right) and "Match · game 2 of 3" in _fields(right)
    assert "第2ゲームを開始しました" in again.message.content
    await h.click(right, label="-1", user="bob")
    late = await h.click(again, label="取り消して選び直す", user="bob")
    assert late.ephemeral and "already begun" in late.content


async def test_a_wish_fetches_a_sideboard_card_in_the_channel_and_on_the_board(h):
    alice, bob = h.user("alice"), h.user("bob")
    board = await h.slash("pod start", players=f"{alice.mention} {bob.mention}", ruleset="duel-zh")
    await _declare_decks(h, 1, WISH_DECK)
    early = await h.slash("sideboard wish", user="alice", card="Gamble")
    assert early.ephemeral and "during the game" in early.text
    await h.click(board, label="Start", user="alice")
    choices = await h.autocomplete("sideboard wish", "card", "ga", user="alice")
    assert [c["value"] for c in choices] == ["Gamble"]
    done = await h.slash("sideboard wish", user="alice", card="Gamble", locale="ja")
    assert not done.ephemeral and "サイドボードから**Gamble**" in done.text  # a wish reveals the card
    await settled(h)
    assert "Fetched by wishes: alice: Gamble" in _fields(board.message)
    assert "Gamble" not in [
        c["value"] for c in await h.autocomplete("sideboard wish", "card", "", user="alice")
    ]
    again = await h.slash("sideboard wish", user="alice", card="Gamble", locale="zh-CN")
    assert again.ephemeral and "本局已经从备牌中拿过了" in again.text
    main = await h.slash("sideboard wish", user="bob", card="Anger")
    assert main.ephemeral and "not in your sideboard" in main.text
    history = await h.slash("pod history", user="bob")
    assert "alice fetched Gamble from the sideboard with a wish" in history.text
