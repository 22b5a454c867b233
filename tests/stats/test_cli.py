"""``podkeeper stats server`` over a real database file: the games played through the pod service, the
same figures as /stats server, as text and as JSON; older games are summarised first."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bot.cli import main
from bot.storage.db import Database
from tests.stats.test_storage import GUILD, add_cards, play_through_service


async def games_finished_before_the_statistics(path: Path) -> int:
    """A database file of 10 games whose statistics are not written yet; how many were played."""
    db = await Database.open(path)
    await add_cards(db)
    records = await play_through_service(db, range(10))
    await db.execute("DELETE FROM stats_players")
    await db.execute("DELETE FROM stats_games")
    await db.close()
    return sum(1 for r in records if r.turns > 0)


def test_stats_server_prints_the_figures_of_one_server(tmp_path: Path, capsys) -> None:
    path = tmp_path / "games.sqlite3"
    played = asyncio.run(games_finished_before_the_statistics(path))
    assert main(["stats", "server", "--guild", str(GUILD), "--database", str(path), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == played and figures["guild_id"] == GUILD
    assert sum(t["games"] for t in figures["per_month"]) == played
    assert main(["stats", "server", "--guild", str(GUILD), "--database", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"server {GUILD}: {played} games by ")
    assert "most played commanders:" in text
    assert main(["stats", "server", "--guild", "12345", "--database", str(path)]) == 0
    assert capsys.readouterr().out == "server 12345: no finished pod games\n"
