"""Reading a finished pod game (``bot.domain.pod.PodGameRecord``) for tournament scoring and prizes.

Survivors are the players alive when the game ended (in a draw: everyone still in, T3). A player
eliminated by damage is credited to the player whose damage took them out (the source of the last
life change of that elimination step); concessions and poison without a recorded source credit no one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot.domain.pod import LOST_COMMANDER_DAMAGE, PodGameRecord
from bot.domain.tournament import prizes
from bot.domain.tournament.prizes import PrizeStats


@dataclass(frozen=True)
class PlayerOutcome:
    user_id: int
    seat: int
    survived: bool
    eliminations: int
    prizes: PrizeStats


def eliminators(record: PodGameRecord) -> list[prizes.Elimination]:
    """Each elimination with the player credited for it (``by`` None when nobody is)."""
    sources = {(change["seq"], change["player"]): change.get("source") for change in record.life_changes}
    found = []
    for elimination in record.eliminations:
        by = sources.get((elimination.seq, elimination.player))
        found.append(
            prizes.Elimination(
                elimination.player, elimination.reason, by if by != elimination.player else None
            )
        )
    return found


def outcomes(record: PodGameRecord, mana_value: Callable[[str | None], int]) -> list[PlayerOutcome]:
    """Every player's survival, opponents eliminated and T2 figures, in seat order.

    ``mana_value`` gives a commander's mana value from its name (0 when unknown): the pod record keeps
    the tax paid for each cast, the card data knows the rest of the cost.
    """
    players = [p.user_id for p in record.players]
    knocked_out = eliminators(record)
    credited = Counter(e.by for e in knocked_out if e.by is not None)
    damage = [
        prizes.CombatDamage(turn, source, amount)
        for turn, by_source in record.combat_damage.items()
        for source, amount in by_source.items()
    ]
    casts = [
        prizes.CommanderCast(cast["owner"], mana_value(cast.get("name")), cast.get("tax", 0))
        for cast in record.casts
    ]
    stats = prizes.game_prize_stats(
        players,
        damage=damage,
        casts=casts,
        eliminations=[e for e in knocked_out if e.cause == LOST_COMMANDER_DAMAGE],
    )
    survivors = set(record.survivors)
    return [
        PlayerOutcome(p.user_id, p.seat, p.user_id in survivors, credited[p.user_id], stats[p.user_id])
        for p in record.players
    ]
