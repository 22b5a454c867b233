"""Pod tracking benchmarks. Run: /work/venv/bin/python benchmarks/bench_pods.py

1. Board render: p50/p99 of ``render_board`` for an 8-player board with partners (16 commanders),
   both "during play" (one player's totals change between renders, the usual case) and "cold"
   (every render cache emptied first: the first board of a game).
2. 1,000 button presses on one game, each a real INTERACTION_CREATE payload parsed by discord.py and
   routed through the ViewStore to the cog, applied by the service and committed to a real SQLite
   file; the board edits coalesce. Target < 5 s.
3. 200 games in parallel, 10 presses each from two players, all dispatched at once: every press must
   be stored and applied (no lost update).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.domain import pod  # noqa: E402
from bot.domain.pod import Event, replay  # noqa: E402
from bot.render import board  # noqa: E402
from bot.testing import DiscordHarness  # noqa: E402
from bot.testing.fakediscord import payloads as P  # noqa: E402

RENDERS = 300
PRESSES = 1_000
GAMES = 200
PRESSES_PER_GAME = 10


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def eight_player_state() -> tuple[list[Event], pod.PodState]:
    names = ["Alice", "Bob", "Carol", "Dave", "Eve", "Frank", "Grace", "Heidi"]
    events = [
        Event(
            1,
            pod.CREATE,
            1,
            "t",
            {"ruleset": "commander", "players": [{"user_id": i + 1, "name": n} for i, n in enumerate(names)]},
        )
    ]

    def add(kind: str, **data) -> None:
        events.append(Event(len(events) + 1, kind, 1, "t", data))

    for user in range(1, 9):
        add(pod.COMMANDERS, player=user, names=["Tymna the Weaver", "Thrasios, Triton Hero"])
    add(pod.NEXT_TURN)
    add(pod.COMMANDER_DAMAGE, commander="1:0", target=2, amount=9)
    add(pod.POISON, player=3, amount=4)
    add(pod.MONARCH, player=4)
    return events, replay(events)


def bench_render() -> None:
    events, state = eight_player_state()
    play, cold = [], []
    for index in range(RENDERS):
        state = pod.apply(
            state,
            Event(
                len(events) + 1 + index,
                pod.LIFE,
                1,
                "t",
                {"player": 1 + index % 8, "amount": -1 if (index // 8) % 2 else 1},
            ),
        )
        started = time.perf_counter()
        board.render_board(state)
        play.append(time.perf_counter() - started)
    for _ in range(RENDERS // 3):
        board.clear_caches()
        started = time.perf_counter()
        board.render_board(state)
        cold.append(time.perf_counter() - started)
    png = board.render_board(state)
    for label, samples in (("during play", play), ("cold caches (first board)", cold)):
        print(
            f"board render, 8 players / 16 commanders, {label}: p50 {percentile(samples, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(samples, 0.99) * 1000:.1f} ms, mean {statistics.fmean(samples) * 1000:.1f} ms "
            f"({len(samples)} renders, PNG {len(png) // 1024} KiB)"
        )


async def press_all(h: DiscordHarness, presses: list[tuple[object, str, object]]) -> tuple[float, float]:
    """Dispatch every press at once through discord.py's real parser. Returns the seconds until every
    press was answered (so committed: the service commits before acknowledging) and until the last
    coalesced board edit was done."""
    payloads = [
        h.fake.new_interaction(
            kind=P.MESSAGE_COMPONENT,
            data=P.component_data(custom_id, 2),
            channel=h.channel(),
            actor=h.user(user),
            message=message,
        )
        for message, user, custom_id in presses
    ]
    started = time.perf_counter()
    for payload in payloads:
        h.bot._connection.parse_interaction_create(payload)
    records = [h.fake.interactions[int(p["id"])] for p in payloads]
    while not all(r.acknowledged for r in records):
        await asyncio.sleep(0.005)
    answered = time.perf_counter() - started
    await h.bot.get_cog("Pods").updater.flush()
    return answered, time.perf_counter() - started


async def bench_presses(tmp: Path) -> None:
    async with DiscordHarness.start(tmp / "one", interaction_deadline=None) as h:
        cog = h.bot.get_cog("Pods")
        reply = await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")
        message = reply.message
        presses = [
            (message, "alice" if i % 2 else "bob", "pod:1:life:-1" if (i // 2) % 2 else "pod:1:life:1")
            for i in range(PRESSES)
        ]
        answered, elapsed = await press_all(h, presses)
        stored = await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE game_id = 1 AND kind = 'life'")
        fresh = pod.replay(await cog.service.repo.events(1))
        expected = {"alice": 0, "bob": 0}
        for i in range(PRESSES):
            expected["alice" if i % 2 else "bob"] += -1 if (i // 2) % 2 else 1
        lives = {n: fresh.player(h.user(n).id).life for n in expected}
        ok = stored == PRESSES and all(lives[n] == 40 + expected[n] for n in expected)
        print(
            f"{PRESSES} presses on one game through the cog layer: all answered and stored in {answered:.2f} s "
            f"({PRESSES / answered:.0f}/s), board final after {elapsed:.2f} s; stored {stored}; "
            f"board edits {cog.updater.edits}; "
            f"{'all applied' if ok else 'LOST UPDATES'}"
        )


async def bench_parallel(tmp: Path) -> None:
    async with DiscordHarness.start(tmp / "many", interaction_deadline=None) as h:
        cog = h.bot.get_cog("Pods")
        alice, bob = h.user("alice"), h.user("bob")
        channel = h.bot.get_channel(h.channel().id)
        boards = []
        for _ in range(GAMES):
            loaded, sent = await cog.start_linked_game(
                channel, [alice_user(h, alice), alice_user(h, bob)], ruleset="commander"
            )
            boards.append((loaded.game_id, h.fake.messages[sent.id]))
        presses = [
            (message, "alice" if i % 2 else "bob", f"pod:{game_id}:life:-1")
            for i in range(PRESSES_PER_GAME)
            for game_id, message in boards
        ]
        answered, elapsed = await press_all(h, presses)
        lost = 0
        for game_id, _ in boards:
            state = pod.replay(await cog.service.repo.events(game_id))
            total = sum(40 - p.life for p in state.players)
            lost += PRESSES_PER_GAME - total
        stored = await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'life'")
        print(
            f"{GAMES} games in parallel, {len(presses)} presses: answered in {answered:.2f} s, boards final "
            f"after {elapsed:.2f} s; stored {stored}; "
            f"lost updates {lost}; board edits {cog.updater.edits}"
        )


def alice_user(h: DiscordHarness, member) -> object:
    guild = h.bot.get_guild(h.guild.id)
    return guild.get_member(member.id) or h.bot.get_user(member.id) or _Named(member)


class _Named:
    def __init__(self, member) -> None:
        self.id, self.display_name = member.id, member.user.name


async def main() -> None:
    bench_render()
    with tempfile.TemporaryDirectory() as tmp:
        await bench_presses(Path(tmp))
        await bench_parallel(Path(tmp))


if __name__ == "__main__":
    asyncio.run(main())
