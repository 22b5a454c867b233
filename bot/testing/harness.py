"""``DiscordHarness``: drive the real bot through real ``discord.Interaction`` objects, in-process.

The real ``PodkeeperBot`` runs its real ``setup_hook`` (every cog, the SQLite database, the card
database) and caches a fake guild as GUILD_CREATE would. ``slash``/``autocomplete``/``click``/
``select``/``submit_modal`` (from ``InteractionDriver``) build INTERACTION_CREATE payloads and hand
them to the real ``ConnectionState.parse_interaction_create``, so the real CommandTree,
transformers, checks, ViewStore and Modal code run. Only Discord's edge is fake
(``fakediscord.edge``): every response lands in a ``FakeDiscord`` that keeps messages and their
edits for the test to inspect.

See ``bot/testing/README.md`` for a complete example.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.clock import PARKED_CODE, Clock, FakeClock
from bot.config import SETTINGS, Config
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.backend import FakeDiscord
from bot.testing.fakediscord.commands import CommandCatalog
from bot.testing.fakediscord.driver import HarnessError, InteractionDriver, Reply
from bot.testing.fakediscord.edge import InProcessEdge
from bot.testing.fakediscord.model import FakeChannel, FakeMember, FakeRole

log = logging.getLogger(__name__)

HARNESS_CARDS = Path(__file__).with_name("data") / "harness_cards.jsonl"  # 60 well-known cards, imports fast
_DISCORD_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-", "discord.py: ")
QUIET_PERIOD = 0.02  # seconds without progress after which remaining background tasks are left running
# Discord's channel bucket (5 sends/edits per 5 s) with time compressed 100x: the bot still meets
# X-RateLimit headers and 429s and discord.py still waits, but a test posting 26 boards takes 0.3 s, not 25.
RATE_LIMIT = (5, 0.05)
GLOBAL_RATE_LIMIT = (50, 0.01)  # Discord's 50 requests per second per bot, compressed the same way
WEBHOOK_RATE_LIMIT = (5, 0.02)  # an interaction token's bucket (5 per 2 s), compressed the same way
OnBoot = Callable[[Any], Awaitable[None]]


def default_config(tmp_path: Path, cards_path: str | Path | None = None, **overrides: Any) -> Config:
    """Defaults (ignoring any ./config.toml and the environment) with a database in ``tmp_path``, or the
    one PODKEEPER_DATABASE_URL names (the test suite's PostgreSQL runs give each test its own schema)."""
    base = Config({(s.section, s.key): s.default for s in SETTINGS}, "test")
    values = {
        "database__path": str(tmp_path / "podkeeper.sqlite3"),
        "discord__token": "",
        "database__url": os.environ.get("PODKEEPER_DATABASE_URL", ""),
        "cards__path": str(cards_path or HARNESS_CARDS),
        "cards__auto_sync": False,
    }  # a test never downloads card data unless it asks to (local server)
    values.update(overrides)
    return base.with_values(**values)


def standard_world(
    fake: FakeDiscord, *, members: Sequence[str] = ("alice", "bob", "carol"), guild_locale: str = "en-US"
):
    """One guild owned by ``admin`` with ``members`` and the channels ``general`` and ``games``."""
    admin = fake.add_user("admin")
    guild = fake.add_guild("Podkeeper Test", owner=admin, locale=guild_locale)
    for name in members:
        fake.add_member(guild, name)
    fake.add_channel(guild, "general")
    fake.add_channel(guild, "games")
    return guild


def catalog_of(tree: app_commands.CommandTree, guild_id: int) -> CommandCatalog:
    """The command schemas a synced Discord client would know, straight from the tree."""
    commands = list(tree.get_commands()) + list(tree.get_commands(guild=discord.Object(guild_id)))
    aliases: dict[str, dict[str, str]] = {}

    def walk(item: Any) -> None:
        if isinstance(item, app_commands.Group):
            for child in item.commands:
                walk(child)
        elif isinstance(item, app_commands.Command):
            aliases[item.qualified_name] = {p.name: p.display_name for p in item.parameters}

    for command in commands:
        walk(command)
    schemas = [c.to_dict(tree) for c in commands if isinstance(c, app_commands.Command | app_commands.Group)]
    return CommandCatalog(schemas, aliases)


class DiscordHarness(InteractionDriver):
    """A running bot plus a fake Discord world: one guild, channels, members.

    Members: ``admin`` (the owner: every permission), ``alice``, ``bob``, ``carol`` (plain members);
    channels ``general`` and ``games``. ``h.user("alice")``/``h.channel("games")`` look them up.
    """

    def __init__(
        self,
        config: Config,
        fake: FakeDiscord,
        guild: Any,
        *,
        default_locale: str = "en-US",
        on_boot: OnBoot | None = None,
        clock: Clock | None = None,
    ) -> None:
        super().__init__(fake, guild, default_locale=default_locale)
        self.config = config
        self.clock: Clock = clock or FakeClock()  # kept across restarts, like the world
        self.bot: Any = None
        self.on_boot = on_boot
        self.edge = InProcessEdge(fake)
        self._catalog: CommandCatalog | None = None
        self._unsubscribe: Callable[[], None] = lambda: None
        self._baseline: set[asyncio.Task[Any]] = set()

    # -- life cycle -----------------------------------------------------------------------------

    @classmethod
    @asynccontextmanager
    async def start(
        cls,
        tmp_path: Path,
        *,
        cards_path: str | Path | None = None,
        locale: str = "en-US",
        guild_locale: str = "en-US",
        members: Sequence[str] = ("alice", "bob", "carol"),
        interaction_deadline: float | None = 3.0,
        on_boot: OnBoot | None = None,
        bot_permissions: int | None = None,
        rate_limit: tuple[int, float] | None = RATE_LIMIT,
        clock: Clock | None = None,
        **config_overrides: Any,
    ) -> AsyncIterator[DiscordHarness]:
        """Start the real bot on a fresh database in ``tmp_path``; close everything on exit.

        ``cards_path`` is a card file imported when the card tables are empty; by default a
        60-card file (``bot/testing/data/harness_cards.jsonl``) so start-up stays fast;
        ``config_overrides`` are ``section__key=value`` settings. ``on_boot(bot)`` runs after
        ``setup_hook`` on every start and restart (e.g. to add a test-only cog). The bot's timers run
        on ``clock``, by default a ``FakeClock`` that moves only with ``await h.advance(...)``.
        """
        clock = clock or FakeClock()  # the bot's timers and Discord's slow rules (old-message edits, token
        # lifetime, thread archiving) share it, so ``h.advance(hours=2)`` ages the world the bot sees
        fake = FakeDiscord(
            interaction_deadline=interaction_deadline,
            bot_permissions=bot_permissions,
            rate_limit=rate_limit,
            global_rate_limit=GLOBAL_RATE_LIMIT if rate_limit else None,
            webhook_rate_limit=WEBHOOK_RATE_LIMIT if rate_limit else None,
            clock=clock,
        )
        guild = standard_world(fake, members=members, guild_locale=guild_locale)
        harness = cls(
            default_config(tmp_path, cards_path, **config_overrides),
            fake,
            guild,
            default_locale=locale,
            on_boot=on_boot,
            clock=clock,
        )
        harness.edge.install()
        harness.watch_logs()
        try:
            await harness._boot()
            yield harness
            harness.check_contract()  # background work since the last call: its refusals and pings count too
        finally:
            try:
                if harness.bot is not None:
                    await harness.bot.close()
            finally:
                harness.close()
                harness.edge.uninstall()

    async def _boot(self) -> None:
        from bot.client import PodkeeperBot

        bot = PodkeeperBot(self.config, sync_commands=False, clock=self.clock)
        self.edge.attach(bot)
        await bot._async_setup_hook()
        await bot.setup_hook()
        if self.on_boot is not None:
            await self.on_boot(bot)
        state = bot._connection
        # P.* build discord.py's payload TypedDicts as plain dicts (the same JSON the gateway sends)
        state.user = discord.ClientUser(state=state, data=P.user(self.fake.bot_user))  # type: ignore[arg-type]
        state.application_id = self.fake.application_id
        for guild in self.fake.guilds.values():
            state._add_guild_from_data(P.guild(guild))  # type: ignore[arg-type]
        self._unsubscribe = self.fake.subscribe(self._gateway_event)
        bot._ready.set()
        self.bot = bot
        self._catalog = None
        marker = self.mark()
        before = set(asyncio.all_tasks())
        bot.dispatch("ready")
        await self._settle(before)
        self.raise_errors(marker[1])
        self._baseline = set(asyncio.all_tasks())  # the bot's long-lived tasks; ``settle`` ignores them

    def _gateway_event(self, event: str, data: dict[str, Any]) -> None:
        parser = self.bot._connection.parsers.get(event) if self.bot else None
        if parser is not None:
            parser(data)

    async def restart(self) -> None:
        """Close the bot (database included) and start a new one on the same database file and world."""
        self._unsubscribe()
        await self.bot.close()
        self.bot = None
        await self._boot()

    # -- the world ------------------------------------------------------------------------------

    def add_member(
        self, name: str, *, permissions: int | str | list[str] | None = None, roles: Sequence[FakeRole] = ()
    ) -> FakeMember:
        """A new member (also in the bot's cache, as GUILD_MEMBER_ADD would with the members intent)."""
        member = self.fake.add_member(self.guild, name, permissions=permissions, roles=list(roles))
        self._refresh_guild()
        return member

    def add_role(self, name: str, permissions: int | str | list[str] | None = None) -> FakeRole:
        role = self.fake.add_role(self.guild, name, permissions)
        self._refresh_guild()
        return role

    def add_channel(self, name: str) -> FakeChannel:
        channel = self.fake.add_channel(self.guild, name)
        self._refresh_guild()
        return channel

    def _refresh_guild(self) -> None:
        if self.bot is not None:
            self.bot._connection._add_guild_from_data(P.guild(self.guild))

    # -- InteractionDriver -------------------------------------------------------------------------

    def catalog(self) -> CommandCatalog:
        if self._catalog is None:
            self._catalog = catalog_of(self.bot.tree, self.guild.id)
        return self._catalog

    def guild_command_names(self) -> set[str]:
        return {c.name for c in self.bot.tree.get_commands(guild=discord.Object(self.guild.id))}

    async def _deliver(self, payload: dict[str, Any], expect_error: bool) -> Reply:
        marker = self.mark()
        before = set(asyncio.all_tasks())
        self.bot._connection.parse_interaction_create(payload)
        await self._settle(before)
        return self.reply_since(payload, marker, expect_error)

    async def advance(self, seconds: float = 0.0, **delta: float) -> None:
        """Move the bot's fake clock forward (``h.advance(minutes=5)``): timers that fall due fire in
        order; then ``settle`` lets what they started finish."""
        if not isinstance(self.clock, FakeClock):
            raise HarnessError("advance() needs the harness's FakeClock (this harness runs on a real clock)")
        parked = {t for t in asyncio.all_tasks() if _wakes_at(t) == math.inf}
        await self.clock.advance(seconds, **delta)
        self.fake.expire()  # what Discord does by itself meanwhile: idle threads archive, events end
        self._baseline -= {t for t in parked if _wakes_at(t) != math.inf}  # woken timers: wait for them too
        await self.settle()

    async def settle(self, quiet: float = 0.5, timeout: float = 10.0) -> None:
        """Let the bot's pending background tasks finish: coalesced edits, timers that just fired.

        Waits for every task the bot started after booting, except tasks parked in an
        ``asyncio.sleep`` that ends more than ``quiet`` seconds from now (timers that are not due:
        settle does not advance time). Sleeps due sooner are waited out first; after that it gives
        up when no request was made and no task started or ended for ``quiet`` seconds (a task
        blocked on an event nobody sets, a polling loop), or after ``timeout``.
        """
        loop = asyncio.get_running_loop()
        current = asyncio.current_task()
        deadline = loop.time() + timeout

        def pending() -> set[asyncio.Task[Any]]:
            return {
                t
                for t in asyncio.all_tasks()
                if t not in self._baseline and t is not current and not t.done()
            }

        # Timers already due within ``quiet`` (a coalesced edit's short sleep) are waited for first.
        due = [w for w in map(_wakes_at, pending()) if w is not None and w <= loop.time() + quiet]
        not_before = max(due, default=0.0)
        last_state: Any = None
        since = loop.time()
        while loop.time() < deadline:
            active = {t for t in pending() if (_wakes_at(t) or 0) <= loop.time() + quiet}
            if not active:
                break
            await asyncio.wait(active, timeout=0.02)
            state = (len(self.fake.requests), frozenset(map(id, pending())))
            if state != last_state or loop.time() < not_before or self._pool_busy():
                last_state, since = state, loop.time()
            elif loop.time() - since >= quiet:
                break
        self.check_contract()

    def _pool_busy(self) -> bool:
        """The bot's work pool (``bot.workers``) is running jobs: a task awaiting one is busy, not stuck."""
        return bool(getattr(getattr(self.bot, "workers", None), "pending", 0))

    async def _settle(self, before: set[asyncio.Task[Any]], timeout: float = 10.0) -> None:
        """Wait for the tasks discord.py spawned for the dispatch, then for their offspring to go quiet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        current = asyncio.current_task()
        for _ in range(3):
            await asyncio.sleep(0)
        while True:
            new = {t for t in asyncio.all_tasks() if t not in before and t is not current and not t.done()}
            dispatch = {
                t
                for t in new
                if t.get_name().startswith(_DISCORD_TASK_PREFIXES) and "timeout" not in t.get_name()
            }
            if not new:
                return
            if loop.time() > deadline:
                raise HarnessError(
                    f"the bot did not finish within {timeout} s: {[t.get_name() for t in dispatch]}"
                )
            requests_before = len(self.fake.requests)
            wait_for = QUIET_PERIOD if not dispatch else max(0.0, deadline - loop.time())
            done, _ = await asyncio.wait(
                dispatch or new, timeout=wait_for, return_when=asyncio.FIRST_COMPLETED
            )
            if not dispatch and not done and requests_before == len(self.fake.requests):
                return  # only long-lived background tasks (timers, loops) remain


def _wakes_at(task: asyncio.Task[Any]) -> float | None:
    """When a task sleeping in ``asyncio.sleep`` wakes up (loop time), else None; infinity for a task
    parked on a ``FakeClock`` (fake time passes only with ``advance``)."""
    coro: Any = task.get_coro()
    while coro is not None:
        frame = getattr(coro, "cr_frame", None)
        if frame is not None and frame.f_code is PARKED_CODE:
            return math.inf
        if frame is not None and frame.f_code is _SLEEP_CODE:
            handle = frame.f_locals.get("h")
            return handle.when() if handle is not None else None
        coro = getattr(coro, "cr_await", None)
    return None


_SLEEP_CODE = asyncio.sleep.__code__

__all__ = ["DiscordHarness", "HarnessError", "Reply", "default_config", "standard_world", "catalog_of"]
