"""Face the Hydra card definitions (H1) and the Hero's Path Hero cards players may start with (H2).

The oracle texts come verbatim from :mod:`card_data`. The few numbers the engine needs from a text
(a Head's Hero's Reward life gain, whether it also says "draws a card") are stated here next to the
text they come from, and ``tests/hydra/test_cards.py`` checks each number against its text.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.challenge.hydra_card_data import CARD_ROWS

HYDRA_HEAD = "Hydra Head"
RAVENOUS_BRUTE_HEAD = "Ravenous Brute Head"
SAVAGE_VIGOR_HEAD = "Savage Vigor Head"
SHRIEKING_TITAN_HEAD = "Shrieking Titan Head"
SNAPPING_FANG_HEAD = "Snapping Fang Head"
DISORIENTING_GLOWER = "Disorienting Glower"
DISTRACT_THE_HYDRA = "Distract the Hydra"
GROWN_FROM_THE_STUMP = "Grown from the Stump"
IMPENETRABLE_HIDE = "Hydra's Impenetrable Hide"
NECK_TANGLE = "Neck Tangle"
NOXIOUS_HYDRA_BREATH = "Noxious Hydra Breath"
STRIKE_THE_WEAK_SPOT = "Strike the Weak Spot"
SWALLOW_THE_HERO_WHOLE = "Swallow the Hero Whole"
TORN_BETWEEN_HEADS = "Torn Between Heads"
UNIFIED_LUNGE = "Unified Lunge"

DECK_SIZE = 60
# The Hydra's cards that deal damage to players (a prevention shield may name one of them).
DAMAGE_SOURCES = (SNAPPING_FANG_HEAD, NOXIOUS_HYDRA_BREATH, TORN_BETWEEN_HEADS, UNIFIED_LUNGE)

# Hero's Reward: (life each player gains, whether each player also draws a card).
_HEROS_REWARD: dict[str, tuple[int, bool]] = {
    HYDRA_HEAD: (2, False),
    RAVENOUS_BRUTE_HEAD: (2, True),
    SAVAGE_VIGOR_HEAD: (4, True),
    SHRIEKING_TITAN_HEAD: (4, True),
    SNAPPING_FANG_HEAD: (4, True),
}


@dataclass(frozen=True, slots=True)
class HydraCard:
    """One of the 15 different cards of the Hydra deck (all colourless, no mana cost, H1)."""

    name: str
    count: int
    type_line: str
    toughness: int | None
    elite: bool
    oracle_text: str
    collector_number: int
    scryfall_id: str
    reward_life: int = 0
    reward_draw: bool = False
    power: int | None = None  # the Hydra's heads deal damage by their kind (H6), never by a power

    @property
    def is_head(self) -> bool:
        return self.type_line.endswith("— Head")


def _int(value: object) -> int:
    """A number of the card table (written as an int or a digit string)."""
    if not isinstance(value, int | str):
        raise TypeError(f"not a number: {value!r}")
    return int(value)


def _build() -> dict[str, HydraCard]:
    cards: dict[str, HydraCard] = {}
    for row in CARD_ROWS:
        name = str(row["name"])
        life, draw = _HEROS_REWARD.get(name, (0, False))
        toughness = row["toughness"]
        cards[name] = HydraCard(
            name=name,
            count=_int(row["count_in_deck"]),
            type_line=str(row["type_line_scryfall"]),
            toughness=_int(toughness) if toughness is not None else None,
            elite=bool(row["is_elite"]),
            oracle_text=str(row["oracle_text"]),
            collector_number=_int(row["collector_number"]),
            scryfall_id=str(row["scryfall_id"]),
            reward_life=life,
            reward_draw=draw,
        )
    return cards


CARDS: dict[str, HydraCard] = _build()


def deck_list() -> list[str]:
    """The 60 card names of the deck in collector-number order (H1)."""
    return [
        card.name
        for card in sorted(CARDS.values(), key=lambda c: c.collector_number)
        for _ in range(card.count)
    ]


@dataclass(frozen=True, slots=True)
class HeroCard:
    """A Hero's Path Hero card. Only The Slayer changes what the bot tracks (starting life); the
    others are shown as reminders because their effects act on the players' own cards."""

    name: str
    set_code: str
    text: str
    starting_life_bonus: int = 0


THE_SLAYER = "The Slayer"

# Texts from MTGJSON THP1/THP2/THP3 (docs/rules/CHALLENGE_DECKS.md §4) — the real texts, not the invented ones
# of the web implementation (§6).
HEROES: dict[str, HeroCard] = {
    hero.name: hero
    for hero in (
        HeroCard(
            "The Protector",
            "THP1",
            "{T}: Prevent the next 1 damage that would be dealt to any target this turn.",
        ),
        HeroCard("The Philosopher", "THP1", "{2}, {T}: Tap target creature."),
        HeroCard(
            "The Avenger", "THP1", "{3}, {T}: Target creature you control gains deathtouch until end of turn."
        ),
        HeroCard("The Warrior", "THP1", "{T}: Target creature you control gains haste until end of turn."),
        HeroCard("The Hunter", "THP1", "{T}: Target creature you control gets +1/+1 until end of turn."),
        HeroCard("The Harvester", "THP1", "{T}: Draw a card, then discard a card."),
        HeroCard(THE_SLAYER, "THP1", "You start the game with an additional 7 life.", starting_life_bonus=7),
        HeroCard(
            "The General",
            "THP2",
            "Exile The General: Creatures you control get +1/+1 until end of turn. Untap them.",
        ),
        HeroCard(
            "The Savant",
            "THP2",
            "Exile The Savant: Tap all creatures your opponents control. "
            "Those creatures don't untap during their controllers' next untap steps.",
        ),
        HeroCard(
            "The Tyrant",
            "THP2",
            "Exile The Tyrant: Creatures your opponents control get -1/-1 until end of turn.",
        ),
        HeroCard(
            "The Warmonger",
            "THP2",
            "Exile The Warmonger: Creatures you control get +2/+0 and gain haste until end of turn.",
        ),
        HeroCard(
            "The Provider",
            "THP2",
            "Exile The Provider: Put two +1/+1 counters on target creature you control. "
            "You gain life equal to that creature's toughness.",
        ),
        HeroCard("The Explorer", "THP2", "You may play an additional land on each of your turns."),
        HeroCard(
            "The Vanquisher",
            "THP2",
            "Your starting hand size is increased by one.\nYour maximum hand size is increased by one.",
        ),
        HeroCard(
            "Spear of the General", "THP3", "Equipped creature gets +2/+0 and has first strike.\nEquip {2}"
        ),
        HeroCard(
            "Cloak of the Philosopher",
            "THP3",
            "Equipped creature gets +1/+1.\n{2}: Untap equipped creature.\nEquip {2}",
        ),
        HeroCard("Lash of the Tyrant", "THP3", "Equipped creature gets +1/+2 and has deathtouch.\nEquip {2}"),
        HeroCard("Axe of the Warmonger", "THP3", "Equipped creature gets +2/+1 and has haste.\nEquip {2}"),
        HeroCard(
            "Bow of the Hunter",
            "THP3",
            'Equipped creature has "{T}: This creature deals 2 damage to any target."\nEquip {2}',
        ),
        HeroCard(
            "The Destined",
            "THP3",
            "Spells you control that target a creature you control cost {2} less to cast.",
        ),
        HeroCard(
            "The Champion",
            "THP3",
            "{2}, {T}, Exile The Champion: Search your library for a legendary artifact "
            "card that isn't a creature, reveal it, and put it onto the battlefield. Then shuffle your library.",
        ),
    )
}

MAX_HEROES_PER_PLAYER = 2  # H2; the same Hero card may be used twice (Hero's Path FAQ).


def find_hero(name: str) -> HeroCard | None:
    """Case-insensitive exact lookup, so typed names (CLI, autocomplete) resolve."""
    wanted = name.strip().casefold()
    return next((hero for hero in HEROES.values() if hero.name.casefold() == wanted), None)
