"""Record real stored challenge games into ``tests/data/stored_challenge_games.json``.

Run by hand (``python -m tests.challenge.record_stored_games``) with the code whose stored games must
keep replaying: it opens a real SQLite file, plays games through the real services (random clumsy
players: the same random play as the fuzz tests), stops some mid-game, turns one table per deck into
a table saved before stable numbers, and writes what storage holds — the game rows, seats and action
logs — with what each game looked like once replayed (its snapshot and a digest of its log). The
replay test (``test_stored_games_replay.py``) puts those rows into a fresh database and checks that
today's engine rebuilds every game exactly. Re-recording with changed code would hide a change in
replay: record only when the stored format itself is meant to change.

The fixture is in the format of the two families of tables before migration 0065 moved every deck's
tables into one (``TABLES`` below), and the replay test stores it with that schema before migrating:
this recorder reads those tables, so it records only with the code from before 0065.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import tempfile
from pathlib import Path
from typing import Any

from bot.domain.challenge import randomplay as challenge_random
from bot.domain.hydra import randomplay as hydra_random
from bot.services.challenge import ChallengeService
from bot.services.hydra import HydraService
from bot.storage.db import Database

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "stored_challenge_games.json"
TABLES = {
    "hydra": ("hydra_games", "hydra_seats", "hydra_actions"),
    "challenge": ("challenge_games", "challenge_seats", "challenge_actions"),
}


def events_digest(events: list[Any]) -> str:
    """The whole log, keys and values, as one hash (a replay must rebuild every line)."""
    text = json.dumps(
        [[e.key, {k: str(v) for k, v in sorted(e.values.items())}] for e in events], ensure_ascii=False
    )
    return hashlib.sha256(text.encode()).hexdigest()


async def _rows(db: Database, table: str, game_id: int) -> list[dict[str, Any]]:
    rows = await db.fetchall(f"SELECT * FROM {table} WHERE game_id = ?", (game_id,))
    columns = [row[0] for row in await db.fetchall(f"SELECT name FROM pragma_table_info('{table}')")]
    return [dict(zip(columns, row, strict=True)) for row in rows]


async def _stored(db: Database, family: str, game_id: int) -> dict[str, list[dict[str, Any]]]:
    return {table: await _rows(db, table, game_id) for table in TABLES[family]}


async def _play_hydra(service: HydraService, seed: int, *, stop_after: int | None, legacy: bool) -> int:
    rng = random.Random(seed)
    players = rng.randint(1, 3)
    table = await service.create(
        guild_id=1,
        channel_id=10,
        user_id=100,
        name="P1",
        heads=rng.randint(1, 5),
        seed=seed,
        all_windows=rng.random() < 0.5,
    )
    for seat in range(1, players):
        await service.join(table.game_id, 100 + seat, f"P{seat + 1}")
    await service.set_heroes(table.game_id, 100, ["The Slayer"] if seed % 2 else [])
    if legacy:
        await service.repo.db.execute(
            "UPDATE hydra_games SET stable_ids = 0 WHERE game_id = ?", (table.game_id,)
        )
    table = await service.start(table.game_id, 100)
    steps = 0
    while table.game is not None and not table.game.over and (stop_after is None or steps < stop_after):
        game = table.game
        line = _hydra_line(game, rng, steps)
        user = None if game.pending is not None and game.pending.player is not None else 100
        if game.pending is not None and game.pending.player is not None:
            user = 100 + game.pending.player
        table = (await service.act(table.game_id, user, line)).table
        steps += 1
        if table.game is not None and table.game.turn > 60:
            await service.act(table.game_id, 100, "concede")
            break
    return table.game_id


def _hydra_line(game: Any, rng: random.Random, steps: int) -> str:
    if game.pending is not None:
        if game.pending.topic in game.window_topics and rng.random() < 0.15:
            line = hydra_random.random_player_action(game, rng, True)
            if line.split()[0] not in ("choose", "end"):
                return line
        return "choose " + hydra_random.random_answer(game, rng)
    return "end" if rng.random() < 0.25 else hydra_random.random_player_action(game, rng, False)


async def _play_challenge(
    service: ChallengeService, deck: str, seed: int, *, stop_after: int | None, legacy: bool
) -> int:
    rng = random.Random(seed)
    sample = challenge_random.new_random_game(deck, seed, rng)
    table = await service.create(
        guild_id=1,
        channel_id=20,
        user_id=200,
        name="P1",
        deck=deck,
        difficulty=sample.difficulty,
        seed=seed,
        all_windows=sample.all_windows,
    )
    for seat in range(1, len(sample.seats)):
        await service.join(table.game_id, 200 + seat, f"P{seat + 1}")
    if legacy:
        await service.repo.db.execute(
            "UPDATE challenge_games SET stable_ids = 0 WHERE game_id = ?", (table.game_id,)
        )
    table = await service.start(table.game_id, 200)
    steps = 0
    while table.game is not None and not table.game.over and (stop_after is None or steps < stop_after):
        game = table.game
        if game.pending is not None:
            line = "choose " + challenge_random.random_answer(game, rng)
            if game.pending.topic in game.window_topics and rng.random() < 0.1:
                action = challenge_random.random_action(game, rng, True)
                line = line if action.split()[0] in ("choose", "end") else action
        else:
            line = "end" if rng.random() < 0.3 else challenge_random.random_action(game, rng, False)
        owner = table.user_to_answer()
        table = (await service.act(table.game_id, owner or 200, line)).table
        steps += 1
        if table.game is not None and table.game.turn > 40 and not table.game.over:
            table = (await service.act(table.game_id, 200, "concede")).table
    return table.game_id


async def record() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "record.sqlite3")
        try:
            hydra, challenge = HydraService(db), ChallengeService(db)
            plans = [(seed, None if seed % 3 else 25 + seed, seed == 4) for seed in range(1, 7)]
            for seed, stop, legacy in plans:
                game_id = await _play_hydra(hydra, seed, stop_after=stop, legacy=legacy)
                table = await hydra.load(game_id)
                assert table.game is not None
                games.append(
                    {
                        "family": "hydra",
                        "deck": "hydra",
                        "stored": await _stored(db, "hydra", game_id),
                        "snapshot": table.game.snapshot(),
                        "events": events_digest(table.game.events),
                        "event_count": len(table.game.events),
                    }
                )
            for deck in ("horde", "god"):
                for seed, stop, legacy in plans:
                    game_id = await _play_challenge(challenge, deck, seed, stop_after=stop, legacy=legacy)
                    table = await challenge.load(game_id)
                    assert table.game is not None
                    games.append(
                        {
                            "family": "challenge",
                            "deck": deck,
                            "stored": await _stored(db, "challenge", game_id),
                            "snapshot": table.game.snapshot(),
                            "events": events_digest(table.game.events),
                            "event_count": len(table.game.events),
                        }
                    )
        finally:
            await db.close()
    return games


def main() -> None:
    games = asyncio.run(record())
    FIXTURE.write_text(json.dumps(games, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(games)} games written to {FIXTURE}")


if __name__ == "__main__":
    main()
