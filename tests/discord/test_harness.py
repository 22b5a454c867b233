"""Self-tests of the in-process Discord harness (bot/testing), through the real admin cog.

They check that the harness is faithful where a fake could lie: real Interaction parsing and
CommandTree dispatch, ephemeral flags, permission checks seen by the bot, a double acknowledgement
refused, the interaction deadline, files delivered as bytes, clicks on persistent views routed
after a restart, and an unknown route reported loudly.
"""

from __future__ import annotations

import discord
import pytest

from bot.testing import DiscordHarness, HarnessError
from bot.testing.fakediscord.model import PERMISSIONS


async def test_ping_goes_through_the_real_tree_and_is_ephemeral(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        reply = await h.slash("ping")
        assert reply.ephemeral
        assert reply.content.startswith("Pong!")
        (callback,) = reply.callbacks
        assert callback.json["type"] == 4 and callback.json["data"]["flags"] & 64


async def test_reply_follows_the_users_locale(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        assert (await h.slash("ping", locale="ja")).content.startswith("ポン！")
        assert (await h.slash("ping", locale="zh-TW")).content.startswith("乒！閘道延遲")


async def test_unknown_command_and_option_fail_loudly(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        with pytest.raises(HarnessError, match="no slash command /nope"):
            await h.slash("nope")
        with pytest.raises(HarnessError, match="no option 'wrong'"):
            await h.slash("config pod-threads", user="admin", wrong=True)


def test_permission_names_agree_with_discord_py() -> None:
    for name, value in PERMISSIONS.items():
        assert getattr(discord.Permissions, name).flag == value, name


# -- the full surface, through a test-only cog ------------------------------------------------------

import io  # noqa: E402

from PIL import Image  # noqa: E402

from bot.testing import UploadFile  # noqa: E402
from tests.discord.labcog import RED, add_lab_cog  # noqa: E402


def lab(tmp_path, **kwargs):
    return DiscordHarness.start(tmp_path, on_boot=add_lab_cog, **kwargs)


async def test_button_edits_the_message_and_select_values_arrive(tmp_path) -> None:
    async with lab(tmp_path) as h:
        board = await h.slash("lab board")
        assert not board.ephemeral and [b["label"] for b in board.message.buttons] == [
            "Confirm",
            "Rename",
            "Locked",
        ]
        click = await h.click(board, label="Confirm", user="bob")
        assert click.response_type == 7 and click.message is board.message
        assert board.message.content == "Confirmed by bob"
        assert [v.content for v in board.message.history] == ["Board", "Confirmed by bob"]
        picked = await h.select(board.message, "lab:pick", ["red", "blue"])
        assert picked.content == "Picked red, blue" and picked.ephemeral
        with pytest.raises(HarnessError, match="no options"):
            await h.select(board.message, "lab:pick", ["purple"])
        with pytest.raises(HarnessError, match="disabled"):
            await h.click(board, custom_id="lab:locked")


async def test_modal_opens_and_submits_with_values(tmp_path) -> None:
    async with lab(tmp_path) as h:
        board = await h.slash("lab board")
        opened = await h.click(board, label="Rename")
        assert opened.modal["title"] == "Rename"
        submitted = await h.submit_modal(opened, {"lab:name": "Atraxa"})
        assert submitted.content == "Renamed to Atraxa"
        with pytest.raises(HarnessError, match="never responded"):
            await h.submit_modal(opened, {"lab:name": "again"})  # a modal closes once submitted
        reopened = await h.click(board, label="Rename")
        assert (await h.submit_modal(reopened)).content == "Renamed to old"


async def test_persistent_view_routes_clicks_on_old_messages_after_restart(tmp_path) -> None:
    async with lab(tmp_path) as h:
        board = await h.slash("lab board")
        old_bot = h.bot
        await h.restart()
        assert h.bot is not old_bot and not old_bot.is_open, "restart must close the old bot's database"
        click = await h.click(board, label="Confirm", user="carol")
        assert board.message.content == "Confirmed by carol" and click.message is board.message


async def test_defer_then_followups_fill_the_thinking_message(tmp_path) -> None:
    async with lab(tmp_path) as h:
        reply = await h.slash("lab slow", private=True)
        assert reply.deferred and reply.ephemeral
        assert reply.content == "first (edited)"
        assert [m.content for m in reply.followups] == ["second"]
        assert [v.content for v in reply.message.history] == ["", "first", "first (edited)"]


async def test_double_acknowledgement_is_refused_like_discord(tmp_path) -> None:
    async with lab(tmp_path) as h:
        with pytest.raises(HarnessError, match="InteractionResponded"):
            await h.slash("lab twice")
        reply = await h.slash("lab twice", expect_error=True)
        assert reply.content == "one"


async def test_missed_deadline_is_reported(tmp_path) -> None:
    async with lab(tmp_path, interaction_deadline=0.1) as h:
        with pytest.raises(HarnessError, match="deadline"):
            await h.slash("lab sleepy")


async def test_files_arrive_as_bytes_and_decode(tmp_path) -> None:
    async with lab(tmp_path) as h:
        reply = await h.slash("lab image", width=120)
        image = Image.open(io.BytesIO(reply.files["red.png"]))
        assert image.size == (120, 32) and image.getpixel((5, 5)) == RED
        assert reply.embed["image"]["url"] == "attachment://red.png"


async def test_channel_messages_threads_and_edits_are_recorded(tmp_path) -> None:
    async with lab(tmp_path) as h:
        reply = await h.slash("lab announce", text="pod tonight", channel="games")
        (post, in_thread) = reply.channel_messages
        assert post.content == "pod tonight (see thread)" and post.edited
        assert h.messages("games") == [post]
        (thread,) = h.threads()
        assert thread.name == "about pod tonight" and thread.id == post.id
        assert h.messages(thread) == [in_thread] and in_thread.content == "in the thread"
        assert h.bot.get_channel(thread.id) is not None, "THREAD_CREATE reached the bot's cache"


async def test_entity_options_subcommand_groups_autocomplete_and_uploads(tmp_path) -> None:
    async with lab(tmp_path) as h:
        role = h.add_role("Judge")
        greet = await h.slash("lab greet", member="bob", role=role, where=h.channel("games"))
        assert greet.content == "Hello bob as Judge in #games"
        assert (await h.slash("lab deep echo", text="hi", times=3)).content == "hi hi hi"
        choices = await h.autocomplete("lab card", "name", "sol")
        assert [c["name"] for c in choices] == ["Sol Ring", "Solemn Simulacrum"]
        uploaded = await h.slash("lab upload", file=UploadFile("deck.txt", b"1 Sol Ring"))
        assert uploaded.content == "deck.txt: 1 Sol Ring"


async def test_values_are_checked_like_discords_client_does(tmp_path) -> None:
    async with lab(tmp_path) as h:
        with pytest.raises(HarnessError, match="required option"):
            await h.slash("lab deep echo", times=2)
        with pytest.raises(HarnessError, match="out of range"):
            await h.slash("lab image", width=501)  # discord.py does not enforce Range; Discord's client does
        with pytest.raises(HarnessError, match="must be one of"):
            await h.slash("config ruleset", user="admin", ruleset="modern")
        with pytest.raises(HarnessError, match="needs a subcommand"):
            await h.slash("lab deep")


async def test_settle_waits_for_work_a_cog_schedules_for_later(tmp_path) -> None:
    import asyncio

    async def delayed_edit_cog(bot) -> None:
        from discord import app_commands

        @app_commands.command(name="later", description="Edit the reply after a delay")
        async def later(interaction) -> None:
            await interaction.response.send_message("soon")

            async def edit() -> None:
                await asyncio.sleep(0.3)
                await asyncio.to_thread(lambda: sum(range(10**6)))  # e.g. rendering off the loop
                await interaction.edit_original_response(content="done")

            async def long_timer() -> None:
                await asyncio.sleep(3600)

            loop = asyncio.get_running_loop()
            loop.create_task(edit())
            loop.create_task(long_timer())

        bot.tree.add_command(later)

    async with DiscordHarness.start(tmp_path, on_boot=delayed_edit_cog) as h:
        reply = await h.slash("later")
        assert reply.content == "soon", "the call returns before the delayed edit"
        started = asyncio.get_running_loop().time()
        await h.settle()
        assert reply.content == "done"
        assert asyncio.get_running_loop().time() - started < 1.5, "an hour-long timer does not hold settle()"


async def test_a_route_the_fake_does_not_model_fails_loudly(tmp_path) -> None:
    async with lab(tmp_path) as h:
        with pytest.raises(HarnessError, match=r"POST /channels/\d+/webhooks -> .*fake Discord has no route"):
            await h.slash("lab webhook")


async def test_non_persistent_views_route_by_message_until_a_restart(tmp_path) -> None:
    async with lab(tmp_path) as h:
        counter = await h.slash("lab counter")
        await h.click(counter, label="Count")
        await h.click(counter, label="Count", user="bob")
        assert counter.content == "Count 2"
        await h.restart()
        with pytest.raises(HarnessError, match="never responded"):  # the view died with the old process
            await h.click(counter, label="Count")


async def test_direct_messages_and_clicks_in_them(tmp_path) -> None:
    async with lab(tmp_path) as h:
        await h.slash("lab whisper", member="bob")
        (dm,) = h.messages(h.dm_channel("bob"))
        assert dm.content == "psst" and h.messages() == []
        clicked = await h.click(dm, label="Confirm", user="bob")
        assert clicked.record.guild_id is None and dm.content == "Confirmed by bob"
