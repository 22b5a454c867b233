"""``/card name:`` — show a card, found by its English, Japanese or Chinese name.

The lookup is the card database's one ``resolve`` (exact, any case/accents/punctuation, either face,
printed names); autocomplete offers names in the user's language. The embed shows the printed
name in the user's language beside the English one, never a machine translation (GLOSSARY.md).
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.cards.index import Resolution, display_name, face_parts
from bot.cards.messages import maybe_newer_text, sentence_gap
from bot.cards.model import Card, Face
from bot.client import PodkeeperBot
from bot.i18n import Translate
from bot.i18n.glossary import join_list
from bot.text import ECHO, fit
from cogs._common import card_choices, command_text
from cogs._errors import RefusingCog

EMBED_TITLE_MAX = 256  # Discord's limit for an embed title
FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096
IDENTITY_COLOURS = {
    "W": discord.Colour.from_rgb(248, 231, 185),
    "U": discord.Colour.from_rgb(14, 104, 171),
    "B": discord.Colour.from_rgb(21, 11, 0),
    "R": discord.Colour.from_rgb(211, 32, 42),
    "G": discord.Colour.from_rgb(0, 115, 62),
    "": discord.Colour.light_grey(),
}
MULTICOLOUR = discord.Colour.gold()
RELOAD_CHECK_MINUTES = 5


_T = command_text("cards")  # command texts under ``app.cards.<text>``


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _face_body(face: Face, tr: Translate) -> str:
    """Type line, rules text and P/T or loyalty of one face."""
    lines = [f"**{face.type_line}**"] if face.type_line else []
    if face.oracle_text:
        lines.append(face.oracle_text)
    if face.power is not None or face.toughness is not None:
        lines.append(
            tr("core.label_value", label=tr("cards.power_toughness"), value=f"{face.power}/{face.toughness}")
        )
    if face.loyalty is not None:
        lines.append(tr("core.label_value", label=tr("cards.loyalty"), value=face.loyalty))
    return "\n".join(lines) or "—"


def _printed_faces(card: Card, language: str) -> list[str | None]:
    """The printed name of each face, when the printed name splits into as many parts as there are faces."""
    printed = card.printed_names.get(language)
    parts = face_parts(printed) if printed else []
    return list(parts) if len(parts) == len(card.faces) else [None] * len(card.faces)


def card_embed(card: Card, tr: Translate) -> discord.Embed:
    """The card as an embed: name in the user's language and English, cost, type, text, P/T, identity."""
    identity = card.color_identity
    colour = IDENTITY_COLOURS.get(identity, MULTICOLOUR) if len(identity) <= 1 else MULTICOLOUR
    embed = discord.Embed(title=display_name(card, tr.language, limit=EMBED_TITLE_MAX), colour=colour)
    if card.faces:
        for face, printed in zip(card.faces, _printed_faces(card, tr.language), strict=True):
            label = f"{printed} ({face.name})" if printed and printed != face.name else face.name
            embed.add_field(
                name=_clip(f"{label}  {face.mana_cost}".strip(), 256),
                value=_clip(_face_body(face, tr), FIELD_LIMIT),
                inline=False,
            )
    else:
        head = f"{card.mana_cost}\n" if card.mana_cost else ""
        embed.description = _clip(head + _face_body(card.front, tr), DESCRIPTION_LIMIT)
    embed.add_field(name=tr("cards.colour_identity"), value=identity or tr("cards.colourless"), inline=True)
    embed.add_field(
        name=tr("cards.commander"),
        value=tr(f"cards.legality.{card.commander_legality}")
        if card.commander_legality in ("legal", "banned", "not_legal")
        else card.commander_legality,
        inline=True,
    )
    return embed


def not_found_message(resolution: Resolution, tr: Translate) -> str:
    """Why no card was shown, with what the user may have meant (names are English, as stored)."""
    name = fit(resolution.query, ECHO)
    if resolution.ambiguous:
        return tr("cards.ambiguous", name=name, cards=fit(join_list(resolution.ambiguous, tr.language), 1500))
    if resolution.newer is not None:
        return sentence_gap(tr.language).join(
            (
                tr("cards.not_found", name=name),
                maybe_newer_text(resolution.newer, resolution.suggestions, tr.language),
            )
        )
    if resolution.suggestions:
        return tr("cards.did_you_mean", name=name, suggestions=list(resolution.suggestions))
    return tr("cards.not_found", name=name)


class CardsCog(RefusingCog, commands.Cog):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.follow_card_data.start()

    async def cog_unload(self) -> None:
        self.follow_card_data.cancel()

    @tasks.loop(minutes=RELOAD_CHECK_MINUTES)
    async def follow_card_data(self) -> None:
        """Pick up ``podkeeper cards sync``/``import`` run while the bot is up (one cheap query)."""
        cards = self.bot.cards
        if cards is not None:
            await cards.reload_if_changed()

    @follow_card_data.before_loop
    async def _wait_one_period(self) -> None:
        await asyncio.sleep(RELOAD_CHECK_MINUTES * 60)

    @app_commands.command(
        name=_T("card"), description=_T("Show a card (name in English, Japanese or Chinese)")
    )
    @app_commands.describe(name=_T("The card's name; pick from the list or type it"))
    @app_commands.rename(name=_T("name"))
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        tr = Translate(await self.bot.language_for(interaction))
        resolution = self.bot.cards.resolve(name)
        if resolution.card is None:
            await interaction.response.send_message(
                not_found_message(resolution, tr),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        await interaction.response.send_message(embed=card_embed(resolution.card, tr))

    @card.autocomplete("name")
    async def name_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(interaction, current)


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(CardsCog(bot))
