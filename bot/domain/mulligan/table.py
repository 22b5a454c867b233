"""The mulligan step of a paper game: the whole table, in turn order (M1, CR 103.4/103.5).

Usage by the pod board (every call returns a new immutable state; nothing is mutated)::

    table = TableMulligan.start("partial_paris", seat_order=[alice, bob, carol])
    table.whose_turn                      # alice: players answer in turn order
    table, told = table.decide(alice, 2)  # M1: Alice sets 2 aside -> told == (Instruction("draw", 1),)
    table, told = table.decide(bob, 0)    # Bob keeps 7
    table, told = table.decide(carol, Choice.KEEP)
    table.whose_turn                      # alice again: she set cards aside, so she may repeat
    table, told = table.decide(alice, 0)  # keeps 6
    table.finished                        # True
    table.closing_instructions()          # {alice: (Instruction("shuffle_back", 2),)}
    table.result()                        # JSON-ready summary for the game record

Rounds: in each round every player who has not kept yet answers once, in seat order (the first seat
is the starting player). A partial-Paris player who set cards aside, or a London/Vancouver player who
took a mulligan, answers again in the next round; the step ends when everyone has kept. That is M1's
"in turn order ... may repeat the procedure" and CR 103.5's "the process is repeated".

To undo or to rebuild from stored events: ``TableMulligan.replay(style, seat_order, player_count,
decisions)`` with the list of ``(player, decision)`` minus the last one.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from bot.domain.mulligan.procedure import (
    Decision,
    Instruction,
    MulliganError,
    MulliganStyle,
    PlayerMulligan,
    parse_decision,
)

PlayerId = Hashable


class SeatState(StrEnum):
    KEPT = "kept"
    DECIDING = "deciding"  # it is this player's turn to answer
    WAITING = "waiting"  # still mulliganing, answers later this round or in the next


@dataclass(frozen=True, slots=True)
class SeatStatus:
    """One line of the board: "Alice kept 6", "Bob deciding (hand of 6)"."""

    player: PlayerId
    seat: int
    state: SeatState
    hand_size: int  # cards in hand now (London: 7 drawn)
    keeps: int  # the hand the player has (or would have) after keeping
    mulligans: int
    set_aside: int  # partial Paris: cards set aside so far
    to_bottom: int  # London: cards put (or to put) on the bottom


@dataclass(frozen=True, slots=True)
class TableMulligan:
    """The table's mulligan step as an immutable state machine. Build with ``start`` or ``replay``."""

    style: MulliganStyle
    seat_order: tuple[PlayerId, ...]
    player_count: int
    players: tuple[PlayerMulligan, ...]  # by seat
    round: int = 1
    answered: frozenset[int] = frozenset()  # seats that answered in this round
    decisions: tuple[tuple[PlayerId, Decision], ...] = field(default=())

    # -- building -----------------------------------------------------------------------------

    @classmethod
    def start(
        cls, style: MulliganStyle | str, seat_order: Sequence[PlayerId], player_count: int | None = None
    ) -> TableMulligan:
        """A fresh step. ``seat_order`` starts with the starting player; ``player_count`` (default: the
        number of seats) decides the free first mulligan of London/Vancouver (3+ players, CR 103.5c)."""
        seats = tuple(seat_order)
        if not seats:
            raise MulliganError("mulligan.error.no_players")
        if len(set(seats)) != len(seats):
            raise MulliganError("mulligan.error.duplicate_player")
        style = MulliganStyle(style)
        count = len(seats) if player_count is None else player_count
        start = PlayerMulligan.start(style, count)
        return cls(style=style, seat_order=seats, player_count=count, players=(start,) * len(seats))

    @classmethod
    def replay(
        cls,
        style: MulliganStyle | str,
        seat_order: Sequence[PlayerId],
        player_count: int | None,
        decisions: Iterable[tuple[PlayerId, Decision | str]],
    ) -> TableMulligan:
        """Rebuild a state from stored decisions (values may be stored strings: "keep", "mulligan", "2")."""
        table = cls.start(style, seat_order, player_count)
        for player, decision in decisions:
            table, _ = table.decide(player, parse_decision(decision))
        return table

    # -- reading ------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return all(p.kept for p in self.players)

    @property
    def whose_turn(self) -> PlayerId | None:
        """The player who must answer now, or None when everyone has kept."""
        seat = self._current_seat()
        return None if seat is None else self.seat_order[seat]

    def player(self, player: PlayerId) -> PlayerMulligan:
        return self.players[self._seat_of(player)]

    def status(self) -> tuple[SeatStatus, ...]:
        """Where everyone stands, in seat order."""
        current = self._current_seat()
        lines = []
        for seat, (player, state) in enumerate(zip(self.seat_order, self.players, strict=True)):
            if state.kept:
                where = SeatState.KEPT
            elif seat == current:
                where = SeatState.DECIDING
            else:
                where = SeatState.WAITING
            lines.append(
                SeatStatus(
                    player=player,
                    seat=seat,
                    state=where,
                    hand_size=state.hand_size,
                    keeps=state.keeps,
                    mulligans=state.mulligans,
                    set_aside=state.set_aside,
                    to_bottom=state.to_bottom,
                )
            )
        return tuple(lines)

    def closing_instructions(self) -> dict[PlayerId, tuple[Instruction, ...]]:
        """Once all have kept: who shuffles set-aside cards back (M1) or scries 1 (Vancouver).

        Players with nothing to do are left out. Empty until the step is finished.
        """
        if not self.finished:
            return {}
        out = {}
        for player, state in zip(self.seat_order, self.players, strict=True):
            todo = state.closing_instructions()
            if todo:
                out[player] = todo
        return out

    def result(self) -> dict[str, Any]:
        """The step for the game record (JSON-ready; players as given in ``seat_order``)."""
        return {
            "style": self.style.value,
            "player_count": self.player_count,
            "free_first_mulligan": self.players[0].free_first,
            "finished": self.finished,
            "players": [
                {
                    "player": player,
                    "seat": seat,
                    "mulligans": state.mulligans,
                    "kept": state.keeps,
                    "set_aside": state.set_aside,
                    "bottomed": state.to_bottom if state.kept else 0,
                }
                for seat, (player, state) in enumerate(zip(self.seat_order, self.players, strict=True))
            ],
            "decisions": [[player, _stored(decision)] for player, decision in self.decisions],
        }

    # -- acting -------------------------------------------------------------------------------

    def decide(self, player: PlayerId, decision: Decision) -> tuple[TableMulligan, tuple[Instruction, ...]]:
        """``player`` answers: partial Paris with the number of cards set aside (0 = keep), London and
        Vancouver with ``Choice.KEEP`` / ``Choice.MULLIGAN``.

        Returns the new state and what that player does with their cards now. Raises ``MulliganError``
        (``.key`` is a ``mulligan.toml`` message) for an unknown player, an answer out of turn order
        (``mulligan.error.not_your_turn``, values ``expected``), after the step ended, or a decision the
        style does not allow.
        """
        seat = self._seat_of(player)
        current = self._current_seat()
        if current is None:
            raise MulliganError("mulligan.error.finished")
        if seat != current:
            raise MulliganError("mulligan.error.not_your_turn", expected=self.seat_order[current])
        state, instructions = self.players[seat].decide(decision)
        players = self.players[:seat] + (state,) + self.players[seat + 1 :]
        after = replace(
            self,
            players=players,
            answered=self.answered | {seat},
            decisions=self.decisions + ((player, decision),),
        )
        return after._next_round_if_done(), instructions

    # -- internals ----------------------------------------------------------------------------

    def _seat_of(self, player: PlayerId) -> int:
        try:
            return self.seat_order.index(player)
        except ValueError:
            raise MulliganError("mulligan.error.not_playing") from None

    def _current_seat(self) -> int | None:
        for seat, state in enumerate(self.players):
            if not state.kept and seat not in self.answered:
                return seat
        return None

    def _next_round_if_done(self) -> TableMulligan:
        """When everyone still mulliganing has answered this round, the next round starts."""
        if self._current_seat() is None and not self.finished:
            return replace(self, round=self.round + 1, answered=frozenset())
        return self


def _stored(decision: Decision) -> str | int:
    return decision if isinstance(decision, int) else str(decision.value)
