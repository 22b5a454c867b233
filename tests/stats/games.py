"""Random pod games played through the real pod rules (bot.domain.pod), for the statistics' tests: a
seed gives a table of 2-6 players with commanders (partners sometimes), then turns of life changes with
and without a source, commander damage, poison and concessions until one player is left, a draw is
agreed or the game is stopped."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from datetime import datetime, timedelta

from bot.domain import pod
from bot.domain.pod import Event, PodError, PodGameRecord

COMMANDERS = (
    "Atraxa, Praetors' Voice",
    "Kenrith, the Returned King",
    "Tymna the Weaver",
    "Thrasios, Triton Hero",
    "Edgar Markov",
    "Kaalia of the Vast",
)
IDENTITIES = {
    "Atraxa, Praetors' Voice": "WUBG",
    "Kenrith, the Returned King": "WUBRG",
    "Tymna the Weaver": "WB",
    "Thrasios, Triton Hero": "UG",
    "Edgar Markov": "WBR",
    "Kaalia of the Vast": "WBR",
}
START = datetime(2026, 1, 5, 19, 0)


class RandomTable:
    """One game being played: events appended through ``pod.apply`` (a refused change is dropped)."""

    def __init__(
        self, rng: random.Random, players: list[int], start: datetime, commanders: Sequence[str] = COMMANDERS
    ) -> None:
        self.rng, self.clock, self.events, self.commanders = rng, start, [], commanders
        self.state = self._apply(
            pod.CREATE,
            players[0],
            ruleset="commander",
            starting_life=40,
            own_totals_only=False,
            players=[{"user_id": u, "name": f"player {u}"} for u in players],
        )

    def _apply(self, kind: str, actor: int, **data) -> pod.PodState:
        self.clock += timedelta(minutes=self.rng.randint(0, 9))
        event = Event(
            seq=len(self.events) + 1,
            kind=kind,
            actor=actor,
            at=self.clock.isoformat(timespec="seconds"),
            data=data,
        )
        state = pod.apply(getattr(self, "state", None), event)
        self.events.append(event)
        return state

    def attempt(self, kind: str, actor: int, **data) -> None:
        with contextlib.suppress(PodError):  # a change the rules refuse is not played
            self.state = self._apply(kind, actor, **data)

    def play(self) -> None:
        rng, players = self.rng, [p.user_id for p in self.state.players]
        for user in players:
            names = rng.sample(self.commanders, rng.choice((0, 1, 1, 1, 2)))
            self.attempt(
                pod.COMMANDERS,
                user,
                player=user,
                names=names or [None],
                deck=rng.choice((None, f"deck of {user}")),
            )
        self.attempt(pod.NEXT_TURN, players[0])
        for _ in range(rng.randint(0, 120)):
            if self.state.finished:
                return
            self._random_move(players)
        if not self.state.finished:
            self.attempt(pod.STOP, players[0])

    def _random_move(self, players: list[int]) -> None:
        rng, state = self.rng, self.state
        alive = [p.user_id for p in state.alive]
        target, source = rng.choice(alive), rng.choice(players)
        move = rng.random()
        if move < 0.15:
            self.attempt(pod.NEXT_TURN, source)
        elif move < 0.55:
            self.attempt(
                pod.LIFE,
                source,
                player=target,
                amount=-rng.randint(1, 15),
                source=rng.choice((None, source)),
                combat=rng.random() < 0.5,
            )
        elif move < 0.75 and state.all_commanders():
            commander = rng.choice(state.all_commanders())
            self.attempt(
                pod.COMMANDER_DAMAGE,
                commander.owner,
                commander=commander.key,
                target=target,
                amount=rng.randint(1, 12),
            )
        elif move < 0.85:
            self.attempt(pod.POISON, source, player=target, amount=rng.randint(1, 4))
        elif move < 0.92:
            self.attempt(pod.CONCEDE, target, player=target)
        elif rng.random() < 0.2:  # a table agrees on a draw now and then
            for user in alive:
                self.attempt(pod.DRAW_VOTE, user, player=user)


def random_game(
    seed: int,
    *,
    game_id: int = 1,
    guild_id: int = 10,
    pool: int = 8,
    start: datetime = START,
    commanders: Sequence[str] = COMMANDERS,
) -> tuple[PodGameRecord, list[Event]]:
    """A finished game (seeded) among ``pool`` members, its record as the pod service makes it, and its events."""
    rng = random.Random(seed)
    players = rng.sample(range(1, pool + 1), rng.randint(2, min(6, pool)))
    table = RandomTable(rng, players, start, commanders)
    table.play()
    record = pod.game_record(table.state, game_id=game_id, guild_id=guild_id, channel_id=None)
    return record, table.events
