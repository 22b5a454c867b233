"""Discord's rules that are not about the shape of a body: mentions, rate limits, upload sizes.

Plain functions and small classes used by ``FakeDiscord`` (no discord.py import).
"""

from __future__ import annotations

import math
import re
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from bot.testing.fakediscord.model import Pings

MIB = 1024 * 1024
UPLOAD_LIMITS = {0: 10 * MIB, 1: 10 * MIB, 2: 50 * MIB, 3: 100 * MIB}  # per file, by boost level

_EVERYONE = re.compile(r"@(everyone|here)")
_ROLE = re.compile(r"<@&(\d+)>")
_USER = re.compile(r"<@!?(\d+)>")


def pings_of(content: str, allowed_mentions: dict[str, Any] | None) -> Pings:
    """Who ``content`` notifies under ``allowed_mentions`` (absent: Discord parses every kind).

    Counted as if the bot could ping everyone (servers often give bots Administrator, which includes
    Mention Everyone): the question is what the text *asks* Discord to ping.
    """
    if allowed_mentions is None:
        allowed_mentions = {"parse": ["everyone", "roles", "users"]}
    parse = set(allowed_mentions.get("parse") or [])
    listed_roles = {int(r) for r in allowed_mentions.get("roles") or []}
    listed_users = {int(u) for u in allowed_mentions.get("users") or []}
    roles = [int(r) for r in _ROLE.findall(content or "")]
    users = [int(u) for u in _USER.findall(content or "")]
    return Pings(
        everyone="everyone" in parse and bool(_EVERYONE.search(content or "")),
        roles=sorted({r for r in roles if "roles" in parse or r in listed_roles}),
        users=sorted({u for u in users if "users" in parse or u in listed_users}),
    )


def upload_limit(premium_tier: int) -> int:
    return UPLOAD_LIMITS.get(premium_tier, UPLOAD_LIMITS[0])


class RateLimiter:
    """About ``limit`` requests per ``per`` seconds per key (a channel, an interaction token, the whole bot),
    as one of Discord's buckets.

    ``take(key)`` returns the headers Discord sends with the answer and, when the bucket is empty, the
    seconds to wait (the request is then refused with 429 and not counted). ``clock`` is real time
    (``time.monotonic``) for the short buckets: discord.py waits them out with ``asyncio.sleep``.
    """

    bucket = "fake-bucket"

    def __init__(self, limit: int = 5, per: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.per = per
        self.clock = clock
        self._sent: dict[Any, deque[float]] = {}
        self._throttled: dict[Any, tuple[float, str | None]] = {}

    def throttle_next(self, key: Any, seconds: float, *, method: str | None = None) -> None:
        """Answer the next request of ``key`` with 429 and ``retry_after`` ``seconds``, then as usual: what
        Discord does when a bucket is drained by something the bot cannot see (another process of the
        same bot, slowmode-like limits), so tests and benchmarks can ask for a long wait on one channel.

        ``method`` aims the refusal at one kind of request ("POST": a new message, "PATCH": an edit), so a
        test about a post is not undone by a background board edit that happens to come first."""
        self._throttled[key] = (seconds, method)

    def take(self, key: Any, method: str | None = None) -> tuple[float | None, dict[str, str]]:
        if key in self._throttled:
            seconds, aimed_at = self._throttled[key]
            if aimed_at is None or aimed_at == method:
                del self._throttled[key]
                return seconds, self.headers(key, 0, seconds)
        now = self.clock()
        window = self._sent.setdefault(key, deque())
        while window and now - window[0] >= self.per:
            window.popleft()
        if len(window) >= self.limit:
            wait = round(self.per - (now - window[0]), 3)
            return wait, self.headers(key, 0, wait) | {"Retry-After": str(math.ceil(wait))}
        window.append(now)
        reset_after = round(self.per - (now - window[0]), 3)
        return None, self.headers(key, self.limit - len(window), reset_after)

    def headers(self, key: Any, remaining: int, reset_after: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"{self.bucket}-{key}",
            "X-RateLimit-Scope": "user",
            # discord.py treats a 429 without ``Via`` as a Cloudflare ban and gives up.
            "Via": "1.1 google",
        }


class ChannelRateLimiter(RateLimiter):
    """About ``limit`` message sends/edits per ``per`` seconds per channel, as Discord's channel bucket."""

    bucket = "fake-channel-messages"


class WebhookRateLimiter(RateLimiter):
    """An interaction's follow-ups and edits of its messages share a bucket of their own, keyed by the
    interaction token, as every webhook's does (5 per 2 s on Discord)."""

    bucket = "fake-interaction-webhook"


class GlobalRateLimiter(RateLimiter):
    """Discord's global limit: 50 requests per second per bot, over every route except interaction
    callbacks and interaction webhooks. A refusal says ``"global": true`` and
    ``X-RateLimit-Global``; discord.py then holds every request until ``retry_after`` has passed."""

    bucket = "fake-global"

    def headers(self, key: Any, remaining: int, reset_after: float) -> dict[str, str]:
        base = super().headers(key, remaining, reset_after)
        if remaining:  # Discord sends no bucket headers for the global limit while it is not hit
            return {}
        return {"Via": base["Via"], "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}


OLD_MESSAGE_AGE = 3600.0  # seconds: Discord caps edits to messages older than one hour...
OLD_MESSAGE_EDITS_PER_HOUR = 3  # ...to a few per hour in each channel


class OldMessageEditLimiter:
    """Discord's cap on edits to messages older than one hour: a few per hour in each channel, then 429
    with code 30046 and a ``retry_after`` of up to an hour (until the oldest counted edit is an hour old).

    Runs on the stand-in's injected clock (the bot's fake clock in tests), so a test moves a game two
    hours on with ``h.advance(hours=2)`` instead of waiting.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        allowance: int = OLD_MESSAGE_EDITS_PER_HOUR,
        age: float = OLD_MESSAGE_AGE,
        window: float = 3600.0,
    ) -> None:
        self.clock, self.allowance, self.age, self.window = clock, allowance, age, window
        self._edits: dict[int, deque[float]] = {}

    def is_old(self, created_at: float) -> bool:
        return self.clock() - created_at > self.age

    def take(self, channel_id: int) -> float | None:
        """Count one edit of an old message in ``channel_id``; the seconds to wait when over the cap."""
        now = self.clock()
        edits = self._edits.setdefault(channel_id, deque())
        while edits and now - edits[0] >= self.window:
            edits.popleft()
        if len(edits) >= self.allowance:
            return round(self.window - (now - edits[0]), 3)
        edits.append(now)
        return None
