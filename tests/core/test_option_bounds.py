"""Every numeric slash option is bounded where the bot reads it, over the whole command tree.

Discord's client keeps to an option's registered range, but a crafted request does not, and discord.py
passed any number on: a twenty-digit ``game:`` overflowed SQLite's integers, a huge ``life:`` reached the
game. The command tree now refuses such a value before the command runs (cogs/_bounds.py). Here each
request is built as Discord would send it, then its number is replaced by one beyond the option's range
(for an option registered without one, beyond Discord's own ±2^53), as a crafted request would.

Hypothesis picks the option, the value and the reader's language (60 cases by default, 600 with
``--full``); one bot answers them all, and after each the database is exactly as before.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.i18n import t
from bot.testing import DiscordHarness
from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord.commands import FoundCommand
from cogs._bounds import DISCORD_INTEGER_BOUND

INTEGER, NUMBER, STRING, BOOLEAN = 4, 10, 3, 5
USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT = 6, 7, 8, 9, 11
LANGUAGES = {"en-US": "en", "ja": "ja", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant"}


def in_range(option: dict[str, Any]) -> Any:
    """A value Discord's client would send for ``option`` (the other options of the command)."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    kind = option["type"]
    if kind in (INTEGER, NUMBER):
        low = option.get("min_value")
        return low if low is not None else 1
    if kind == STRING:
        return "x" * max(1, option.get("min_length") or 1)
    if kind == BOOLEAN:
        return False
    if kind in (USER, MENTIONABLE):
        return "alice"
    if kind == CHANNEL:
        return "general"
    raise LookupError(f"no stand-in value for option type {kind}")


def numeric_options(h: DiscordHarness) -> list[tuple[FoundCommand, dict[str, Any]]]:
    """Every (command, numeric option) of the tree whose other required options have stand-ins."""
    found = []
    for command in h.catalog().leaves():
        needs = {o["type"] for o in command.options if o.get("required")}
        if needs & {ROLE, ATTACHMENT}:
            continue
        found += [(command, option) for option in command.options if option["type"] in (INTEGER, NUMBER)]
    return found


def bounds(option: dict[str, Any]) -> tuple[int, int]:
    low, high = option.get("min_value"), option.get("max_value")
    return (-DISCORD_INTEGER_BOUND if low is None else low), (DISCORD_INTEGER_BOUND if high is None else high)


def beyond(option: dict[str, Any]) -> st.SearchStrategy[int]:
    low, high = bounds(option)
    return st.one_of(
        st.integers(max_value=low - 1, min_value=-(10**30)),
        st.integers(min_value=high + 1, max_value=10**30),
        st.sampled_from([low - 1, high + 1, 2**63, -(2**63) - 1]),
    )


def crafted(data: dict[str, Any], name: str, value: int) -> dict[str, Any]:
    """``data`` with option ``name``'s value replaced, however deep the subcommand nests it."""
    for option in data.get("options", []):
        if option.get("name") == name and "value" in option:
            option["value"] = value
        else:
            crafted(option, name, value)
    return data


async def everything_stored(h: DiscordHarness) -> list[tuple[str, list[tuple[Any, ...]]]]:
    db = h.bot.db
    return [
        (table, [tuple(row) for row in await db.fetchall(f"SELECT * FROM {table}")])
        for table in sorted(await db.tables())
    ]


async def test_a_number_beyond_its_options_range_is_refused_and_changes_nothing(
    tmp_path, full_run, capsys
) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        await h.slash("pod start", players=f"{h.user('alice').mention} {h.user('bob').mention}")
        options = numeric_options(h)
        assert len(options) >= 20, [f"{c.qualified_name} {o['name']}" for c, o in options]
        cases: list[tuple[FoundCommand, dict[str, Any], int, str]] = []

        @settings(
            max_examples=600 if full_run else 60,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(
            st.sampled_from(options).flatmap(lambda pair: st.tuples(st.just(pair), beyond(pair[1]))),
            st.sampled_from(sorted(LANGUAGES)),
        )
        def generate(case: tuple[tuple[FoundCommand, dict[str, Any]], int], locale: str) -> None:
            (command, option), value = case
            cases.append((command, option, value, locale))

        generate()  # Hypothesis draws the cases; the one bot below answers each
        before = await everything_stored(h)
        refused: Counter[str] = Counter()
        for command, option, value, locale in cases:
            values = {o["name"]: in_range(o) for o in command.options if o.get("required")}
            values[option["name"]] = in_range(option)
            data = crafted(h.command_data(command.qualified_name, values), option["name"], value)
            reply = await h._interact(P.APPLICATION_COMMAND, data, "admin", None, locale, None, False, None)
            low, high = bounds(option)
            assert reply.content == t(
                "core.error.number_out_of_range", LANGUAGES[locale], option=option["name"], low=low, high=high
            ), (command.qualified_name, option["name"], value)
            assert reply.ephemeral
            refused[command.qualified_name] += 1
        assert await everything_stored(h) == before
    with capsys.disabled():
        print(
            f"\noption bounds: {len(cases)} crafted values over {len(options)} numeric options of "
            f"{len({c.qualified_name for c, _ in options})} commands, all refused, nothing stored"
        )
