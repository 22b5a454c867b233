"""An in-process publish/subscribe hub of "something changed" notices, by topic.

Services publish a topic (``pod:12``, ``tournament:3``, ``hydra_event:5``, ``hydra_game:40``) right
after a change is committed; readers (the live web pages) wait for a topic to change and then read the
committed state again. A notice carries no data on purpose: whatever a reader shows is read from the
same place as everything else, so a notice can be coalesced, repeated or lost between two reads without
a page ever showing a state that was not committed.

The hub is owned by the :class:`bot.storage.db.Database` (``db.changes``) because a notice is a fact
about the database: with more than one bot process, ``publish`` would also send ``NOTIFY podkeeper,
'<topic>'`` on PostgreSQL, and each process would run one ``LISTEN podkeeper`` connection whose
notifications call :meth:`ChangeHub.deliver` (the local half of ``publish``), so any process can serve
any page. ``bot.notify`` does that: the bot sets ``relay`` to send each published topic to the other
processes, and their notifier calls ``deliver`` (and ``deliver_all`` after a reconnect, when notices may
have been missed: every reader reads again).

Besides readers that wait, a process may ``follow`` a topic with a callback (the card index follows
``cards``: another process swapped the card tables, read them again).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

CARDS_TOPIC = "cards"  # published once new card tables are committed (bot.cards.database)

_Method = TypeVar("_Method", bound=Callable[..., Awaitable[Any]])


class Subscription:
    """One reader's interest in some topics. ``wait`` returns once any of them changed since the last
    ``wait`` (changes in between are coalesced into one wake-up)."""

    def __init__(self, hub: ChangeHub, topics: Iterable[str]) -> None:
        self.hub = hub
        self.topics: set[str] = set()
        self._changed = asyncio.Event()
        self.watch(topics)

    def watch(self, topics: Iterable[str]) -> None:
        """Replace the watched topics (a Hydra event's page follows tables that appear later)."""
        new = set(topics)
        if new == self.topics:
            return
        for topic in self.topics - new:
            self.hub._drop(topic, self)
        for topic in new - self.topics:
            self.hub._subscribers.setdefault(topic, set()).add(self)
        self.topics = new

    async def wait(self, timeout: float | None = None) -> bool:
        """True when a watched topic changed, False on timeout."""
        if not self._changed.is_set():
            try:
                async with asyncio.timeout(timeout):  # no extra task per wait, unlike wait_for on 3.11
                    await self._changed.wait()
            except TimeoutError:
                return False
        self._changed.clear()
        return True

    def close(self) -> None:
        self.watch(())

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ChangeHub:
    """Topics to subscriptions, and a version number per topic (to tell a cached rendering is stale)."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = {}
        self._versions: dict[str, int] = {}
        self._followers: dict[str, list[Callable[[], object]]] = {}
        self.relay: Callable[[str], None] | None = None  # to the other processes (bot.notify), when any

    def publish(self, topic: str) -> None:
        """A committed change of ``topic``. Never blocks and never raises into the service."""
        self.deliver(topic)
        if self.relay is not None:
            self.relay(topic)

    def deliver(self, topic: str) -> None:
        """Wake this process's readers of ``topic`` (also the entry point for notices from elsewhere)."""
        self._versions[topic] = self._versions.get(topic, 0) + 1
        for subscription in self._subscribers.get(topic, ()):
            subscription._changed.set()
        for callback in self._followers.get(topic, ()):
            callback()

    def deliver_all(self) -> None:
        """Notices may have been missed (the notifier reconnected): every reader and follower reads again."""
        for topic in {*self._subscribers, *self._followers}:
            self.deliver(topic)

    def follow(self, topic: str, callback: Callable[[], object]) -> None:
        """Call ``callback()`` (quick, non-blocking: it may start a task) on every change of ``topic``."""
        self._followers.setdefault(topic, []).append(callback)

    def version(self, topic: str) -> int:
        return self._versions.get(topic, 0)

    def subscribe(self, topics: Iterable[str]) -> Subscription:
        return Subscription(self, topics)

    def subscriber_count(self, topic: str) -> int:
        return len(self._subscribers.get(topic, ()))

    def _drop(self, topic: str, subscription: Subscription) -> None:
        subscribers = self._subscribers.get(topic)
        if subscribers is not None:
            subscribers.discard(subscription)
            if not subscribers:
                del self._subscribers[topic]


def publishes(topic: Callable[..., str | None]) -> Callable[[_Method], _Method]:
    """Decorate an async service method that commits a change: once it returns (the change is
    committed; a refusal raises and publishes nothing), publish ``topic(result, *args, **kwargs)`` on
    the service's ``self.changes`` (None: nothing to say)."""

    def decorate(method: _Method) -> _Method:
        @functools.wraps(method)
        async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = await method(self, *args, **kwargs)
            name = topic(result, *args, **kwargs)
            if name is not None:
                self.changes.publish(name)
            return result

        return wrapper  # type: ignore[return-value]

    return decorate
