"""Deck check benchmarks (issue #3), against the full bundled card database (23,926 cards in a CardIndex):

1. one 100-card deck checked (rules only, cards already resolved): p50 / p99, target p99 < 10 ms;
   also the first check of a deck whose cards were never seen (cold identity cache);
2. parse + resolve + check of real-format deck files (text, Arena, Archidekt, MTGO .dek, CSV) on one
   core: decks per second, target >= 1,000.

    /work/venv/bin/python benchmarks/bench_decks.py [--checks 5000] [--decks 5000]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import time
from pathlib import Path

from bot.cards.index import CardIndex
from bot.cards.model import Card
from bot.domain.decklist import parse_decklist
from bot.domain.rules import check_deck, get_ruleset, resolve_decklist
from bot.domain.rules import facts as facts_module
from bot.domain.rules import identity as identity_module
from bot.paths import BUNDLED_CARDS

DECKS = Path(__file__).resolve().parent.parent / "tests" / "data" / "decks"


def load_index() -> CardIndex:
    with gzip.open(BUNDLED_CARDS, "rt", encoding="utf-8") as handle:
        return CardIndex.from_cards(Card.from_scryfall(json.loads(line)) for line in handle if line.strip())


def percentile(times: list[float], fraction: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def bench_check(index: CardIndex, checks: int) -> None:
    deck_files = sorted(p for p in DECKS.iterdir() if p.is_file())
    resolved = [resolve_decklist(parse_decklist(p.read_bytes(), p.name), index) for p in deck_files]
    rulesets = [get_ruleset(name) for name in ("commander", "edh-2010", "duel-zh")]
    cold: list[float] = []
    for deck in resolved:
        for ruleset in rulesets:
            identity_module._cache.clear()
            facts_module._cache.clear()
            start = time.perf_counter()
            check_deck(deck, ruleset)
            cold.append(time.perf_counter() - start)
    times: list[float] = []
    cpu_times: list[float] = []
    for i in range(checks):
        deck, ruleset = resolved[i % len(resolved)], rulesets[i % len(rulesets)]
        start, cpu = time.perf_counter(), time.thread_time()
        check_deck(deck, ruleset)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.thread_time() - cpu)
    print(f"check one 100-card deck ({checks} checks, 3 rulesets, {len(resolved)} decks):")
    print(f"  wall clock: p50 {statistics.median(times) * 1000:.3f} ms   p99 {percentile(times, 0.99) * 1000:.3f} ms"
          f"   (target p99 < 10 ms)")
    print(f"  CPU time:   p50 {statistics.median(cpu_times) * 1000:.3f} ms   "
          f"p99 {percentile(cpu_times, 0.99) * 1000:.3f} ms")
    print(f"  cold identity cache: p50 {statistics.median(cold) * 1000:.3f} ms   max {max(cold) * 1000:.3f} ms")


def bench_throughput(index: CardIndex, decks: int) -> None:
    files = [(p.read_bytes(), p.name) for p in sorted(DECKS.iterdir()) if p.is_file()]
    rulesets = [get_ruleset(name) for name in ("commander", "edh-2010", "duel-zh")]
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(decks):
        data, name = files[i % len(files)]
        check_deck(resolve_decklist(parse_decklist(data, name), index), rulesets[i % len(rulesets)])
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"parse + resolve + check ({decks} decks from {len(files)} files: txt, Arena, Archidekt, TappedOut, "
          f"MTGGoldfish, precon, .dek, .cod, .dck, csv):")
    print(f"  {decks / elapsed:,.0f} decks/s on one core, wall clock   ({elapsed * 1000 / decks:.3f} ms per deck;"
          f" target >= 1,000 decks/s)")
    print(f"  {decks / cpu:,.0f} decks/s of CPU time (the same run, time spent waiting for a shared core left out)")
    print(f"  load average while running: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checks", type=int, default=5000)
    parser.add_argument("--decks", type=int, default=5000)
    args = parser.parse_args()
    start = time.perf_counter()
    index = load_index()
    print(f"card index: {len(index):,} cards built in {time.perf_counter() - start:.1f} s")
    bench_check(index, args.checks)
    bench_throughput(index, args.decks)


if __name__ == "__main__":
    main()
