"""Challenge decks benchmark: N random games per deck (Hydra, Horde, God) played to the
end on one core, with every invariant checked after every step; prints the time per game.
Goal: the three decks together under 60 s for 10,000 games each.

``--images N``: the Horde's and the God's board images, drawn from N mid-game boards each and PNG-encoded
(what the work pool does per board update): ms per image, and the PNG size.
``--event-tables N``: a Horde night and a God night of N tables each on a real SQLite file (the event
service over the real challenge service): join, seat, open the tables, play a few actions at each, then
the leaderboard (cold: each table's score tally replayed from its log once; warm: nothing replayed), with
the time of each step and how many games each leaderboard replayed.

    python benchmarks/bench_challenge.py [--games 10000] [--deck hydra --deck horde --deck god]
                                          [--images 200] [--event-tables 50]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable

from bot.domain.challenge import randomplay as creature_play
from bot.domain.challenge.invariants import check_invariants as check_creature_deck
from bot.domain.hydra import randomplay as hydra_play
from bot.domain.hydra.invariants import check_invariants as check_hydra

GOAL_SECONDS = 60.0


def _hydra(seed: int) -> tuple[str, int]:
    game = hydra_play.play_random_game(seed, after_step=check_hydra)
    return game.outcome, len(game.actions)


def _creature_deck(deck: str) -> Callable[[int], tuple[str, int]]:
    def play(seed: int) -> tuple[str, int]:
        game = creature_play.play_random_game(deck, seed, after_step=check_creature_deck)
        return game.outcome, len(game.actions)

    return play


DECKS: dict[str, Callable[[int], tuple[str, int]]] = {
    "hydra": _hydra,
    "horde": _creature_deck("horde"),
    "god": _creature_deck("god"),
}


def bench(deck: str, games: int) -> float:
    """Play ``games`` seeded games; print outcomes, steps and time per game; return CPU seconds."""
    outcomes: Counter[str] = Counter()
    steps = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        outcome, actions = DECKS[deck](seed)
        outcomes[outcome] += 1
        steps += actions
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(
        f"{deck:5s}: {games} games, {steps} steps checked, {dict(outcomes)}; "
        f"{wall:.1f} s wall, {cpu:.1f} s CPU, {cpu / games * 1000:.2f} ms CPU per game"
    )
    return cpu


def bench_images(count: int) -> None:
    """Draw and encode ``count`` boards per deck, taken from random games part-way through."""
    import random

    from bot.render.challenge import board_image
    from bot.render.fonts import png_bytes

    for deck in ("horde", "god"):
        boards = []
        for seed in range(count):
            rng = random.Random(seed)
            game = creature_play.new_random_game(deck, seed, rng)
            for _ in range(rng.randint(1, 4)):
                if game.over:
                    break
                game.apply("end")
                game.play_until_players()
            boards.append(game)
        draw = encode = 0.0
        sizes = []
        for game in boards:
            start = time.process_time()
            image = board_image(game, "en")
            middle = time.process_time()
            sizes.append(len(png_bytes(image)))
            draw, encode = draw + middle - start, encode + time.process_time() - middle
        print(
            f"{deck:5s} image: {count} boards, draw {draw / count * 1000:.1f} ms + PNG {encode / count * 1000:.1f} ms "
            f"CPU each; {sum(sizes) / len(sizes) / 1024:.0f} KiB average, up to {max(sizes) / 1024:.0f} KiB"
        )


def bench_event(tables: int) -> None:
    """A Horde night and a God night of ``tables`` tables each, through the event service."""
    import asyncio
    import tempfile
    from pathlib import Path

    from bot.services.challenge import ChallengeService
    from bot.services.hydra import HydraService
    from bot.services.hydra_events import HydraEventService
    from bot.storage.db import Database

    async def run(deck: str, size: int) -> None:
        with tempfile.TemporaryDirectory() as folder:
            db = await Database.open(Path(folder) / "bench.sqlite")
            events = HydraEventService(
                db, HydraService(db), seed_for=lambda event, table: table, decks=ChallengeService(db)
            )
            steps: dict[str, float] = {}

            async def timed(name: str, work: object) -> object:
                start = time.perf_counter()
                result = await work  # type: ignore[misc]
                steps[name] = time.perf_counter() - start
                return result

            event = await events.create(
                guild_id=1,
                channel_id=2,
                user_id=1,
                name="bench",
                start="now",
                heads=2,
                table_size=size,
                language="en",
                deck=deck,
            )
            players = tables * size

            async def join_all() -> None:
                for user in range(players):
                    await events.join(event.event_id, [(10_000 + user, f"P{user}")])

            await timed("join", join_all())
            await timed("seat", events.plan(event.event_id))
            opened = await timed("open tables", events.open_tables(event.event_id))
            await events.mark_running(event.event_id)

            async def play_all() -> None:
                for _, table in opened:  # type: ignore[attr-defined]
                    user = table.seats[0].user_id
                    first = table.game.battlefield_numbers()[:1]
                    for line in ([f"tap {first[0]}"] if first else []) + ["end"]:
                        await events.decks.act(table.game_id, user, line)
                    loaded = await events.decks.load(table.game_id)
                    while loaded.game.pending is not None and not loaded.game.over:
                        loaded = (
                            await events.decks.act(
                                table.game_id, None, f"choose {loaded.game.pending.default}"
                            )
                        ).table
                    if not loaded.game.over and loaded.game.battlefield_numbers():
                        await events.decks.act(
                            table.game_id, user, f"destroy {loaded.game.battlefield_numbers()[-1]}"
                        )

            await timed("play", play_all())
            built = events.decks.replays
            status = await timed("leaderboard (cold)", events.status(event.event_id))
            cold = events.decks.replays - built
            await timed("leaderboard (warm)", events.status(event.event_id))
            warm = events.decks.replays - built - cold
            await db.close()
            figures = ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in steps.items())
            figures += f"; games replayed by the leaderboard: {cold} cold (the score tallies), {warm} warm"
            defeated = sum(line.severed for line in status.board.tables)  # type: ignore[attr-defined]
            print(
                f"{deck:5s} event: {tables} tables, {players} players ({defeated} permanents defeated): {figures}"
            )

    asyncio.run(run("horde", 1))
    asyncio.run(run("god", 4))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--deck", action="append", choices=tuple(DECKS), default=None)
    parser.add_argument(
        "--images", type=int, default=0, help="also time N board images per deck (Horde, God)"
    )
    parser.add_argument(
        "--event-tables", type=int, default=0, help="also run a Horde and a God event of N tables"
    )
    args = parser.parse_args()
    if args.images:
        bench_images(args.images)
    if args.event_tables:
        bench_event(args.event_tables)
    if args.games <= 0:
        return
    total = sum(bench(deck, args.games) for deck in args.deck or DECKS)
    verdict = "OK" if total < GOAL_SECONDS else "MISSED"
    print(f"all decks: {total:.1f} s CPU (goal < {GOAL_SECONDS:.0f} s for 10,000 games each: {verdict})")


if __name__ == "__main__":
    main()
