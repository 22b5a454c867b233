"""Bracket check benchmark, against the full bundled card database (CardIndex of the bundled data set).

What the bracket report adds to every deck check (it runs in the work pool, beside the rules):

1. random 100-card decks (a random legendary creature and 99 random cards of the whole data): p50 / p99
   of ``assess_bracket`` per deck, goal p99 < 2 ms (a check's rules take ~30 ms on a quiet machine);
2. the worst case: decks made only of cards the bracket lists know (Game Changers, mass land denial,
   extra turns, combo pieces), so every finding is built and worded;
3. the two real deck files of tests/data/decks, parsed and resolved once, assessed many times.

CPU time (``time.thread_time``) is what is judged; run it with ``nice`` on a shared machine.

    nice python benchmarks/bench_brackets.py [--decks 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from bot.cards.importers import read_cards
from bot.cards.index import CardIndex
from bot.domain.decklist import parse_decklist
from bot.domain.rules import ResolvedDeck, resolve_decklist
from bot.domain.rules.brackets import assess_bracket, bundled_bracket_data
from bot.paths import BUNDLED_CARDS
from bot.render.brackets import bracket_lines

DECKS = Path(__file__).resolve().parent.parent / "tests" / "data" / "decks"
GOAL_P99_MS = 2.0


def _deck(index: CardIndex, names: list[str]) -> ResolvedDeck:
    return resolve_decklist(parse_decklist("\n".join(f"1 {name}" for name in names)), index, names[:1])


def _timed(decks: list[ResolvedDeck], rounds: int = 1) -> list[float]:
    times = []
    for _ in range(rounds):
        for deck in decks:
            started = time.thread_time()
            bracket_lines(assess_bracket(deck), "en")
            times.append((time.thread_time() - started) * 1000)
    return times


def _report(title: str, times: list[float]) -> bool:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    ok = p99 < GOAL_P99_MS
    print(
        f"{title}: {len(times)} assessments, p50 {statistics.median(ordered):.3f} ms, p99 {p99:.3f} ms "
        f"(goal < {GOAL_P99_MS} ms) {'PASS' if ok else 'FAIL'}"
    )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decks", type=int, default=2000)
    args = parser.parse_args()
    started = time.perf_counter()
    cards = read_cards(BUNDLED_CARDS).cards
    index = CardIndex.from_cards(cards)
    print(f"card index: {len(cards)} cards in {time.perf_counter() - started:.1f} s")
    rng = random.Random(7)
    legal = [c.name for c in cards if c.commander_legality == "legal"]
    leaders = [
        c.name for c in cards if "Legendary Creature" in c.type_line and c.commander_legality == "legal"
    ]
    randoms = [_deck(index, [rng.choice(leaders), *rng.sample(legal, 99)]) for _ in range(args.decks)]
    data = bundled_bracket_data()
    listed = {
        c.name
        for c in cards
        if c.name.casefold()
        in data.game_changers
        | data.mass_land_denial
        | data.extra_turns
        | {n.casefold() for combo in data.combos for n in combo.cards}
    }
    signal_names = sorted(listed)
    worst = [
        _deck(index, [rng.choice(leaders), *rng.sample(signal_names, min(99, len(signal_names)))])
        for _ in range(max(1, args.decks // 10))
    ]
    real = [
        resolve_decklist(parse_decklist(path.read_text(encoding="utf-8")), index)
        for path in sorted(DECKS.glob("*.txt"))[:2]
    ]
    results = [
        _report("random 100-card decks", _timed(randoms)),
        _report(f"only listed cards ({len(signal_names)} known)", _timed(worst)),
        _report("the two real decks", _timed(real, rounds=max(1, args.decks // 2))),
    ]
    print("PASS" if all(results) else "FAIL")


if __name__ == "__main__":
    main()
