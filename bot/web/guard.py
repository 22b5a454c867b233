"""What keeps the page server from taking the bot down: caps on connections, timeouts, descriptors.

The pages run inside the bot process, so every socket a viewer opens is a file descriptor the bot also
needs for Discord and the database. Without limits, a thousand event-stream viewers of one link (or as
many requests that never finish their headers) exhaust the process's descriptors: ``/ping`` goes
unanswered in every server and asyncio logs a traceback for each refused ``accept``. So:

* at start the soft descriptor limit is raised to the hard one (``raise_descriptor_limit``), and the
  page server keeps ``DESCRIPTOR_RESERVE`` descriptors out of its reach for Discord, the database and
  the card workers;
* a connection beyond the total cap is answered at once with a small 503 page and ``Retry-After`` and
  closed (``ConnectionGate``), before aiohttp reads anything from it;
* a connection must finish its request headers within ``header_timeout`` seconds (a half-sent request
  is closed), and the same deadline applies again between two requests on one kept-alive connection;
  the deadline is the viewer's to meet, so it stops when the blank line that ends the headers arrives,
  not when the bot gets round to the request (a loop slowed by the flood must not cut whole requests);
* a flood is logged once when it starts and once when it ends, never once per connection.

The per-link cap on event streams lives in the server (``PageServer.events``), which knows the links.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from asyncio.constants import ACCEPT_RETRY_DELAY
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

DESCRIPTOR_RESERVE = 128  # for Discord's gateway and REST, the database, card workers, log files
DESCRIPTOR_CEILING = 65536  # never ask for more than this, whatever the hard limit allows
RETRY_AFTER_SECONDS = 30
LINGER_SECONDS = 1.0  # a refused connection stays half-open this long so its 503 arrives (not a reset)
HEADERS_END = b"\r\n\r\n"  # the blank line after a request's header lines
MAX_LINGERING = 64  # beyond this many refused connections still lingering, the next is just closed

BUSY_PAGE = (
    '<!doctype html><html><head><meta charset="utf-8"><title>503</title></head><body>'
    "<p>Too many viewers right now. This page will be back shortly; please try again in a minute.</p>"
    "<p>閲覧者が多すぎます。しばらくしてからもう一度お試しください。</p>"
    "<p>当前观看人数过多，请稍后再试。</p><p>目前觀看人數過多，請稍後再試。</p></body></html>"
)


def raise_descriptor_limit() -> int:
    """Raise the soft limit on open files to the hard one (bounded), and return the soft limit now in
    force. systemd starts services with a soft limit of 1,024 although the hard limit is far higher."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = DESCRIPTOR_CEILING if hard == resource.RLIM_INFINITY else min(hard, DESCRIPTOR_CEILING)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as error:  # a container may refuse; then the caps shrink instead
            log.warning("could not raise the open-file limit from %s to %s (%s)", soft, wanted, error)
    return DESCRIPTOR_CEILING if soft == resource.RLIM_INFINITY else int(soft)


def connection_cap(configured: int, descriptor_limit: int) -> int:
    """The total number of page connections allowed: the configured cap, but never so many that the
    descriptors left for the rest of the bot fall below the reserve (at least one connection)."""
    return max(1, min(configured, descriptor_limit - DESCRIPTOR_RESERVE))


def busy_response(retry_after: int = RETRY_AFTER_SECONDS) -> bytes:
    """A complete HTTP/1.1 503 with ``Retry-After`` and the small page, for a connection refused before
    aiohttp ever sees it (so it costs no parsing and no task)."""
    body = BUSY_PAGE.encode()
    head = (
        f"HTTP/1.1 503 Service Unavailable\r\nRetry-After: {retry_after}\r\n"
        f"Content-Type: text/html; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
        "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


class FloodLog:
    """Logs that something is being refused once when it starts, and once when it has stopped (with how
    many were refused), instead of once per refusal: a flood must not fill the disk with log lines."""

    def __init__(
        self, what: str, *, quiet_seconds: float = 60.0, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.what, self.quiet_seconds, self._now = what, quiet_seconds, now
        self.refused = 0
        self._last: float | None = None

    def refusing(self, detail: str) -> None:
        now = self._now()
        if self._last is None:
            log.warning("%s: refusing (%s); logged once until it stops", self.what, detail)
        self._last = now
        self.refused += 1

    def check_ended(self) -> None:
        """Called on each admitted connection: after ``quiet_seconds`` without a refusal, say it ended."""
        if self._last is not None and self._now() - self._last >= self.quiet_seconds:
            log.warning("%s: ended, %s refused in all", self.what, self.refused)
            self._last, self.refused = None, 0


class GuardedProtocol(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the gate: refused beyond the cap, closed when its
    request headers do not arrive in time. Composition, not a subclass, so aiohttp's internals stay its own."""

    _tail = b""  # the last bytes received while the headers are awaited (the blank line may be split)

    def __init__(self, gate: ConnectionGate, inner: Any) -> None:
        self.gate, self.inner = gate, inner
        self.transport: asyncio.Transport | None = None  # pragma: no mutate (connection_made sets it first)
        self._deadline: asyncio.TimerHandle | None = None

    # -- the gate's part ----------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if not self.gate.admit(self):
            self.inner = None
            self.gate.refuse(transport)
            return
        self.expect_headers()
        self.inner.connection_made(transport)

    @property
    def awaiting_headers(self) -> bool:
        """Whether the header deadline runs (a request's headers have not all arrived yet)."""
        return self._deadline is not None

    def expect_headers(self) -> None:
        """(Re)start the deadline for the next request's headers."""
        self.headers_arrived()
        self._tail = b""
        self._deadline = asyncio.get_running_loop().call_later(self.gate.header_timeout, self._too_slow)

    def headers_arrived(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        self.gate.slow.refusing("a request's headers took longer than the timeout")
        if self.transport is not None:
            self.transport.abort()

    # -- aiohttp's part ------------------------------------------------------------------------------

    def connection_lost(self, exc: Exception | None) -> None:
        self.headers_arrived()
        self.gate.release(self)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is not None:
            self._watch_for_headers_end(data)
        if self.inner is not None:
            self.inner.data_received(data)

    def _watch_for_headers_end(self, data: bytes) -> None:
        """Stop the deadline once the headers' blank line has arrived, whichever chunks it came in."""
        seen = self._tail + data
        if HEADERS_END in seen:
            self.headers_arrived()
        else:
            self._tail = seen[-(len(HEADERS_END) - 1) :]

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class ConnectionGate:
    """Counts the page server's open connections and admits a new one only below the cap."""

    def __init__(self, factory: Callable[[], Any], *, cap: int, header_timeout: float) -> None:
        self.factory, self.cap, self.header_timeout = factory, cap, header_timeout
        self.open: dict[asyncio.Transport, GuardedProtocol] = {}
        self.lingering = 0
        self.full = FloodLog("page server full")
        self.slow = FloodLog("slow page requests")

    def protocol(self) -> GuardedProtocol:
        """The protocol factory handed to ``loop.create_server``."""
        return GuardedProtocol(self, self.factory())

    def refuse(self, transport: asyncio.Transport) -> None:
        """Answer 503 and close. Closing at once while the request sits unread makes the kernel send a
        reset, which the viewer sees instead of the answer; so the sending side is shut and the socket
        closed a moment later (what arrives meanwhile is ignored) - unless too many already linger."""
        transport.write(busy_response())
        if self.lingering >= MAX_LINGERING or not transport.can_write_eof():
            transport.close()
            return
        transport.write_eof()
        self.lingering += 1
        asyncio.get_running_loop().call_later(LINGER_SECONDS, self._close_refused, transport)

    def _close_refused(self, transport: asyncio.Transport) -> None:
        self.lingering -= 1
        transport.abort()

    def admit(self, protocol: GuardedProtocol) -> bool:
        if len(self.open) >= self.cap:
            self.full.refusing(f"{len(self.open)} connections open, the cap is {self.cap}")
            return False
        self.full.check_ended()
        self.slow.check_ended()
        assert protocol.transport is not None
        self.open[protocol.transport] = protocol
        return True

    def release(self, protocol: GuardedProtocol) -> None:
        if protocol.transport is not None:
            self.open.pop(protocol.transport, None)

    def of(self, transport: asyncio.BaseTransport | None) -> GuardedProtocol | None:
        """The guarded connection a request arrived on (None for one the gate did not make: tests)."""
        if not isinstance(transport, asyncio.Transport):  # pragma: no mutate (get gives a non-key None too)
            return None
        return self.open.get(transport)


_AIOHTTP_ERROR = "Error handling request from "  # then the sender's address (aiohttp's web_protocol)


class FloodFilter(logging.Filter):
    """Turns the per-connection log records of a flood into one line per flood (``FloodLog``):
    aiohttp's traceback for each malformed request, asyncio's for each ``accept`` refused for lack of
    descriptors. Installed on those two loggers while the page server runs."""

    def __init__(self) -> None:
        super().__init__()
        self.malformed = FloodLog("malformed page requests")
        self.accept = FloodLog("page server out of descriptors")
        self.accept_refused_at: float | None = None  # the loop's time of the last refused accept

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.name == "aiohttp.server" and message.startswith(_AIOHTTP_ERROR) and _is_bad_http(record):
            sender = message.removeprefix(_AIOHTTP_ERROR)
            self.malformed.refusing("answered 400, the first from " + sender)
            return False
        if record.name == "asyncio" and message.startswith("socket.accept() out of system resource"):
            with contextlib.suppress(RuntimeError):  # logged outside the loop: no retry to wait for
                self.accept_refused_at = asyncio.get_running_loop().time()
            self.accept.refusing("new connections wait in the listen queue")
            return False
        return True


def _is_bad_http(record: logging.LogRecord) -> bool:
    from aiohttp.http_exceptions import HttpProcessingError

    error = record.exc_info[1] if record.exc_info else None
    return isinstance(error, HttpProcessingError)


async def accept_retry_passed(flood_filter: FloodFilter) -> None:
    """Wait until asyncio's own retry of a refused ``accept`` has run.

    After running out of descriptors asyncio stops reading the listening socket and starts it again
    ``ACCEPT_RETRY_DELAY`` seconds later, from a timer that closing the server does not cancel: a server
    closed in between meets that timer on a closed socket, which asyncio logs as a traceback. Closing
    after the retry leaves nothing behind."""
    if flood_filter.accept_refused_at is None:
        return
    loop = asyncio.get_running_loop()
    retry_at = flood_filter.accept_refused_at + ACCEPT_RETRY_DELAY
    if retry_at > loop.time():
        await asyncio.sleep(retry_at - loop.time() + 0.05)  # the retry's own timer, then this one
