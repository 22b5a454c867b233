"""The card model shared by the card database, deck checks, mulligans and rendering.

Field names follow Scryfall, so a Scryfall record, a record of the bundled JSONL data set and an
MTGJSON card (after ``bot.cards.importers`` maps it) all become the same ``Card``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from sys import intern
from typing import Any

WUBRG = "WUBRG"
# Printed names kept and resolved: the bot's CJK languages, then every other language Magic is printed in
# that the card data carries (MTGJSON foreignData, Scryfall printings). The bundled data set has
# only the first three; a `cards sync` brings the others.
PRINTED_LANGUAGES = ("ja", "zh-Hans", "zh-Hant", "de", "fr", "it", "es", "pt", "ko", "ru")
UI_PRINTED_LANGUAGES = PRINTED_LANGUAGES[:3]  # the bot's own message languages besides English
# Discord locales whose card names are one of PRINTED_LANGUAGES though the bot's messages are not translated.
_LOCALE_NAME_LANGUAGES = {
    "de": "de",
    "fr": "fr",
    "it": "it",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt",
    "ko": "ko",
    "ru": "ru",
}


def card_name_language(language: str, discord_locale: object = None) -> str:
    """The language card names are offered in: the member's Discord language when cards are printed in it
    (a German client sees "Blitzschlag"), else the language of the bot's messages."""
    return _LOCALE_NAME_LANGUAGES.get(str(discord_locale or ""), language)


_SHARED: dict[Any, Any] = {}
_SHARED_LIMIT = 200_000


def shared(value: Any, key: Any = None) -> Any:
    """One object for equal immutable-in-practice values (legality dicts, set-code tuples, empty dicts).

    Thousands of cards have the very same legalities and printings: sharing them is ~10 MB less per
    process with the full data. Cards are frozen, and nothing mutates these dicts.
    """
    key = value if key is None else key
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= _SHARED_LIMIT:
            _SHARED.clear()
        found = _SHARED[key] = value
    return found


def shared_dict(mapping: dict[str, str]) -> dict[str, str]:
    return shared(mapping, ("dict", *mapping.items()))


def wubrg(letters: Any) -> str:
    """Colour letters in WUBRG order, deduplicated: ['G', 'W'] -> 'WG'."""
    present = set(letters or ())
    return intern("".join(c for c in WUBRG if c in present))


def _short(value: Any) -> str | None:
    """Power, toughness, loyalty: a few distinct short strings shared by every card."""
    return None if value is None else intern(str(value))


def _printed_names(names: dict[str, str] | None) -> dict[str, str]:
    """Printed names without empty values; the many cards with none share one empty dict."""
    kept = {intern(str(k)): v for k, v in (names or {}).items() if v}
    return kept if kept else shared_dict(kept)


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a card (the whole card for single-faced cards)."""

    name: str
    mana_cost: str = ""
    type_line: str = ""
    oracle_text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    colors: str = ""
    color_indicator: str = ""

    @classmethod
    def from_scryfall(cls, data: dict[str, Any]) -> Face:
        return cls(
            name=data.get("name", ""),
            mana_cost=intern(data.get("mana_cost") or ""),
            type_line=intern(data.get("type_line") or ""),
            oracle_text=(data.get("oracle_text") or "").replace("\r\n", "\n"),
            power=_short(data.get("power")),
            toughness=_short(data.get("toughness")),
            loyalty=_short(data.get("loyalty")),
            colors=wubrg(data.get("colors")),
            color_indicator=wubrg(data.get("color_indicator")),
        )

    def to_scryfall(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "mana_cost": self.mana_cost,
            "type_line": self.type_line,
            "oracle_text": self.oracle_text,
            "colors": list(self.colors),
        }
        for key in ("power", "toughness", "loyalty"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.color_indicator:
            out["color_indicator"] = list(self.color_indicator)
        return out


@dataclass(frozen=True, slots=True)
class Card:
    """A card as the rules see it (oracle data, not a printing)."""

    name: str
    layout: str = "normal"
    mana_cost: str = ""
    type_line: str = ""
    oracle_text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    colors: str = ""
    color_indicator: str = ""
    color_identity: str = ""
    commander_legality: str = "not_legal"
    faces: tuple[Face, ...] = ()
    printed_names: dict[str, str] = field(default_factory=dict)
    printings: tuple[str, ...] = ()
    meld_parts: tuple[str, ...] = ()
    legalities: dict[str, str] = field(default_factory=dict)
    # Scryfall's ``game_changer`` (the Commander Brackets' Game Changers list): None when the data has no
    # such field (the bundled data set predates the list), and the deck check uses its dated list instead.
    game_changer: bool | None = None

    @classmethod
    def from_scryfall(cls, data: dict[str, Any]) -> Card:
        """Build from a Scryfall-shaped record (the bundled data set uses the same fields).

        Strings that repeat across thousands of cards (costs, type lines, set codes, legalities) are
        interned: it keeps the bot with the full card database well under its memory budget.
        """
        faces = tuple(Face.from_scryfall(f) for f in data.get("card_faces") or ())
        legalities = shared_dict(
            {intern(str(k)): intern(str(v)) for k, v in (data.get("legalities") or {}).items()}
        )
        front = faces[0] if faces else None
        meld = data.get("meld_parts") or [
            p.get("name") for p in data.get("all_parts") or () if p.get("component", "").startswith("meld")
        ]
        return cls(
            name=data["name"],
            layout=intern(data.get("layout") or "normal"),
            mana_cost=intern(data.get("mana_cost") or (front.mana_cost if front else "")),
            type_line=intern(data.get("type_line") or (front.type_line if front else "")),
            oracle_text=(data.get("oracle_text") or "").replace("\r\n", "\n"),
            power=_short(data.get("power")),
            toughness=_short(data.get("toughness")),
            loyalty=_short(data.get("loyalty")),
            colors=wubrg(data.get("colors")),
            color_indicator=wubrg(data.get("color_indicator")),
            color_identity=wubrg(data.get("color_identity")),
            commander_legality=legalities.get("commander", "not_legal"),
            faces=faces,
            printed_names=_printed_names(data.get("printed_names")),
            printings=shared(tuple(intern(str(p)) for p in data.get("printings") or ())),
            meld_parts=tuple(p for p in meld if p),
            legalities=legalities,
            game_changer=data.get("game_changer"),  # a wrong type is refused by the import's type check
        )

    def to_scryfall(self) -> dict[str, Any]:
        """The inverse of ``from_scryfall`` (what the database stores)."""
        out: dict[str, Any] = {
            "name": self.name,
            "layout": self.layout,
            "mana_cost": self.mana_cost,
            "type_line": self.type_line,
            "oracle_text": self.oracle_text,
            "colors": list(self.colors),
            "color_identity": list(self.color_identity),
            "legalities": self.legalities or {"commander": self.commander_legality},
        }
        for key in ("power", "toughness", "loyalty"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.color_indicator:
            out["color_indicator"] = list(self.color_indicator)
        if self.faces:
            out["card_faces"] = [f.to_scryfall() for f in self.faces]
        if self.printed_names:
            out["printed_names"] = dict(self.printed_names)
        if self.printings:
            out["printings"] = list(self.printings)
        if self.meld_parts:
            out["meld_parts"] = list(self.meld_parts)
        if self.game_changer is not None:
            out["game_changer"] = self.game_changer
        return out

    # -- derived views -----------------------------------------------------------------------

    @property
    def all_faces(self) -> tuple[Face, ...]:
        """The faces, or the card itself as one face."""
        if self.faces:
            return self.faces
        return (
            Face(
                self.name,
                self.mana_cost,
                self.type_line,
                self.oracle_text,
                self.power,
                self.toughness,
                self.loyalty,
                self.colors,
                self.color_indicator,
            ),
        )

    @property
    def front(self) -> Face:
        return self.all_faces[0]

    @property
    def face_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.faces) if self.faces else (self.name,)

    @property
    def is_land(self) -> bool:
        """A land for deck statistics: the front face's type line says Land."""
        return "Land" in self.front.type_line

    @property
    def is_mdfc_land_back(self) -> bool:
        """A modal double-faced card whose back (only) is a land: counted as half a land in odds."""
        return (
            self.layout == "modal_dfc"
            and len(self.faces) > 1
            and not self.is_land
            and "Land" in self.faces[1].type_line
        )

    @property
    def mana_value(self) -> float:
        from bot.cards.mana import mana_value

        return mana_value(
            self.front.mana_cost
            if self.layout in {"transform", "modal_dfc", "flip", "meld"}
            else self.mana_cost
        )

    def printed_name(self, language: str | None) -> str:
        """The printed name in ``language`` when the data has one, else the English name."""
        if language and language in self.printed_names:
            return self.printed_names[language]
        return self.name
