"""The page server's guards on their own, on real sockets of this machine and the process's real
descriptor limit: what a refused viewer receives byte for byte, the connection cap and its count, the
header deadline, the flood logs (on a FakeClock) and the log filter that turns a flood into one line."""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import pytest
from aiohttp.http_exceptions import BadHttpMessage

from bot.clock import FakeClock
from bot.web import guard
from bot.web.guard import (
    BUSY_PAGE,
    DESCRIPTOR_CEILING,
    DESCRIPTOR_RESERVE,
    ConnectionGate,
    FloodFilter,
    FloodLog,
    GuardedProtocol,
    busy_response,
    connection_cap,
    raise_descriptor_limit,
)

# -- what a refused connection receives -------------------------------------------------------------


def test_the_busy_answer_is_a_complete_503_whose_length_is_its_body_in_bytes() -> None:
    """A browser trusts Content-Length: counted in characters, the Japanese and Chinese lines (three bytes
    each) would cut the page short or leave the browser waiting for bytes that never come."""
    head, body = busy_response().split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    assert lines[0] == "HTTP/1.1 503 Service Unavailable"
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert headers == {
        "Retry-After": "30",
        "Content-Type": "text/html; charset=utf-8",
        "Content-Length": str(len(BUSY_PAGE.encode())),
        "Cache-Control": "no-store",
        "Connection": "close",
    }
    assert body.decode() == BUSY_PAGE and len(BUSY_PAGE.encode()) > len(BUSY_PAGE)
    assert b"Retry-After: 5\r\n" in busy_response(5)


# -- the connection cap --------------------------------------------------------------------------------


def test_the_cap_is_the_configured_one_up_to_the_last_descriptor_beyond_the_reserve() -> None:
    """At the boundary the configured cap stands exactly; one descriptor fewer takes one connection off;
    a cap of 0 in the settings still serves one viewer (a page server that refuses everyone is a bug)."""
    assert connection_cap(900, 900 + DESCRIPTOR_RESERVE) == 900
    assert connection_cap(900, 899 + DESCRIPTOR_RESERVE) == 899
    assert connection_cap(0, 4096) == 1
    assert connection_cap(10, DESCRIPTOR_RESERVE + 2) == 2


@pytest.fixture
def soft_limit():
    """The process's open-file limit, put back after the test whatever it did."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    yield soft, hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_low_soft_descriptor_limit_is_raised_to_the_hard_one_within_the_ceiling(soft_limit) -> None:
    """systemd's soft limit of 1,024 would cap the pages far below the settings: it is raised at start."""
    _, hard = soft_limit
    wanted = DESCRIPTOR_CEILING if hard == resource.RLIM_INFINITY else min(hard, DESCRIPTOR_CEILING)
    if wanted <= 256:
        pytest.skip("the hard limit leaves nothing to raise")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    assert raise_descriptor_limit() == wanted
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (wanted, hard)


def test_a_soft_limit_already_at_the_hard_one_is_left_and_reported(soft_limit) -> None:
    """Nothing to raise: the limit is reported as it is (the cap is computed from it), never lowered."""
    _, hard = soft_limit
    if hard == resource.RLIM_INFINITY or hard > DESCRIPTOR_CEILING:
        pytest.skip("the hard limit is above the ceiling")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    assert raise_descriptor_limit() == hard
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)


def test_a_soft_limit_above_the_ceiling_is_never_lowered(soft_limit) -> None:
    """An operator who gave the bot more descriptors than the ceiling keeps them: the ceiling bounds
    what is asked for, it never takes away what is already there."""
    _, hard = soft_limit
    above = DESCRIPTOR_CEILING + 10
    try:  # systemd's hard limit (524,288) allows it; elsewhere raising the hard limit needs root
        resource.setrlimit(resource.RLIMIT_NOFILE, (above, max(hard, above)))
    except (ValueError, OSError):
        pytest.skip("the hard open-file limit is below the ceiling and may not be raised")
    assert raise_descriptor_limit() == above
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == above


def test_a_soft_limit_above_a_lower_ceiling_is_left_where_it_is(soft_limit, monkeypatch) -> None:
    """The same rule where the hard limit may not be raised: with the ceiling put below this process's
    hard limit, a soft limit between the two is kept and reported, neither lowered nor raised."""
    _, hard = soft_limit
    ceiling, between = 1024, 1536  # room for the descriptors pytest holds while the limit is low
    if hard != resource.RLIM_INFINITY and hard <= between:
        pytest.skip("the hard limit leaves no room above the lowered ceiling")
    monkeypatch.setattr(guard, "DESCRIPTOR_CEILING", ceiling)
    resource.setrlimit(resource.RLIMIT_NOFILE, (between, hard))
    assert raise_descriptor_limit() == between
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == (between, hard)


# -- the flood log ---------------------------------------------------------------------------------------


def _flood(clock: FakeClock) -> FloodLog:
    """A flood log with its default quiet time (a minute: the gate's and the filter's) on ``clock``."""
    return FloodLog("test flood", now=lambda: clock.now().timestamp())


def test_a_flood_is_logged_when_it_starts_and_when_it_has_been_quiet_long_enough(caplog) -> None:
    """One line when the refusals start, none for the rest, one with the count once ``quiet_seconds``
    passed without a refusal; then the next flood is news again. A line per refusal would fill the disk."""
    caplog.set_level(logging.WARNING, logger="bot.web.guard")
    clock = FakeClock()
    flood = _flood(clock)
    flood.check_ended()  # no flood yet: nothing to end
    for _ in range(3):
        flood.refusing("full")
    assert [r.getMessage() for r in caplog.records] == [
        "test flood: refusing (full); logged once until it stops"
    ]
    clock.jump(59)
    flood.check_ended()
    assert len(caplog.records) == 1 and flood.refused == 3
    clock.jump(1)
    flood.check_ended()
    assert caplog.records[-1].getMessage() == "test flood: ended, 3 refused in all"
    assert flood.refused == 0
    flood.check_ended()
    assert len(caplog.records) == 2
    flood.refusing("again")
    assert caplog.records[-1].getMessage() == "test flood: refusing (again); logged once until it stops"


def test_the_quiet_time_counts_from_the_last_refusal_not_the_first(caplog) -> None:
    """A flood that goes on for ten minutes is one flood: it ends a minute after its last refusal."""
    caplog.set_level(logging.WARNING, logger="bot.web.guard")
    clock = FakeClock()
    flood = _flood(clock)
    for _ in range(10):
        flood.refusing("full")
        clock.jump(50)
        flood.check_ended()
    assert len(caplog.records) == 1
    clock.jump(10)
    flood.check_ended()
    assert caplog.records[-1].getMessage() == "test flood: ended, 10 refused in all"


# -- the gate on a real socket ---------------------------------------------------------------------------


@dataclass
class _Recorder(asyncio.Protocol):
    """What aiohttp's protocol would be told: a plain protocol that records the calls it receives."""

    calls: list[str] = field(default_factory=list)
    data: bytearray = field(default_factory=bytearray)
    keep_open: bool = False  # what eof_received answers: True keeps our sending half open
    lost_with: BaseException | None = None

    def connection_made(self, transport) -> None:
        self.calls.append("made")

    def data_received(self, data: bytes) -> None:
        self.data += data
        self.calls.append("data")

    def eof_received(self) -> bool:
        self.calls.append("eof")
        return self.keep_open  # the gate must pass the answer on to the transport

    def connection_lost(self, exc) -> None:
        self.calls.append("lost")
        self.lost_with = exc

    def pause_writing(self) -> None:
        self.calls.append("pause")

    def resume_writing(self) -> None:
        self.calls.append("resume")


@dataclass
class _Served:
    gate: ConnectionGate
    port: int
    inners: list[_Recorder]


@asynccontextmanager
async def _serve(cap: int, header_timeout: float = 30.0) -> AsyncIterator[_Served]:
    inners: list[_Recorder] = []

    def factory() -> _Recorder:
        inners.append(_Recorder())
        return inners[-1]

    gate = ConnectionGate(factory, cap=cap, header_timeout=header_timeout)
    server = await asyncio.get_running_loop().create_server(gate.protocol, "127.0.0.1", 0)
    try:
        yield _Served(gate, server.sockets[0].getsockname()[1], inners)
    finally:
        server.close()
        await server.wait_closed()


@pytest.fixture
async def gate_of_two() -> AsyncIterator[_Served]:
    async with _serve(cap=2) as served:
        yield served


async def _until(condition) -> None:
    """Wait (up to 5 s of a busy machine) for what the event loop is about to do."""
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def test_the_cap_counts_open_connections_and_frees_a_place_when_one_closes(gate_of_two) -> None:
    """Two may be open at once; the third is answered 503 without its protocol ever hearing of it; once
    one of the two leaves, the next is admitted (a place is never lost to a closed connection)."""
    served = gate_of_two
    first = await asyncio.open_connection("127.0.0.1", served.port)
    second = await asyncio.open_connection("127.0.0.1", served.port)
    await _until(lambda: len(served.gate.open) == 2)
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    writer.write(b"GET / HTTP/1.1\r\n\r\n")
    async with asyncio.timeout(5):
        assert await reader.read() == busy_response()
    assert len(served.inners) == 3 and served.inners[2].calls == []  # refused before aiohttp saw it
    writer.close()
    first[1].close()
    await _until(lambda: len(served.gate.open) == 1)
    assert served.inners[0].calls == ["made", "eof", "lost"]
    again = await asyncio.open_connection("127.0.0.1", served.port)
    again[1].write(b"hello")
    await _until(lambda: bytes(served.inners[-1].data) == b"hello")
    assert len(served.gate.open) == 2
    for _, other in (second, again):
        other.close()
    await _until(lambda: not served.gate.open)


async def test_an_admitted_connection_passes_its_data_and_end_of_file_to_the_server(gate_of_two) -> None:
    """The gate stands in front of aiohttp's protocol: every byte and the viewer's end of sending go on."""
    served = gate_of_two
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    writer.write(b"GET /p/x HTTP/1.1\r\n")
    writer.write_eof()
    await _until(lambda: "lost" in served.inners[0].calls)
    assert bytes(served.inners[0].data) == b"GET /p/x HTTP/1.1\r\n"
    assert served.inners[0].calls == ["made", "data", "eof", "lost"]
    writer.close()


async def test_a_viewer_that_resets_its_connection_is_released_and_the_server_told_why(gate_of_two) -> None:
    """A reset (a browser killed, a phone off the network) frees the place under the cap, and aiohttp's
    protocol receives the error itself: it tells a reset from an orderly close."""
    served = gate_of_two
    _, writer = await asyncio.open_connection("127.0.0.1", served.port)
    await _until(lambda: len(served.gate.open) == 1)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close sends a reset
    writer.transport.abort()
    await _until(lambda: not served.gate.open)
    assert served.inners[0].calls == ["made", "lost"]
    assert isinstance(served.inners[0].lost_with, ConnectionResetError)


async def test_a_refused_connection_lingers_a_moment_then_is_closed(gate_of_two, monkeypatch, caplog) -> None:
    """The 503 is sent and the sending side shut (so the viewer reads it, not a reset), then the socket
    is closed after ``LINGER_SECONDS`` and the lingering count goes back to zero."""
    monkeypatch.setattr(guard, "LINGER_SECONDS", 0.2)
    served = gate_of_two
    held = [await asyncio.open_connection("127.0.0.1", served.port) for _ in range(2)]
    await _until(lambda: len(served.gate.open) == 2)
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    async with asyncio.timeout(5):
        assert await reader.read() == busy_response()  # the end of file arrives with the answer
    assert served.gate.lingering == 1
    await _until(lambda: served.gate.lingering == 0)
    with pytest.raises((ConnectionResetError, BrokenPipeError)):  # the server's socket is gone
        for _ in range(100):
            writer.write(b"more")
            await writer.drain()
            await asyncio.sleep(0.02)
    assert "Exception in callback" not in caplog.text
    for _, other in [*held, (reader, writer)]:
        other.close()


async def test_beyond_the_lingering_limit_a_refused_connection_is_closed_at_once(
    gate_of_two, monkeypatch
) -> None:
    """A flood of refused connections must not hold a descriptor each for a second: up to the limit
    each one lingers (and is counted), past it the answer is written and the socket closed at once."""
    monkeypatch.setattr(guard, "MAX_LINGERING", 2)
    served = gate_of_two
    held = [await asyncio.open_connection("127.0.0.1", served.port) for _ in range(2)]
    await _until(lambda: len(served.gate.open) == 2)
    refused = []
    for _ in range(4):
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        async with asyncio.timeout(5):
            assert await reader.read() == busy_response()
        refused.append(writer)
    assert served.gate.lingering == 2
    for writer in [*refused, *(w for _, w in held)]:
        writer.close()


async def test_the_flood_of_refusals_is_logged_once_with_the_cap(gate_of_two, caplog) -> None:
    """The log says how many were open and what the cap is, once for the whole flood."""
    caplog.set_level(logging.WARNING, logger="bot.web.guard")
    served = gate_of_two
    held = [await asyncio.open_connection("127.0.0.1", served.port) for _ in range(2)]
    await _until(lambda: len(served.gate.open) == 2)
    for _ in range(3):
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        async with asyncio.timeout(5):
            await reader.read()
        writer.close()
    assert [r.getMessage() for r in caplog.records] == [
        "page server full: refusing (2 connections open, the cap is 2); logged once until it stops"
    ]
    assert served.gate.full.refused == 3
    for _, writer in held:
        writer.close()


async def test_a_connection_that_sends_no_headers_in_time_is_aborted_and_released(caplog) -> None:
    """The header deadline closes a silent connection and frees its place under the cap; the inner
    protocol is told the connection is lost (aiohttp must not keep a handler for it)."""
    caplog.set_level(logging.WARNING, logger="bot.web.guard")
    async with _serve(cap=1, header_timeout=0.2) as served:
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        async with asyncio.timeout(10):
            assert await reader.read() == b""
        await _until(lambda: not served.gate.open)
        assert served.inners[0].calls == ["made", "lost"]
        assert "slow page requests: refusing (a request's headers took longer than the timeout)" in (
            caplog.text
        )
        writer.close()


async def test_headers_that_arrived_stop_the_deadline_and_the_next_request_restarts_it() -> None:
    """A connection whose headers arrived is served however long its answer takes (an event stream);
    after the answer the deadline runs again, so an idle kept-alive connection is closed by it."""
    async with _serve(cap=1, header_timeout=0.2) as served:
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        await _until(lambda: len(served.gate.open) == 1)
        (guarded,) = served.gate.open.values()
        guarded.headers_arrived()
        await asyncio.sleep(0.5)
        assert served.gate.open and not guarded.transport.is_closing()
        guarded.headers_arrived()  # twice is harmless
        guarded.expect_headers()
        async with asyncio.timeout(10):
            assert await reader.read() == b""
        writer.close()


async def test_a_request_sent_whole_is_not_cut_while_the_server_has_yet_to_read_it() -> None:
    """The deadline is the viewer's to meet: once the blank line after the headers arrived, a server too
    busy to start the request (here one that never does) no longer closes the connection."""
    async with _serve(cap=1, header_timeout=0.2) as served:
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        writer.write(b"GET /p/x/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        await _until(lambda: served.inners and served.inners[0].data)
        await asyncio.sleep(0.5)
        ((transport, guarded),) = served.gate.open.items()
        assert not transport.is_closing() and not guarded.awaiting_headers
        assert served.inners[0].calls == ["made", "data"]
        writer.close()


async def test_the_headers_blank_line_is_found_across_chunks_and_only_for_the_request_awaited() -> None:
    """However the blank line is split between packets it ends the headers; the bytes of an earlier
    request (before the deadline was restarted) are no part of the next one's."""
    gate = ConnectionGate(lambda: None, cap=1, header_timeout=30)
    for chunks in ([b"GET / HTTP/1.1\r\nHost: x\r\n\r", b"\n"], [b"\r\n", b"\r", b"\n"], [b"\r\n\r\n"]):
        guarded = GuardedProtocol(gate, None)
        guarded.expect_headers()
        for chunk in chunks[:-1]:
            guarded.data_received(chunk)
            assert guarded.awaiting_headers, chunks
        guarded.data_received(chunks[-1])
        assert not guarded.awaiting_headers, chunks
    guarded = GuardedProtocol(gate, None)
    guarded.expect_headers()
    guarded.data_received(b"Host: x\r\n")
    guarded.data_received(b"X-Slow: y\r\n")  # a line end, then another header: not the blank line
    assert guarded.awaiting_headers
    guarded.data_received(b"GET / HTTP/1.1\r\n\r")
    guarded.expect_headers()  # that request was served; the next one's deadline starts afresh
    guarded.data_received(b"\n")
    assert guarded.awaiting_headers
    guarded.headers_arrived()


async def test_the_gate_finds_the_connection_a_request_came_on(gate_of_two) -> None:
    """The server's middleware looks up the guarded connection by its transport; anything the gate did
    not make (or no transport at all) is None."""
    served = gate_of_two
    _, writer = await asyncio.open_connection("127.0.0.1", served.port)
    await _until(lambda: len(served.gate.open) == 1)
    ((transport, guarded),) = served.gate.open.items()
    assert served.gate.of(transport) is guarded and guarded.transport is transport
    assert served.gate.of(None) is None
    writer.close()
    await _until(lambda: not served.gate.open)
    assert served.gate.of(transport) is None


def test_flow_control_reaches_the_inner_protocol_and_a_refused_one_hears_nothing() -> None:
    """The transport pauses and resumes the writer when a viewer reads slowly: aiohttp must be told,
    or it buffers an event stream without bound. A refused connection has no inner protocol at all."""
    inner = _Recorder(keep_open=True)
    guarded = GuardedProtocol(ConnectionGate(lambda: None, cap=1, header_timeout=1), inner)
    guarded.pause_writing()
    guarded.resume_writing()
    assert guarded.eof_received() is True
    assert inner.calls == ["pause", "resume", "eof"]
    refused = GuardedProtocol(ConnectionGate(lambda: None, cap=1, header_timeout=1), None)
    refused.pause_writing()
    refused.resume_writing()
    refused.data_received(b"x")
    assert refused.eof_received() is None


# -- the log filter --------------------------------------------------------------------------------------


def _record(logger: str, message: str, error: BaseException | None = None) -> logging.LogRecord:
    exc_info = (type(error), error, None) if error is not None else None
    return logging.LogRecord(logger, logging.ERROR, __file__, 1, message, (), exc_info)


def test_the_filter_turns_malformed_requests_into_one_line_naming_the_first_sender(caplog) -> None:
    """aiohttp logs a traceback for every malformed request: a flood of them becomes one warning with
    the first sender's address; other errors of aiohttp (a bug of ours) are still logged in full."""
    caplog.set_level(logging.WARNING, logger="bot.web.guard")
    flood = FloodFilter()
    malformed = _record("aiohttp.server", "Error handling request from 10.0.0.7", BadHttpMessage("bad"))
    assert flood.filter(malformed) is False
    assert (
        flood.filter(_record("aiohttp.server", "Error handling request from 10.0.0.8", BadHttpMessage("x")))
        is False
    )
    assert [r.getMessage() for r in caplog.records] == [
        "malformed page requests: refusing (answered 400, the first from 10.0.0.7); logged once until it stops"
    ]
    ours = _record("aiohttp.server", "Error handling request from 10.0.0.7", KeyError("bug"))
    assert flood.filter(ours) is True
    assert flood.filter(_record("aiohttp.server", "Error handling request from 10.0.0.7")) is True
    assert flood.filter(_record("aiohttp.access", "Error handling request", BadHttpMessage("x"))) is True
    assert flood.filter(_record("aiohttp.server", "Unhandled exception", BadHttpMessage("x"))) is True


def test_the_filter_turns_refused_accepts_into_one_line_and_leaves_other_asyncio_logs(caplog) -> None:
    """Out of descriptors, asyncio logs each refused ``accept``: one line for the flood instead."""
    caplog.set_level(logging.WARNING, logger="bot.web.guard")
    flood = FloodFilter()
    message = "socket.accept() out of system resource"
    assert flood.filter(_record("asyncio", message, OSError(24, "Too many open files"))) is False
    assert flood.filter(_record("asyncio", message)) is False
    assert [r.getMessage() for r in caplog.records] == [
        "page server out of descriptors: refusing (new connections wait in the listen queue); "
        "logged once until it stops"
    ]
    assert flood.filter(_record("asyncio", "Task exception was never retrieved")) is True
    assert flood.filter(_record("bot", message)) is True


async def test_a_server_closes_only_after_asyncios_retry_of_a_refused_accept() -> None:
    """asyncio re-reads a listening socket that ran out of descriptors from a timer closing the server does
    not cancel: the page server's stop waits that timer out, or it meets a closed socket (a traceback)."""
    from asyncio.constants import ACCEPT_RETRY_DELAY

    from bot.web.guard import FloodFilter, accept_retry_passed

    flood_filter = FloodFilter()
    loop = asyncio.get_running_loop()
    await accept_retry_passed(flood_filter)  # nothing refused: nothing to wait for
    assert flood_filter.accept_refused_at is None
    record = logging.LogRecord(
        "asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource", (), None
    )
    assert not flood_filter.filter(record)
    refused_at = flood_filter.accept_refused_at
    assert refused_at is not None and refused_at <= loop.time()
    retried: list[float] = []
    loop.call_later(ACCEPT_RETRY_DELAY, lambda: retried.append(loop.time()))  # asyncio's own retry
    await accept_retry_passed(flood_filter)
    assert retried  # the retry ran before the server would close
