"""Members' data rights in SQL: everything stored about one member (export), and deleting a server's data.

A server's rows are found through ``guild_id`` and the games, events and tournaments that carry it;
children are deleted before their parents (foreign keys are on), all in one transaction.
"""

from __future__ import annotations

import json
from typing import Any

from bot.storage.db import Database

_POD_GAMES = "SELECT game_id FROM pod_games WHERE guild_id = :guild"
_HYDRA_GAMES = "SELECT game_id FROM hydra_games WHERE guild_id = :guild"
_EVENTS = "SELECT event_id FROM hydra_events WHERE guild_id = :guild"
_TOURNAMENTS = "SELECT tournament_id FROM tournaments WHERE guild_id = :guild"
_TOURNAMENT_GAMES = f"SELECT game_id FROM tournament_games WHERE tournament_id IN ({_TOURNAMENTS})"
_TOURNAMENT_PODS = f"SELECT pod_id FROM tournament_pods WHERE tournament_id IN ({_TOURNAMENTS})"

# (table, condition) in deletion order: children first.
GUILD_ROWS: tuple[tuple[str, str], ...] = (
    ("tournament_votes", f"game_id IN ({_TOURNAMENT_GAMES})"),
    ("tournament_game_players", f"game_id IN ({_TOURNAMENT_GAMES})"),
    ("tournament_games", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_mana_reports", f"game_id IN ({_POD_GAMES})"),
    ("tournament_pod_seats", f"pod_id IN ({_TOURNAMENT_PODS})"),
    ("tournament_pods", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_entrants", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_corrections", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournaments", "guild_id = :guild"),
    ("tournament_guild_settings", "guild_id = :guild"),
    ("hydra_event_awards", f"event_id IN ({_EVENTS})"),
    ("hydra_event_tables", f"event_id IN ({_EVENTS})"),
    ("hydra_event_entrants", f"event_id IN ({_EVENTS})"),
    ("hydra_events", "guild_id = :guild"),
    ("hydra_actions", f"game_id IN ({_HYDRA_GAMES})"),
    ("hydra_seats", f"game_id IN ({_HYDRA_GAMES})"),
    ("hydra_games", "guild_id = :guild"),
    ("pod_events", f"game_id IN ({_POD_GAMES})"),
    ("pod_games", "guild_id = :guild"),
    ("decks", "guild_id = :guild"),
    ("guild_settings", "guild_id = :guild"),
    ("guild_departures", "guild_id = :guild"),
)

# What one member's export holds: (section, SQL with :user). Games and events come whole (other players'
# moves included), because a member's own moves mean nothing without them.
USER_ROWS: tuple[tuple[str, str], ...] = (
    ("settings", "SELECT * FROM user_settings WHERE user_id = :user"),
    ("decks", "SELECT guild_id, name, raw_list, commanders, ruleset, status, created_at, updated_at FROM decks "
              "WHERE user_id = :user"),
    ("pod_games", "SELECT * FROM pod_games WHERE created_by = :user OR game_id IN (SELECT game_id FROM pod_events "
                  "WHERE actor_id = :user) OR game_id IN (SELECT game_id FROM pod_events WHERE kind IN ('create', "
                  "'join') AND data LIKE '%' || :user || '%')"),
    ("hydra_seats", "SELECT * FROM hydra_seats WHERE user_id = :user"),
    ("hydra_actions", "SELECT * FROM hydra_actions WHERE actor_id = :user"),
    ("hydra_profile", "SELECT * FROM hydra_profiles WHERE user_id = :user"),
    ("hydra_event_entries", "SELECT * FROM hydra_event_entrants WHERE user_id = :user"),
    ("hydra_event_awards", "SELECT * FROM hydra_event_awards WHERE user_id = :user"),
    ("tournament_entries", "SELECT * FROM tournament_entrants WHERE user_id = :user"),
    ("tournament_results", "SELECT * FROM tournament_game_players WHERE user_id = :user"),
    ("tournament_votes_cast", "SELECT game_id, votee_id, cast_at FROM tournament_votes WHERE voter_id = :user"),
    ("tournament_mana_reports", "SELECT * FROM tournament_mana_reports WHERE user_id = :user OR confirmed_by = :user"),
    ("tournament_corrections", "SELECT * FROM tournament_corrections WHERE user_id = :user"),
)


class PrivacyRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _existing(self) -> set[str]:
        rows = await self.db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {r[0] for r in rows}

    async def purge_guild(self, guild_id: int) -> dict[str, int]:
        """Delete every row of the server; returns rows deleted per table (tables absent are skipped)."""
        existing = await self._existing()
        deleted: dict[str, int] = {}
        async with self.db.transaction() as conn:
            for table, condition in GUILD_ROWS:
                if table in existing:
                    cursor = await conn.execute(f"DELETE FROM {table} WHERE {condition}", {"guild": guild_id})
                    deleted[table] = cursor.rowcount
        return deleted

    async def export_user(self, user_id: int) -> dict[str, Any]:
        """Every stored row about ``user_id``, by section; a game's whole event log goes with it."""
        existing = await self._existing()
        out: dict[str, Any] = {}
        for section, sql in USER_ROWS:
            table = sql.split(" FROM ", 1)[1].split()[0]
            if table in existing:
                async with self.db.conn.execute(sql, {"user": user_id}) as cursor:  # named: :user repeats
                    out[section] = [dict(row) for row in await cursor.fetchall()]
        for game in out.get("pod_games", []):
            rows = await self.db.fetchall("SELECT seq, kind, actor_id, at, data FROM pod_events WHERE game_id = ? "
                                          "ORDER BY seq", (game["game_id"],))
            game["events"] = [{**dict(r), "data": json.loads(r["data"])} for r in rows]
        return out

    async def mark_left(self, guild_id: int, at: str) -> None:
        await self.db.execute("INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) "
                              "ON CONFLICT (guild_id) DO NOTHING", (guild_id, at))

    async def mark_returned(self, guild_id: int) -> None:
        await self.db.execute("DELETE FROM guild_departures WHERE guild_id = ?", (guild_id,))

    async def departed_before(self, cutoff: str) -> list[int]:
        rows = await self.db.fetchall("SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY guild_id",
                                      (cutoff,))
        return [int(r[0]) for r in rows]
