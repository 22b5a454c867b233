"""Offline Discord test tooling: the in-process harness and the local Discord stand-in.

``DiscordHarness`` (in-process, real Interaction objects, fake HTTP edge) is what most cog tests
use; ``bot.testing.fakediscord.server`` is the HTTP + gateway stand-in for end-to-end tests and the
sandbox. Both answer from one ``FakeDiscord`` model. See ``bot/testing/README.md``.
"""

from bot.testing.fakediscord.backend import FakeDiscord
from bot.testing.fakediscord.driver import HarnessError, Reply, UploadFile, message_text
from bot.testing.fakediscord.model import FakeChannel, FakeMember, FakeMessage, FakeRole, FakeUser
from bot.testing.harness import DiscordHarness

__all__ = [
    "DiscordHarness",
    "FakeChannel",
    "FakeDiscord",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "HarnessError",
    "Reply",
    "UploadFile",
    "message_text",
]
