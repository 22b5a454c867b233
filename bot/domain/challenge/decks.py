"""Each challenge deck's printed rules as data: who may play, which Hero cards, how hard, and which
of the one action language's verbs the deck's rules forbid (with the reason the players are told).

The engines (:mod:`.hydra`, :mod:`.horde`, :mod:`.god`) read their limits from here,
and so do the service, the CLI and the Discord panels: a fourth challenge deck is one more entry
here plus its rules module. Texts are message keys (``challenge.refuse.<deck>.<verb>``), so each
refusal is told in the table's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from bot.domain.challenge.core import ChallengeError
from bot.domain.challenge.hydra_cards import HEROES

# The rules version a new table is played with. A table keeps the version it was created with, so its
# stored action log replays as it was played: version 1 is every table stored before the version
# existed (a token copy of a Hydra Head dealt damage in the damage step; the Horde's and the God's
# non-creatures took damage; Xenagos's lethal damage was not checked again once he could leave).
LEGACY_RULES = 1
CURRENT_RULES = 2


@dataclass(frozen=True)
class DeckRules:
    """One deck's set-up limits and refusals (printed rules and the Wizards articles)."""

    deck: str
    max_players: int
    max_heroes: int  # Hero cards per player
    heroes_may_repeat: bool  # the same Hero card more than once
    min_difficulty: int
    default_difficulty: int
    max_difficulty: int
    starting_life: int
    shared_life: bool  # the players share one life total
    turn_event: str  # the log line that opens the deck's turn (a new turn message on Discord)
    refused: Mapping[str, str] = field(default_factory=dict)  # verb -> message key saying why

    def refusal(self, verb: str) -> str | None:
        """The message key that says why this deck's rules forbid ``verb``, or None if it is allowed."""
        return self.refused.get(verb)


def _refusals(deck: str, *verbs: str) -> Mapping[str, str]:
    return MappingProxyType({verb: f"challenge.refuse.{deck}.{verb}" for verb in verbs})


# What a deck of numbered creatures has before its own rules module says more (the engine's base).
CREATURE_DECK = DeckRules(
    "",
    max_players=1,
    max_heroes=3,
    heroes_may_repeat=False,
    min_difficulty=1,
    default_difficulty=1,
    max_difficulty=1,
    starting_life=20,
    shared_life=True,
    turn_event="challenge.log.deck_turn",
)
HYDRA = DeckRules(
    "hydra",
    max_players=4,
    max_heroes=2,
    heroes_may_repeat=True,
    min_difficulty=1,
    default_difficulty=3,
    max_difficulty=11,
    starting_life=20,
    shared_life=False,
    turn_event="hydra.log.hydra_turn",
    # H9: players can't gain control of heads; H4/H6: heads never block, and their damage is no attack.
    refused=_refusals("hydra", "steal", "giveback", "cantattack", "cantblock", "hit"),
)
HORDE = DeckRules(
    "horde",
    max_players=1,
    max_heroes=3,
    heroes_may_repeat=False,
    min_difficulty=2,
    default_difficulty=3,
    max_difficulty=4,
    starting_life=20,
    shared_life=True,
    turn_event="horde.log.deck_turn",
    # No heads: life the Horde would lose mills its library (hit); a copy the player makes is theirs.
    refused=_refusals("horde", "loselife", "copy"),
)
GOD = DeckRules(
    "god",
    max_players=4,
    max_heroes=3,
    heroes_may_repeat=False,
    min_difficulty=1,
    default_difficulty=2,
    max_difficulty=3,
    starting_life=20,
    shared_life=True,
    turn_event="god.log.deck_turn",
    # Xenagos has no life total and no Heads; his creatures are attacked directly (they never block).
    refused=_refusals("god", "loselife", "hit", "copy", "cantblock"),
)


def check_heroes(rules: DeckRules, heroes: Sequence[str]) -> None:
    """Refuse a player's Hero cards the deck does not allow: too many, or one twice where each must
    differ (Hero's Path FAQ: two against the Hydra, repeats allowed; three different ones against the
    Horde and the God). Names must be exact Hero card names (``find_hero`` matches typed ones)."""
    for hero in heroes:
        if hero not in HEROES:
            raise ChallengeError("hydra.error.unknown_hero", hero=hero)
    if len(heroes) > rules.max_heroes:  # "at most two" where they may repeat, "up to three different" else
        key = "hydra.error.too_many_heroes" if rules.heroes_may_repeat else "challenge.error.heroes"
        raise ChallengeError(key, max=rules.max_heroes)
    if not rules.heroes_may_repeat and len(set(heroes)) != len(heroes):
        raise ChallengeError("challenge.error.heroes", max=rules.max_heroes)


RULES: Mapping[str, DeckRules] = MappingProxyType({rules.deck: rules for rules in (HYDRA, HORDE, GOD)})
