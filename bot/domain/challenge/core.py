"""What every challenge deck engine shares (Hydra, Horde, God).

A game is deterministic: its set-up holds a seed (the only randomness, the shuffle) and every choice
the deck's cards need is made by the players through :attr:`FlowGame.pending`, so replaying the
action log rebuilds any state exactly — that is how games are saved, resumed and undone.

The deck's turn is a generator that ``yield``s a :class:`Decision` whenever the players must answer
(a choice, or a response window); answers are sent back in. A response taken in a window may start a
flow of its own (its triggers): the waiting flow is stacked with its question and resumes when the
response is done, as on a stack.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Protocol

from bot.domain.errors import DomainError


class ChallengeError(DomainError, ValueError):
    """Bad input or an action that is not allowed now. The game state is unchanged when raised.

    ``key`` is an i18n message key (given in full); ``values`` fill its placeholders.
    """


class HydraError(ChallengeError):
    """The same error, raised by the action language and the Hydra's engine (``hydra.error.*`` keys):
    callers that catch the Hydra's own type keep working, and every deck's parser raises it.

    ``key`` is an i18n message key (given in full); ``values`` fill its placeholders.
    """


@dataclass(frozen=True, slots=True)
class Decision:
    """A question to the players. ``player`` is a seat index, or None for "the players" together.

    ``kind`` is ``option`` (one of ``options``), ``heads`` (``min_heads``..``max_heads`` distinct
    numbered permanents — heads for the Hydra, creatures for the Horde and the God) or ``text``.
    """

    topic: str
    kind: str
    default: str
    player: int | None = None
    options: tuple[str, ...] = ()
    card: str | None = None
    min_heads: int = 0
    max_heads: int = 0
    detail: str = ""  # e.g. which triggered ability a trigger window is about


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game log: an i18n key and its values."""

    key: str
    values: dict[str, object]


class GameOver(Exception):
    """Raised inside the deck's turn when the game ends: the turn stops there."""


Flow = Generator[Decision, object, None]


class FlowGame:
    """The question-and-answer machinery. Subclasses set ``window_topics`` (the response windows, in
    which instant-speed actions are allowed) and write the deck's turns as flows."""

    window_topics: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.outcome = "ongoing"
        self.pending: Decision | None = None
        self.events: list[Event] = []
        self.actions: list[str] = []
        self._flow: Flow | None = (
            None  # pragma: no mutate (unused until a flow starts: pending is None till then)
        )
        self._frames: list[tuple[Flow, Decision]] = []
        self._in_flow = False

    @property
    def over(self) -> bool:
        return self.outcome != "ongoing"

    def _log(self, key: str, **values: object) -> None:
        self.events.append(Event(key, values))

    def _start_flow(self, flow: Flow) -> None:
        """Run ``flow``; a flow already waiting in a response window resumes, with its question,
        when this one is done."""
        if self._flow is not None and self.pending is not None:
            self._frames.append((self._flow, self.pending))
        self._flow = flow
        self._advance(None)

    def _advance(self, answer: object) -> None:
        assert self._flow is not None
        self._in_flow = True
        try:
            self.pending = self._flow.send(answer)
        except StopIteration:
            self._flow, self.pending = self._frames.pop() if self._frames else (None, None)
        except GameOver:
            self._end_flows()
        finally:
            self._in_flow = False

    def _end_flows(self) -> None:
        self._flow, self.pending = None, None
        self._frames.clear()

    def _stop(self) -> None:
        """The game just ended: stop the deck's turn (from inside it) or drop the waiting flows."""
        if self._in_flow:
            raise GameOver
        self._end_flows()

    def in_window(self) -> bool:
        return self.pending is not None and self.pending.topic in self.window_topics


class CardZones(Protocol):
    """The deck's hidden and public card zones, as every deck's game holds them (card ids)."""

    library: list[int]
    graveyard: list[int]
    exile: list[int]

    def name_of(self, card_id: int) -> str: ...


def exile_cards(
    game: CardZones, action: Any, prefix: str = "challenge", error: type[ChallengeError] = ChallengeError
) -> tuple[str, list[int]]:
    """``exilecards library AMOUNT | exilecards graveyard all|CARD NAME``: the players' cards exile the
    deck's cards (top of the library first; a whole graveyard, or one card of it by name). Returns the
    zone and the cards moved; refuses a name the graveyard does not hold (``<prefix>.error.*``, the deck's
    own wording), changing nothing."""
    if action.text == "library":
        moved = [game.library.pop() for _ in range(min(action.numbers[0], len(game.library)))]
        game.exile.extend(moved)
        return "library", moved
    wanted = action.text.removeprefix("graveyard").strip()
    if wanted.lower() == "all":
        moved = list(game.graveyard)
    else:
        moved = [i for i in game.graveyard if game.name_of(i).casefold() == wanted.casefold()][:1]
        if not moved:
            raise error(f"{prefix}.error.not_in_graveyard", card=wanted)
    for card_id in moved:
        game.graveyard.remove(card_id)
    game.exile.extend(moved)
    return "graveyard", moved
