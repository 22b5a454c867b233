"""The deck cog: ``/deck check|register|list|show|delete|export`` and reading what was given (an option,
a file, a deck link or the form); see the package's docstring."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot.client import PodkeeperBot
from bot.config import RULESETS
from bot.domain.decklist import MAX_BYTES, DecklistRefused
from bot.i18n import Translate
from bot.i18n.glossary import ruleset_name
from bot.leases import leases_of
from bot.render.deck import refusal_message
from bot.render.deck_text import change_line, escape, paginate, printed_names, unflatten
from bot.services.deck_urls import DeckUrlFetcher
from bot.services.decks import DeckService, export_text
from cogs._common import card_choices, command_text, is_manager
from cogs._errors import RefusingCog
from cogs.decks.buttons import DeckButtons
from cogs.decks.components import ConfirmButton, PageButton
from cogs.decks.modals import DeckListModal
from cogs.decks.notices import send_change_notices
from cogs.decks.panels import STATUS_MARK, PagedReply, PendingOverwrite

log = logging.getLogger(__name__)
T = TypeVar("T")

ATTACHMENT_TYPES = (".txt", ".dek", ".cod", ".dck", ".csv")
DECKS_PER_PAGE = 20
CARD_DATA_CHECK_MINUTES = 5

_T = command_text("deck")

RULESET_CHOICES = [
    app_commands.Choice(name=locale_str(name, key=f"app.deck.ruleset.{name}"), value=name)
    for name in RULESETS
]


class DeckCog(RefusingCog, DeckButtons, commands.Cog, name="Decks"):
    deck = app_commands.Group(
        name=_T("deck"), description=_T("Check and register Commander decks"), guild_only=True
    )

    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.kept: OrderedDict[str, PagedReply | PendingOverwrite] = OrderedDict()
        # Every check (commands, re-checks after a ruleset or card data change) runs in the work pool.
        self.service = DeckService(bot.db, bot.cards, offload=bot.workers.run)
        self.fetcher = DeckUrlFetcher.from_config(bot.config)
        self.rechecking = asyncio.Lock()  # the card-data poll and a sync's event must not re-check twice
        # With several processes on one database, one re-checks (and tells each owner once): the holder
        # of this lease (bot.leases); the others poke it when they see new card data.
        self.rechecks = leases_of(bot).lease("deck-rechecks", lambda _taking_over: self._recheck())

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton, ConfirmButton)
        self.service.cards_version = str(self.bot.cards.version)
        await self.rechecks.start()
        self.follow_card_data.start()

    async def cog_unload(self) -> None:
        self.rechecks.stop()
        self.follow_card_data.cancel()

    async def refresh_card_version(self) -> None:
        """Re-check decks checked against other card data than the current one (the card database's
        ``version`` is the sequence number of its newest import), then tell owners whose verdict changed."""
        self.service.cards_version = str(self.bot.cards.version)
        if self.rechecks.runs_here():
            await self._recheck()

    async def _recheck(self) -> None:
        async with self.rechecking:
            self.service.cards_version = str(self.bot.cards.version)
            changed = await self.service.recheck_stale(self.bot.ruleset_for)
            if changed:
                log.info("re-checked %d registered decks against new card data", changed)
            await send_change_notices(self.bot, self.service)

    @tasks.loop(minutes=CARD_DATA_CHECK_MINUTES)
    async def follow_card_data(self) -> None:
        """The cards feature reloads the index when ``cards sync`` ran; notice it here (no query)."""
        if str(self.bot.cards.version) != self.service.cards_version:
            await self.refresh_card_version()

    @commands.Cog.listener()
    async def on_ruleset_changed(self, guild_id: int, ruleset: str) -> None:
        changed = await self.service.recheck_guild(guild_id, ruleset)
        log.info("ruleset of guild %s is now %s: %d deck verdicts changed", guild_id, ruleset, changed)

    @commands.Cog.listener()
    async def on_card_data_changed(self, *_: Any) -> None:
        await self.refresh_card_version()

    # -- reading the input ----------------------------------------------------------------------------

    async def _refuse_file(
        self, interaction: discord.Interaction, tr: Translate, file: discord.Attachment | None
    ) -> bool:
        """Tell the user (and return True) when the attachment can't be a deck list; nothing is read."""
        if file is None:
            return False
        if not file.filename.lower().endswith(ATTACHMENT_TYPES):
            await self._error(interaction, tr("deck.refused.file_type", filename=escape(file.filename)))
            return True
        if file.size > MAX_BYTES:
            await self._error(interaction, tr("deck.refused.too_large", size=file.size, limit=MAX_BYTES))
            return True
        return False

    @staticmethod
    async def _read_input(
        text: str | None, file: discord.Attachment | None
    ) -> tuple[bytes | str, str | None]:
        """The list from the file (a download: after deferring) or the option."""
        if file is not None:
            return await file.read(), file.filename
        return unflatten(text or ""), None

    async def _read_url(
        self, interaction: discord.Interaction, tr: Translate, url: str
    ) -> tuple[bytes | str, str | None] | None:
        """An Archidekt or Moxfield deck fetched as list text (after the deferral: a site may take seconds)."""
        try:
            fetched = await self.fetcher.fetch(url)
        except DecklistRefused as refusal:
            await self._error(interaction, refusal_message(refusal, tr.language))
            return None
        return fetched.text, None

    async def _ruleset(self, interaction: discord.Interaction, chosen: str | None) -> str:
        return chosen or await self.bot.ruleset_for(interaction.guild_id)

    # -- commands -----------------------------------------------------------------------------------------

    @deck.command(name=_T("check"), description=_T("Check a deck list's legality (nothing is saved)"))
    @app_commands.describe(
        decklist=_T("The list (or leave empty for a text box)"),
        file=_T("A deck file: .txt, .dek, .cod, .dck or .csv"),
        commander=_T("The commander, if the list names none"),
        ruleset=_T("Ruleset (default: this server's)"),
        url=_T("An Archidekt or Moxfield deck link"),
    )
    @app_commands.rename(
        decklist=_T("decklist"),
        file=_T("file"),
        commander=_T("commander"),
        ruleset=_T("ruleset"),
        url=_T("url"),
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def check(
        self,
        interaction: discord.Interaction,
        decklist: str | None = None,
        file: discord.Attachment | None = None,
        commander: str | None = None,
        ruleset: str | None = None,
        url: str | None = None,
    ) -> None:
        await self._start(interaction, "check", decklist, file, commander=commander, ruleset=ruleset, url=url)

    @deck.command(name=_T("register"), description=_T("Check and save a deck under a name"))
    @app_commands.describe(
        name=_T("Deck name (up to 64 characters)"),
        decklist=_T("The list (or leave empty for a text box)"),
        file=_T("A deck file: .txt, .dek, .cod, .dck or .csv"),
        commander=_T("The commander, if the list names none"),
        url=_T("An Archidekt or Moxfield deck link"),
    )
    @app_commands.rename(
        name=_T("name"), decklist=_T("decklist"), file=_T("file"), commander=_T("commander"), url=_T("url")
    )
    async def register(
        self,
        interaction: discord.Interaction,
        name: str,
        decklist: str | None = None,
        file: discord.Attachment | None = None,
        commander: str | None = None,
        url: str | None = None,
    ) -> None:
        await self._start(interaction, "register", decklist, file, commander=commander, name=name, url=url)

    async def _start(
        self,
        interaction: discord.Interaction,
        action: str,
        text: str | None,
        file: discord.Attachment | None,
        **context: Any,
    ) -> None:
        if not text and file is None and not context.get("url"):
            await interaction.response.send_modal(
                DeckListModal(self, await self._tr(interaction), action, **context)
            )
            return
        await self.run_action(interaction, action, text, file, **context)

    async def run_action(
        self,
        interaction: discord.Interaction,
        action: str,
        text: str | None,
        file: discord.Attachment | None,
        *,
        commander: str | None = None,
        ruleset: str | None = None,
        name: str | None = None,
        url: str | None = None,
    ) -> None:
        """Check or register a list, from an option, a file, a deck link or the modal.

        A heavy job: refused when this user already has ``WorkPool.per_user`` of them; otherwise
        deferred at once (a big list or a busy pool can take longer than Discord's 3 s), then checked
        in the work pool, never on the event loop."""
        tr = await self._tr(interaction)
        await self.service.changes.remember_language(interaction.user.id, tr.language)  # for later notices
        if await self._refuse_file(interaction, tr, file) or not await self._may_start_heavy(interaction, tr):
            return
        with self.workers.heavy(interaction.user.id):
            await interaction.response.defer(ephemeral=True, thinking=True)
            if url:
                read = await self._read_url(interaction, tr, url)
                if read is None:
                    return
                data, filename = read
            else:
                data, filename = await self._read_input(text, file)
            commanders = tuple(c for c in (commander,) if c)
            rules = await self._ruleset(interaction, ruleset)
            if action == "register":
                await self._register(interaction, tr, name or "", data, filename, commanders, rules)
                return
            result = await self._checked(
                interaction, tr, self.service.check(data, rules, filename, commanders)
            )
            if result is not None:
                await self._send_verdict(
                    interaction, tr, result, title=tr("deck.check.title"), ephemeral=True
                )

    async def _register(
        self,
        interaction: discord.Interaction,
        tr: Translate,
        name: str,
        data: bytes | str,
        filename: str | None,
        commanders: tuple[str, ...],
        ruleset: str,
        overwrite: bool = False,
    ) -> None:
        assert interaction.guild_id is not None
        result = await self._checked(
            interaction,
            tr,
            self.service.register(
                interaction.guild_id,
                interaction.user.id,
                name,
                data,
                ruleset,
                filename=filename,
                commander_names=commanders,
                overwrite=overwrite,
            ),
        )
        if result is None:
            return
        if result.needs_confirmation:
            token = self._keep(
                PendingOverwrite(
                    interaction.user.id, interaction.guild_id, name, data, filename, commanders, ruleset
                )
            )
            view = discord.ui.View(timeout=None)
            view.add_item(
                ConfirmButton(
                    "overwrite",
                    interaction.user.id,
                    token,
                    label=tr("deck.button.overwrite"),
                    style=discord.ButtonStyle.danger,
                )
            )
            view.add_item(ConfirmButton("cancel", interaction.user.id, "0", label=tr("core.cancel")))
            await self._reply(
                interaction,
                content=tr("deck.register.confirm", name=escape(name.strip())),
                view=view,
                ephemeral=True,
            )
            return
        assert result.record is not None
        title = tr("deck.register.saved", name=escape(result.record.name))
        await self._send_verdict(interaction, tr, result.check, title=title, ephemeral=True)

    @deck.command(name=_T("list"), description=_T("Your registered decks in this server"))
    async def list_decks(self, interaction: discord.Interaction) -> None:
        tr = await self._tr(interaction)
        records = await self.service.list_decks(interaction.guild_id or 0, interaction.user.id)
        if not records:
            await interaction.response.send_message(tr("deck.list.empty"), ephemeral=True)
            return
        changes = await self.service.changes.for_user(interaction.guild_id or 0, interaction.user.id)
        name_for = printed_names(self.bot.cards, tr.language)  # commanders as the deck check names them
        lines = [
            tr(
                "deck.list.line",
                mark=STATUS_MARK.get(r.status, "?"),
                name=escape(r.name),
                commanders=escape(" + ".join(name_for(c) for c in r.commanders)) or tr("deck.summary.none"),
                ruleset=ruleset_name(r.ruleset, tr.language),
                status=tr(f"deck.status.{r.status}"),
            )
            + change_line(tr, changes.get(r.id))
            for r in records
        ]
        pages = PagedReply(
            interaction.user.id,
            tr("deck.list.title", count=len(records)),
            paginate(lines, per_page=DECKS_PER_PAGE),
            self._list_embed,
        )
        await self._send_paged(interaction, tr, pages, ephemeral=True)

    @deck.command(name=_T("show"), description=_T("Show a registered deck's verdict"))
    @app_commands.describe(name=_T("Deck name"))
    @app_commands.rename(name=_T("name"))
    async def show(self, interaction: discord.Interaction, name: str) -> None:
        tr = await self._tr(interaction)
        record = await self.service.get(interaction.guild_id or 0, interaction.user.id, name)
        if record is None:
            await self._error(interaction, tr("deck.error.not_found", name=escape(name)))
            return
        await interaction.response.defer(thinking=True)  # the re-check may wait for the work pool
        result = await self._checked(
            interaction, tr, self.service.show(record, await self._ruleset(interaction, None))
        )
        if result is not None:
            await self._send_verdict(interaction, tr, result, title=escape(record.name), ephemeral=False)

    @deck.command(name=_T("export"), description=_T("Download a registered deck as a text file"))
    @app_commands.describe(name=_T("Deck name"))
    @app_commands.rename(name=_T("name"))
    async def export(self, interaction: discord.Interaction, name: str) -> None:
        tr = await self._tr(interaction)
        record = await self.service.get(interaction.guild_id or 0, interaction.user.id, name)
        if record is None:
            await self._error(interaction, tr("deck.error.not_found", name=escape(name)))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        result = await self._checked(
            interaction,
            tr,
            self.service.check(record.raw_list, record.ruleset, commander_names=record.commanders),
        )
        if result is None:
            return
        filename = re.sub(r"[^\w\-]+", "_", record.name, flags=re.UNICODE).strip("_")[:60] or "deck"
        text = export_text(result.deck).encode("utf-8")
        await interaction.followup.send(
            tr("deck.export.done", name=escape(record.name)),
            file=discord.File(io.BytesIO(text), filename=f"{filename}.txt"),
            ephemeral=True,
        )

    @deck.command(name=_T("delete"), description=_T("Delete a registered deck"))
    @app_commands.describe(name=_T("Deck name"), owner=_T("Whose deck (Manage Server only; default: yours)"))
    @app_commands.rename(name=_T("name"), owner=_T("owner"))
    async def delete(
        self, interaction: discord.Interaction, name: str, owner: discord.Member | None = None
    ) -> None:
        tr = await self._tr(interaction)
        owner_id = owner.id if owner is not None else interaction.user.id
        if owner_id != interaction.user.id and not is_manager(interaction):
            await self._error(interaction, tr("core.error.missing_permission"))
            return
        record = await self.service.get(interaction.guild_id or 0, owner_id, name)
        if record is None:
            await self._error(interaction, tr("deck.error.not_found", name=escape(name)))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(
            ConfirmButton(
                "delete",
                interaction.user.id,
                format(record.id, "x"),
                label=tr("deck.button.delete"),
                style=discord.ButtonStyle.danger,
            )
        )
        view.add_item(ConfirmButton("cancel", interaction.user.id, "0", label=tr("core.cancel")))
        key = "deck.delete.confirm" if owner_id == interaction.user.id else "deck.delete.confirm_other"
        await interaction.response.send_message(
            tr(key, name=escape(record.name), owner=f"<@{owner_id}>"),
            view=view,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # -- autocomplete --------------------------------------------------------------------------------------

    @show.autocomplete("name")
    @export.autocomplete("name")
    @delete.autocomplete("name")
    @register.autocomplete("name")
    async def deck_name_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = await self.service.repository.search_names(
            interaction.guild_id or 0, interaction.user.id, current
        )
        return [app_commands.Choice(name=n[:100], value=n) for n in names]

    @check.autocomplete("commander")
    @register.autocomplete("commander")
    async def card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(interaction, current)
