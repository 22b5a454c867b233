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


class ChannelRateLimiter:
    """About ``limit`` message sends/edits per ``per`` seconds per channel, as Discord's channel bucket.

    ``take(channel_id)`` returns the headers Discord sends with the answer and, when the bucket
    is empty, the seconds to wait (the request is then refused with 429 and not counted).
    """

    def __init__(self, limit: int = 5, per: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.per = per
        self.clock = clock
        self._sent: dict[int, deque[float]] = {}

    def take(self, channel_id: int) -> tuple[float | None, dict[str, str]]:
        now = self.clock()
        window = self._sent.setdefault(channel_id, deque())
        while window and now - window[0] >= self.per:
            window.popleft()
        if len(window) >= self.limit:
            wait = round(self.per - (now - window[0]), 3)
            return wait, self.headers(channel_id, 0, wait) | {"Retry-After": str(math.ceil(wait))}
        window.append(now)
        reset_after = round(self.per - (now - window[0]), 3)
        return None, self.headers(channel_id, self.limit - len(window), reset_after)

    def headers(self, channel_id: int, remaining: int, reset_after: float) -> dict[str, str]:
        return {"X-RateLimit-Limit": str(self.limit), "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": f"fake-channel-messages-{channel_id}", "X-RateLimit-Scope": "user",
                # discord.py treats a 429 without ``Via`` as a Cloudflare ban and gives up.
                "Via": "1.1 google"}
