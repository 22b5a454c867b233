"""A test-only cog that sends, through real discord.py, bodies that break one of Discord's limits.

``/limits break case:<name>`` runs ``CASES[name]``; it does not catch what Discord answers, like a
careless cog. Loaded with ``DiscordHarness.start(..., on_boot=add_limit_cog)``.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

Case = Callable[[discord.Interaction], Awaitable[None]]


class RawView(discord.ui.View):
    """Sends component rows exactly as given (discord.py's own layout would refuse some of them)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        return self.rows

    def is_finished(self) -> bool:
        return True


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": custom_id, "custom_id": custom_id}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


SELECT = {"type": 3, "custom_id": "pick", "options": [{"label": "a", "value": "a"}]}


async def reply(interaction: discord.Interaction, **kwargs: Any) -> None:
    await interaction.response.send_message(**kwargs)


async def raw_components(interaction: discord.Interaction, rows: list[dict[str, Any]]) -> None:
    await interaction.response.send_message("rows", view=RawView(rows))


class TooLongModal(discord.ui.Modal):
    answer = discord.ui.TextInput(label="Answer")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()


async def scheduled_event(interaction: discord.Interaction, name: str) -> None:
    await interaction.response.defer(ephemeral=True)
    start = datetime.now(UTC) + timedelta(hours=1)
    await interaction.guild.create_scheduled_event(  # type: ignore[union-attr]
        name=name,
        start_time=start,
        end_time=start + timedelta(hours=1),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="here",
    )
    await interaction.followup.send("created", ephemeral=True)


async def thread(interaction: discord.Interaction, name: str) -> None:
    await interaction.response.send_message("ok", ephemeral=True)
    await interaction.channel.create_thread(name=name, type=discord.ChannelType.public_thread)  # type: ignore[union-attr]


async def channel_send(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("ok", ephemeral=True)
    await interaction.channel.send("hello")  # type: ignore[union-attr]


async def give_role(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("ok", ephemeral=True)
    role = max(interaction.guild.roles, key=lambda r: r.position)  # type: ignore[union-attr]
    await interaction.client.http.add_role(interaction.guild_id, interaction.user.id, role.id)  # type: ignore[arg-type]


CASES: dict[str, Case] = {
    "content_2001": lambda i: reply(i, content="x" * 2001),
    "field_1025": lambda i: reply(i, embed=discord.Embed().add_field(name="n", value="v" * 1025)),
    "embeds_6001": lambda i: reply(
        i, embeds=[discord.Embed(description="a" * 4096), discord.Embed(description="b" * 1905)]
    ),
    "fields_26": lambda i: reply(i, embed=_fields(26)),
    "duplicate_custom_id": lambda i: raw_components(i, [row(button("same"), button("same"))]),
    "select_sharing_a_row": lambda i: raw_components(i, [row(SELECT, button("next"))]),
    "six_rows": lambda i: raw_components(i, [row(button(f"b{n}")) for n in range(6)]),
    "modal_title_46": lambda i: i.response.send_modal(TooLongModal(title="t" * 46)),
    "thread_name_101": lambda i: thread(i, "t" * 101),
    "event_name_101": lambda i: scheduled_event(i, "e" * 101),
    "event": lambda i: scheduled_event(i, "Hydra night"),
    "upload_10mib_plus_1": lambda i: reply(
        i, file=discord.File(io.BytesIO(b"\0" * (10 * 1024 * 1024 + 1)), "big.bin")
    ),
    "channel_send": channel_send,
    "give_top_role": give_role,
}


def _fields(count: int) -> discord.Embed:
    embed = discord.Embed(title="many")
    for n in range(count):
        embed.add_field(name=str(n), value="v")
    return embed


class LimitCog(commands.Cog):
    limits = app_commands.Group(name="limits", description="Break one of Discord's limits")

    @limits.command(name="break", description="Send a body Discord refuses")
    async def break_(self, interaction: discord.Interaction, case: str) -> None:
        await CASES[case](interaction)

    @limits.command(name="pick", description="Autocomplete that breaks a limit")
    async def pick(self, interaction: discord.Interaction, value: str) -> None:
        await interaction.response.send_message(value[:100])

    @pick.autocomplete("value")
    async def pick_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        if current == "long":
            return [app_commands.Choice(name="long", value="v" * 101)]
        return [
            app_commands.Choice(name=f"c{n}", value=str(n)) for n in range(26 if current == "many" else 3)
        ]


async def add_limit_cog(bot: commands.Bot) -> None:
    await bot.add_cog(LimitCog())
