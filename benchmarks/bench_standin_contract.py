"""What the strict Discord stand-in costs per request. Run by hand:

    .venv/bin/python benchmarks/bench_standin_contract.py

Prints, for typical bodies the bot sends, the time ``contract.problems_of`` takes (schema validation
against Discord's OpenAPI description plus the cross-field rules), p50/p99 in microseconds, and the
one-off cost of loading the spec and compiling a route's validator. The suite sends a few thousand
requests, so a body must cost well under a millisecond for the strict stand-in not to slow it down.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.testing.fakediscord import contract


def board_body() -> dict[str, Any]:
    """A pod board as a channel message edit: one embed with fields, four rows of buttons, a select."""
    buttons = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": f"{n:+d}", "custom_id": f"pod:1:life:{n}:{r}"}
                for n in (-5, -1, 1, 5, 10)
            ],
        }
        for r in range(4)
    ]
    select = {
        "type": 1,
        "components": [
            {
                "type": 3,
                "custom_id": "pod-pick:1",
                "placeholder": "Player",
                "options": [{"label": f"{n} player", "value": str(n)} for n in range(4)],
            }
        ],
    }
    embed = {
        "title": "Game 1",
        "description": "turn 3",
        "color": 0x2ECC71,
        "image": {"url": "attachment://board.png"},
        "fields": [
            {"name": f"Player {n}", "value": "40 life · commander damage 0", "inline": True} for n in range(4)
        ],
    }
    return {"content": "", "embeds": [embed], "components": [select, *buttons], "attachments": [{"id": 0}]}


CASES: dict[str, tuple[str, str, Callable[[], Any]]] = {
    "ephemeral reply (callback 4)": (
        "POST",
        "/interactions/1/tok/callback",
        lambda: {
            "type": 4,
            "data": {"content": "Pong!", "flags": 64, "allowed_mentions": {"parse": ["users"]}},
        },
    ),
    "pod board edit (PATCH message)": ("PATCH", "/channels/1/messages/2", board_body),
    "follow-up with embed": (
        "POST",
        "/webhooks/1/tok",
        lambda: {"embeds": [{"title": "Standings", "description": "1. a\n2. b"}]},
    ),
    "autocomplete, 25 choices": (
        "POST",
        "/interactions/1/tok/callback",
        lambda: {
            "type": 8,
            "data": {"choices": [{"name": f"Card {n}", "value": f"#{n:012x}"} for n in range(25)]},
        },
    ),
}


def measure(method: str, path: str, body: Any, rounds: int = 2000) -> list[float]:
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        problems = contract.problems_of(method, path, body)
        timings.append((time.perf_counter() - started) * 1e6)
        assert problems == [], problems
    return timings


def main() -> None:
    started = time.perf_counter()
    contract.spec()
    print(f"load the OpenAPI description: {(time.perf_counter() - started) * 1000:.1f} ms (once per process)")
    for name, (method, path, make) in CASES.items():
        started = time.perf_counter()
        contract.problems_of(method, path, make())
        first = (time.perf_counter() - started) * 1000
        timings = sorted(measure(method, path, make()))
        p50, p99 = statistics.median(timings), timings[int(len(timings) * 0.99)]
        print(
            f"{name:34s} first call (compiles) {first:6.1f} ms   then p50 {p50:6.0f} µs   p99 {p99:6.0f} µs"
        )


if __name__ == "__main__":
    main()
