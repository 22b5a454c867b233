"""The players' own effects in the Discord cog: the "More effects" menu, explained kills in the players' own turn,
and tables that open every response window (stored, so a restart keeps them)."""

from __future__ import annotations

from bot.domain.hydra import cards as C

from .hydra_helpers import rig
from .test_cog import _fix, cog, h, latest, open_table  # noqa: F401  (h is the harness fixture)


async def test_the_more_menu_sweeps_several_heads_at_once(h):  # noqa: F811
    lobby = await open_table(h)
    await h.click(lobby, label="Start")
    board = lobby.message
    labels = {o["label"] for o in board.component(custom_id="hydra-more:1")["options"]}
    assert {
        "Damage to several heads (sweeper)",
        "Heads don't untap next time (The Savant)",
        "Prevent N damage",
        "We take an extra turn",
    } <= labels
    opened = await h.select(board, "hydra-more:1", ["sweep"], user="alice")
    assert opened.modal is not None
    await h.submit_modal(opened, {"text": "3 all"})
    game = (await cog(h).service.load(1)).game
    assert game.heads_severed == 2 and game.actions == ["sweep 3 all"]


async def test_the_more_menu_is_labelled_in_the_servers_language(h):  # noqa: F811
    await h.bot.guild_settings.update(h.guild.id, locale="ja")
    lobby = await open_table(h)
    await h.click(lobby, custom_id="hydra:1:start")
    labels = {o["label"] for o in lobby.message.component(custom_id="hydra-more:1")["options"]}
    assert "追加のターンを得る" in labels


async def test_heads_killed_in_the_players_turn_are_explained_like_in_the_hydras(h):  # noqa: F811
    lobby = await open_table(h)
    await h.click(lobby, label="Start")
    table = await cog(h).service.load(1)
    rig(table.game, battlefield=[C.HYDRA_HEAD, C.HYDRA_HEAD], top=[C.RAVENOUS_BRUTE_HEAD, C.UNIFIED_LUNGE])
    await h.click(lobby, label="Destroy")
    report = latest(h).content
    assert "Hydra Head is destroyed." in report
    assert "Hero's Reward from Hydra Head: each player gains 2 life." in report
    assert "New heads grow: revealed Ravenous Brute Head, Unified Lunge." in report
    assert (
        "> **Ravenous Brute Head** — Hero's Reward — When Ravenous Brute Head leaves the battlefield"
        in report
    )


async def test_a_table_with_every_window_asks_about_triggers_and_keeps_it_after_a_restart(h):  # noqa: F811
    lobby = await open_table(h, windows=True)
    await h.click(lobby, label="Start")
    await h.restart()
    _fix(h)
    table = await cog(h).service.load(1)
    assert table.game.setup.all_windows
    rig(table.game, battlefield=[C.HYDRA_HEAD, C.HYDRA_HEAD], top=[C.RAVENOUS_BRUTE_HEAD, C.UNIFIED_LUNGE])
    await h.click(lobby, label="Destroy")
    asked = latest(h)
    assert "the Hero's Reward trigger is on the stack" in asked.content
    await h.click(asked, label="Counter it")
    asked_again = latest(h)
    assert "The players counter the triggered ability of Hydra Head." in asked_again.content
    assert "the growing new heads trigger is on the stack" in asked_again.content and asked.buttons == []
    await h.click(asked_again, label="Let it resolve")
    game = (await cog(h).service.load(1)).game
    assert [p.life for p in game.players] == [20] and [x.name for x in game.battlefield] == [
        C.HYDRA_HEAD,
        C.RAVENOUS_BRUTE_HEAD,
    ]


async def test_a_picked_head_stays_the_same_head_when_another_player_kills_one_before_it(h):  # noqa: F811
    lobby = await open_table(h, "bob")
    await h.click(lobby, label="Start", user="bob")
    table = await cog(h).service.load(1)
    rig(
        table.game,
        battlefield=[C.HYDRA_HEAD, C.HYDRA_HEAD, C.RAVENOUS_BRUTE_HEAD],
        top=[C.UNIFIED_LUNGE, C.UNIFIED_LUNGE],
    )
    await cog(h).refresh_board(table)
    board = lobby.message
    options = board.component(custom_id="hydra-head:1")["options"]
    await h.select(board, "hydra-head:1", [options[2]["value"]], user="alice")  # alice picks the Brute
    await h.select(board, "hydra-head:1", [options[0]["value"]], user="bob")
    await h.click(board, label="Destroy", user="bob")  # bob kills head 1: the Brute is still head 3
    await h.click(board, label="Tap", user="alice")
    game = (await cog(h).service.load(1)).game
    assert [(x.name, x.tapped) for x in game.battlefield] == [
        (C.HYDRA_HEAD, False),
        (C.RAVENOUS_BRUTE_HEAD, True),
    ]
    assert game.actions == ["destroy 1", "tap 3"]
