"""Every slash option's registered range, enforced where the value is read.

A command registers ``app_commands.Range[int, 1, 50]`` and Discord's own client keeps to it, but the
range is only a promise of the client: a crafted request, or an old client, sends any number, and
discord.py passes it on unchecked. ``life: 999999999999`` then reached the game, and a ``game:`` of
twenty digits overflowed SQLite's 64-bit integers (a traceback). So the command tree checks every
option before any command runs (``refuse_out_of_range``, the tree's ``interaction_check``): a number
outside its range - or, for one registered without a range, outside what Discord itself allows
(±2^53) - and a text outside its length range are refused privately, in the member's language, and
nothing runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.i18n import t

DISCORD_INTEGER_BOUND = 2**53  # Discord's own limit on integer and number options
NUMBER_TYPES = (discord.AppCommandOptionType.integer.value, discord.AppCommandOptionType.number.value)
STRING_TYPE = discord.AppCommandOptionType.string.value


@dataclass(frozen=True)
class OutOfRange:
    """An option whose value is outside its range: the refusal's message key and values."""

    option: str
    low: int | float
    high: int | float
    key: str


def out_of_range(
    command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]
) -> OutOfRange | None:
    """The first of ``options`` (the interaction's, as Discord sent them) outside its registered range."""
    parameters = {parameter.display_name: parameter for parameter in command.parameters}
    for option in options:
        parameter = parameters.get(option.get("name", ""))
        value = option.get("value")
        if parameter is None or value is None:
            continue
        if option.get("type") in NUMBER_TYPES:
            found = _number_out_of_range(parameter, value)
        elif option.get("type") == STRING_TYPE and isinstance(value, str):
            found = _text_out_of_range(parameter, value)
        else:
            found = None
        if found is not None:
            return found
    return None


def _number_out_of_range(parameter: app_commands.Parameter, value: Any) -> OutOfRange | None:
    low = parameter.min_value if parameter.min_value is not None else -DISCORD_INTEGER_BOUND
    high = parameter.max_value if parameter.max_value is not None else DISCORD_INTEGER_BOUND
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        return OutOfRange(parameter.display_name, low, high, "core.error.number_out_of_range")
    return None


def _text_out_of_range(parameter: app_commands.Parameter, value: str) -> OutOfRange | None:
    low, high = parameter.min_value, parameter.max_value  # a text option's range is its length
    if low is None and high is None:
        return None
    if (low is not None and len(value) < low) or (high is not None and len(value) > high):
        return OutOfRange(
            parameter.display_name,
            low or 0,
            high if high is not None else 6000,
            "core.error.text_out_of_range",
        )
    return None


async def refuse_out_of_range(interaction: discord.Interaction) -> bool:
    """The command tree's ``interaction_check``: False (and the member told) when an option is out of range."""
    if interaction.type != discord.InteractionType.application_command:
        return True
    tree = interaction.client.tree  # type: ignore[attr-defined]
    try:
        command, options = tree._get_app_command_options(interaction.data)
    except app_commands.CommandNotFound:
        return True  # discord.py answers an unknown command itself
    if not isinstance(command, app_commands.Command):
        return True
    found = out_of_range(command, options)
    if found is None:
        return True
    from bot.client import send_ephemeral  # the client imports the cogs package: import late
    from cogs._common import bot_of

    language = await bot_of(interaction).language_for(interaction)
    await send_ephemeral(
        interaction, t(found.key, language, option=found.option, low=found.low, high=found.high)
    )
    return False
