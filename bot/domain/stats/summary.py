"""One finished pod game as the statistics see it: a row per game and a row per player.

Built from the :class:`~bot.domain.pod.PodGameRecord` the pod service already makes at the finish (the
tournaments read the same record), so the statistics and the tournaments never disagree about who won,
who placed where and who was eliminated how. The summary is stored in the same transaction as the
game's last event (bot/storage/stats.py) and can be rebuilt from the stored events at any time, which
is what the backfill of older games does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from bot.domain import pod
from bot.domain.pod import PodGameRecord

WUBRG = "WUBRG"
COLOURLESS = "C"


@dataclass(frozen=True)
class PlayerSummary:
    """One seat of a finished game. ``eliminated_by`` is the player whose commander, or whose life
    change, took this player out; None when nobody did (poison, a concession, an unsourced life loss)."""

    user_id: int
    name: str
    seat: int
    commander: str | None
    partner: str | None
    colour_identity: str | None  # WUBRG letters in that order, "C" for colourless, None when unknown
    deck: str | None
    place: int
    won: bool
    eliminated_how: str | None  # pod.LOST_* or None for a survivor
    eliminated_by: int | None
    eliminated_turn: int | None


@dataclass(frozen=True)
class GameSummary:
    game_id: int
    guild_id: int | None
    ended_at: str | None
    month: str | None  # "YYYY-MM" of the finish, for games per month
    turns: int
    duration_seconds: int | None
    ended: str  # pod.END_*
    tournament_id: int | None
    players: tuple[PlayerSummary, ...]

    @property
    def winner(self) -> int | None:
        winners = [p.user_id for p in self.players if p.won]
        return winners[0] if winners else None


def counts_for_statistics(record: PodGameRecord) -> bool:
    """A game stopped before its first turn was never played: it is no game in anybody's statistics."""
    return record.turns > 0


def combined_identity(identities: list[str | None]) -> str | None:
    """The colour identity of a commander pair: the union of both (partners), in WUBRG order. None
    without a commander, or when one of them is unknown (never guessed from the other)."""
    known = [i for i in identities if i is not None]
    if not identities or len(known) != len(identities):
        return None
    letters = {c for i in known for c in i}
    return "".join(c for c in WUBRG if c in letters) or COLOURLESS


def _seconds_between(start: str | None, end: str | None) -> int | None:
    if not start or not end:
        return None
    try:
        seconds = (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except ValueError:
        return None
    return max(0, int(seconds))


def eliminators(record: PodGameRecord) -> dict[int, int]:
    """Who eliminated whom: the owner of the commander that dealt the 21st point (G5), or the source of
    the life change that brought the player to 0. Self-inflicted losses have no eliminator."""
    by_whom: dict[int, int] = {}
    for elimination in record.eliminations:
        source: int | None = None
        if elimination.reason == pod.LOST_COMMANDER_DAMAGE and elimination.by_commander:
            source = pod.parse_commander_key(elimination.by_commander)[0]
        elif elimination.reason == pod.LOST_LIFE:
            changes = [
                c
                for c in record.life_changes
                if c["seq"] == elimination.seq and c["player"] == elimination.player
            ]
            source = changes[-1]["source"] if changes else None
        if source is not None and source != elimination.player:
            by_whom[elimination.player] = int(source)
    return by_whom


def summarise(
    record: PodGameRecord, *, started_at: str | None, identities: Mapping[str, str | None]
) -> GameSummary:
    """The statistics' summary of a finished game. ``started_at`` is when the game was opened (its first
    event), ``identities`` the colour identity of each commander name (from the card data; a name the
    data does not know makes the identity unknown, never guessed)."""
    places = {user: place for place, users in record.standings for user in users}
    eliminated = {e.player: e for e in record.eliminations}
    by_whom = eliminators(record)
    winner = record.winner
    players = []
    for player in record.players:
        names = [n for n in player.commanders if n]
        elimination = eliminated.get(player.user_id)
        players.append(
            PlayerSummary(
                user_id=player.user_id,
                name=player.name,
                seat=player.seat,
                commander=names[0] if names else None,
                partner=names[1] if len(names) > 1 else None,
                colour_identity=combined_identity([identities.get(n) for n in names]),
                deck=player.deck,
                place=places.get(player.user_id, len(record.players)),
                won=player.user_id == winner,
                eliminated_how=elimination.reason if elimination else None,
                eliminated_by=by_whom.get(player.user_id),
                eliminated_turn=elimination.turn if elimination else None,
            )
        )
    ended_at = record.ended_at
    return GameSummary(
        game_id=record.game_id,
        guild_id=record.guild_id,
        ended_at=ended_at,
        month=ended_at[:7] if ended_at else None,
        turns=record.turns,
        duration_seconds=_seconds_between(started_at, ended_at),
        ended=record.ended,
        tournament_id=record.tournament_id,
        players=tuple(players),
    )
