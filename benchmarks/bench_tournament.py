"""Pairing and scoring speed for a large tournament.

Run: /work/venv/bin/python benchmarks/bench_tournament.py [--players 256] [--rounds 5]

Simulates a whole tournament in the domain layer: each round is paired by standings (avoiding repeat
opponents), every pod plays a random game with a democratic vote (T3), then standings with all
tiebreakers are computed. Prints the time per pairing and per standings computation, and how many
repeat pairings remain. Then the same tournament through TournamentService on a real SQLite file
(pairing with its writes, each vote, standings).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.domain.tournament import DEMOCRATIC
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.matches import MatchRecord, match_standings, match_standings_csv
from bot.domain.tournament.matches import pair_round as pair_match_round
from bot.domain.tournament.pairing import pair_round, repeat_pairings
from bot.domain.tournament.standings import compute_standings, standings_csv
from bot.render.fonts import png_bytes
from bot.render.standings import render_match_standings
from bot.services.tournaments import TournamentService
from bot.storage.db import Database
from bot.storage.tournaments import GamePlayer, TournamentGame


def random_game(number: int, pod: list[int], rng: random.Random):
    survivors = set(rng.sample(pod, rng.choice([1, 1, 1, 2])))
    votes = {voter: rng.choice([p for p in pod if p != voter]) for voter in pod}
    return checked_game(number, pod, survivors, votes, draw=len(survivors) > 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2010)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = list(range(1, args.players + 1))
    results, past_pods = [], []
    pair_times, standing_times, repeats = [], [], []
    points: dict[int, int] = {}
    for round_number in range(1, args.rounds + 1):
        start = time.perf_counter()
        pods = pair_round(players, round_number, args.seed, points=points, past_pods=past_pods)
        pair_times.append(time.perf_counter() - start)
        repeats.append(repeat_pairings(pods, past_pods))
        past_pods += pods
        results += [random_game(len(results) + 1, pod, rng) for pod in pods]
        start = time.perf_counter()
        standings = compute_standings(results, DEMOCRATIC, seed=args.seed, players=players)
        standing_times.append(time.perf_counter() - start)
        points = {s.player: s.points for s in standings}
    start = time.perf_counter()
    csv_text = standings_csv(standings)
    csv_time = time.perf_counter() - start
    print(f"{args.players} players, {args.rounds} rounds, {len(results)} games")
    print(
        f"pairing per round:   mean {statistics.mean(pair_times) * 1000:.1f} ms, "
        f"max {max(pair_times) * 1000:.1f} ms"
    )
    print(
        f"standings per round: mean {statistics.mean(standing_times) * 1000:.1f} ms, "
        f"max {max(standing_times) * 1000:.1f} ms"
    )
    print(f"CSV export: {csv_time * 1000:.1f} ms ({len(csv_text.splitlines())} lines)")
    print(f"repeat pairings left per round (pairs that met before): {repeats}")
    bench_matches(args.players, args.rounds, args.seed)
    asyncio.run(bench_service(args.players, args.rounds, args.seed))


def bench_matches(player_count: int, rounds: int, seed: int) -> None:
    """The same field as a 1-vs-1 tournament of best-of-three matches: Swiss pairs by match
    standings, random 2-0 / 2-1 / drawn results, match standings with the MTR tie-breakers, the CSV and
    the standings image (what ``/tournament standings`` and ``/tournament end`` send)."""
    rng = random.Random(seed)
    players = list(range(1, player_count + 1))
    records: list[MatchRecord] = []
    past: list[tuple[int, int]] = []
    byes: list[int] = []
    pair_times, standing_times = [], []
    order = players
    for round_number in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = pair_match_round(order, past_pairs=past, had_bye=byes, seed=seed, round_number=round_number)
        pair_times.append(time.perf_counter() - start)
        byes += [pairing.bye] if pairing.bye is not None else []
        for a, b in pairing.pairs:
            past.append((a, b))
            records.append(MatchRecord(a, b, rng.choice([(2, 0), (0, 2), (2, 1), (1, 2), (1, 1)])))
        start = time.perf_counter()
        table = match_standings(records, seed=seed, players=players, byes=byes)
        standing_times.append(time.perf_counter() - start)
        order = [s.player for s in table]
    start = time.perf_counter()
    csv_text = match_standings_csv(table)
    csv_time = time.perf_counter() - start
    start = time.perf_counter()
    png = png_bytes(render_match_standings("Duels", table, str, "en"))
    image_time = time.perf_counter() - start
    print(
        f"matches: {player_count} players, {rounds} rounds, {len(records)} matches; pairing per round mean "
        f"{statistics.mean(pair_times) * 1000:.1f} ms (max {max(pair_times) * 1000:.1f}); standings per round "
        f"mean {statistics.mean(standing_times) * 1000:.1f} ms (max {max(standing_times) * 1000:.1f}); CSV "
        f"{csv_time * 1000:.1f} ms ({len(csv_text.splitlines())} lines); image {image_time * 1000:.0f} ms "
        f"({len(png) // 1024} KiB)"
    )


async def bench_service(player_count: int, rounds: int, seed: int) -> None:
    """The same through TournamentService on a real SQLite file: pairing (standings + writes), every
    vote of every game (each an upsert; the last one closes the vote), and the standings."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        service = TournamentService(db)
        tournament = await service.create(guild_id=1, channel_id=1, name="bench", rounds=rounds, seed=seed)
        for user in range(1, player_count + 1):
            await service.join(1, user, f"player {user}")
        pair_times, vote_times, standing_times = [], [], []
        game_id = 0
        for _ in range(rounds):
            start = time.perf_counter()
            tournament, pods = await service.pair_next_round(1)
            pair_times.append(time.perf_counter() - start)
            for pod in pods:
                game_id += 1
                await service.link_game(pod.pod_id, game_id)
                survivor = rng.choice(pod.seats)
                await service.repo.add_game(
                    TournamentGame(
                        game_id,
                        tournament.tournament_id,
                        tournament.current_round,
                        1,
                        False,
                        False,
                        "2026-01-01T00:00:00+00:00",
                        "2026-01-01T00:10:00+00:00",
                        None,
                        players=[GamePlayer(u, seat, u == survivor) for seat, u in enumerate(pod.seats, 1)],
                    )
                )
                for voter in pod.seats:
                    start = time.perf_counter()
                    await service.cast_vote(game_id, voter, rng.choice([p for p in pod.seats if p != voter]))
                    vote_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            await service.standings(tournament)
            standing_times.append(time.perf_counter() - start)
        await db.close()
    print(
        f"service + SQLite: pairing per round mean {statistics.mean(pair_times) * 1000:.1f} ms "
        f"(max {max(pair_times) * 1000:.1f}); vote mean {statistics.mean(vote_times) * 1000:.2f} ms "
        f"(max {max(vote_times) * 1000:.1f}, {len(vote_times)} votes); standings mean "
        f"{statistics.mean(standing_times) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
