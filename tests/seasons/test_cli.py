"""``podkeeper season export``: the CSV of a season played through the real bot, read from its database file;
a season that does not exist is a clear message and exit status 1."""

from __future__ import annotations

import asyncio
import csv
import io

from bot.cli import main
from bot.testing.harness import DiscordHarness
from tests.conftest import TEST_DATA, write_cli_config
from tests.seasons.test_cog import play


async def export(tmp_path, database: str, guild: int, *options: str) -> int:
    """``podkeeper season export`` as a shell runs it (its own event loop, so in a thread beside the test's)."""
    config = write_cli_config(tmp_path, TEST_DATA / "cards_subset.jsonl")
    argv = [
        "--config",
        str(config),
        "season",
        "export",
        "--guild",
        str(guild),
        "--database",
        database,
        *options,
    ]
    return await asyncio.to_thread(main, argv)


async def played_season(tmp_path) -> tuple[str, int]:
    async with DiscordHarness.start(tmp_path / "bot", members=("alice", "bob")) as h:
        await h.slash("season open", user="admin", name="Spring 2027")
        game_id = await play(h, ("alice", "bob"))
        await h.slash("season decide", user="admin", game=game_id, decision="accept")
        return h.bot.db.where, h.guild.id


async def test_export_writes_the_seasons_csv_from_the_database(tmp_path, capsysbinary) -> None:
    database, guild = await played_season(tmp_path)
    out = tmp_path / "spring.csv"
    options = ("--season", "Spring 2027", "--language", "zh-Hant", "--output", str(out))
    assert await export(tmp_path, database, guild, *options) == 0
    data = out.read_bytes()
    assert data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0][:4] == ["名次", "玩家", "使用者ID", "分數"]
    assert [(r[0], r[1], r[3]) for r in rows[1:]] == [("1", "alice", "4"), ("2", "bob", "0")]

    assert await export(tmp_path, database, guild) == 0
    printed = capsysbinary.readouterr().out.decode("utf-8-sig")  # no --season: the latest one; to stdout
    assert list(csv.reader(io.StringIO(printed)))[1:] == [[*row[:-1], "yes"] for row in rows[1:]]
    assert printed.startswith("Place,Player,User ID,Points,Games,Wins,Eliminations,Ranked")


async def test_an_unknown_season_is_named_and_exits_1(tmp_path, capsys) -> None:
    database, guild = await played_season(tmp_path)
    assert await export(tmp_path, database, guild, "--season", "Winter") == 1
    assert "no season called “Winter”" in capsys.readouterr().err
