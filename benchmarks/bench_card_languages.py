"""Lookups and deck checks with card names in every printed language loaded. Run by hand:

    .venv/bin/python benchmarks/bench_card_languages.py

The bundled data has only Japanese and Chinese names; a `cards sync` adds German, French, Italian, Spanish,
Portuguese, Korean and Russian. Offline, this benchmark gives every one of the 23,926 bundled cards a
synthetic name in each of those seven languages (Latin words for the first five, the name's letters moved
into Hangul and Cyrillic for Korean and Russian), so the index holds as many names as a synced one would.
Targets: exact and printed lookups p99 < 1 ms, fuzzy < 20 ms, a deck check p99 < 10 ms.

Measured on the shared 2-core machine (load ~7), `.venv/bin/python benchmarks/bench_card_languages.py`:
index build 0.9 s CPU (ja, zh only) -> 2.3 s CPU (10 languages); process with cards and index 84 -> 136 MB;
exact 0.002 ms, Japanese 0.008 ms, German/Korean/Russian 0.008-0.011 ms p99; fuzzy p50 ~1.5 ms either way
(p99 21-43 ms under that load, the same spread without the extra languages); autocomplete (de) p99 11 ms;
deck check p99 3.9 ms. A first version that gave every language a copy of the English autocomplete list
took 168 MB: the extra languages now keep lists of their own names only.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from bot.cards.index import CardIndex
from bot.cards.model import Card
from bot.domain.decklist import parse_decklist
from bot.domain.rules import check_deck, get_ruleset, resolve_decklist
from bot.paths import BUNDLED_CARDS

DECKS = Path(__file__).resolve().parent.parent / "tests" / "data" / "decks"
LATIN = {"de": "der", "fr": "le", "it": "il", "es": "el", "pt": "o"}


def synthetic_names(name: str) -> dict[str, str]:
    words = name.split()
    names = {language: " ".join([article, *reversed(words)]) for language, article in LATIN.items()}
    names["ko"] = "".join(chr(0xAC00 + (ord(c) * 37) % 11172) if c.isalpha() else c for c in name)
    names["ru"] = "".join(chr(0x0430 + ord(c.lower()) % 32) if c.isalpha() else c for c in name)
    return names


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def timed(label: str, function, queries: list[str]) -> None:
    """Wall clock and CPU time (``thread_time``: what the lookup costs, without the wait for a shared core)."""
    samples, cpu = [], []
    for query in queries:
        start, started_cpu = time.perf_counter(), time.thread_time()
        function(query)
        cpu.append(time.thread_time() - started_cpu)
        samples.append(time.perf_counter() - start)
    print(
        f"  {label:<34} p50 {statistics.median(samples) * 1000:7.3f} ms   p99 {percentile(samples, 0.99) * 1000:7.3f} ms"
        f"   CPU p50 {statistics.median(cpu) * 1000:7.3f} ms   p99 {percentile(cpu, 0.99) * 1000:7.3f} ms"
    )


def main() -> None:
    with gzip.open(BUNDLED_CARDS, "rt", encoding="utf-8") as handle:
        cards = [Card.from_scryfall(json.loads(line)) for line in handle if line.strip()]
    start = time.process_time()
    plain = CardIndex.from_cards(cards)
    print(
        f"index of {len(plain):,} cards, bundled names only (ja, zh): built in {time.process_time() - start:.1f} s CPU"
    )
    cards = [
        replace(card, printed_names={**card.printed_names, **synthetic_names(card.name)}) for card in cards
    ]
    start = time.process_time()
    index = CardIndex.from_cards(cards)
    print(
        f"index of {len(index):,} cards with 10 printed languages: built in {time.process_time() - start:.1f} s CPU"
    )
    rng = random.Random(16)
    sample = rng.sample(cards, 2000)
    cjk = [c.printed_names["ja"] for c in sample if "ja" in c.printed_names][:1000]
    typos = [c.name[:-2] + c.name[-1:] + "x" for c in sample[:300]]
    print(
        f"name resolution (2,000 random cards), wall clock and CPU time; load average {os.getloadavg()[0]:.1f}:"
    )
    timed("exact English", index.resolve, [c.name for c in sample])
    timed("Japanese printed", index.resolve, cjk)
    timed("German (synthetic) printed", index.resolve, [c.printed_names["de"] for c in sample])
    timed("Korean (synthetic) printed", index.resolve, [c.printed_names["ko"] for c in sample])
    timed("Russian (synthetic) printed", index.resolve, [c.printed_names["ru"] for c in sample])
    for _ in range(2):  # alternating, so warm caches favour neither
        timed("fuzzy, bundled names only (300)", plain.resolve, typos)
        timed("fuzzy, 10 languages (300)", index.resolve, typos)
    timed(
        "autocomplete de (3 letters)",
        lambda q: index.autocomplete(q, "de"),
        [c.printed_names["de"][:7] for c in sample],
    )
    files = [p for p in sorted(DECKS.iterdir()) if p.is_file()]
    resolved = [resolve_decklist(parse_decklist(p.read_bytes(), p.name), index) for p in files]
    rulesets = [get_ruleset(name) for name in ("commander", "edh-2010", "duel-zh")]
    samples = []
    for i in range(3000):
        start = time.perf_counter()
        check_deck(resolved[i % len(resolved)], rulesets[i % 3])
        samples.append(time.perf_counter() - start)
    print(
        f"deck check ({len(files)} decks, 3 rulesets, 3,000 checks): p50 {statistics.median(samples) * 1000:.3f} ms"
        f"   p99 {percentile(samples, 0.99) * 1000:.3f} ms"
    )


if __name__ == "__main__":
    main()
