"""/hydra through the real bot (bot/testing harness: real Interactions, CommandTree and ViewStore;
only Discord's HTTP edge is fake), on a real SQLite file."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.domain.hydra import cards as C
from bot.render.hydra import BACKGROUND, WIDTH
from bot.testing import DiscordHarness

from .hydra_helpers import rig

# Discord-layer suite run on both engines (tests/conftest.py): the bot's database is SQLite, then PostgreSQL.
pytestmark = pytest.mark.both_engines


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol")) as harness:
        _fix(harness)
        yield harness


def _fix(harness) -> None:
    cog = harness.bot.get_cog("Hydra")
    cog.fixed_seed = 5  # seed 5: the reveals are known (see tests/hydra/test_cli.py)


def cog(h):
    return h.bot.get_cog("Hydra")


async def open_table(h, *joiners: str, window: int = 0, **options):
    lobby = await h.slash("hydra start", heads=2, window=window, **options)
    for name in joiners:
        await h.click(lobby, label="Join", user=name)
    return lobby


def _first_head(board) -> str:
    """The board's head menu names heads by a number that never shifts: the first head's."""
    return board.component(custom_id="hydra-head:1")["options"][0]["value"]


def latest(h, channel: str = "general"):
    return h.messages(channel)[-1]


async def test_a_whole_game_from_the_lobby_to_the_slayer(h):
    lobby = await open_table(h, "bob")
    assert lobby.embed["title"] == "Face the Hydra #1 — 2 heads"
    choices = await h.autocomplete("hydra heroes", "first", "slay")
    assert choices[0]["value"] == "The Slayer" and "additional 7 life" in choices[0]["name"]
    picked = await h.slash("hydra heroes", first="The Slayer")
    assert picked.ephemeral and "The Slayer" in picked.content
    await h.click(lobby, label="Start", user="bob")
    board = lobby.message
    assert board.embeds[0]["title"] == "Face the Hydra #1 — started with 2 heads"
    assert "1. Hydra Head" in board.embeds[0]["description"]
    image = Image.open(io.BytesIO(board.files["hydra-1.png"]))
    assert image.size[0] == WIDTH and image.getpixel((2, 2)) == BACKGROUND
    assert image.getpixel((40, 150)) != BACKGROUND  # the first head's tile
    assert {"Attack…", "Destroy", "Exile", "End our turn", "Undo", "Concede"} <= {
        b["label"] for b in board.buttons
    }

    # attack head 1 for 3 through the select and the modal
    await h.select(board, "hydra-head:1", ["1"], user="alice")
    opened = await h.click(board, label="Attack…", user="alice")
    await h.submit_modal(opened, {"text": "1 3"})
    assert "Player" not in board.embeds[0]["description"]  # seats carry the members' names
    assert "alice: 29 life" in board.embeds[0]["description"]  # 20 + 7 (The Slayer) + 2 (Hero's Reward)

    # the Hydra's turn gets its own message, asking whether to counter Swallow the Hero Whole
    await h.click(board, label="End our turn", user="bob")
    turn = latest(h)
    assert "The Hydra reveals and casts Swallow the Hero Whole." in turn.content
    assert "> Each player exiles a creature they control." in turn.content
    await h.click(turn, label="Let it resolve", user="bob")
    assert f"<@{h.user('alice').id}>" in turn.content  # the question is alice's (H9, per player)
    refused = await h.click(turn, label="I control no creature", user="bob")
    assert refused.deferred  # a press is acknowledged first; the refusal follows privately
    assert refused.followups[0].ephemeral and "belongs to another challenger" in refused.followups[0].content
    opened = await h.click(turn, label="Name the creature…", user="alice")
    await h.submit_modal(opened, {"text": "Grizzly Bears"})
    await h.click(turn, label="I control no creature", user="bob")
    await h.click(turn, label="Take the damage", user="alice")
    assert "The heads deal 1 damage to each player." in turn.content and turn.buttons == []
    assert "alice: 28 life" in board.embeds[0]["description"]

    # severing the last head returns the swallowed creature, and the turn's end wins the game; alice's
    # pick was the head she killed, so the buttons refuse to guess until she picks the one left
    refused = await h.click(board, label="Destroy", user="alice")
    assert refused.ephemeral and "has left the battlefield" in refused.content
    await h.select(board, "hydra-head:1", [_first_head(board)], user="alice")
    await h.click(board, label="Destroy", user="alice")
    await h.click(board, label="End our turn", user="alice")
    won = latest(h)
    assert "The Hydra is slain!" in won.content and "The Slayer" in won.content
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    assert board.buttons == [] and "slain the Hydra" in fields["Now"]
    assert fields["Hero cards"] == "The Slayer: You start the game with an additional 7 life."
    profile = await h.slash("hydra profile", options={"user": "bob"})
    fields = {f["name"]: f["value"] for f in profile.embed["fields"]}
    assert (
        fields["Wins"] == "1"
        and fields["Heads severed"] == "2"
        and fields["Best win"] == "2 heads in 3 turns"
    )
    assert fields["The Slayer"] == "You start the game with an additional 7 life."
    log = [a.line for a in (await cog(h).service.load(1)).actions]
    assert log == [
        "attack 1 3",
        "end",
        "choose pass",
        "choose Grizzly Bears",
        "choose none",
        "choose pass",
        "destroy 2",
        "end",
    ]


async def test_buttons_keep_working_after_a_restart(h):
    lobby = await open_table(h)
    await h.click(lobby, label="Start")
    await h.restart()
    _fix(h)
    opened = await h.click(lobby, label="Damage…")
    await h.submit_modal(opened, {"text": "2"})
    assert (await cog(h).service.load(1)).game.battlefield[0].damage == 2
    await h.click(lobby, label="End our turn")
    turn = latest(h)
    await h.restart()
    _fix(h)
    await h.click(turn, label="Counter it", user="alice")
    assert "The players counter Noxious Hydra Breath" in turn.content


async def test_an_unanswered_window_takes_its_default_after_the_timeout(h):
    lobby = await open_table(h, window=1)
    await h.click(lobby, label="Start")
    await h.click(lobby, label="End our turn")
    turn = latest(h)
    await h.advance(seconds=0.9)  # the bot's fake clock: no question is due yet
    assert turn.buttons and len((await cog(h).service.load(1)).actions) == 1
    for _ in range(3):  # a window takes 1 s, a choice three windows; each default asks the next question
        await h.advance(seconds=3)
    assert not turn.buttons
    game = (await cog(h).service.load(1)).game
    assert game.active == "players" and "The heads deal" in turn.content
    actions = (await cog(h).service.load(1)).actions  # Noxious Hydra Breath: counter?, mode, prevent?
    assert [(a.line, a.actor_id) for a in actions][1:] == [
        ("choose pass", None),
        ("choose damage", None),
        ("choose pass", None),
    ]


async def test_an_idle_table_pauses_and_resumes(h):
    lobby = await open_table(h)
    await h.click(lobby, label="Start")
    await h.click(lobby, label="Tap")  # re-arms the idle timer: 30 minutes from now on the bot's clock
    await h.advance(minutes=29)
    assert (await cog(h).service.load(1)).row.status != "idle"
    await h.advance(minutes=1)
    assert (await cog(h).service.load(1)).row.status == "idle"
    assert "paused" in latest(h).content and lobby.message.buttons == []
    resumed = await h.slash("hydra resume", user="alice")
    assert any(b["label"] == "End our turn" for b in resumed.message.buttons)
    await h.click(resumed, label="End our turn")
    assert (await cog(h).service.load(1)).game.hydra_turns == 1


async def test_tables_open_in_a_thread_when_the_server_wants_threads(h):
    await h.bot.guild_settings.update(h.guild.id, pod_threads=True)
    reply = await h.slash("hydra start", heads=3)
    thread = h.threads()[0]
    lobby = h.messages(thread)[0]
    assert lobby.embeds[0]["title"] == "Face the Hydra #1 — 3 heads" and "Hydra #1" in thread.name
    assert "<#" in reply.content


async def test_errors_are_localised_and_change_nothing(h):
    lobby = await open_table(h)
    refused = await h.click(lobby, label="Start", user="carol", locale="ja")
    assert refused.ephemeral and "挑戦者だけ" in refused.content
    await h.click(lobby, label="Start")
    opened = await h.click(lobby, label="Damage…", user="alice")
    bad = await h.submit_modal(opened, {"text": "lots"}, locale="zh-TW")
    assert bad.followups[0].ephemeral and "不是整數" in bad.followups[0].content
    assert (await cog(h).service.load(1)).actions == []
    full = await open_table(h, "bob", "carol")
    h.add_member("dave")
    h.add_member("erin")
    await h.click(full, label="Join", user="dave")
    late = await h.click(full, label="Join", user="erin")
    assert late.ephemeral and "full" in late.content


async def test_a_win_at_the_end_of_the_players_turn_opens_no_hydra_turn_message(h):
    lobby = await open_table(h)
    await h.click(lobby, label="Start")
    for _ in range(2):  # seed 5: destroying head 1 twice reveals only sorceries
        await h.select(lobby.message, "hydra-head:1", [_first_head(lobby.message)])
        await h.click(lobby, label="Destroy")
    before = len(h.messages())
    await h.click(lobby, label="End our turn")
    new = h.messages()[before:]
    assert len(new) == 1 and "The Hydra is slain!" in new[0].content


async def test_an_extra_turn_gets_its_own_turn_message(h):
    lobby = await open_table(h)
    await h.click(lobby, label="Start")
    service = cog(h).service
    table = await service.load(1)
    # arrange the cached game (memory only): the Hydra's next card is Strike the Weak Spot, which the
    # players aim at the elite head, so the Hydra takes an extra turn
    rig(
        table.game,
        battlefield=[C.HYDRA_HEAD, C.RAVENOUS_BRUTE_HEAD],
        top=[C.STRIKE_THE_WEAK_SPOT, C.UNIFIED_LUNGE, C.UNIFIED_LUNGE, C.UNIFIED_LUNGE],
    )
    await h.click(lobby, label="End our turn")
    first = latest(h)
    await h.select(first, "hydra-pick:1:strike_target", ["2"])
    await h.click(first, label="Let it resolve")
    await h.click(first, label="Take the damage")
    second = latest(h)
    assert second is not first and first.buttons == []
    assert "The Hydra takes an extra turn." in first.content and "Turn 3: the Hydra's turn." in second.content
    assert "Turn 3" not in first.content and "Unified Lunge" in second.content
    assert {b["label"] for b in second.buttons} >= {"Let it resolve", "Counter it"}


async def test_arming_again_after_another_process_acted_keeps_a_running_timer(h):
    """With several processes, a poke (another process acted at some table) makes the lease holder arm
    every open table from the database (bot.leases): a table whose timer is still armed for its current
    action keeps it, instead of having its wait restarted; a table that moved on gets a new one."""
    lobby = await open_table(h)
    await h.click(lobby, label="Start")
    timer = cog(h).timers.task(1)
    assert timer is not None
    cog(h).turns.poke()  # held here (one process): the poke arms the open tables again
    await cog(h).turns.wait_rearmed()
    assert cog(h).timers.task(1) is timer and not timer.done()
    await cog(h).service.act(
        1, h.user("alice").id, "tap all"
    )  # stored by "another process": no timer armed here
    cog(h).turns.poke()
    await cog(h).turns.wait_rearmed()
    assert cog(h).timers.task(1) is not timer and timer.cancelled()


async def test_a_due_default_runs_to_its_end_when_the_table_is_armed_again_meanwhile(h):
    """A default that fell due is stored, then shown. A re-arm from elsewhere in that gap (a poke after
    another process acted, a restart's reconcile pass) must not cut it off between the two: the turn
    message would keep offering the question the default has already answered."""
    lobby = await open_table(h, window=1)
    await h.click(lobby, label="Start")
    await h.click(lobby, label="End our turn")
    turn = latest(h)
    assert "Counter it" in {b["label"] for b in turn.buttons}
    showing, shown = asyncio.Event(), asyncio.Event()
    refresh_turn_message = cog(h).refresh_turn_message

    async def slow_refresh(table, start):  # the default's turn-message edit waits (a busy Discord)
        showing.set()
        await shown.wait()
        await refresh_turn_message(table, start)

    cog(h).refresh_turn_message = slow_refresh
    advancing = asyncio.create_task(h.advance(seconds=1))
    await asyncio.wait_for(showing.wait(), 5)
    assert (await cog(h).service.load(1)).actions[-1].line == "choose pass"  # stored, not yet shown
    cog(h).turns.poke()  # the table moved on since its timer was armed: it is armed again
    await cog(h).turns.wait_rearmed()
    shown.set()
    await advancing
    await h.settle()
    assert "Counter it" not in {b["label"] for b in turn.buttons}  # the default's outcome was shown
    assert cog(h).timers.pending(1)  # and the next question has its timer
