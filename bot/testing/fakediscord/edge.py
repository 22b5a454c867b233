"""Route discord.py's HTTP edge into a ``FakeDiscord`` in-process (technique 2b).

Two doors lead out of discord.py: ``HTTPClient.request`` (REST: channel messages, threads, roles,
...) and ``AsyncWebhookAdapter.request`` (interaction callbacks, followups, ``@original`` edits),
the latter reached through the ``async_context`` ContextVar. For REST we replace only the aiohttp
session under ``HTTPClient.request`` (``FakeSession``), so discord.py's own rate-limit buckets,
``X-RateLimit-*`` handling and 429 retries run for real; the webhook adapter is replaced whole
(interaction responses are not channel-rate-limited). Everything else — Interaction objects,
CommandTree parsing, checks, ViewStore routing, InteractionResponded on a double acknowledgement,
file serialisation — stays real.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import re
from collections.abc import Iterable
from typing import Any

import aiohttp
import discord
import discord.interactions
import discord.webhook.async_ as webhook_async
from discord.http import Route
from multidict import CIMultiDict

from bot.testing.fakediscord.backend import FakeDiscord, Response, Upload

_API_PREFIX = re.compile(r"^[a-z]+://[^/]+/api/v\d+")


_REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    413: "Payload Too Large",
    429: "Too Many Requests",
}


class _FakeClientResponse:
    """Just enough of ``aiohttp.ClientResponse`` for discord.py's ``HTTPClient.request`` and ``HTTPException``."""

    def __init__(self, status: int, body: Any = None, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = _REASONS.get(status, "OK" if status < 400 else "Error")
        self.headers = CIMultiDict(headers or {})
        self._text = "" if body is None else json.dumps(body)
        if body is not None:
            self.headers["Content-Type"] = "application/json"

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def __aenter__(self) -> _FakeClientResponse:
        return self

    async def __aexit__(self, *_: Any) -> None:
        return None


def raise_for(response: Response) -> None:
    """Raise what discord.py raises for this status (NotFound, Forbidden, HTTPException)."""
    if response.status < 400:
        return
    fake = _FakeClientResponse(response.status)
    if response.status == 404:
        raise discord.NotFound(fake, response.body)  # type: ignore[arg-type]
    if response.status == 403:
        raise discord.Forbidden(fake, response.body)  # type: ignore[arg-type]
    if response.status >= 500:
        raise discord.DiscordServerError(fake, response.body)  # type: ignore[arg-type]
    raise discord.HTTPException(fake, response.body)  # type: ignore[arg-type]


def split_url(url: str) -> tuple[str, dict[str, str]]:
    """``https://discord.com/api/v10/channels/1?x=2`` -> (``/channels/1``, {"x": "2"})."""
    path = _API_PREFIX.sub("", url)
    query: dict[str, str] = {}
    if "?" in path:
        path, raw = path.split("?", 1)
        for pair in raw.split("&"):
            key, _, value = pair.partition("=")
            query[key] = value
    return path, query


def read_form_data(data: aiohttp.FormData) -> tuple[Any, list[Upload]]:
    """The JSON body and files of the ``aiohttp.FormData`` discord.py built for a multipart request."""
    parts = []
    for options, headers, value in data._fields:  # aiohttp keeps (type options, headers, value) per field
        parts.append(
            {
                "name": options["name"],
                "filename": options.get("filename"),
                "value": value,
                "content_type": headers.get("Content-Type"),
            }
        )
    return read_form(parts)


class FakeSession:
    """Stands in for discord.py's ``aiohttp.ClientSession``: REST requests are answered by the fake."""

    closed = False

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def request(self, method: str, url: str, **kwargs: Any) -> _Pending:
        return _Pending(self.fake, method, url, kwargs)

    async def close(self) -> None:
        self.closed = True


class _Pending:
    """``async with session.request(...) as response`` for the fake session."""

    def __init__(self, fake: FakeDiscord, method: str, url: str, kwargs: dict[str, Any]) -> None:
        self.fake, self.method, self.url, self.kwargs = fake, method, url, kwargs

    async def __aenter__(self) -> _FakeClientResponse:
        path, query = split_url(self.url)
        query.update({k: str(v) for k, v in (self.kwargs.get("params") or {}).items()})
        data = self.kwargs.get("data")
        body: Any = None
        uploads: list[Upload] = []
        if isinstance(data, aiohttp.FormData):
            body, uploads = read_form_data(data)
        elif data:
            body = json.loads(data)
        await asyncio.sleep(0)  # a real request yields to the loop; keep orderings realistic
        response = self.fake.handle(self.method, path, query=query, body=body, uploads=uploads)
        return _FakeClientResponse(response.status, response.body, response.headers)

    async def __aexit__(self, *_: Any) -> None:
        return None


def read_form(form: Iterable[dict[str, Any]]) -> tuple[Any, list[Upload]]:
    """Split discord.py's multipart parts into the JSON body and the uploaded files."""
    body: Any = None
    uploads: list[Upload] = []
    for part in form:
        value = part["value"]
        if part["name"] == "payload_json":
            body = json.loads(value)
            continue
        data = (
            value.read()
            if hasattr(value, "read")
            else value.encode()
            if isinstance(value, str)
            else bytes(value)
        )
        uploads.append(
            Upload(part["name"], part.get("filename") or part["name"], data, part.get("content_type"))
        )
    return body, uploads


WEBHOOK_TRIES = 5  # discord.py's webhook adapter tries a request this often before giving up


async def answer(
    fake: FakeDiscord,
    route: Route,
    *,
    body: Any = None,
    form: Iterable[dict[str, Any]] | None = None,
    params: dict[str, Any] | None = None,
) -> Any:
    """Answer an interaction callback or webhook request as discord.py's ``AsyncWebhookAdapter`` would
    see it: a 429 with ``Via`` is slept out (``retry_after``) and tried again, anything else raises."""
    path, query = split_url(route.url)
    query.update({k: str(v) for k, v in (params or {}).items()})
    uploads: list[Upload] = []
    if form:
        body, uploads = read_form(list(form))
    for _ in range(WEBHOOK_TRIES):
        await asyncio.sleep(0)  # a real request yields to the loop; keep orderings realistic
        response = fake.handle(route.method, path, query=query, body=body, uploads=uploads)
        if response.status == 429 and "Via" in response.headers and isinstance(response.body, dict):
            await asyncio.sleep(float(response.body.get("retry_after", 0)))
            continue
        raise_for(response)
        return response.body
    raise_for(response)
    return response.body


class RecordingWebhookAdapter(webhook_async.AsyncWebhookAdapter):
    """The webhook adapter for interaction responses, answered by a ``FakeDiscord`` (which records)."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(
        self,
        route: Route,
        session: Any = None,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        params: dict[str, Any] | None = None,
        **_: Any,
    ) -> Any:
        return await answer(self.fake, route, body=payload, form=multipart, params=params)


class InProcessEdge:
    """Installs the fake edge: globally for webhooks, per client for REST. Undo with ``uninstall()``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.adapter = RecordingWebhookAdapter(fake)
        self._saved: list[tuple[Any, str, Any]] = []

    def install(self) -> None:
        # A fresh ContextVar whose *default* is our adapter: tasks created anywhere (the tree's
        # invoker, view dispatch, a cog's background task) all see it, whatever context they copied.
        context: contextvars.ContextVar[Any] = contextvars.ContextVar(
            "fake_webhook_context", default=self.adapter
        )
        for module in (webhook_async, discord.interactions):
            self._saved.append((module, "async_context", module.async_context))
            module.async_context = context  # type: ignore[attr-defined]

    def uninstall(self) -> None:
        while self._saved:
            module, name, value = self._saved.pop()
            setattr(module, name, value)

    def attach(self, client: discord.Client) -> None:
        """Answer this client's REST calls (through discord.py's real ``HTTPClient.request``) and CDN
        downloads from the fake."""
        fake = self.fake

        async def get_from_cdn(url: str) -> bytes:
            if url not in fake.cdn:
                raise_for(Response(404, {"code": 0, "message": f"fake CDN has no {url}"}))
            return fake.cdn[url]

        client.http._HTTPClient__session = FakeSession(fake)  # type: ignore[attr-defined]
        client.http._global_over = asyncio.Event()  # what static_login sets up: no global rate limit yet
        client.http._global_over.set()
        client.http.get_from_cdn = get_from_cdn  # type: ignore[method-assign]
