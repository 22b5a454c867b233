"""Boards posted before the Hydra's and the Horde's and God's panels became one family keep working.

Each board here is posted the way the code before that change posted it: its components written out
literally, in every custom_id format it used (``hydra:``, ``hydra-head:``, ``hydra-pick:``,
``hydra-more:``, ``chal:``, ``chal-pick:``, ``chal-heroes:``), and made the table's stored board. A press
on each must still act on its table, through the real bot (bot/testing harness: only Discord's HTTP edge
is fake) on a real SQLite file.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.domain.hydra import cards as C
from bot.testing import DiscordHarness
from tests.hydra.hydra_helpers import rig


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, members=("alice", "bob")) as harness:
        harness.bot.get_cog("Hydra").fixed_seed = 5  # the reveals of tests/hydra/test_cog.py
        harness.bot.get_cog("Challenge").fixed_seed = 4  # the README's tables (test_readme_walkthroughs.py)
        yield harness


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": custom_id, "custom_id": custom_id}


def menu(custom_id: str, values: list[str], *, high: int = 1, low: int = 1) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "min_values": low,
        "max_values": high,
        "options": [{"label": value, "value": value} for value in values],
    }


async def old_board(h, cog_name: str, game_id: int, component: dict[str, Any]):
    """A board of table ``game_id`` as the code before the change posted it (one component of its), stored
    as the table's board."""
    channel = h.channel("general")
    response = h.fake.handle(
        "POST",
        f"/channels/{channel.id}/messages",
        body={"content": "", "components": [{"type": 1, "components": [component]}]},
    )
    assert response.status == 200, response.body
    message = h.messages("general")[-1]
    assert message.id == int(response.body["id"])
    await h.bot.get_cog(cog_name).service.set_messages(game_id, channel_id=channel.id, message_id=message.id)
    return message


async def press(h, cog_name: str, game_id: int, custom_id: str, **options):
    return await h.click(
        await old_board(h, cog_name, game_id, button(custom_id)), custom_id=custom_id, **options
    )


def lines(table) -> list[str]:
    return [action.line for action in table.actions]


async def test_every_old_hydra_custom_id_still_acts(h):
    hydra = h.bot.get_cog("Hydra")
    await h.slash("hydra start", heads=2, window=0)
    await press(h, "Hydra", 1, "hydra:1:join", user="bob")
    assert (await hydra.service.load(1)).seated(h.user("bob").id)
    await press(h, "Hydra", 1, "hydra:1:leave", user="bob")
    assert not (await hydra.service.load(1)).seated(h.user("bob").id)
    await press(h, "Hydra", 1, "hydra:1:start")
    table = await hydra.service.load(1)
    assert table.row.status == "playing"

    second = table.game.battlefield[1]  # the board's pick names a head by its serial
    await h.select(
        await old_board(h, "Hydra", 1, menu("hydra-head:1", [str(second.serial)])),
        "hydra-head:1",
        [str(second.serial)],
    )
    await press(h, "Hydra", 1, "hydra:1:tap")
    assert lines(await hydra.service.load(1)) == ["tap 2"]
    opened = await press(h, "Hydra", 1, "hydra:1:damage")
    await h.submit_modal(opened, {"text": "1"})
    assert lines(await hydra.service.load(1))[-1] == "damage 2 1"
    more = await old_board(h, "Hydra", 1, menu("hydra-more:1", ["sweep", "extraturn"]))
    await h.select(more, "hydra-more:1", ["extraturn"])
    assert lines(await hydra.service.load(1))[-1] == "extraturn"
    await press(h, "Hydra", 1, "hydra:1:undo")
    assert lines(await hydra.service.load(1))[-1] == "damage 2 1"

    await press(h, "Hydra", 1, "hydra:1:end")
    table = await hydra.service.load(1)
    assert table.game.pending is not None
    topic, default = table.game.pending.topic, table.game.pending.default
    await press(h, "Hydra", 1, f"hydra:1:answer:{topic}:default")
    assert lines(await hydra.service.load(1))[-1] == f"choose {default}"
    await press(h, "Hydra", 1, "hydra:1:concede")
    assert (await hydra.service.load(1)).game.over


async def test_an_old_hydra_head_question_still_takes_its_answer(h):
    hydra = h.bot.get_cog("Hydra")
    await h.slash("hydra start", heads=2, window=0)
    await press(h, "Hydra", 1, "hydra:1:start")
    table = await hydra.service.load(1)
    # the cached game (memory only): the Hydra's next card asks the players for a head (Strike the Weak Spot)
    rig(
        table.game,
        battlefield=[C.HYDRA_HEAD, C.RAVENOUS_BRUTE_HEAD],
        top=[C.STRIKE_THE_WEAK_SPOT, C.UNIFIED_LUNGE, C.UNIFIED_LUNGE, C.UNIFIED_LUNGE],
    )
    await press(h, "Hydra", 1, "hydra:1:end")
    assert (await hydra.service.load(1)).game.pending.topic == "strike_target"
    await h.select(
        await old_board(h, "Hydra", 1, menu("hydra-pick:1:strike_target", ["1", "2"])),
        "hydra-pick:1:strike_target",
        ["2"],
    )
    assert lines(await hydra.service.load(1))[-1] == "choose 2"


async def test_every_old_challenge_custom_id_still_acts(h):
    challenge = h.bot.get_cog("Challenge")
    await h.slash("challenge start", deck="god", window=0)
    await press(h, "Challenge", 1, "chal:1:join", user="bob")
    assert (await challenge.service.load(1)).seated(h.user("bob").id)
    await press(h, "Challenge", 1, "chal:1:start")
    assert (await challenge.service.load(1)).row.status == "playing"
    await h.select(
        await old_board(h, "Challenge", 1, menu("chal-pick:1:perm", ["1", "2"])), "chal-pick:1:perm", ["2"]
    )
    await press(h, "Challenge", 1, "chal:1:destroy")
    assert lines(await challenge.service.load(1)) == ["destroy 2"]
    opened = await press(h, "Challenge", 1, "chal:1:command")
    await h.submit_modal(opened, {"text": "tap 1"})
    assert lines(await challenge.service.load(1))[-1] == "tap 1"
    await press(h, "Challenge", 1, "chal:1:concede")
    assert (await challenge.service.load(1)).game.over

    await h.slash("challenge start", deck="horde", window=0)
    await h.select(
        await old_board(h, "Challenge", 2, menu("chal-heroes:2", ["The Slayer"], low=0, high=3)),
        "chal-heroes:2",
        ["The Slayer"],
    )
    assert (await challenge.service.load(2)).heroes_of(h.user("alice").id) == ("The Slayer",)
    await press(h, "Challenge", 2, "chal:2:start")
    opened = await press(h, "Challenge", 2, "chal:2:hit")
    await h.submit_modal(opened, {"text": "5"})
    for _ in range(3):
        await press(h, "Challenge", 2, "chal:2:end")
    table = await challenge.service.load(2)
    assert table.game.pending.topic == "counter"  # the README's Phoberos Reaver: "Counter it?"
    await press(h, "Challenge", 2, f"chal:2:answer:{table.game.pending.default}")
    await press(h, "Challenge", 2, "chal:2:answer:counter")  # Minotaur Goreseeker
    assert (await challenge.service.load(2)).game.pending.topic == "blocks"
    await h.select(
        await old_board(h, "Challenge", 2, menu("chal-pick:2:blocks", ["1"])), "chal-pick:2:blocks", ["1"]
    )
    assert lines(await challenge.service.load(2))[-1] == "choose 1"
