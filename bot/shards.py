"""Which gateway shards this process runs: ``--shard-ids 0-3,6 --shard-count 8``.

Discord splits a bot's servers over shards by ``(guild_id >> 22) % shard_count``; one process may run
any subset of the shards. Plain Python (no discord import) so the CLI, the config and tests share it.
"""

from __future__ import annotations

import re

MAX_SHARD_COUNT = 65_536  # far above any real bot; a typo (an extra digit) is caught before Discord refuses

_PART = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


class ShardSpecError(ValueError):
    """A shard id list or count that cannot be run, phrased for the person who typed it."""


_MAX_DIGITS = len(
    str(MAX_SHARD_COUNT)
)  # longer numbers are out of range anyway (and int() refuses 4,301+ digits)


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0-3,6"`` -> ``(0, 1, 2, 3, 6)``: comma-separated ids and inclusive ranges, sorted, no repeats.

    Empty text means "not given" and returns ``()``."""
    if not text.strip():
        return ()
    ids: set[int] = set()
    for part in text.split(","):
        match = _PART.match(part)
        if match is None:
            raise ShardSpecError(f"shard ids {text!r}: {part.strip()!r} is not a number or a range like 0-3")
        if any(len(number or "") > _MAX_DIGITS for number in match.groups()):
            raise ShardSpecError(
                f"shard ids {text!r}: {part.strip()[:20]!r}… is above the limit of {MAX_SHARD_COUNT - 1}"
            )
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        if last < first:
            raise ShardSpecError(f"shard ids {text!r}: the range {first}-{last} runs backwards")
        if last >= MAX_SHARD_COUNT:
            raise ShardSpecError(f"shard ids {text!r}: {last} is above the limit of {MAX_SHARD_COUNT - 1}")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def validate_shards(shard_count: int, shard_ids: tuple[int, ...]) -> None:
    """Refuse what Discord would refuse later with a close code (4010 invalid shard), but say why now.

    ``shard_count`` 0 means no sharding (one plain gateway connection); ids then make no sense."""
    if shard_count < 0 or shard_count > MAX_SHARD_COUNT:
        raise ShardSpecError(
            f"shard count {shard_count} must be between 0 (no sharding) and {MAX_SHARD_COUNT}"
        )
    if shard_ids and not shard_count:
        raise ShardSpecError(
            "shard ids need a shard count (how many shards the bot has in total), "
            "e.g. --shard-ids 0-3 --shard-count 8"
        )
    outside = [i for i in shard_ids if i >= shard_count]
    if outside:
        raise ShardSpecError(
            f"shard ids {format_shard_ids(outside)} are outside 0-{shard_count - 1} "
            f"(shard count {shard_count})"
        )


def format_shard_ids(ids: tuple[int, ...] | list[int]) -> str:
    """The shortest spelling ``parse_shard_ids`` reads back: ``(0, 1, 2, 3, 6)`` -> ``"0-3,6"``."""
    parts: list[str] = []
    ordered = sorted(set(ids))
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1] == ordered[end] + 1:
            end += 1
        first, last = ordered[start], ordered[end]
        parts.append(str(first) if first == last else f"{first}-{last}")
        start = end + 1
    return ",".join(parts)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives ``guild_id``'s events (Discord's formula)."""
    return (guild_id >> 22) % shard_count
