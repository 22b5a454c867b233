"""A test-only cog using every Discord feature the harness must carry faithfully.

Loaded into the real bot with ``DiscordHarness.start(..., on_boot=add_lab_cog)``.
"""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

RED = (200, 30, 40)


class LabView(discord.ui.View):
    """Persistent: every item has a stable custom_id and the view is re-added on each start."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Confirm", custom_id="lab:confirm", style=discord.ButtonStyle.success)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"Confirmed by {interaction.user.name}", view=self)

    @discord.ui.button(label="Rename", custom_id="lab:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(RenameModal())

    @discord.ui.button(label="Locked", custom_id="lab:locked", disabled=True)
    async def locked(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise AssertionError("a disabled button cannot be pressed")

    @discord.ui.select(
        custom_id="lab:pick",
        placeholder="Pick a colour",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=c, value=c.lower()) for c in ("Red", "Green", "Blue")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"Picked {', '.join(select.values)}", ephemeral=True)


class CounterView(discord.ui.View):
    """Not persistent: routed by message id while the bot runs, gone after a restart."""

    def __init__(self) -> None:
        super().__init__(timeout=600)
        self.count = 0

    @discord.ui.button(label="Count")
    async def count_up(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"Count {self.count}")


class RenameModal(discord.ui.Modal, title="Rename"):
    name = discord.ui.TextInput(label="New name", custom_id="lab:name", default="old")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Renamed to {self.name.value}")


class LabCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    lab = app_commands.Group(name="lab", description="Harness self-test commands")
    deep = app_commands.Group(name="deep", description="A subcommand group", parent=lab)

    @lab.command(name="board", description="Post the persistent view")
    async def board(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Board", view=LabView())

    @lab.command(name="slow", description="Defer, then answer twice")
    async def slow(self, interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await interaction.followup.send("first")
        await interaction.followup.send("second")
        await interaction.edit_original_response(content="first (edited)")

    @lab.command(name="twice", description="Acknowledge twice (a bug)")
    async def twice(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        await interaction.response.send_message("two")

    @lab.command(name="sleepy", description="Answer too late")
    async def sleepy(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("late")

    @lab.command(name="image", description="Send a PNG")
    async def image(
        self, interaction: discord.Interaction, width: app_commands.Range[int, 1, 500] = 64
    ) -> None:
        buffer = io.BytesIO()
        Image.new("RGB", (width, 32), RED).save(buffer, "PNG")
        buffer.seek(0)
        embed = discord.Embed(title="Red").set_image(url="attachment://red.png")
        await interaction.response.send_message(embed=embed, file=discord.File(buffer, "red.png"))

    @lab.command(name="announce", description="Post in the channel, open a thread, edit the post")
    async def announce(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        message = await interaction.channel.send(text)
        thread = await message.create_thread(name=f"about {text}")
        await thread.send("in the thread")
        await message.edit(content=f"{text} (see thread)")

    @lab.command(name="greet", description="Mention someone")
    async def greet(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        role: discord.Role | None = None,
        where: discord.TextChannel | None = None,
    ) -> None:
        extra = f" as {role.name}" if role else ""
        place = f" in #{where.name}" if where else ""
        await interaction.response.send_message(f"Hello {member.display_name}{extra}{place}")

    @deep.command(name="echo", description="Echo text n times")
    async def echo(self, interaction: discord.Interaction, text: str, times: int = 1) -> None:
        await interaction.response.send_message(" ".join([text] * times))

    @lab.command(name="card", description="Autocomplete a colour")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"Card {name}")

    @card.autocomplete("name")
    async def card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        names = ["Sol Ring", "Solemn Simulacrum", "Swords to Plowshares"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.lower().startswith(current.lower())]

    @lab.command(name="counter", description="A non-persistent view")
    async def counter(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Count 0", view=CounterView())

    @lab.command(name="whisper", description="DM someone a button")
    async def whisper(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await member.send("psst", view=LabView())
        await interaction.response.send_message("sent", ephemeral=True)

    @lab.command(name="webhook", description="Use a route the fake Discord does not model")
    async def webhook(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.channel.create_webhook(name="unmodelled")

    @lab.command(name="upload", description="Read an uploaded file")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        await interaction.response.send_message(f"{file.filename}: {data.decode()}")


async def add_lab_cog(bot: commands.Bot) -> None:
    await bot.add_cog(LabCog(bot))
    bot.add_view(LabView())
