"""``/deck check|register|list|show|delete|export``: deck legality verdicts and registered decks.

Thin: options and attachments are read here, the work is ``DeckService`` (bot.services.decks), the
words and the summary image come from ``bot.render.deck``. A list comes from the ``list`` option (one
line: pasted newlines are lost, so "1 A 1 B" is split back into lines), an attached .txt/.dek/.cod/.dck/.csv file,
or — when neither is given — a modal with a long text field.

Buttons are ``DynamicItem``s registered at load. Delete confirmations carry the deck id and the person
who asked, so they work after a restart. Page buttons and overwrite confirmations point at results
kept in memory (a check that saved nothing has nowhere else to live); after a restart they answer
"expired" instead of failing.

Registered decks are re-checked when the server's ruleset changes (``on_ruleset_changed``, dispatched
by the admin cog), when the card data changed since a deck was checked (at load, every few minutes
after the cards feature reloaded its index, and on ``on_card_data_changed`` if anyone dispatches it),
and whenever a deck is shown.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands, tasks

from bot.cards.model import card_name_language
from bot.config import RULESETS
from bot.domain.decklist import MAX_BYTES, DecklistRefused
from bot.i18n import Translate
from bot.render.deck import (
    colour_names,
    note_message,
    problem_message,
    refusal_message,
    summary_image,
    verdict_headline,
)
from bot.services.deck_urls import DeckUrlFetcher
from bot.services.decks import DeckCheck, DeckNameError, DeckService, export_text
from bot.storage.deck_changes import DeckChange
from bot.text import ECHO, fit
from bot.workers import JobTimeout, WorkPool

log = logging.getLogger(__name__)
T = TypeVar("T")

ATTACHMENT_TYPES = (".txt", ".dek", ".cod", ".dck", ".csv")
MODAL_MAX = 4000            # Discord's limit for one text input
PROBLEMS_PER_PAGE = 12
DECKS_PER_PAGE = 20
PAGE_CHARACTERS = 3500      # an embed description holds 4096
CARD_DATA_CHECK_MINUTES = 5
KEPT_RESULTS = 500          # page sets and pending overwrites kept in memory
STATUS_COLOUR = {"legal": discord.Colour.green(), "illegal": discord.Colour.red(),
                 "unverifiable": discord.Colour.orange()}
STATUS_MARK = {"legal": "✅", "illegal": "❌", "unverifiable": "❔"}
_INLINE_ENTRY = re.compile(r"\s+(?=\d{1,3}x?\s+\S)")


def _T(text: str) -> locale_str:
    return locale_str(text, key=f"app.deck.{text}")


RULESET_CHOICES = [app_commands.Choice(name=locale_str(name, key=f"app.deck.ruleset.{name}"), value=name)
                   for name in RULESETS]


def escape(text: str) -> str:
    """User text (deck names, unknown card names) shown as written, never as markdown or a ping,
    and cut to ``ECHO`` characters: an option can hold 6,000, a message 2,000."""
    return fit(discord.utils.escape_mentions(text), ECHO)


def unflatten(text: str) -> str:
    """A list pasted into a one-line option ("1 Sol Ring 1 Island") back into lines."""
    if "\n" in text or len(_INLINE_ENTRY.findall(text)) < 1:
        return text
    return _INLINE_ENTRY.sub("\n", text.strip())


# -- what a reply is built from ---------------------------------------------------------------------------

@dataclass
class PagedReply:
    """A long reply cut into pages (every line is on some page: nothing is cut off). ``embed(tr, self, n)``
    draws page ``n``: a verdict (``check`` set) or the deck list."""

    owner_id: int
    title: str
    pages: list[str]
    embed: Callable[[Translate, PagedReply, int], discord.Embed]
    check: DeckCheck | None = None


@dataclass
class PendingOverwrite:
    owner_id: int
    guild_id: int
    name: str
    data: bytes | str
    filename: str | None
    commanders: tuple[str, ...]
    ruleset: str


def paginate(lines: list[str], per_page: int = PROBLEMS_PER_PAGE, budget: int = PAGE_CHARACTERS) -> list[str]:
    """Lines grouped into pages by count and length; a very long line gets a page of its own."""
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        line = line if len(line) <= budget else line[: budget - 1] + "…"
        if pages[-1] and (len(pages[-1]) >= per_page or size + len(line) + 1 > budget):
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    return ["\n".join(page) for page in pages]


# -- persistent components ---------------------------------------------------------------------------------

class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"deck:page:(?P<token>[0-9a-f]+):(?P<page>\d+)"):
    """``deck:page:<token>:<page>`` shows another page of a verdict kept in memory."""

    def __init__(self, token: str, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"deck:page:{token}:{page}"))
        self.token, self.page = token, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PageButton:
        return cls(match["token"], int(match["page"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).turn_page(interaction, self.token, self.page)


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"deck:(?P<action>delete|overwrite|cancel):(?P<who>\d+):(?P<target>[0-9a-f]+)"):
    """``deck:delete:<asker>:<deck id>``, ``deck:overwrite:<asker>:<token>``, ``deck:cancel:<asker>:0``."""

    def __init__(self, action: str, who: int, target: str, *, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"deck:{action}:{who}:{target}"))
        self.action, self.who, self.target = action, who, target

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ConfirmButton:
        return cls(match["action"], int(match["who"]), match["target"], label=item.label or "", style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).confirm(interaction, self.action, self.who, self.target)


def _cog(interaction: discord.Interaction) -> DeckCog:
    cog = interaction.client.get_cog(DeckCog.__cog_name__)  # type: ignore[union-attr]
    assert isinstance(cog, DeckCog)
    return cog


class DeckListModal(discord.ui.Modal):
    """The long text field for a whole list (a slash-command option is one line)."""

    def __init__(self, cog: DeckCog, tr: Translate, action: str, **context: Any) -> None:
        super().__init__(title=tr("deck.modal.title")[:45], custom_id="deck:modal")
        self.cog, self.action, self.context = cog, action, context
        self.text = discord.ui.TextInput(label=tr("deck.modal.label")[:45], style=discord.TextStyle.paragraph,
                                         placeholder=tr("deck.modal.placeholder")[:100], max_length=MODAL_MAX,
                                         custom_id="deck:modal:list")
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await self.cog.run_action(interaction, self.action, self.text.value, None, **self.context)


# -- the cog -----------------------------------------------------------------------------------------------

class DeckCog(commands.Cog, name="Decks"):
    deck = app_commands.Group(name=_T("deck"), description=_T("Check and register Commander decks"), guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.kept: OrderedDict[str, PagedReply | PendingOverwrite] = OrderedDict()
        # Every check (commands, re-checks after a ruleset or card data change) runs in the work pool.
        self.service = DeckService(bot.db, bot.cards, offload=bot.workers.run)  # type: ignore[attr-defined]
        self.fetcher = DeckUrlFetcher.from_config(bot.config)  # type: ignore[attr-defined]
        self.rechecking = asyncio.Lock()  # the card-data poll and a sync's event must not re-check twice

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton, ConfirmButton)
        await self.refresh_card_version()
        self.follow_card_data.start()

    async def cog_unload(self) -> None:
        self.follow_card_data.cancel()

    async def refresh_card_version(self) -> None:
        """Re-check decks checked against other card data than the current one (the card database's
        ``version`` is the sequence number of its newest import), then tell owners whose verdict changed."""
        async with self.rechecking:
            self.service.cards_version = str(self.bot.cards.version)  # type: ignore[attr-defined]
            changed = await self.service.recheck_stale(self.bot.ruleset_for)  # type: ignore[attr-defined]
            if changed:
                log.info("re-checked %d registered decks against new card data", changed)
            await send_change_notices(self.bot, self.service)

    @tasks.loop(minutes=CARD_DATA_CHECK_MINUTES)
    async def follow_card_data(self) -> None:
        """The cards feature reloads the index when ``cards sync`` ran; notice it here (no query)."""
        if str(self.bot.cards.version) != self.service.cards_version:  # type: ignore[attr-defined]
            await self.refresh_card_version()

    @commands.Cog.listener()
    async def on_ruleset_changed(self, guild_id: int, ruleset: str) -> None:
        changed = await self.service.recheck_guild(guild_id, ruleset)
        log.info("ruleset of guild %s is now %s: %d deck verdicts changed", guild_id, ruleset, changed)

    @commands.Cog.listener()
    async def on_card_data_changed(self, *_: Any) -> None:
        await self.refresh_card_version()

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))  # type: ignore[attr-defined]

    def _keep(self, value: PagedReply | PendingOverwrite) -> str:
        token = secrets.token_hex(8)
        self.kept[token] = value
        while len(self.kept) > KEPT_RESULTS:
            self.kept.popitem(last=False)
        return token

    # -- reading the input ----------------------------------------------------------------------------

    async def _refuse_file(self, interaction: discord.Interaction, tr: Translate,
                           file: discord.Attachment | None) -> bool:
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
    async def _read_input(text: str | None, file: discord.Attachment | None) -> tuple[bytes | str, str | None]:
        """The list from the file (a download: after deferring) or the option."""
        if file is not None:
            return await file.read(), file.filename
        return unflatten(text or ""), None

    async def _read_url(self, interaction: discord.Interaction, tr: Translate,
                        url: str) -> tuple[bytes | str, str | None] | None:
        """An Archidekt or Moxfield deck fetched as list text (after the deferral: a site may take seconds)."""
        try:
            fetched = await self.fetcher.fetch(url)
        except DecklistRefused as refusal:
            await self._error(interaction, refusal_message(refusal, tr.language))
            return None
        return fetched.text, None

    async def _error(self, interaction: discord.Interaction, message: str) -> None:
        await self._reply(interaction, content=message, ephemeral=True)

    @staticmethod
    async def _reply(interaction: discord.Interaction, **kwargs: Any) -> None:
        """The response, or a followup once the interaction was deferred."""
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    async def _ruleset(self, interaction: discord.Interaction, chosen: str | None) -> str:
        return chosen or await self.bot.ruleset_for(interaction.guild_id)  # type: ignore[attr-defined]

    # -- commands -----------------------------------------------------------------------------------------

    @deck.command(name=_T("check"), description=_T("Check a deck list's legality (nothing is saved)"))
    @app_commands.describe(decklist=_T("The list (or leave empty for a text box)"), file=_T("A deck file: .txt, .dek, .cod, .dck or .csv"),
                           commander=_T("The commander, if the list names none"),
                           ruleset=_T("Ruleset (default: this server's)"), url=_T("An Archidekt or Moxfield deck link"))
    @app_commands.rename(decklist=_T("decklist"), file=_T("file"), commander=_T("commander"), ruleset=_T("ruleset"),
                         url=_T("url"))
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def check(self, interaction: discord.Interaction, decklist: str | None = None,
                    file: discord.Attachment | None = None, commander: str | None = None,
                    ruleset: str | None = None, url: str | None = None) -> None:
        await self._start(interaction, "check", decklist, file, commander=commander, ruleset=ruleset, url=url)

    @deck.command(name=_T("register"), description=_T("Check and save a deck under a name"))
    @app_commands.describe(name=_T("Deck name (up to 64 characters)"), decklist=_T("The list (or leave empty for a text box)"),
                           file=_T("A deck file: .txt, .dek, .cod, .dck or .csv"), commander=_T("The commander, if the list names none"),
                           url=_T("An Archidekt or Moxfield deck link"))
    @app_commands.rename(name=_T("name"), decklist=_T("decklist"), file=_T("file"), commander=_T("commander"),
                         url=_T("url"))
    async def register(self, interaction: discord.Interaction, name: str, decklist: str | None = None,
                       file: discord.Attachment | None = None, commander: str | None = None,
                       url: str | None = None) -> None:
        await self._start(interaction, "register", decklist, file, commander=commander, name=name, url=url)

    async def _start(self, interaction: discord.Interaction, action: str, text: str | None,
                     file: discord.Attachment | None, **context: Any) -> None:
        if not text and file is None and not context.get("url"):
            await interaction.response.send_modal(DeckListModal(self, await self._tr(interaction), action, **context))
            return
        await self.run_action(interaction, action, text, file, **context)

    async def run_action(self, interaction: discord.Interaction, action: str, text: str | None,
                         file: discord.Attachment | None, *, commander: str | None = None,
                         ruleset: str | None = None, name: str | None = None, url: str | None = None) -> None:
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
            result = await self._checked(interaction, tr, self.service.check(data, rules, filename, commanders))
            if result is not None:
                await self._send_verdict(interaction, tr, result, title=tr("deck.check.title"), ephemeral=True)

    @property
    def workers(self) -> WorkPool:
        return self.bot.workers  # type: ignore[attr-defined]

    async def _may_start_heavy(self, interaction: discord.Interaction, tr: Translate) -> bool:
        """False (after saying so: refused, not queued) when this user's heavy-job slots are all taken."""
        if self.workers.heavy_jobs(interaction.user.id) < self.workers.per_user:
            return True
        await self._error(interaction, tr("deck.busy", limit=self.workers.per_user))
        return False

    async def _checked(self, interaction: discord.Interaction, tr: Translate, job: Awaitable[T]) -> T | None:
        """The result of a check or registration, or None after telling the user why there is none:
        the list was refused, the name is bad, or the check failed or timed out (then nothing was
        saved, and the user is told so: a deck is never stored as if it had been checked)."""
        try:
            return await job
        except DecklistRefused as refusal:
            await self._error(interaction, refusal_message(refusal, tr.language))
        except DeckNameError as error:
            await self._error(interaction, tr(f"deck.error.{error.reason}", **error.values))
        except JobTimeout:
            await self._error(interaction, tr("deck.error.check_timeout"))
        except Exception:
            log.exception("deck check failed")
            await self._error(interaction, tr("deck.error.check_failed"))
        return None

    async def _register(self, interaction: discord.Interaction, tr: Translate, name: str, data: bytes | str,
                        filename: str | None, commanders: tuple[str, ...], ruleset: str,
                        overwrite: bool = False) -> None:
        assert interaction.guild_id is not None
        result = await self._checked(interaction, tr, self.service.register(
            interaction.guild_id, interaction.user.id, name, data, ruleset, filename=filename,
            commander_names=commanders, overwrite=overwrite))
        if result is None:
            return
        if result.needs_confirmation:
            token = self._keep(PendingOverwrite(interaction.user.id, interaction.guild_id, name, data, filename,
                                                commanders, ruleset))
            view = discord.ui.View(timeout=None)
            view.add_item(ConfirmButton("overwrite", interaction.user.id, token, label=tr("deck.button.overwrite"),
                                        style=discord.ButtonStyle.danger))
            view.add_item(ConfirmButton("cancel", interaction.user.id, "0", label=tr("core.cancel")))
            await self._reply(interaction, content=tr("deck.register.confirm", name=escape(name.strip())),
                              view=view, ephemeral=True)
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
        lines = [tr("deck.list.line", mark=STATUS_MARK.get(r.status, "?"), name=escape(r.name),
                    commanders=escape(" + ".join(r.commanders)) or tr("deck.summary.none"), ruleset=r.ruleset,
                    status=tr(f"deck.status.{r.status}")) + change_line(tr, changes.get(r.id)) for r in records]
        pages = PagedReply(interaction.user.id, tr("deck.list.title", count=len(records)),
                           paginate(lines, per_page=DECKS_PER_PAGE), self._list_embed)
        await self._send_paged(interaction, tr, pages, ephemeral=True)

    async def _send_paged(self, interaction: discord.Interaction, tr: Translate, pages: PagedReply, *,
                          ephemeral: bool, **extra: Any) -> None:
        """Page 1 of ``pages``, with Previous/Next when there is more than one page."""
        token = self._keep(pages)
        kwargs: dict[str, Any] = {"embed": pages.embed(tr, pages, 0), "ephemeral": ephemeral,
                                  "allowed_mentions": discord.AllowedMentions.none(), **extra}
        if len(pages.pages) > 1:
            kwargs["view"] = self._page_view(tr, token, pages, 0)
        await self._reply(interaction, **kwargs)

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
        result = await self._checked(interaction, tr, self.service.show(record, await self._ruleset(interaction, None)))
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
        result = await self._checked(interaction, tr, self.service.check(record.raw_list, record.ruleset,
                                                                         commander_names=record.commanders))
        if result is None:
            return
        filename = re.sub(r"[^\w\-]+", "_", record.name, flags=re.UNICODE).strip("_")[:60] or "deck"
        text = export_text(result.deck).encode("utf-8")
        await interaction.followup.send(tr("deck.export.done", name=escape(record.name)),
                                        file=discord.File(io.BytesIO(text), filename=f"{filename}.txt"),
                                        ephemeral=True)

    @deck.command(name=_T("delete"), description=_T("Delete a registered deck"))
    @app_commands.describe(name=_T("Deck name"), owner=_T("Whose deck (Manage Server only; default: yours)"))
    @app_commands.rename(name=_T("name"), owner=_T("owner"))
    async def delete(self, interaction: discord.Interaction, name: str, owner: discord.Member | None = None) -> None:
        tr = await self._tr(interaction)
        owner_id = owner.id if owner is not None else interaction.user.id
        if owner_id != interaction.user.id and not interaction.permissions.manage_guild:
            await self._error(interaction, tr("core.error.missing_permission"))
            return
        record = await self.service.get(interaction.guild_id or 0, owner_id, name)
        if record is None:
            await self._error(interaction, tr("deck.error.not_found", name=escape(name)))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmButton("delete", interaction.user.id, format(record.id, "x"),
                                    label=tr("deck.button.delete"), style=discord.ButtonStyle.danger))
        view.add_item(ConfirmButton("cancel", interaction.user.id, "0", label=tr("core.cancel")))
        key = "deck.delete.confirm" if owner_id == interaction.user.id else "deck.delete.confirm_other"
        await interaction.response.send_message(tr(key, name=escape(record.name), owner=f"<@{owner_id}>"),
                                                view=view, ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    # -- autocomplete --------------------------------------------------------------------------------------

    @show.autocomplete("name")
    @export.autocomplete("name")
    @delete.autocomplete("name")
    @register.autocomplete("name")
    async def deck_name_autocomplete(self, interaction: discord.Interaction,
                                     current: str) -> list[app_commands.Choice[str]]:
        names = await self.service.repository.search_names(interaction.guild_id or 0, interaction.user.id, current)
        return [app_commands.Choice(name=n[:100], value=n) for n in names]

    @check.autocomplete("commander")
    @register.autocomplete("commander")
    async def card_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        language = card_name_language(await self.bot.language_for(interaction), interaction.locale)  # type: ignore[attr-defined]
        pairs = self.bot.cards.choices(current, language, 25)  # type: ignore[attr-defined]
        return [app_commands.Choice(name=shown, value=card_id) for shown, card_id in pairs]

    # -- buttons -------------------------------------------------------------------------------------------

    async def confirm(self, interaction: discord.Interaction, action: str, who: int, target: str) -> None:
        tr = await self._tr(interaction)
        if interaction.user.id != who:
            await self._error(interaction, tr("core.error.not_yours"))
            return
        if action == "cancel":
            await interaction.response.edit_message(content=tr("core.cancelled"), view=None)
        elif action == "delete":
            await self._confirm_delete(interaction, tr, int(target, 16))
        else:
            pending = self.kept.get(target)
            if not isinstance(pending, PendingOverwrite):
                await interaction.response.edit_message(content=tr("core.error.expired"), view=None)
                return
            await self._overwrite(interaction, tr, target, pending)

    async def _overwrite(self, interaction: discord.Interaction, tr: Translate, token: str,
                         pending: PendingOverwrite) -> None:
        """The confirmed overwrite: acknowledged first (the button's message says so), then checked in the
        pool like any registration (a heavy job: when refused, the button stays usable; a failed check
        replaces nothing)."""
        if not await self._may_start_heavy(interaction, tr):
            return
        self.kept.pop(token, None)
        with self.workers.heavy(interaction.user.id):
            await interaction.response.edit_message(content=tr("deck.register.overwriting"), view=None)
            result = await self._checked(interaction, tr, self.service.register(
                pending.guild_id, pending.owner_id, pending.name, pending.data, pending.ruleset,
                filename=pending.filename, commander_names=pending.commanders, overwrite=True))
            if result is None:
                return
            assert result.record is not None
            await self._send_verdict(interaction, tr, result.check, ephemeral=True,
                                     title=tr("deck.register.replaced", name=escape(result.record.name)))

    async def _confirm_delete(self, interaction: discord.Interaction, tr: Translate, deck_id: int) -> None:
        record = await self.service.repository.get_by_id(deck_id)
        if record is None or record.guild_id != interaction.guild_id:
            await interaction.response.edit_message(content=tr("core.error.expired"), view=None)
            return
        mine = record.user_id == interaction.user.id
        if not mine and not interaction.permissions.manage_guild:
            await interaction.response.edit_message(content=tr("core.error.missing_permission"), view=None)
            return
        await self.service.delete(record.guild_id, record.user_id, record.name)
        await interaction.response.edit_message(content=tr("deck.delete.done", name=escape(record.name)), view=None)

    async def turn_page(self, interaction: discord.Interaction, token: str, page: int) -> None:
        tr = await self._tr(interaction)
        pages = self.kept.get(token)
        if not isinstance(pages, PagedReply):
            await self._error(interaction, tr("core.error.expired"))
            return
        embed = pages.embed(tr, pages, page)
        await interaction.response.edit_message(embed=embed, view=self._page_view(tr, token, pages, page))

    # -- rendering -----------------------------------------------------------------------------------------

    def _name_for(self, language: str):
        def name_for(english: str) -> str:
            card = self.bot.cards.get(english)  # type: ignore[attr-defined]
            return card.printed_name(language) if card is not None else english
        return name_for

    async def _send_verdict(self, interaction: discord.Interaction, tr: Translate, result: DeckCheck, *,
                            title: str, ephemeral: bool) -> None:
        pages_text, image = await self.workers.run(verdict_parts, result, tr.language, self.bot.cards)  # type: ignore[attr-defined]
        pages = PagedReply(interaction.user.id, title, pages_text, self._verdict_embed, result)
        await self._send_paged(interaction, tr, pages, ephemeral=ephemeral,
                               file=discord.File(io.BytesIO(image), filename="deck.png"))

    def _verdict_embed(self, tr: Translate, pages: PagedReply, page: int) -> discord.Embed:
        assert pages.check is not None
        verdict, summary = pages.check.verdict, pages.check.summary
        name_for = self._name_for(tr.language)
        embed = discord.Embed(title=pages.title[:256], colour=STATUS_COLOUR[verdict.status],
                              description=f"**{verdict_headline(verdict, tr.language)}**\n{pages.pages[page]}"[:4096])
        commanders = " + ".join(escape(name_for(c)) for c in verdict.commanders) or tr("deck.summary.none")
        embed.add_field(name=tr("deck.summary.commanders"), value=commanders[:1024], inline=False)
        identity = f"{verdict.colour_identity or 'C'} ({colour_names(verdict.colour_identity, tr.language)})"
        embed.add_field(name=tr("deck.summary.identity"), value=identity, inline=True)
        embed.add_field(name=tr("deck.summary.cards"), value=str(verdict.card_count), inline=True)
        types = "\n".join(f"{tr(f'deck.type.{kind}')}: {count}" for kind, count in summary.types.items())
        embed.add_field(name=tr("deck.summary.types"), value=types or tr("deck.summary.none"), inline=True)
        embed.set_image(url="attachment://deck.png")
        _page_footer(embed, tr, pages, page)
        return embed

    def _list_embed(self, tr: Translate, pages: PagedReply, page: int) -> discord.Embed:
        embed = discord.Embed(title=pages.title, description=pages.pages[page], colour=discord.Colour.blurple())
        _page_footer(embed, tr, pages, page)
        return embed

    def _page_view(self, tr: Translate, token: str, pages: PagedReply, page: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(PageButton(token, max(page - 1, 0), label=tr("core.previous"), disabled=page == 0))
        view.add_item(PageButton(token, min(page + 1, len(pages.pages) - 1), label=tr("core.next"),
                                 disabled=page >= len(pages.pages) - 1))
        return view


def change_line(tr: Translate, change: DeckChange | None) -> str:
    """The /deck list note under a deck whose verdict new card data changed."""
    if change is None:
        return ""
    return "\n" + tr("deck.list.changed", date=change.changed_at[:10], old=tr(f"deck.status.{change.old_status}"),
                     new=tr(f"deck.status.{change.new_status}"))


async def send_change_notices(bot: Any, service: DeckService) -> int:
    """One private message per owner for every deck whose verdict new card data changed, in their language
    (``_owner_language``); each change is marked told even when the owner's DMs are closed, so nobody hears
    it twice."""
    pending = await service.changes.pending()
    by_owner: dict[int, list[DeckChange]] = {}
    for change in pending:
        by_owner.setdefault(change.user_id, []).append(change)
    for user_id, changes in by_owner.items():
        language = await _owner_language(bot, service, user_id, changes[0].guild_id)
        text = await _notice_text(bot, service, changes, Translate(language))
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            await user.send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("could not tell user %s about %d changed decks: %s", user_id, len(changes), exc)
        await service.changes.mark_notified([change.deck_id for change in changes])
    return len(by_owner)


async def _owner_language(bot: Any, service: DeckService, user_id: int, guild_id: int) -> str:
    """Outside an interaction Discord does not say a member's language: their ``/config my-language``, else
    the language of their last /deck command, else their server's."""
    settings = getattr(bot, "user_settings", None)
    chosen = await settings.language(user_id) if settings is not None else None
    return chosen or await service.changes.language_of(user_id) or await bot.guild_language(guild_id)


async def _notice_text(bot: Any, service: DeckService, changes: list[DeckChange], tr: Translate) -> str:
    lines = [tr("deck.notice.intro")]
    for change in changes:
        guild = bot.get_guild(change.guild_id)
        if guild is None:  # at start-up (notices of a sync made while the bot was down) the cache is empty
            try:
                guild = await bot.fetch_guild(change.guild_id)
            except discord.HTTPException:
                guild = None
        lines.append(tr("deck.notice.deck", name=escape(change.name), server=escape(guild.name) if guild else "?",
                        old=tr(f"deck.status.{change.old_status}"), new=tr(f"deck.status.{change.new_status}")))
        lines += [f"  • {reason}" for reason in await _reasons(bot, service, change, tr.language)]
    return "\n".join(lines)


async def _reasons(bot: Any, service: DeckService, change: DeckChange, language: str) -> list[str]:
    """The new problems of a changed deck, worded from a fresh check (the stored keys say which)."""
    record = await service.repository.get_by_id(change.deck_id)
    if record is None:
        return []
    try:
        result = await service.check(record.raw_list, record.ruleset, None, record.commanders)  # the work pool
    except Exception:  # the notice still goes out, without the reasons
        log.warning("could not word the changes of deck %s", change.deck_id, exc_info=True)
        return []
    wanted = set(change.problems)

    def name_for(english: str) -> str:
        card = bot.cards.get(english)
        return card.printed_name(language) if card is not None else english

    return [escape(problem_message(p, language, name_for)) for p in result.verdict.problems
            if (p.key, p.card) in wanted]


def verdict_parts(result: DeckCheck, language: str, cards: Any) -> tuple[list[str], bytes]:
    """The verdict's pages of problems and notes and its summary image. A 1,000-line list has 1,000
    problems to word: this runs in the work pool (``cards``: the shared card database, for printed names)."""
    verdict = result.verdict

    def name_for(english: str) -> str:
        card = cards.get(english)
        return card.printed_name(language) if card is not None else english

    lines = [f"`{p.rule}` {escape(problem_message(p, language, name_for))}" for p in verdict.problems]
    lines += [f"ℹ️ {escape(note_message(note, language))}" for note in verdict.notes]
    return (paginate(lines) if lines else [""]), summary_image(result.summary, verdict.colour_identity, language)


def _page_footer(embed: discord.Embed, tr: Translate, pages: PagedReply, page: int) -> None:
    if len(pages.pages) > 1:
        embed.set_footer(text=tr("core.page", page=page + 1, pages=len(pages.pages)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DeckCog(bot))
