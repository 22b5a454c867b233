"""Mulligan benchmarks. Run by hand:

    /work/venv/bin/python benchmarks/bench_mulligan.py

Prints p50/p99 (ms) of:
- the exact odds of a 99-card library (Commander 2011 "Heavenly Inferno", 38 lands): all figures of
  ``/mulligan odds`` (hypergeometric, London, Vancouver, partial Paris DP), computed from scratch each time,
  and the partial Paris DP alone;
- the odds chart image (render + PNG encoding);
- a practice hand image (7 cards, render + PNG encoding), as ``/mulligan practice`` sends it;
- Monte Carlo throughput (practice hands played per second through ``PracticeHand``), for reference.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.cards.model import Card  # noqa: E402
from bot.domain.mulligan import MulliganStyle  # noqa: E402
from bot.domain.mulligan.odds import DeckCounts, deck_odds, exact_style_odds, monte_carlo_odds  # noqa: E402
from bot.domain.mulligan.practice import PracticeHand  # noqa: E402
from bot.render.fonts import png_bytes  # noqa: E402
from bot.render.hand import render_hand  # noqa: E402
from bot.render.odds import odds_chart  # noqa: E402

DATA = REPO / "tests" / "data"


def library() -> list[Card]:
    cards: dict[str, Card] = {}
    for line in (DATA / "mulligan_cards.jsonl").read_text(encoding="utf-8").splitlines():
        card = Card.from_scryfall(json.loads(line))
        cards[card.name] = card
    out: list[Card] = []
    for line in (DATA / "mulligan_heavenly_inferno.txt").read_text(encoding="utf-8").splitlines():
        match = re.match(r"(\d+)\s+(.+)", line.strip())
        if match:
            out += [cards[match.group(2)]] * int(match.group(1))
    return out


def timed(label: str, runs: int, action: Callable[[], object]) -> None:
    action()  # warm caches (fonts, imports)
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{label:<52} p50 {statistics.median(samples):8.2f} ms   p99 {p99:8.2f} ms   ({runs} runs)")


def main() -> None:
    cards = library()
    counts = DeckCounts.of(cards)
    print(f"library: {counts.deck_size} cards, {counts.lands} lands")
    timed("odds, all figures (99 cards, exact)", 50, lambda: deck_odds(counts))
    timed(
        "odds, partial Paris DP alone",
        50,
        lambda: exact_style_odds(MulliganStyle.PARTIAL_PARIS, counts.deck_size, counts.lands),
    )
    timed("odds, London alone", 200, lambda: exact_style_odds(MulliganStyle.LONDON, 99, counts.lands))
    figures = deck_odds(counts)
    timed("odds chart image (render + PNG)", 30, lambda: png_bytes(odds_chart(figures, "ja")))
    hand = PracticeHand.deal(cards, "london", seed=1).hand
    timed("practice hand image, 7 cards (render + PNG), en", 50, lambda: render_hand(hand, "en", title="t"))
    timed("practice hand image, 7 cards (render + PNG), ja", 50, lambda: render_hand(hand, "ja", title="t"))
    for style in MulliganStyle:
        started = time.perf_counter()
        monte_carlo_odds(style, cards, 5_000, seed=1)
        rate = 5_000 / (time.perf_counter() - started)
        print(f"Monte Carlo {style.value:<14} {rate:10.0f} practice hands/s")


if __name__ == "__main__":
    main()
