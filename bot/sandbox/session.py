"""The sandbox's engine: a local Discord stand-in, the real bot connected to it, and simulated users.

``SandboxSession`` owns one asyncio loop's worth of state: a ``FakeDiscord`` world (a server with
``admin`` (owner), ``alice``, ``bob``, ``carol``; channels ``general``, ``games``), the
``FakeDiscordServer`` on 127.0.0.1, the real unmodified ``PodkeeperBot`` logged in to it with the
chosen SQLite file, and a ``RemoteDriver`` that acts as whichever user is current. The terminal
front end (``terminal.py``) only parses lines and prints; everything here is testable without a TTY.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.config import Config
from bot.testing.fakediscord.backend import FakeDiscord
from bot.testing.fakediscord.model import FakeChannel, FakeMember, FakeMessage
from bot.testing.fakediscord.server import FakeDiscordServer, RemoteDriver
from bot.testing.harness import standard_world

log = logging.getLogger(__name__)
SANDBOX_TOKEN = "sandbox-token"
# A line's output is complete once the bot is idle; a bot task that changes nothing for this long is
# waiting on something else (a panel's timeout), not about to answer.
STUCK_AFTER = 5.0
USERS = ("alice", "bob", "carol")
DEFAULT_DISCORD_LOCALE = "en-US"
# Our catalogue languages as the Discord locale a user would pick in Discord's settings.
DISCORD_LOCALES = {"en": "en-US", "ja": "ja", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}
# Every locale Discord's client offers (discord.Locale values), so untranslated ones can be tried too.
DISCORD_CODES = tuple(locale.value for locale in discord.Locale)


@dataclass
class LogEntry:
    action: str  # "create" | "edit" | "delete"
    message: FakeMessage


class SandboxSession:
    def __init__(self, config: Config, *, quiet: float = 0.6) -> None:
        """``quiet``: a bot task sleeping longer than this is a timer, not more output coming (see
        ``RemoteDriver.wait_quiet``, which waits until the bot is idle)."""
        # No scheduled card download from a sandbox: it plays with the cards it has.
        self.config = config.with_values(
            discord__token=SANDBOX_TOKEN, discord__dev_guild_id=0, cards__auto_sync=False
        )
        if not self.config.web_enabled:  # live pages on: a free port of 127.0.0.1, shown in the links
            self.config = self.config.with_values(web__enabled=True, web__port=0)
        self.fake = FakeDiscord()
        self.guild = standard_world(self.fake, members=USERS)
        self.server = FakeDiscordServer(self.fake, token=SANDBOX_TOKEN)
        self.driver = RemoteDriver(self.server, self.guild, quiet=quiet, stuck_after=STUCK_AFTER)
        self.bot: Any = None
        self._bot_task: asyncio.Task[None] | None = None
        self.current_user = "alice"
        self.current_channel = "general"
        self.locales: dict[str, str] = {}  # user name -> Discord locale they "set in Discord" (:locale)
        self.shown_log = 0
        self.numbers: dict[int, int] = {}  # message id -> short number shown to the user
        self._redirect: Any = None

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        from bot.testing.fakediscord.server import redirect_discord_py

        await self.server.start()
        self._redirect = redirect_discord_py(self.server.url, self.server.gateway_url)
        self._redirect.__enter__()
        await self.start_bot()

    async def start_bot(self) -> None:
        """Start the real bot exactly as ``podkeeper run`` would, against the stand-in."""
        from bot.client import PodkeeperBot

        self.bot = PodkeeperBot(self.config, sync_commands=True, guild_ready_timeout=0.05)
        bot = self.bot
        self.driver.working = lambda: bool(getattr(getattr(bot, "workers", None), "pending", 0))
        self._bot_task = asyncio.create_task(self.bot.start(SANDBOX_TOKEN), name="sandbox-bot")
        connected = asyncio.create_task(self.server.wait_until_connected(timeout=600))
        done, _ = await asyncio.wait({self._bot_task, connected}, return_when=asyncio.FIRST_COMPLETED)
        if self._bot_task in done:
            connected.cancel()
            self._bot_task.result()  # raises the start-up error
            raise RuntimeError("the bot stopped during start-up")
        await connected
        await self.driver.wait_quiet()

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self._bot_task is not None:
            try:
                await asyncio.wait_for(self._bot_task, 10)
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - shutting down regardless
                log.debug("bot task ended with an error during shutdown", exc_info=True)
        self.bot, self._bot_task = None, None

    async def restart(self) -> None:
        """Close the bot (database closed cleanly) and start a new one on the same file."""
        await self.stop_bot()
        await self.start_bot()

    async def close(self) -> None:
        await self.stop_bot()
        self.driver.close()
        if self._redirect is not None:
            self._redirect.__exit__(None, None, None)
            self._redirect = None
        await self.server.stop()

    def pages_line(self) -> str | None:
        """Where the live pages are served, for the start-up banner."""
        pages = getattr(self.bot, "pages", None)
        if pages is None:
            return None
        return (
            f"live pages: {pages.public_url}/p/… — private links with /pod overlay, /tournament page, "
            f"/hydra event page (open them in a browser while you play)"
        )

    # -- who and where --------------------------------------------------------------------------

    def member(self, name: str | None = None) -> FakeMember:
        return self.driver.user(name or self.current_user)

    def channel(self, name: str | None = None) -> FakeChannel:
        wanted = (name or self.current_channel).lstrip("#")
        for channel in self.guild.channels.values():
            if channel.name == wanted or str(channel.id) == wanted:
                return channel
        raise LookupError(f"no channel {wanted!r}; channels: {', '.join(self.channel_names())}")

    def channel_names(self) -> list[str]:
        return [c.name for c in self.guild.channels.values()]

    def add_user(self, name: str) -> FakeMember:
        if any(m.name == name for m in self.guild.members.values()):
            return self.member(name)
        member = self.fake.add_member(self.guild, name)
        return member

    def locale_of(self, name: str | None = None) -> str:
        """The Discord locale the user's client sends with each interaction (en-US until :locale)."""
        return self.locales.get(name or self.current_user, DEFAULT_DISCORD_LOCALE)

    def set_locale(self, name: str, wanted: str) -> str:
        """Set a user's Discord language from one of ours (ja, zh-Hans) or a Discord code (zh-TW, fr)."""
        code = DISCORD_LOCALES.get(wanted) or next(
            (c for c in DISCORD_CODES if c.lower() == wanted.lower()), None
        )
        if code is None:
            raise ValueError(
                f"no Discord language {wanted!r}; try {', '.join(DISCORD_LOCALES)} or a Discord code "
                "such as fr, de, ko"
            )
        self.locales[name] = code
        return code

    # -- messages -------------------------------------------------------------------------------

    def number(self, message: FakeMessage) -> int:
        if message.id not in self.numbers:
            self.numbers[message.id] = len(self.numbers) + 1
        return self.numbers[message.id]

    def message_by_number(self, number: int) -> FakeMessage:
        for message_id, shown in self.numbers.items():
            if shown == number:
                return self.fake.messages[message_id]
        raise LookupError(f"no message #{number}")

    def visible(self, message: FakeMessage) -> bool:
        """Ephemeral messages are seen only by the user who triggered them."""
        if not message.ephemeral:
            return True
        return message.interaction_user is not None and message.interaction_user.name == self.current_user

    def latest_with_components(self, kinds: tuple[int, ...]) -> FakeMessage:
        """The newest message in the current channel (that the current user can see) with such components."""
        channel = self.channel()
        candidates = [
            m
            for m in self.fake.messages.values()
            if m.channel_id == channel.id
            and not m.deleted
            and self.visible(m)
            and any(c.get("type") in kinds for c in m.walk_components())
        ]
        if not candidates:
            raise LookupError(f"no message with {'buttons' if kinds == (2,) else 'menus'} in #{channel.name}")
        return max(candidates, key=lambda m: m.id)

    def new_log_entries(self) -> list[LogEntry]:
        """Message creates/edits/deletes since the last call, merged per message (latest action wins)."""
        entries: dict[int, LogEntry] = {}
        for action, message_id in self.fake.message_log[self.shown_log :]:
            message = self.fake.messages[message_id]
            previous = entries.get(message_id)
            if previous is not None and previous.action == "create" and action == "edit":
                continue  # created and then edited before we showed it: show it once, as it is now
            entries[message_id] = LogEntry(action, message)
        self.shown_log = len(self.fake.message_log)
        return list(entries.values())
