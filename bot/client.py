"""The discord.py client: start-up wiring, cog loading, translator, command sync, errors.

``PodkeeperBot`` owns the process-wide resources (config, database, card database) that cogs reach
through ``interaction.client``. Cogs are discovered: every module in the ``cogs`` package with an
async ``setup(bot)`` is loaded, so a new feature adds a file and touches nothing here.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import pkgutil
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import cogs
from bot.changes import CARDS_TOPIC
from bot.clock import SYSTEM_CLOCK, Clock
from bot.config import Config
from bot.gcpause import resume_collection
from bot.i18n import LanguageChoice, choose_language, name_commands_as_client, t
from bot.i18n.translator import PodkeeperTranslator
from bot.invite import PERMISSIONS
from bot.leases import Leases, leases_for, leases_of
from bot.services.reconcile import Reconciler
from bot.shutdown import InteractionGate
from bot.storage.commits import committed_in_this_task
from bot.storage.db import Database
from bot.storage.press_journal import CURRENT_ARRIVAL, RecordedInteraction
from bot.storage.settings import GuildSettingsRepository
from bot.storage.user_settings import UserSettingsRepository
from bot.workers import WorkPool
from cogs._acknowledged import AcknowledgedPresses
from cogs._bounds import refuse_out_of_range
from cogs._deadline import Deadlines

log = logging.getLogger(__name__)


def cog_modules() -> list[str]:
    """Module names of every cog (every module of the ``cogs`` package)."""
    return sorted(f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__) if not m.name.startswith("_"))


def bot_intents() -> discord.Intents:
    """Only what slash commands need: guilds (channels, threads, roles). No privileged intents, and
    not Guild Scheduled Events: the bot creates and updates its own events but listens to none."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


# Text users typed (event, deck, creature, counter names) must never ping a crowd: by default only
# user mentions notify; a message that means to ping nobody says AllowedMentions.none().
DEFAULT_ALLOWED_MENTIONS = discord.AllowedMentions(
    everyone=False, roles=False, users=True, replied_user=False
)


class PodkeeperBot(commands.Bot):
    def __init__(
        self, config: Config, *, sync_commands: bool = True, clock: Clock = SYSTEM_CLOCK, **options: Any
    ) -> None:
        options.setdefault("intents", bot_intents())
        options.setdefault("command_prefix", commands.when_mentioned)
        options.setdefault("help_command", None)
        options.setdefault("allowed_mentions", DEFAULT_ALLOWED_MENTIONS)
        # A retry_after longer than this raises ``discord.RateLimited`` instead of sleeping inside the
        # request: a board then asks for a later edit or is posted afresh (cogs/_boards.py) rather than
        # holding its channel's lane for up to an hour (the cap on edits of old messages).
        options.setdefault("max_ratelimit_timeout", MAX_RATELIMIT_WAIT)
        super().__init__(**options)
        self.config = config
        self.sync_commands = sync_commands
        self.clock = clock  # every timer's time (bot/clock.py); tests pass a FakeClock
        # Opened by ``open_resources`` (setup_hook), before any cog loads, and dropped by ``close``, after
        # they unload: read through the properties below, which are typed as always there.
        self._db: Database | None = None
        self._guild_settings: GuildSettingsRepository | None = None
        self._user_settings: UserSettingsRepository | None = None
        self.leases: Leases | None = None  # which process runs which timers (bot.leases), set in setup_hook
        self.cards: Any = None  # bot.cards.database.CardDatabase, set in setup_hook
        self.pages: Any = None  # bot.web.server.PageServer while [web] enabled
        self.workers = WorkPool(
            clock=clock
        )  # CPU work (deck checks, images) runs in worker processes, never on the loop
        self.reconciler = Reconciler()  # cogs register passes that repair messages lagging their state
        self.reconciled: asyncio.Task[dict[str, int]] | None = None
        self._card_reload: asyncio.Task[None] | None = None
        self._card_reload_again = False
        self._closing = False  # set by close(): no card reload starts while the database goes
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        self.tree.interaction_check = refuse_out_of_range  # type: ignore[method-assign]  # cogs/_bounds.py
        self.interactions = InteractionGate(
            self
        )  # lets running handlers finish before close (bot/shutdown.py)
        self.deadlines = Deadlines()  # every interaction answered within Discord's 3 s (cogs/_deadline.py)
        self.acknowledged = AcknowledgedPresses(
            self
        )  # presses journaled before acknowledged (cogs/_acknowledged.py)
        self._to_replay: list[RecordedInteraction] = []

    # -- what cogs rely on ---------------------------------------------------------------------

    @property
    def db(self) -> Database:
        """The open database. Cogs load after ``open_resources`` and unload before ``close``, so for
        them it is always there; outside that lifetime (a closed bot) asking is a bug, said loudly."""
        return _opened(self._db, "database")

    @db.setter
    def db(self, database: Database) -> None:
        """A database opened before the bot (``podkeeper run`` takes it, and its one-bot lock, before
        logging in); ``open_resources`` then uses it instead of opening another."""
        self._db = database

    @property
    def guild_settings(self) -> GuildSettingsRepository:
        return _opened(self._guild_settings, "server settings")

    @property
    def user_settings(self) -> UserSettingsRepository:
        return _opened(self._user_settings, "member settings")

    @property
    def is_open(self) -> bool:
        """Whether the database is open (between ``open_resources`` and ``close``)."""
        return self._db is not None

    # -- start-up ------------------------------------------------------------------------------

    async def setup_hook(self) -> None:
        await self.open_resources()
        self._to_replay = await self.acknowledged.start()  # replayed once ready (on_ready)
        await self.tree.set_translator(PodkeeperTranslator())
        for module in cog_modules():
            mod = importlib.import_module(module)
            if hasattr(mod, "setup"):
                await self.load_extension(module)
        await self.start_pages()
        if self.sync_commands:
            await self.sync_command_tree()
        freeze_startup_objects()

    async def open_resources(self) -> None:
        """Open the database and the card database (importing bundled cards when empty)."""
        if self._db is None:
            self._db = await Database.open(
                self.config.database_url,
                exclusive=True,
                pool_size=self.config.pool_size,
                statement_timeout=self.config.statement_timeout,
            )
        self._db.clock = self.clock  # the stored stamps follow the bot's clock (a test's fake one too)
        self._guild_settings = GuildSettingsRepository(self._db)
        self._user_settings = UserSettingsRepository(self._db)
        if self.leases is None:  # before the cogs: they register their timers' leases as they load
            self.leases = await leases_for(self._db)
        if self.cards is None:
            from bot.cards.database import CardDatabase

            # On a first start the bot answers from the cards in memory while they are stored.
            self.cards = await CardDatabase.open(
                self.db, self.config.cards_path or None, store_in_background=True
            )
        cards = self.cards
        self.db.changes.follow(CARDS_TOPIC, self._card_data_swapped)
        # Workers inherit the card index when forked; new card data (another index) forks new ones.
        self.workers.share(
            cards, version=lambda: (getattr(cards, "version", None), id(getattr(cards, "index", None)))
        )

    def _card_data_swapped(self) -> None:
        """Card tables were swapped (here, or by another process sharing the database): read the new
        index once, then tell the cogs (deck verdicts follow the new data)."""
        if self._closing:  # a first import stored during close swaps the tables as the database goes
            return
        if self._card_reload is not None and not self._card_reload.done():
            self._card_reload_again = True
            return
        self._card_reload = asyncio.get_running_loop().create_task(self._reload_cards(), name="card-reload")

    async def _reload_cards(self) -> None:
        while True:
            self._card_reload_again = False
            try:
                if self.cards is not None and await self.cards.reload_if_changed():
                    self.dispatch("card_data_changed", None)
            except Exception:  # the periodic check (cogs.cards) tries again
                log.exception("could not read the new card data")
            if not self._card_reload_again:
                return

    async def start_pages(self) -> None:
        """The live web pages, when ``[web] enabled`` (aiohttp in this process; see bot/web)."""
        if self.config.web_enabled and self.pages is None:
            from bot.web.server import page_server_for

            pages = page_server_for(self)
            try:
                await pages.start()
            except OSError as error:  # the port is taken: the bot still runs, the link commands say "off"
                log.error(
                    "live pages not started: cannot listen on %s:%s (%s); change [web] port",
                    pages.host,
                    pages.port,
                    error.strerror or error,
                )
                return
            self.pages = pages

    async def sync_command_tree(self) -> None:
        guild_id = self.config.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to development guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        if self.cards is not None:  # a first start's cards are stored now that the bot is up
            self.cards.start_storing()
        if self.reconciled is None:  # once per process: after a crash, messages catch up with the database
            await self.acknowledged.replay(self._to_replay)  # first, the presses a crash cut short
            self._to_replay = []
            self.reconciled = asyncio.create_task(self.reconcile_after_start(), name="reconcile-after-start")

    async def reconcile_after_start(self) -> dict[str, int]:
        """Run every reconcile pass once this process is up. With several processes on one database
        the passes run in the holder of the ``reconcile`` lease (``bot.leases``) only, so two processes
        never post the same missing message: a process that (re)starts without the lease pokes the
        holder, which brings every server up to date (edits go over REST, whichever shard a server is
        on); a process taking the lease over after its holder died runs them too."""
        done: dict[str, int] = {}

        async def run_passes(_taking_over: bool) -> None:
            done.update(await self.reconciler.run())

        lease = leases_of(self).lease("reconcile", run_passes)
        await lease.start()
        if not lease.held:
            lease.poke()
        return done

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py announces each interaction here as it arrives, before any handler of it has run:
        the one place every command, press and form is armed to be deferred in time (cogs/_deadline.py)."""
        if event_name == "interaction" and args:
            arrival = CURRENT_ARRIVAL.get()  # set by the interaction gate while the interaction is parsed
            self.deadlines.watch(args[0], acknowledged=arrival is not None and arrival.replayed)
        super().dispatch(event_name, *args, **kwargs)

    async def close(self) -> None:
        self._closing = True
        if self.reconciled is not None and not self.reconciled.done():
            self.reconciled.cancel()
        await self.interactions.close(self.config.get("discord", "shutdown_wait_seconds"))
        try:
            self.stop_views()
            if self.pages is not None:
                await self.pages.stop()
                self.pages = None
            await super().close()
        finally:
            self.workers.close()
            self.deadlines.close()
            self.acknowledged.close()
            gc.unfreeze()  # what start-up froze may be collected again (tests start many bots in one process)
            if self.leases is not None:  # our advisory locks go now: another process takes the timers over
                await self.leases.close()
                self.leases = None
            if self.cards is not None:  # a first start's import storing in the background ends first
                await self.cards.stored()
            if self._card_reload is not None:  # after the store: nothing reads the database as it closes
                self._card_reload.cancel()
                await asyncio.gather(self._card_reload, return_exceptions=True)
            if self._db is not None:
                await self._db.close()
                self._db = self._guild_settings = self._user_settings = None
                log.info("database closed")

    def stop_views(self) -> int:
        """Stop every view the bot listens to, so their timeout tasks end with the bot instead of being
        destroyed pending when the loop goes ("Task was destroyed but it is pending!"). Persistent views
        come back on the next start, as they are re-added by their cogs. Returns how many were stopped.

        discord.py has no public list of live views (``persistent_views`` leaves out the ones with a
        timeout), so this reads its ``ViewStore``; discord.py is pinned to 2.7 in pyproject.toml.
        """
        store = self._connection._view_store
        views: set[Any] = {*store._synced_message_views.values(), *store._modals.values()}
        for items in store._views.values():
            views.update(item.view for item in items.values() if item.view is not None)
        for view in views:
            view.stop()
        return len(views)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """As discord.py's, and each item tells the member when its callback fails (``telling_failures``)."""
        super().add_dynamic_items(*(telling_failures(item) for item in items))

    # -- helpers for cogs ----------------------------------------------------------------------

    def latency_for(self, guild: discord.Guild | None) -> float:
        """Gateway latency of the connection that serves ``guild``: its own shard's when sharded (the
        average over all shards, ``latency``, says little about this server); ``latency`` otherwise."""
        if guild is not None and isinstance(self, discord.AutoShardedClient):
            shard = self.get_shard(guild.shard_id)
            if shard is not None:
                return shard.latency
        return self.latency

    async def language_for(self, interaction: discord.Interaction) -> str:
        """The language of every reply to ``interaction``, private or public (see ``language_choice``)."""
        return (await self.language_choice(interaction)).language

    async def language_choice(self, interaction: discord.Interaction) -> LanguageChoice:
        """The one rule (``bot.i18n.choose_language``) applied to the member who acted: their
        ``/config my-language``, their Discord language, the server's setting, its Discord language, English.
        The replies to this interaction name commands as the member's client lists them (its locale), which
        is not the reply language when the member chose another (``bot.i18n.name_commands_as_client``)."""
        name_commands_as_client(interaction.locale)
        member_choice = None
        if self._user_settings is not None:
            member_choice = await self._user_settings.language(interaction.user.id)
        return await self._choose(
            interaction.guild_id,
            interaction.guild_locale,
            member_choice=member_choice,
            discord_locale=interaction.locale,
        )

    async def language_for_member(self, guild_id: int | None, user_id: int) -> str:
        """The rule for a message to one member outside an interaction (a DM, a later prompt), where Discord
        does not tell us their language: their own choice, else the server's."""
        member_choice = (
            await self._user_settings.language(user_id) if self._user_settings is not None else None
        )
        return (await self._choose(guild_id, None, member_choice=member_choice)).language

    async def guild_language(self, guild_id: int | None, guild_locale: object = None) -> str:
        """The language of messages that belong to no one member (a shared board, an announcement):
        the same rule without the member's steps."""
        return (await self._choose(guild_id, guild_locale)).language

    async def _choose(self, guild_id: int | None, guild_locale: object, **member: object) -> LanguageChoice:
        configured = None
        if guild_id and self._guild_settings is not None:
            configured = (await self._guild_settings.get(guild_id)).locale
        if guild_locale is None and guild_id:
            guild = self.get_guild(guild_id)
            guild_locale = guild.preferred_locale if guild is not None else None
        return choose_language(
            server_setting=configured,
            server_locale=guild_locale,
            default=self.config.default_locale,
            **member,
        )

    async def ruleset_for(self, guild_id: int | None) -> str:
        if guild_id and self._guild_settings is not None:
            chosen = (await self._guild_settings.get(guild_id)).ruleset
            if chosen:
                return chosen
        return self.config.default_ruleset

    # -- errors ----------------------------------------------------------------------------------

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        from cogs._errors import answer_refusal

        # A domain refusal is told once (usually already by the cog's cog_app_command_error).
        if await answer_refusal(interaction, error) or await self.explain_refusal(interaction, error):
            return
        language = await self.language_for(interaction)
        if isinstance(error, app_commands.NoPrivateMessage):
            message = t("core.error.not_in_guild", language)
        elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
            message = t("core.error.missing_permission", language)
        elif not_a_member(error):  # a user option filled with someone who is not in this server
            message = t("core.error.not_a_member", language, user=f"<@{error.value.id}>")  # type: ignore[attr-defined]
        else:
            log.exception(
                "command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error
            )
            message = failure_message(language)
        await send_ephemeral(interaction, message)

    async def explain_refusal(self, interaction: discord.Interaction, error: BaseException) -> bool:
        """When Discord refused for lack of a permission (403, code 50013) or of access (50001: a channel
        or private thread the bot cannot see), tell the user privately, in their language, what the bot
        lacks here; True when that was the error.

        The bot's permissions in the channel come with the interaction (``app_permissions``), so the
        permissions of the invite link it lacks can be named; when it has them all, a 50013 was about
        role order (a role above the bot's own) and a 50001 about another channel or a private thread,
        and the message says so.
        """
        original = getattr(error, "original", error)
        if not isinstance(original, discord.Forbidden) or original.code not in (
            MISSING_PERMISSIONS,
            MISSING_ACCESS,
        ):
            return False
        language = await self.language_for(interaction)
        lacking = missing_permissions(interaction.app_permissions)
        if original.code == MISSING_ACCESS and "view_channel" not in lacking:
            message = t("core.error.bot_missing_access", language)
        elif lacking:
            names = [t(f"core.permission.{name}", language) for name in lacking]
            message = t("core.error.bot_missing_permission", language, permissions=names)
        else:
            message = t("core.error.bot_refused", language)
        log.warning(
            "Discord refused %s in channel %s: %s (lacking %s)",
            getattr(interaction.command, "name", "?"),
            interaction.channel_id,
            original.text,
            lacking or "role order",
        )
        await send_ephemeral(interaction, message)
        return True


class ShardedPodkeeperBot(PodkeeperBot, commands.AutoShardedBot):
    """``PodkeeperBot`` running several gateway shards in one process (``[discord] shard_count``/``shard_ids``).

    Only the connection differs: discord.py's AutoShardedClient opens one websocket per shard and routes
    every guild's events to the right one; cogs see one client with every guild of those shards."""


def make_bot(config: Config, **options: Any) -> PodkeeperBot:
    """The bot ``config`` asks for: a plain one-connection bot unless a shard count is configured, so an
    unsharded bot behaves exactly as before (no shard in IDENTIFY, no /gateway/bot shard query)."""
    if not config.shard_count:
        return PodkeeperBot(config, **options)
    return ShardedPodkeeperBot(
        config,
        shard_count=config.shard_count,
        shard_ids=list(config.shard_ids or range(config.shard_count)),
        **options,
    )


MAX_RATELIMIT_WAIT = 30.0  # seconds; the least discord.py accepts


def not_a_member(error: BaseException) -> bool:
    """discord.py's refusal of a Member option whose user is not a member of the server (Discord sent the
    user alone): the member's mistake, told plainly, not "something went wrong" with an error logged."""
    return (
        isinstance(error, app_commands.TransformerError)
        and error.type is discord.AppCommandOptionType.user
        and isinstance(error.value, discord.User)
    )


MISSING_PERMISSIONS = 50013  # Discord's error code for a refusal on permissions or role order
MISSING_ACCESS = 50001  # ...for a channel or thread the bot cannot see


def missing_permissions(have: discord.Permissions) -> list[str]:
    """The invite link's permissions (``bot.invite``) that ``have`` lacks, in the invite's order."""
    return [name for name in PERMISSIONS if not getattr(have, name)]


def failure_message(language: str) -> str:
    """What to tell a member whose interaction failed on our side: "nothing was changed" only when that is
    true. After a commit the change stands (a failed reply or board refresh does not undo it), and a
    member told otherwise would press again and apply it twice (``bot.storage.commits``)."""
    if committed_in_this_task():
        return t("core.error.after_change", language)
    return t("core.error.generic", language)


async def tell_failure(interaction: discord.Interaction) -> None:
    """Tell the member privately, in their language, that their press or form failed on our side."""
    if isinstance(interaction.client, PodkeeperBot):
        language = await interaction.client.language_for(interaction)
        await send_ephemeral(interaction, failure_message(language))


async def _view_error(
    view: discord.ui.View, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]
) -> None:
    if await _answered(interaction, error):
        return
    log.error("a button or menu of %r failed (item %r)", view, item, exc_info=error)
    await tell_failure(interaction)


async def _modal_error(modal: discord.ui.Modal, interaction: discord.Interaction, error: Exception) -> None:
    if await _answered(interaction, error):
        return
    log.error("form %r failed", modal, exc_info=error)
    await tell_failure(interaction)


def telling_failures(item: type[discord.ui.DynamicItem[Any]]) -> type[discord.ui.DynamicItem[Any]]:
    """Persistent ``DynamicItem`` buttons and menus bypass ``View.on_error`` (discord.py only logs their
    errors), so their callbacks are wrapped once here (``PodkeeperBot.add_dynamic_items``): a domain
    refusal is told as everywhere else, any other error gets the failure message and is re-raised for
    discord.py to log."""
    if getattr(item.callback, "_tells_failures", False):
        return item
    original = item.callback

    async def callback(self: discord.ui.DynamicItem[Any], interaction: discord.Interaction) -> Any:
        try:
            return await original(self, interaction)
        except Exception as error:
            if await _answered(interaction, error):
                return None
            await tell_failure(interaction)
            raise

    callback._tells_failures = True  # type: ignore[attr-defined]
    item.callback = callback  # type: ignore[method-assign]
    return item


async def _answered(interaction: discord.Interaction, error: Exception) -> bool:
    """A domain refusal (``cogs._errors``) or Discord's permission refusal, told to the member."""
    if not isinstance(interaction.client, PodkeeperBot):
        return False
    from cogs._errors import answer_refusal

    return await answer_refusal(interaction, error) or await interaction.client.explain_refusal(
        interaction, error
    )


# Buttons, menus and forms report errors through View.on_error / Modal.on_error (persistent DynamicItems
# do not: discord.py logs theirs, so their callbacks use cogs._errors.telling_refusals); as the command tree's on_error, they tell domain refusals and explain Discord's
# permission refusals: a component callback lets a DomainError through instead of catching it.
discord.ui.View.on_error = _view_error  # type: ignore[assignment,method-assign]
discord.ui.Modal.on_error = _modal_error  # type: ignore[assignment,method-assign]


def freeze_startup_objects() -> None:
    """Exempt everything alive after start-up (modules, the ~24k-card index) from garbage collection.

    A full collection walks every tracked object: with the card index loaded that took 75–300 ms on a
    busy 2-core machine, and it lands on the event loop at random, holding up whichever press or
    command is running (the first cause of late answers in ``benchmarks/bench_responsiveness.py``).
    Frozen objects are still freed by reference counting; only new garbage is collected as before.
    It also keeps forked workers (``bot.workers``) from copying the index's pages when they collect.
    No collection first: that costs as much as the stall it avoids (0.2 s in a big test process), and
    the little start-up garbage it would free is not worth it (``close`` unfreezes everything anyway).
    ``podkeeper run`` paused collection while it started (``bot.gcpause``): it is resumed here, after the
    freeze, so the start-up objects are never walked (~1,000 of them are garbage, left frozen)."""
    gc.freeze()
    resume_collection()


async def send_ephemeral(interaction: discord.Interaction, message: str) -> None:
    """Reply privately whether or not the interaction was already acknowledged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


T = TypeVar("T")


def _opened(resource: T | None, what: str) -> T:
    if resource is None:
        raise RuntimeError(f"the bot's {what} is not open (before setup_hook or after close)")
    return resource
