"""What a refusal of the stand-in looks like to a test: Discord's status and JSON error code, and the first
error code a 400/50035 Invalid Form Body names at a path of the body."""

from __future__ import annotations

from bot.testing.fakediscord.backend import Response


def refused(answer: Response, status: int, code: int) -> None:
    assert (answer.status, (answer.body or {}).get("code")) == (status, code), answer.body


def form_error(answer: Response, *path: str | int) -> str:
    """The first error code Discord names at ``path`` of a 400/50035 Invalid Form Body."""
    refused(answer, 400, 50035)
    node = answer.body["errors"]
    for key in path:
        node = node[str(key)]
    return str(node["_errors"][0]["code"])
