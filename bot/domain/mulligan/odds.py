"""Opening-hand odds: exact hypergeometric figures and, per mulligan style, the chance to end with a
keepable hand at each hand size.

Model and assumptions (shown to users with the figures):

* The library is the deck without its commanders (``deck_size``); a land is a card whose front face
  type line says Land (``Card.is_land``). Modal double-faced cards with a land back are counted
  separately (``half_lands``) and are *not* lands here.
* A hand is **keepable** when its land count lies in ``keep`` (default 2-5), whatever its size.
* Policy: the player keeps the first keepable hand and otherwise goes on mulliganing ("mulligan until
  keepable") while a keepable hand is still possible. Where the style leaves a choice, the player
  plays it best for that goal:
  - London (CR 103.5): 7 cards each time, then the cards put on the bottom are chosen so that the
    kept hand is keepable when it can be. Attempts are independent (the hand is shuffled back), so
    the figures are a product of hypergeometric terms: exact.
  - Vancouver: a new hand one card smaller each time, independent draws: exact.
  - partial Paris (M1): set-aside cards stay out of the library, so each round depends on what was
    set aside before. Exact dynamic programming over (hand size, lands in hand, library size, lands in
    library), choosing at every step how many lands and non-lands to set aside so as to maximise the
    chance of ending keepable (ties: the larger expected hand, then the fewest cards set aside, then
    the fewest lands set aside). Cards of the same kind are interchangeable, so counts suffice.
  London and Vancouver give the first mulligan free in games of 3+ players (CR 103.5c); the odds use
  ``player_count`` (default 4, a usual pod).
* ``monte_carlo_odds`` replays the same policy with real shuffles (through ``PracticeHand``) and states
  its sample size and 95% Wilson intervals; it checks the exact figures and serves decks where an exact
  computation would be too large.

The number type is generic: pass ``exact=True`` to compute with ``fractions.Fraction`` (tests compare
that with brute-force enumeration), floats otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from bot.cards.model import Card
from bot.domain.mulligan.procedure import OPENING_HAND, MulliganError, MulliganStyle, free_first_mulligan

DEFAULT_KEEP = (2, 5)
DEFAULT_PLAYERS = 4
Z95 = 1.959963984540054  # two-sided 95% normal quantile

Number = float | Fraction


# -- the deck ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckCounts:
    """What the odds need from a library: its size, its lands and its half lands (MDFC land backs)."""

    deck_size: int
    lands: int
    half_lands: int = 0

    @classmethod
    def of(cls, library: Iterable[Card]) -> DeckCounts:
        cards = list(library)
        return cls(
            deck_size=len(cards),
            lands=sum(c.is_land for c in cards),
            half_lands=sum(c.is_mdfc_land_back for c in cards),
        )

    @property
    def land_equivalent(self) -> float:
        return self.lands + self.half_lands / 2

    def check(self, opening: int = OPENING_HAND) -> None:
        """Refuse decks the odds cannot describe (clear message keys, no traceback)."""
        if self.deck_size < opening:
            raise MulliganError("mulligan.error.too_few_cards", count=self.deck_size)
        if self.lands == 0:
            raise MulliganError("mulligan.error.no_lands")


# -- hypergeometric --------------------------------------------------------------------------------

# The largest numbers the calculators take, checked here where they are read (Discord does not enforce a
# command's registered range, and the command line has none): exact binomials of a hundred-million-card
# "deck" ran for minutes in a worker, or never ended. 1,000 is far beyond any real library.
MAX_DECK_SIZE = 1000
MAX_SAMPLES = 100_000  # simulated hands per style (--monte-carlo): a few seconds each


def hypergeometric_pmf(population: int, successes: int, draws: int, *, exact: bool = False) -> list[Number]:
    """P(exactly k successes) for k = 0..draws when drawing ``draws`` of ``population`` cards without
    replacement, ``successes`` of which count. Integer binomials, one division each: exact or correctly
    rounded."""
    if population > MAX_DECK_SIZE:
        raise MulliganError("mulligan.error.too_large", largest=MAX_DECK_SIZE)
    if not 0 <= successes <= population or not 0 <= draws <= population:
        raise MulliganError("mulligan.error.bad_numbers")
    total = math.comb(population, draws)
    divide: Callable[[int, int], Number] = Fraction if exact else (lambda a, b: a / b)
    return [
        divide(math.comb(successes, k) * math.comb(population - successes, draws - k), total)
        for k in range(draws + 1)
    ]


@dataclass(frozen=True, slots=True)
class Hypergeometric:
    """The free calculator of ``/odds``: exactly ``want`` and at least ``want``."""

    population: int
    successes: int
    draws: int
    want: int
    exactly: float
    at_least: float


def hypergeometric(population: int, successes: int, draws: int, want: int) -> Hypergeometric:
    """P(exactly ``want``) and P(at least ``want``) copies among ``draws`` cards of a ``population``-card
    deck holding ``successes`` copies."""
    if population > MAX_DECK_SIZE or want > MAX_DECK_SIZE:  # before any arithmetic on them
        raise MulliganError("mulligan.error.too_large", largest=MAX_DECK_SIZE)
    if want < 0:  # the deck's numbers are checked by hypergeometric_pmf
        raise MulliganError("mulligan.error.bad_numbers")
    pmf = hypergeometric_pmf(population, successes, draws, exact=True)
    exactly = pmf[want] if want <= draws else Fraction(0)
    at_least = sum(pmf[want:], Fraction(0))
    return Hypergeometric(population, successes, draws, want, float(exactly), float(at_least))


# -- per style -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StyleOdds:
    """How a mulligan style ends for a deck: ``keep_at[h]`` = P(ending with a keepable hand of h cards).

    ``never`` is the chance of running out of hand sizes without a keepable hand. For Monte Carlo
    figures ``samples`` is the sample size and ``interval[h]`` the 95% Wilson interval of ``keep_at[h]``
    (``total_interval`` for ``total``).
    """

    style: MulliganStyle
    method: str  # "exact" or "monte_carlo"
    keep_at: tuple[float, ...]  # index = hand size 0..opening
    free_first: bool
    samples: int | None = None
    interval: tuple[tuple[float, float], ...] | None = None
    total_interval: tuple[float, float] | None = None

    @property
    def total(self) -> float:
        return math.fsum(self.keep_at)

    @property
    def never(self) -> float:
        return max(0.0, 1.0 - self.total)

    def by_size(self) -> list[tuple[int, float]]:
        """(hand size, probability) from the largest hand down, sizes with a non-zero chance only."""
        return [(h, p) for h, p in reversed(list(enumerate(self.keep_at))) if p > 0]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "method": self.method,
            "free_first_mulligan": self.free_first,
            "p_keep_at_size": {str(h): p for h, p in reversed(list(enumerate(self.keep_at)))},
            "p_keepable": self.total,
            "p_never_keepable": self.never,
        }
        if self.samples is not None:
            out["samples"] = self.samples
            out["ci95_at_size"] = {
                str(h): list(ci) for h, ci in reversed(list(enumerate(self.interval or ())))
            }
            out["ci95_keepable"] = list(self.total_interval or ())
        return out


@dataclass(frozen=True, slots=True)
class DeckOdds:
    """Everything ``/mulligan odds`` and ``podkeeper mulligan odds`` show."""

    counts: DeckCounts
    keep: tuple[int, int]
    player_count: int
    p_lands_in_opening: tuple[float, ...]
    styles: dict[MulliganStyle, StyleOdds] = field(default_factory=dict)

    @property
    def p_keepable_opening(self) -> float:
        low, high = self.keep
        return math.fsum(self.p_lands_in_opening[low : high + 1])

    def to_json(self) -> dict[str, Any]:
        return {
            "deck_size": self.counts.deck_size,
            "lands": self.counts.lands,
            "half_lands": self.counts.half_lands,
            "land_equivalent": self.counts.land_equivalent,
            "p_lands_in_7": list(self.p_lands_in_opening),
            "keepable_lands": list(self.keep),
            "p_keepable_in_7": self.p_keepable_opening,
            "player_count": self.player_count,
            "policy": "mulligan until keepable (best play where the style leaves a choice)",
            "styles": {style.value: odds.to_json() for style, odds in self.styles.items()},
        }


def deck_odds(
    counts: DeckCounts, keep: tuple[int, int] = DEFAULT_KEEP, *, player_count: int = DEFAULT_PLAYERS
) -> DeckOdds:
    """All figures for one deck, exact (floats)."""
    counts.check()
    _check_keep(keep)
    pmf = hypergeometric_pmf(counts.deck_size, counts.lands, OPENING_HAND)
    styles = {
        style: exact_style_odds(style, counts.deck_size, counts.lands, keep, player_count=player_count)
        for style in MulliganStyle
    }
    return DeckOdds(counts, keep, player_count, tuple(float(p) for p in pmf), styles)


def exact_style_odds(
    style: MulliganStyle | str,
    deck_size: int,
    lands: int,
    keep: tuple[int, int] = DEFAULT_KEEP,
    *,
    player_count: int = DEFAULT_PLAYERS,
    opening: int = OPENING_HAND,
) -> StyleOdds:
    style = MulliganStyle(style)
    vector = keep_distribution(style, deck_size, lands, keep, player_count=player_count, opening=opening)
    return StyleOdds(
        style, "exact", tuple(float(p) for p in vector), free_first_mulligan(style, player_count)
    )


def keep_distribution(
    style: MulliganStyle,
    deck_size: int,
    lands: int,
    keep: tuple[int, int],
    *,
    player_count: int = DEFAULT_PLAYERS,
    opening: int = OPENING_HAND,
    exact: bool = False,
) -> list[Number]:
    """P(ending with a keepable hand of h cards) for h = 0..opening, exactly (see the module docstring)."""
    _check_keep(keep, opening)
    if deck_size < opening or not 0 <= lands <= deck_size:
        raise MulliganError("mulligan.error.bad_numbers")
    if style is MulliganStyle.PARTIAL_PARIS:
        return _ParisSolver(deck_size, lands, keep, opening, exact).distribution()
    return _independent_attempts(style, deck_size, lands, keep, player_count, opening, exact)


def attempt_sizes(style: MulliganStyle, player_count: int, opening: int = OPENING_HAND) -> list[int]:
    """London/Vancouver: the kept hand size of attempt 0, 1, 2, … down to 0 (free first in multiplayer)."""
    free = 1 if free_first_mulligan(style, player_count) else 0
    return [opening - max(0, attempt - free) for attempt in range(opening + free + 1)]


def london_keepable(
    lands_drawn: int, kept_size: int, keep: tuple[int, int], opening: int = OPENING_HAND
) -> bool:
    """Can ``opening`` cards with ``lands_drawn`` lands be cut down to ``kept_size`` cards with a keepable
    land count? The bottom choice can keep any number of lands between these bounds."""
    fewest = max(0, kept_size - (opening - lands_drawn))
    most = min(lands_drawn, kept_size)
    return max(fewest, keep[0]) <= min(most, keep[1])


def london_lands_to_keep(
    lands_drawn: int, kept_size: int, keep: tuple[int, int], opening: int = OPENING_HAND
) -> int:
    """How many lands to keep when cutting ``opening`` cards down to ``kept_size``: a keepable count,
    the one nearest the middle of ``keep`` (any possible count when none is keepable)."""
    fewest = max(0, kept_size - (opening - lands_drawn))
    most = min(lands_drawn, kept_size)
    low, high = max(fewest, keep[0]), min(most, keep[1])
    if low > high:
        low, high = fewest, most
    return min(max((keep[0] + keep[1]) // 2, low), high)


def _independent_attempts(
    style: MulliganStyle,
    deck_size: int,
    lands: int,
    keep: tuple[int, int],
    player_count: int,
    opening: int,
    exact: bool,
) -> list[Number]:
    """London and Vancouver: each attempt is a fresh shuffle, so P(keep at attempt i) is the chance all
    earlier attempts failed times the chance attempt i succeeds."""
    zero: Number = Fraction(0) if exact else 0.0
    result = [zero] * (opening + 1)
    still_going: Number = Fraction(1) if exact else 1.0
    for size in attempt_sizes(style, player_count, opening):
        if size < keep[0]:
            break  # no keepable hand is possible any more
        if style is MulliganStyle.LONDON:
            pmf = hypergeometric_pmf(deck_size, lands, opening, exact=exact)
            success = sum((p for k, p in enumerate(pmf) if london_keepable(k, size, keep, opening)), zero)
        else:
            pmf = hypergeometric_pmf(deck_size, lands, size, exact=exact)
            success = sum(pmf[keep[0] : keep[1] + 1], zero)
        result[size] += still_going * success
        still_going *= 1 - success
    return result


@dataclass(frozen=True, slots=True)
class ParisChoice:
    """Partial Paris: set aside ``lands`` lands and ``others`` non-lands."""

    lands: int
    others: int


class _ParisSolver:
    """Exact dynamic programming for partial Paris (M1), see the module docstring.

    State: (hand size, lands in hand, library size, lands in library). Set-aside cards are simply gone
    from both hand and library until the end, which is what makes the rounds depend on each other.
    A round with ``s`` cards set aside draws ``min(s - 1, library size)`` cards.
    """

    def __init__(self, deck_size: int, lands: int, keep: tuple[int, int], opening: int, exact: bool) -> None:
        self.deck_size, self.lands, self.keep, self.opening, self.exact = (
            deck_size,
            lands,
            keep,
            opening,
            exact,
        )
        self.zero: Number = Fraction(0) if exact else 0.0
        self.tolerance: Number = Fraction(0) if exact else 1e-13
        self.value = cache(self._value)
        self.pmf = cache(lambda n, k, d: hypergeometric_pmf(n, k, d, exact=exact))

    def distribution(self) -> list[Number]:
        result = [self.zero] * (self.opening + 1)
        for k, p in enumerate(self.pmf(self.deck_size, self.lands, self.opening)):
            if p:
                vector = self.value(self.opening, k, self.deck_size - self.opening, self.lands - k)[0]
                result = [r + p * v for r, v in zip(result, vector, strict=True)]
        return result

    def best_choice(
        self, hand: int, lands_in_hand: int, library: int, library_lands: int
    ) -> ParisChoice | None:
        """The policy: what to set aside in this state (None = keep, or nothing can help any more)."""
        return self.value(hand, lands_in_hand, library, library_lands)[1]

    def _value(
        self, hand: int, k: int, library: int, library_lands: int
    ) -> tuple[tuple[Number, ...], ParisChoice | None]:
        low, high = self.keep
        if low <= k <= high:
            return tuple(self._unit(hand)), None
        if hand - 1 < low:  # the next hand is too small to ever be keepable
            return tuple([self.zero] * (self.opening + 1)), None
        best: tuple[Number, Number] | None = None
        best_vector: tuple[Number, ...] = ()
        best_choice: ParisChoice | None = None
        for size in range(1, hand + 1):  # fewest cards set aside first (the tie order)
            draws = min(size - 1, library)
            pmf = self.pmf(library, library_lands, draws)
            for lands_out in range(max(0, size - (hand - k)), min(k, size) + 1):
                vector = [self.zero] * (self.opening + 1)
                for drawn_lands, p in enumerate(pmf):
                    if p:
                        after = self.value(
                            hand - 1,
                            k - lands_out + drawn_lands,
                            library - draws,
                            library_lands - drawn_lands,
                        )[0]
                        vector = [v + p * a for v, a in zip(vector, after, strict=True)]
                score = (sum(vector, self.zero), sum((h * v for h, v in enumerate(vector)), self.zero))
                if best is None or self._better(score, best):
                    best, best_vector, best_choice = (
                        score,
                        tuple(vector),
                        ParisChoice(lands_out, size - lands_out),
                    )
        return best_vector, best_choice

    def _better(self, score: tuple[Number, Number], best: tuple[Number, Number]) -> bool:
        """Strictly better by more than the float tolerance: P(keepable) first, then expected size."""
        if score[0] > best[0] + self.tolerance:
            return True
        return -self.tolerance <= score[0] - best[0] <= self.tolerance and score[1] > best[1] + self.tolerance

    def _unit(self, hand: int) -> list[Number]:
        vector = [self.zero] * (self.opening + 1)
        vector[hand] = Fraction(1) if self.exact else 1.0
        return vector


def paris_policy(
    deck_size: int, lands: int, keep: tuple[int, int] = DEFAULT_KEEP, opening: int = OPENING_HAND
) -> Callable[[int, int, int, int], ParisChoice | None]:
    """The partial-Paris policy the exact odds assume, for practice hints and Monte Carlo runs."""
    return _ParisSolver(deck_size, lands, keep, opening, exact=False).best_choice


def _check_keep(keep: tuple[int, int], opening: int = OPENING_HAND) -> None:
    low, high = keep
    if not 0 <= low <= high <= opening:
        raise MulliganError("mulligan.error.bad_keep_range", opening=opening)


# -- Monte Carlo ---------------------------------------------------------------------------------


def wilson_interval(successes: int, samples: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one)."""
    if samples == 0:
        return (0.0, 1.0)
    phat = successes / samples
    denominator = 1 + z * z / samples
    centre = (phat + z * z / (2 * samples)) / denominator
    half = z * math.sqrt(phat * (1 - phat) / samples + z * z / (4 * samples * samples)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def monte_carlo_odds(
    style: MulliganStyle | str,
    library: Sequence[Card],
    samples: int,
    keep: tuple[int, int] = DEFAULT_KEEP,
    *,
    player_count: int = DEFAULT_PLAYERS,
    seed: int | str | None = None,
) -> StyleOdds:
    """Play ``samples`` practice hands with the odds' policy and count where they end keepable."""
    from bot.domain.mulligan.practice import play_to_keep  # practice imports nothing from here at load

    if not 0 < samples <= MAX_SAMPLES:
        raise MulliganError("mulligan.error.too_many_samples", largest=MAX_SAMPLES)
    style = MulliganStyle(style)
    counts = DeckCounts.of(library)
    counts.check()
    _check_keep(keep)
    policy = (
        paris_policy(counts.deck_size, counts.lands, keep) if style is MulliganStyle.PARTIAL_PARIS else None
    )
    seen = [0] * (OPENING_HAND + 1)
    kept = play_to_keep(
        style, library, samples, keep, player_count=player_count, seed=seed, paris_policy=policy
    )
    for size in kept:
        if size is not None:
            seen[size] += 1
    total = sum(seen)
    return StyleOdds(
        style,
        "monte_carlo",
        tuple(n / samples for n in seen),
        free_first_mulligan(style, player_count),
        samples=samples,
        interval=tuple(wilson_interval(n, samples) for n in seen),
        total_interval=wilson_interval(total, samples),
    )
