"""Members' data rights in SQL: everything stored about one member (export), and deleting a server's data.

A server's rows are found through ``guild_id`` and the games, events and tournaments that carry it;
children are deleted before their parents (foreign keys are on), all in one transaction.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bot.storage.db import Connection, Database

_POD_GAMES = "SELECT game_id FROM pod_games WHERE guild_id = :guild"
_CHALLENGE_TABLES = "SELECT kind, game_id FROM challenge_tables WHERE guild_id = :guild"
# The two families every challenge table lived in before migration 0065 moved their rows into one: empty
# since, until a later release drops them; still erased, should a process of the previous version have
# written there during the upgrade.
_LEGACY_HYDRA_GAMES = "SELECT game_id FROM hydra_games WHERE guild_id = :guild"
_LEGACY_CHALLENGE_GAMES = "SELECT game_id FROM challenge_games WHERE guild_id = :guild"
_EVENTS = "SELECT event_id FROM hydra_events WHERE guild_id = :guild"
_MATCHES = "SELECT match_id FROM pod_matches WHERE guild_id = :guild"
_TOURNAMENTS = "SELECT tournament_id FROM tournaments WHERE guild_id = :guild"
_TOURNAMENT_GAMES = f"SELECT game_id FROM tournament_games WHERE tournament_id IN ({_TOURNAMENTS})"
_TOURNAMENT_PODS = f"SELECT pod_id FROM tournament_pods WHERE tournament_id IN ({_TOURNAMENTS})"
_SEASON_GAMES = "SELECT game_id FROM season_games WHERE season_id IN (SELECT season_id FROM seasons WHERE guild_id = :guild)"

# (table, condition) in deletion order: children first.
GUILD_ROWS: tuple[tuple[str, str], ...] = (
    ("season_game_players", f"game_id IN ({_SEASON_GAMES})"),
    ("season_games", f"game_id IN ({_SEASON_GAMES})"),
    ("seasons", "guild_id = :guild"),
    ("season_league_games", f"game_id IN ({_POD_GAMES})"),
    ("tournament_votes", f"game_id IN ({_TOURNAMENT_GAMES})"),
    ("tournament_game_players", f"game_id IN ({_TOURNAMENT_GAMES})"),
    ("tournament_games", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_mana_reports", f"game_id IN ({_POD_GAMES})"),
    ("tournament_pod_seats", f"pod_id IN ({_TOURNAMENT_PODS})"),
    ("tournament_pods", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_entrants", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_corrections", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_match_byes", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournament_match_format", f"tournament_id IN ({_TOURNAMENTS})"),
    ("tournaments", "guild_id = :guild"),
    ("tournament_guild_settings", "guild_id = :guild"),
    (
        "hydra_event_invited",
        f"invite_key IN (SELECT invite_key FROM hydra_event_invitations WHERE event_id IN ({_EVENTS}))",
    ),
    ("hydra_event_invitations", f"event_id IN ({_EVENTS})"),
    ("hydra_event_awards", f"event_id IN ({_EVENTS})"),
    ("hydra_event_tables", f"event_id IN ({_EVENTS})"),
    ("hydra_event_entrants", f"event_id IN ({_EVENTS})"),
    ("hydra_events", "guild_id = :guild"),
    ("challenge_table_actions", f"(kind, game_id) IN ({_CHALLENGE_TABLES})"),
    ("challenge_table_seats", f"(kind, game_id) IN ({_CHALLENGE_TABLES})"),
    ("challenge_tables", "guild_id = :guild"),
    ("hydra_actions", f"game_id IN ({_LEGACY_HYDRA_GAMES})"),
    ("hydra_seats", f"game_id IN ({_LEGACY_HYDRA_GAMES})"),
    ("hydra_games", "guild_id = :guild"),
    ("challenge_actions", f"game_id IN ({_LEGACY_CHALLENGE_GAMES})"),
    ("challenge_seats", f"game_id IN ({_LEGACY_CHALLENGE_GAMES})"),
    ("challenge_games", "guild_id = :guild"),
    ("pod_match_events", f"match_id IN ({_MATCHES})"),
    ("pod_matches", "guild_id = :guild"),
    ("guild_sideboard_rule", "guild_id = :guild"),
    ("stats_players", "guild_id = :guild"),
    ("stats_games", "guild_id = :guild"),
    ("pod_events", f"game_id IN ({_POD_GAMES})"),
    ("pod_presses", f"game_id IN ({_POD_GAMES})"),
    ("pod_games", "guild_id = :guild"),
    ("page_links", "guild_id = :guild"),
    ("deck_verdict_changes", "deck_id IN (SELECT deck_id FROM decks WHERE guild_id = :guild)"),
    ("decks", "guild_id = :guild"),
    ("guild_settings", "guild_id = :guild"),
    ("guild_departures", "guild_id = :guild"),
)

# What one member's export holds: (section, SQL with :user). Games and events come whole (other players'
# moves included), because a member's own moves mean nothing without them.
USER_ROWS: tuple[tuple[str, str], ...] = (
    ("settings", "SELECT * FROM user_settings WHERE user_id = :user"),
    (
        "decks",
        "SELECT guild_id, name, raw_list, commanders, ruleset, status, created_at, updated_at FROM decks "
        "WHERE user_id = :user",
    ),
    (
        "pod_games",
        "SELECT * FROM pod_games WHERE created_by = :user OR game_id IN (SELECT game_id FROM pod_events "
        "WHERE actor_id = :user) OR game_id IN (SELECT game_id FROM pod_events WHERE kind IN ('create', "
        "'join') AND data LIKE '%' || CAST(:user AS TEXT) || '%')",
    ),
    ("stats", "SELECT * FROM stats_players WHERE user_id = :user"),
    # Every challenge deck's tables (each row names its deck; kind and game_id name the table).
    ("challenge_seats", "SELECT * FROM challenge_table_seats WHERE user_id = :user"),
    ("challenge_actions", "SELECT * FROM challenge_table_actions WHERE actor_id = :user"),
    ("hydra_profile", "SELECT * FROM hydra_profiles WHERE user_id = :user"),
    ("hydra_event_entries", "SELECT * FROM hydra_event_entrants WHERE user_id = :user"),
    ("hydra_event_awards", "SELECT * FROM hydra_event_awards WHERE user_id = :user"),
    (
        "hydra_event_invitations",
        "SELECT * FROM hydra_event_invitations WHERE inviter_id = :user OR invite_key IN "
        "(SELECT invite_key FROM hydra_event_invited WHERE user_id = :user)",
    ),
    ("tournament_entries", "SELECT * FROM tournament_entrants WHERE user_id = :user"),
    ("tournament_results", "SELECT * FROM tournament_game_players WHERE user_id = :user"),
    (
        "tournament_votes_cast",
        "SELECT game_id, votee_id, cast_at FROM tournament_votes WHERE voter_id = :user",
    ),
    (
        "tournament_mana_reports",
        "SELECT * FROM tournament_mana_reports WHERE user_id = :user OR confirmed_by = :user",
    ),
    ("tournament_corrections", "SELECT * FROM tournament_corrections WHERE user_id = :user"),
    (
        "match_events",
        "SELECT * FROM pod_match_events WHERE match_id IN (SELECT match_id FROM pod_match_events "
        "WHERE actor_id = :user OR (kind = 'create' AND data LIKE '%' || CAST(:user AS TEXT) || '%'))",
    ),
    ("tournament_match_byes", "SELECT * FROM tournament_match_byes WHERE user_id = :user"),
    ("season_results", "SELECT * FROM season_game_players WHERE user_id = :user"),
    # What the member made or left behind without playing in it: their /deck language, the page links
    # they asked for, the tournaments, events and tables they created.
    ("deck_language", "SELECT language, updated_at FROM user_languages WHERE user_id = :user"),
    (
        "page_links_created",
        "SELECT kind, resource_id, guild_id, created_at FROM page_links WHERE created_by = :user",
    ),
    ("tournaments_created", "SELECT * FROM tournaments WHERE created_by = :user"),
    ("hydra_events_created", "SELECT * FROM hydra_events WHERE created_by = :user"),
    ("challenge_tables_created", "SELECT * FROM challenge_tables WHERE created_by = :user"),
    ("seasons_opened_or_closed", "SELECT * FROM seasons WHERE opened_by = :user OR closed_by = :user"),
    ("season_results_decided", "SELECT * FROM season_games WHERE decided_by = :user"),
    ("league_games_started", "SELECT * FROM season_league_games WHERE marked_by = :user"),
)


# The table an export's query reads (the first after FROM; a subquery's comes later).
_FIRST_TABLE = re.compile(r"\bFROM (\w+)")

DELETED_NAME = "deleted member"
# The event logs whose JSON data names members: (table, the key beside seq).
_POD_GAME_EVENTS = ("pod_events", "game_id")
_POD_MATCH_EVENTS = ("pod_match_events", "match_id")
# The invitations a member sent or was asked to, read before any of their rows is deleted: deleting the
# friends' rows first would leave an invitation that asked the member with nothing saying it did.
_INVITATIONS_NAMING = (
    "SELECT invite_key FROM hydra_event_invitations WHERE inviter_id = ? "
    "UNION SELECT invite_key FROM hydra_event_invited WHERE user_id = ?"
)
# Rows that are the member's alone: deleted. (table, user column)
OWN_ROWS: tuple[tuple[str, str], ...] = (
    ("decks", "user_id"),
    ("user_settings", "user_id"),
    ("hydra_profiles", "user_id"),
    ("user_languages", "user_id"),
)
# Where other players' records mention the member: the id becomes the pseudonym. (table, id column, name column)
SHARED_IDS: tuple[tuple[str, str, str | None], ...] = (
    ("pod_games", "created_by", None),
    ("pod_events", "actor_id", None),
    ("challenge_tables", "created_by", None),
    ("challenge_table_seats", "user_id", "name"),
    ("challenge_table_actions", "actor_id", None),
    ("hydra_games", "created_by", None),
    ("hydra_seats", "user_id", "name"),
    ("hydra_actions", "actor_id", None),
    ("challenge_games", "created_by", None),
    ("challenge_seats", "user_id", "name"),  # legacy (see above)
    ("challenge_actions", "actor_id", None),
    ("hydra_events", "created_by", None),
    ("hydra_event_entrants", "user_id", "name"),
    ("hydra_event_awards", "user_id", None),
    ("tournaments", "created_by", None),
    ("tournament_entrants", "user_id", "name"),
    ("tournament_pod_seats", "user_id", None),
    ("tournament_game_players", "user_id", None),
    ("tournament_votes", "voter_id", None),
    ("tournament_votes", "votee_id", None),
    ("tournament_mana_reports", "user_id", None),
    ("tournament_mana_reports", "confirmed_by", None),
    ("tournament_corrections", "user_id", None),
    ("tournament_corrections", "by_user_id", None),
    ("pod_match_events", "actor_id", None),
    ("tournament_match_byes", "user_id", None),
    ("page_links", "created_by", None),
    ("stats_players", "user_id", "name"),
    ("stats_players", "eliminated_by", None),
    ("stats_games", "winner_id", None),
    ("seasons", "opened_by", None),
    ("seasons", "closed_by", None),
    ("season_games", "decided_by", None),
    ("season_game_players", "user_id", "name"),
    ("season_league_games", "marked_by", None),
)


def pseudonymise_json(value: Any, user_id: int, pseudonym: int) -> Any:
    """``value`` (a pod event's data) with ``user_id`` replaced everywhere it can appear: as a number, in
    a commander key ``"<owner>:<index>"``, and the display name stored beside it."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return pseudonym if value == user_id else value
    if isinstance(value, str):
        owner, _, index = value.partition(":")  # pragma: no mutate (rpartition: a key has one colon)
        return f"{pseudonym}:{index}" if index.isdigit() and owner == str(user_id) else value
    if isinstance(value, list):
        return [pseudonymise_json(v, user_id, pseudonym) for v in value]
    if isinstance(value, dict):
        out = {k: pseudonymise_json(v, user_id, pseudonym) for k, v in value.items()}
        if "name" in out and (value.get("user_id") == user_id or value.get("player") == user_id):
            out["name"] = DELETED_NAME
        return out
    return value


class PrivacyRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def _existing(self) -> set[str]:
        return set(await self.db.tables())

    async def purge_guild(self, guild_id: int) -> dict[str, int]:
        """Delete every row of the server; returns rows deleted per table (tables absent are skipped)."""
        existing = await self._existing()
        deleted: dict[str, int] = {}
        async with self.db.transaction() as conn:
            for table, condition in GUILD_ROWS:
                if table in existing:
                    deleted[table] = await conn.execute(
                        f"DELETE FROM {table} WHERE {condition}", {"guild": guild_id}
                    )
        return deleted

    async def export_user(self, user_id: int) -> dict[str, Any]:
        """Every stored row about ``user_id``, by section; a game's whole event log goes with it."""
        existing = await self._existing()
        out: dict[str, Any] = {}
        for section, sql in USER_ROWS:
            table = _FIRST_TABLE.findall(sql)[0]
            if table in existing:
                rows = await self.db.fetchall(sql, {"user": user_id})  # named: :user repeats
                out[section] = [dict(row) for row in rows]
        for game in out["pod_games"]:  # a table of the first migration: always there
            rows = await self.db.fetchall(
                "SELECT seq, kind, actor_id, at, data FROM pod_events WHERE game_id = ? ORDER BY seq",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (game["game_id"],),
            )
            game["events"] = [{**dict(r), "data": json.loads(r["data"])} for r in rows]
        return out

    async def delete_user(self, user_id: int, pseudonym: int) -> dict[str, int]:
        """Delete the member's own rows and put ``pseudonym`` in their place wherever other players'
        games, votes and results mention them (one transaction), so everyone else's standings stay."""
        existing = await self._existing()
        changed: dict[str, int] = {}
        async with self.db.transaction() as conn:
            if "deck_verdict_changes" in existing:  # a deleted deck's pending verdict notice goes with it
                await conn.execute(
                    "DELETE FROM deck_verdict_changes WHERE deck_id IN "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    "(SELECT deck_id FROM decks WHERE user_id = ?)",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    (user_id,),
                )
            if "hydra_event_invitations" in existing:  # an open invitation that names them is withdrawn
                keys = [(row[0],) for row in await conn.fetchall(_INVITATIONS_NAMING, (user_id, user_id))]
                await conn.executemany(
                    "DELETE FROM hydra_event_invited WHERE invite_key = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    keys,
                )
                await conn.executemany(
                    "DELETE FROM hydra_event_invitations WHERE invite_key = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                    keys,
                )
            for table, column in OWN_ROWS:
                if table in existing:
                    changed[table] = await conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (user_id,))
            for table, column, name in SHARED_IDS:
                if table in existing:
                    rename = f", {name} = '{DELETED_NAME}'" if name else ""
                    renamed = await conn.execute(
                        f"UPDATE {table} SET {column} = ?{rename} WHERE {column} = ?", (pseudonym, user_id)
                    )
                    changed[table] = changed.get(table, 0) + renamed
            # pod_events' actor column was counted with SHARED_IDS; the ids inside its data come on top
            changed["pod_events"] += await self._pseudonymise_pods(conn, user_id, pseudonym)
        return changed

    @staticmethod
    async def _pseudonymise_pods(conn: Connection, user_id: int, pseudonym: int) -> int:
        """Pod games and matches keep user ids inside their events' JSON data (players, targets, seats,
        commander keys) and a game its survivors; returns how many pod game events changed."""
        pattern = f"%{user_id}%"
        count = await _pseudonymise_events(conn, *_POD_GAME_EVENTS, user_id, pseudonym)
        await _pseudonymise_events(conn, *_POD_MATCH_EVENTS, user_id, pseudonym)
        for game_id, survivors in await conn.fetchall(
            "SELECT game_id, survivors FROM pod_games WHERE survivors LIKE ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (pattern,),
        ):
            await conn.execute(
                "UPDATE pod_games SET survivors = ? WHERE game_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
                (json.dumps(pseudonymise_json(json.loads(survivors), user_id, pseudonym)), game_id),
            )
        return count

    async def mark_left(self, guild_id: int, at: str) -> None:
        await self.db.execute(
            "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) "  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            "ON CONFLICT (guild_id) DO NOTHING",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (guild_id, at),
        )

    async def mark_returned(self, guild_id: int) -> None:
        await self.db.execute(
            "DELETE FROM guild_departures WHERE guild_id = ?",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (guild_id,),
        )

    async def departed_before(self, cutoff: str) -> list[int]:
        rows = await self.db.fetchall(
            "SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY guild_id",  # pragma: no mutate (SQL: keywords and unquoted names in any case)
            (cutoff,),
        )
        return [int(r[0]) for r in rows]


async def _pseudonymise_events(conn: Connection, table: str, key: str, user_id: int, pseudonym: int) -> int:
    """Rewrite the events of ``table`` (keyed by ``key`` and seq) whose data mentions the member; returns
    how many changed (a mention of another id that only contains theirs, 1012 for 101, stays as it was)."""
    count = 0
    rows = await conn.fetchall(f"SELECT {key}, seq, data FROM {table} WHERE data LIKE ?", (f"%{user_id}%",))
    for owner, seq, data in rows:
        rewritten = json.dumps(
            pseudonymise_json(json.loads(data), user_id, pseudonym),
            sort_keys=True,  # pragma: no mutate (stored sorted, and the rewrite keeps the keys' order)
        )
        if rewritten != data:
            await conn.execute(
                f"UPDATE {table} SET data = ? WHERE {key} = ? AND seq = ?", (rewritten, owner, seq)
            )
            count += 1
    return count
