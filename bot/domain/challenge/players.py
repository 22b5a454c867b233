"""The players' side of a challenge game: who takes the deck's damage and how life is counted.

The decks count the players' life in two ways. Against the Hydra every challenger has a life total of
their own and leaves the game at 0 (:class:`LifePerPlayer`); against the Horde and the God the players
share one life total, and "each player" damage or life gain counts once per player, as in
Two-Headed Giant (CR 810.9; :class:`SharedLife`). Both offer the same verbs — damage to each player,
prevention shields used up in order, life changed by the players' own cards — and keep a ledger of
every point gained and lost, so the invariant checks can prove that no life comes from nowhere.

A side changes numbers only: it reports what it did (:class:`Dealt`) and the game writes the log line
in its deck's own words, because each deck's log keys are part of what a stored game replays to.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(slots=True)
class Shield:
    """A prevention effect of the players' cards: the next ``amount`` damage this turn from any source
    (``source`` None) or only from the named one; ``player`` is the seat it protects where each player
    has a life total (None: the players' one shared total)."""

    amount: int
    source: str | None
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of any deck's table as it is set up: the player's name and their Hero cards."""

    name: str
    heroes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Dealt:
    """What one damage event did to one life total: ``player`` is the seat (None: the shared total)."""

    player: int | None
    prevented: int
    dealt: int


@dataclass(slots=True)
class Player:
    """A challenger with a life total of their own (the Hydra), and its ledger."""

    name: str
    heroes: tuple[str, ...]
    starting_life: int
    life: int
    lost: bool = False
    # Life ledger, so tests can prove no life comes from nowhere.
    reward_gain: int = 0
    adjusted: int = 0
    damage_taken: int = 0
    life_lost: int = 0


class PlayerSide:
    """What both ways of counting life share: the prevention shields of the current turn."""

    def __init__(self) -> None:
        self.shields: list[Shield] = []

    def add_shields(self, amount: int, source: str | None, seats: Iterable[int | None]) -> None:
        """One shield of ``amount`` for each seat named (None: the shared total)."""
        for seat in seats:
            self.shields.append(Shield(amount, source, seat))

    def _use_shields(self, seat: int | None, amount: int, source: str) -> int:
        """Use up the shields that apply to ``seat`` and ``source``, oldest first; returns what they
        prevented of ``amount``. Spent shields are dropped, a partly used one keeps its rest."""
        prevented = 0
        for shield in [s for s in self.shields if s.player == seat and s.source in (None, source)]:
            used = min(shield.amount, amount - prevented)
            shield.amount -= used
            prevented += used
        self.shields = [s for s in self.shields if s.amount > 0]
        return prevented

    def clear_shields(self) -> None:
        """Shields last "this turn": the cleanup step ends them."""
        self.shields.clear()


class LifePerPlayer(PlayerSide):
    """A life total per player: damage to "each player" is dealt to every challenger still in the
    game, and a player at 0 life or less loses (the others play on)."""

    def __init__(self, players: Sequence[Player]) -> None:
        super().__init__()
        self.players: list[Player] = list(players)

    def alive(self) -> list[int]:
        """The seats still in the game."""
        return [i for i, p in enumerate(self.players) if not p.lost]

    def damage_each_player(self, amount: int, source: str) -> list[Dealt]:
        """``amount`` to each player still in, their own shields for ``source`` used up first."""
        results = []
        for index in self.alive():
            player = self.players[index]
            prevented = self._use_shields(index, amount, source)
            dealt = amount - prevented
            player.life -= dealt
            player.damage_taken += dealt
            results.append(Dealt(index, prevented, dealt))
        return results

    def gain_each_player(self, amount: int) -> None:
        """Each player still in gains ``amount`` (Hero's Reward)."""
        for index in self.alive():
            player = self.players[index]
            player.life += amount
            player.reward_gain += amount

    def lose_life(self, seat: int, amount: int) -> None:
        player = self.players[seat]
        player.life -= amount
        player.life_lost += amount

    def change_life(self, seat: int, delta: int) -> None:
        """The player's own cards changed their life (lifelink, paying life)."""
        player = self.players[seat]
        player.life += delta
        player.adjusted += delta

    def newly_lost(self) -> list[Player]:
        """Players at 0 life or less who had not lost yet: they lose now."""
        losers = [p for p in self.players if not p.lost and p.life <= 0]
        for player in losers:
            player.lost = True
        return losers

    @property
    def defeated(self) -> bool:
        """No challenger is left in the game."""
        return not self.alive()


class SharedLife(PlayerSide):
    """One life total for the players' side: "each player" damage and life gain count once per player
    (CR 810.9), and the side loses together at 0."""

    def __init__(self, seats: int, starting_life: int) -> None:
        super().__init__()
        self.seats = seats
        self.starting_life = starting_life
        self.life = starting_life
        self.ledger = {"gained": 0, "adjusted": 0, "damage": 0, "lost": 0}

    def damage_each_player(self, amount: int, source: str) -> list[Dealt]:
        """``amount`` to each player: once per seat, dealt to the one total."""
        return [self.damage(amount * self.seats, source)]

    def damage(self, amount: int, source: str) -> Dealt:
        """``amount`` to the players' one total (combat damage, a loss the players chose)."""
        prevented = self._use_shields(None, amount, source)
        dealt = amount - prevented
        self.life -= dealt
        self.ledger["damage"] += dealt
        return Dealt(None, prevented, dealt)

    def gain_each_player(self, amount: int) -> int:
        """Each player gains ``amount``: once per seat, to the one total; returns the total gained."""
        total = amount * self.seats
        self.life += total
        self.ledger["gained"] += total
        return total

    def change_life(self, seat: int, delta: int) -> None:
        """A player's own cards changed the players' one total (any seat: it is everyone's)."""
        self.life += delta
        self.ledger["adjusted"] += delta

    @property
    def defeated(self) -> bool:
        """The one total is at 0 or less."""
        return self.life <= 0
