"""How long one sideboard swap check takes (parse + resolve the stored list, apply the swaps, re-check the
whole deck twice: before and after), the work ``MatchService`` sends to the work pool per swap or panel.

Run by hand:  python benchmarks/bench_swaps.py [rounds]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cards.index import CardIndex  # noqa: E402
from bot.domain.sideboard import Swap  # noqa: E402
from bot.services.matches import check_registered_swaps  # noqa: E402
from tests.decks.conftest import load_cards  # noqa: E402


def main(rounds: int = 200) -> None:
    cards = CardIndex.from_cards(load_cards())
    text = (ROOT / "tests/data/decks/kaalia_sideboard.txt").read_text(encoding="utf-8")
    swaps = (Swap("Anger", "Lightning Bolt"), Swap("Mountain", "Badlands"))
    check_registered_swaps(text, cards, "duel-zh", ("Kaalia of the Vast",), (), swaps)  # warm up
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        check_registered_swaps(text, cards, "duel-zh", ("Kaalia of the Vast",), (), swaps)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    print(
        f"{rounds} swap checks of a 110-card deck: median {timings[len(timings) // 2]:.2f} ms, "
        f"p95 {timings[int(len(timings) * 0.95)]:.2f} ms"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
