"""Commanders at the table: naming them (a registered deck or typed names, checked against the card data
and the ruleset), the declared Commander bracket, and the private commander panel: damage dealt (G5), casts with tax (G3a/G3b)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.domain import pod
from bot.domain.pod import PodError
from bot.domain.pod_commanders import commander_problem
from bot.i18n import Translate
from bot.render.pod_history import commander_label, player_name
from bot.services.decks import deck_bracket
from bot.services.pods import LoadedGame
from bot.text import ECHO, fit
from cogs.pods.board import PodBoard
from cogs.pods.modals import CommanderModal, DamageModal

if TYPE_CHECKING:
    from bot.storage.decks import DeckRecord


class PodCommanders(PodBoard):
    """The cog's layer for commander names (see ``cogs.pods.base`` for the layers)."""

    async def _open_commanders(self, interaction: discord.Interaction, game_id: int, tr: Translate) -> None:
        """Pick one of your registered decks (its commanders, partners as two), or type a name."""
        decks = await self.decks().list_decks(interaction.guild_id or 0, interaction.user.id)
        if not decks:
            await interaction.response.send_modal(CommanderModal(self, game_id, interaction.user.id, tr))
            return
        await interaction.response.send_message(
            tr("pod.panel.deck"), ephemeral=True, view=DeckPanel(self, game_id, decks, tr)
        )

    async def pick_deck(self, interaction: discord.Interaction, game_id: int, deck_name: str) -> None:
        record = await self.decks().get(interaction.guild_id or 0, interaction.user.id, deck_name)
        if record is None:
            await self.send_error(interaction, PodError("unknown_deck"))
            return
        await self.act(
            interaction,
            game_id,
            pod.COMMANDERS,
            player=interaction.user.id,
            names=list(record.commanders) or [None],
            deck=record.name,
            deck_bracket=deck_bracket(record),
        )

    async def declare_bracket(self, interaction: discord.Interaction, loaded: LoadedGame, level: int) -> None:
        """Store the bracket the player declares (BR7), with the lowest bracket their picked registered
        deck checks at, so the board can warn when the deck checks above what was declared."""
        data: dict[str, Any] = {"player": interaction.user.id, "level": level}
        player = next((p for p in loaded.state.players if p.user_id == interaction.user.id), None)
        if player is not None and player.deck:
            record = await self.decks().get(interaction.guild_id or 0, interaction.user.id, player.deck)
            data["deck_bracket"] = deck_bracket(record) if record is not None else None
        await self.act(interaction, loaded.game_id, pod.BRACKET, **data)

    async def name_commanders(
        self, interaction: discord.Interaction, game_id: int, player: int, names: Sequence[str | None]
    ) -> None:
        """Resolve typed commander names against the card data (printed names accepted) and store them."""
        resolved: list[str | None] = []
        found_cards = []
        for raw in names:
            text = (raw or "").strip()
            if not text:
                continue
            cards = self.bot.cards
            if cards is None:
                resolved.append(text)
                continue
            found = cards.resolve(text)
            if not found.found:
                hint = list(found.suggestions[:3]) if found.suggestions else "-"
                await self.send_error(
                    interaction, PodError("unknown_card", name=fit(text, ECHO), suggestions=hint)
                )
                return
            resolved.append(found.card.name)
            found_cards.append(found.card)
        if not await self._commanders_legal(interaction, game_id, found_cards):
            return
        await self.act(interaction, game_id, pod.COMMANDERS, player=player, names=resolved or [None])

    async def _commanders_legal(
        self, interaction: discord.Interaction, game_id: int, cards: Sequence[Any]
    ) -> bool:
        """Refuse, saying why, commanders that can't lead (together) under the game's ruleset."""
        try:
            ruleset = (await self.service.get(game_id)).state.ruleset
        except PodError as error:
            await self.send_error(interaction, error)
            return False
        problem = commander_problem(cards, ruleset)
        if problem is None:
            return True
        tr = await self._tr(interaction)
        key, values = problem
        if "reason" in values:
            values = {**values, "reason": tr(values["reason"])}
        await self.send_error(interaction, PodError(key, **values))
        return False


class CommanderPanel(discord.ui.View):
    """Ephemeral: source commander → player hit → amount (G5); cast with tax (G3a/G3b)."""

    def __init__(self, cog: PodCommanders, loaded: LoadedGame, actor: int, tr: Translate) -> None:
        super().__init__(timeout=600)
        self.cog, self.game_id, self.tr = cog, loaded.game_id, tr
        state = loaded.state
        commanders = state.all_commanders()
        own = [c for c in commanders if c.owner == actor]
        self.commander = (own or commanders)[0].key if commanders else None
        self.target: int | None = None  # nobody is hit by default: the Damage press asks first
        self.source_select: discord.ui.Select[CommanderPanel] = discord.ui.Select(
            placeholder=tr("pod.panel.source"),
            row=0,
            options=[
                discord.SelectOption(
                    label=commander_label(state, c, tr)[:100], value=c.key, default=c.key == self.commander
                )
                for c in commanders
            ][:25]
            or [discord.SelectOption(label="-", value="-")],
        )
        self.target_select: discord.ui.Select[CommanderPanel] = discord.ui.Select(
            placeholder=tr("pod.panel.target"),
            row=1,
            options=[
                discord.SelectOption(label=f"{i + 1} {p.name}"[:100], value=str(p.user_id))
                for i, p in enumerate(state.players)
                if p.alive
            ][:25],
        )
        self.damage: discord.ui.Button[CommanderPanel] = discord.ui.Button(
            label=tr("pod.button.damage"), style=discord.ButtonStyle.danger, row=2
        )
        self.cast: discord.ui.Button[CommanderPanel] = discord.ui.Button(
            label=tr("pod.button.cast"), style=discord.ButtonStyle.primary, row=2
        )
        wired: list[tuple[discord.ui.Item[CommanderPanel], Any]] = [
            (self.source_select, self._pick_source),
            (self.target_select, self._pick_target),
            (self.damage, self._damage),
            (self.cast, self._cast),
        ]
        if state.tax_variant == "G3b":
            zone: discord.ui.Button[CommanderPanel] = discord.ui.Button(
                label=tr("pod.button.command_zone"), row=2
            )
            wired.append((zone, self._command_zone))
        for item, callback in wired:
            item.callback = callback  # type: ignore[method-assign]  # a bound method of this view: no `self` twice
            self.add_item(item)

    async def _pick_source(self, interaction: discord.Interaction) -> None:
        self.commander = self.source_select.values[0]
        await interaction.response.defer()

    async def _pick_target(self, interaction: discord.Interaction) -> None:
        self.target = int(self.target_select.values[0])
        await interaction.response.defer()

    async def _damage(self, interaction: discord.Interaction) -> None:
        if self.commander is None:
            await self.cog.send_error(interaction, PodError("unknown_commander"))
            return
        if self.target is None:
            await self.cog.send_error(interaction, PodError("pick_target"))
            return
        loaded = await self.cog.service.get(self.game_id)
        state = loaded.state
        title = self.tr(
            "pod.modal.damage_title",
            commander=commander_label(state, state.commander(self.commander), self.tr),
            name=player_name(state, self.target),
        )
        await interaction.response.send_modal(
            DamageModal(self.cog, self.game_id, self.commander, self.target, title, self.tr)
        )

    async def _cast(self, interaction: discord.Interaction) -> None:
        """G3a/G3b: record the cast and tell the caster the tax paid and the next cost."""
        loaded = await self.cog.act(interaction, self.game_id, pod.CAST, commander=self.commander)
        if loaded is not None and self.commander is not None:
            state = loaded.state
            commander = state.commander(self.commander)
            await interaction.followup.send(
                self.tr(
                    "pod.cast_done",
                    commander=commander_label(state, commander, self.tr),
                    tax=state.cast_log[-1]["tax"],
                    next=state.next_tax(commander),
                ),
                ephemeral=True,
            )

    async def _command_zone(self, interaction: discord.Interaction) -> None:
        await self.cog.act(interaction, self.game_id, pod.TO_COMMAND_ZONE, commander=self.commander)


class DeckPanel(discord.ui.View):
    """Ephemeral: choose one of your registered decks, or type a commander name instead."""

    def __init__(self, cog: PodCommanders, game_id: int, decks: Sequence[DeckRecord], tr: Translate) -> None:
        super().__init__(timeout=600)
        self.cog, self.game_id, self.tr = cog, game_id, tr
        self.select: discord.ui.Select[DeckPanel] = discord.ui.Select(
            placeholder=tr("pod.panel.deck_placeholder"),
            row=0,
            options=[
                discord.SelectOption(
                    label=d.name[:100],
                    value=d.name[:100],
                    description=(" + ".join(d.commanders) or "-")[:100],
                )
                for d in decks
            ][:25],
        )
        self.select.callback = self._pick  # type: ignore[method-assign]  # a bound method of this view
        self.add_item(self.select)
        typed: discord.ui.Button[DeckPanel] = discord.ui.Button(label=tr("pod.button.type_commander"), row=1)
        typed.callback = self._type  # type: ignore[method-assign]  # a bound method of this view
        self.add_item(typed)

    async def _pick(self, interaction: discord.Interaction) -> None:
        await self.cog.pick_deck(interaction, self.game_id, self.select.values[0])

    async def _type(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(
            CommanderModal(self.cog, self.game_id, interaction.user.id, self.tr)
        )
