"""The pod board's forms: any life change, a counter, commander names, commander damage."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.domain import pod
from bot.domain.pod import PodError
from bot.i18n import Translate

if TYPE_CHECKING:
    from cogs.pods.base import PodsBase
    from cogs.pods.commanders import PodCommanders

POISON_WORDS = {"poison", "毒", "中毒", "毒カウンター"}


class AmountModal(discord.ui.Modal):
    """Any life change or an exact total, optionally as combat damage from a seat (tournament stats)."""

    def __init__(self, cog: PodsBase, game_id: int, target: int, target_name: str, tr: Translate) -> None:
        super().__init__(title=tr("pod.modal.life_title", name=target_name)[:45])
        self.cog, self.game_id, self.target, self.tr = cog, game_id, target, tr
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=tr("pod.modal.amount")[:45],
            required=False,
            max_length=8,
            placeholder="-3",
            custom_id="amount",
        )
        self.total: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=tr("pod.modal.total")[:45], required=False, max_length=8, custom_id="total"
        )
        self.source: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=tr("pod.modal.combat_from")[:45], required=False, max_length=2, custom_id="source"
        )
        for field in (self.amount, self.total, self.source):
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        amount, total = self.amount.value.strip(), self.total.value.strip()
        if bool(amount) == bool(total):
            await self.cog.send_error(interaction, PodError("bad_amount"))
            return
        data: dict[str, Any] = {"player": self.target}
        if self.source.value.strip():
            loaded = await self.cog.service.get(self.game_id)
            seat = int_or_none(self.source.value)
            if seat is None or not 1 <= seat <= len(loaded.state.players):
                await self.cog.send_error(interaction, PodError("bad_seat"))
                return
            data.update(source=loaded.state.players[seat - 1].user_id, combat=True)
        if amount:
            await self.cog.act(interaction, self.game_id, pod.LIFE, amount=int_or_text(amount), **data)
        else:
            await self.cog.act(interaction, self.game_id, pod.SET_LIFE, total=int_or_text(total), **data)


class CounterModal(discord.ui.Modal):
    """Poison or a named counter (energy, experience, storm …) for the selected player."""

    def __init__(self, cog: PodsBase, game_id: int, target: int, target_name: str, tr: Translate) -> None:
        super().__init__(title=tr("pod.modal.counter_title", name=target_name)[:45])
        self.cog, self.game_id, self.target = cog, game_id, target
        self.name: discord.ui.TextInput[CounterModal] = discord.ui.TextInput(
            label=tr("pod.modal.counter_name")[:45],
            max_length=pod.MAX_COUNTER_NAME,
            placeholder=tr("pod.modal.counter_hint")[:100],
            custom_id="name",
        )
        self.amount: discord.ui.TextInput[CounterModal] = discord.ui.TextInput(
            label=tr("pod.modal.amount")[:45], max_length=8, placeholder="+1", custom_id="amount"
        )
        self.add_item(self.name)
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        name = self.name.value.strip()
        amount = int_or_text(self.amount.value)
        if name.lower() in POISON_WORDS:
            await self.cog.act(interaction, self.game_id, pod.POISON, player=self.target, amount=amount)
        else:
            await self.cog.act(
                interaction, self.game_id, pod.COUNTER, player=self.target, name=name, amount=amount
            )


class CommanderModal(discord.ui.Modal):
    """Name one's commander(s) by typing (until a registered deck can be picked); partners in field 2."""

    def __init__(self, cog: PodCommanders, game_id: int, player: int, tr: Translate) -> None:
        super().__init__(title=tr("pod.modal.commanders_title")[:45])
        self.cog, self.game_id, self.player = cog, game_id, player
        self.first: discord.ui.TextInput[CommanderModal] = discord.ui.TextInput(
            label=tr("pod.modal.commander")[:45], required=False, max_length=150, custom_id="commander"
        )
        self.second: discord.ui.TextInput[CommanderModal] = discord.ui.TextInput(
            label=tr("pod.modal.partner")[:45], required=False, max_length=150, custom_id="partner"
        )
        self.add_item(self.first)
        self.add_item(self.second)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.name_commanders(
            interaction, self.game_id, self.player, [self.first.value, self.second.value]
        )


class DamageModal(discord.ui.Modal):
    """How much combat damage the chosen commander dealt the chosen player (G5)."""

    def __init__(
        self, cog: PodsBase, game_id: int, commander: str, target: int, title: str, tr: Translate
    ) -> None:
        super().__init__(title=title[:45])
        self.cog, self.game_id, self.commander, self.target = cog, game_id, commander, target
        self.amount: discord.ui.TextInput[DamageModal] = discord.ui.TextInput(
            label=tr("pod.modal.damage")[:45], max_length=4, placeholder="5", custom_id="damage"
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.act(
            interaction,
            self.game_id,
            pod.COMMANDER_DAMAGE,
            commander=self.commander,
            target=self.target,
            amount=int_or_text(self.amount.value),
        )


def int_or_none(text: str) -> int | None:
    try:
        return int(text.strip().replace("+", "", 1))
    except ValueError:
        return None


def int_or_text(text: str) -> int | str:
    """A typed number as int; anything else stays text so the domain refuses it with bad_amount."""
    number = int_or_none(text)
    return text if number is None else number
