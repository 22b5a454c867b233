"""In-memory card name index: the ONE name resolution used by every command (issue #2, "Card database").

Resolution order (first hit wins):

1. ``exact`` — the English name as printed ("Lim-Dûl's Vault").
2. ``normalised`` — case-, accent-, width-, space- and punctuation-insensitive English name
   ("lim dul's vault", "LIM-DUL'S VAULT", "Fire/Ice", "Fire // Ice", "Life+Death").
3. ``face`` — one face of a multi-face card ("Fire", "kenzo the hardhearted").
4. ``printed`` — a Japanese, Simplified or Traditional Chinese printed name, whole or one face
   ("祖神兽", "リム＝ドゥールの櫃" with full-width "＝", "心靈絞裂").
5. ``fuzzy`` — no card; the best few suggestions from rapidfuzz (``matched_by == "none"``).

A key that several different cards share at the same step (two cards whose Chinese names are both
"重生") is *ambiguous*: no card is picked, the candidates are returned so the user can choose.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from bot.cards.model import PRINTED_LANGUAGES, Card

MAX_SUGGESTIONS = 5
AUTOCOMPLETE_LIMIT = 25
DISCORD_CHOICE_MAX = 100
FUZZY_CUTOFF = 60.0
FUZZY_CANDIDATES = 30
_FACE_SEPARATOR = " // "
_DELETED = {"'", "’", "‘", "`", "´"}
_LIGATURES = {"æ": "ae", "œ": "oe", "ø": "o", "ð": "d", "þ": "th", "ł": "l", "đ": "d"}


def normalise(text: str) -> str:
    """The comparison key of a name: NFKC (full-width → half-width), case-folded, Latin accents removed,
    every space and punctuation mark dropped.

    Accents are stripped only from Latin letters: NFD would also split Japanese dakuten (ド → ト + ゛)
    and change the name. Dropping punctuation makes "Fire/Ice", "Fire // Ice" and "Life+Death" meet
    the multi-face names, and "Lim-Dul's" meet "Lim-Dûl's".
    """
    if text.isascii():  # the common case, ~10x faster than the general path below
        key = "".join(char for char in text.lower() if char.isalnum())
        return key or "".join(text.lower().split())
    folded = unicodedata.normalize("NFKC", text).casefold()
    out: list[str] = []
    for char in folded:
        if char in _DELETED:
            continue
        if char in _LIGATURES:
            out.append(_LIGATURES[char])
            continue
        category = unicodedata.category(char)
        if category[0] in "PSZC":  # punctuation, symbols, separators, controls
            continue
        if char < "\u0250":  # Latin: drop combining accents
            out.append("".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c)))
        else:
            out.append(char)
    key = "".join(out)
    # Names made only of punctuation ("_____") still need a key of their own.
    return key or "".join(folded.split())


def face_parts(name: str) -> list[str]:
    """The faces of a multi-face name ("Fire // Ice" -> ["Fire", "Ice"]); [] for a single-faced name."""
    parts = [p.strip() for p in name.split(_FACE_SEPARATOR)]
    return parts if len(parts) > 1 else []


@dataclass(frozen=True, slots=True)
class Resolution:
    """The answer to "which card did the user mean?".

    ``card`` is None when nothing matched or the match was ambiguous; then ``suggestions`` (English
    names, best first) says what the user may have meant, and ``ambiguous`` lists every card that
    shares the key they typed.
    """

    query: str
    card: Card | None
    matched_by: str
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        return self.card is not None


@dataclass(frozen=True, slots=True)
class _Entry:
    """One autocomplete candidate: its key, what to show and which card it means."""

    key: str
    display: str
    english: str


class CardIndex:
    """Every lookup structure over a set of cards, built once (``from_cards``) and then read-only."""

    def __init__(self) -> None:
        self._cards: dict[str, Card] = {}
        self._tiers: list[tuple[str, dict[str, list[str]]]] = [
            ("normalised", {}), ("face", {}), ("printed", {}), ("printed_face", {})]
        self._fuzzy_keys: list[str] = []
        self._fuzzy_names: list[str] = []
        self._autocomplete: dict[str, list[_Entry]] = {}
        self._autocomplete_keys: dict[str, list[str]] = {}
        self._build_keys: dict[str, str] = {}  # name -> normalise(name), only while building

    # -- building ----------------------------------------------------------------------------------

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> CardIndex:
        index = cls()
        for card in cards:
            index._add(card)
        index._build_search()
        index._build_keys = {}
        return index

    def _normalise(self, name: str) -> str:
        key = self._build_keys.get(name)
        if key is None:
            key = self._build_keys[name] = normalise(name)
        return key

    def _add(self, card: Card) -> None:
        # Same name twice (a token beside the card, say): the real card wins.
        if card.name in self._cards and (card.layout == "token" or self._cards[card.name].layout != "token"):
            return
        self._cards[card.name] = card
        normalised, faces, printed, printed_faces = (tier for _, tier in self._tiers)
        self._key(normalised, card.name, card.name)
        for face in set(card.face_names) | set(face_parts(card.name)):
            if face != card.name:
                self._key(faces, face, card.name)
        for language in PRINTED_LANGUAGES:
            name = card.printed_names.get(language)
            if not name:
                continue
            self._key(printed, name, card.name)
            for part in face_parts(name):
                self._key(printed_faces, part, card.name)

    def _key(self, tier: dict[str, list[str]], name: str, english: str) -> None:
        names = tier.setdefault(self._normalise(name), [])
        if english not in names:
            names.append(english)

    def _build_search(self) -> None:
        """Fuzzy choices (English, faces, printed names) and sorted autocomplete keys per language."""
        seen: set[tuple[str, str]] = set()
        for _, tier in self._tiers:
            for key, names in tier.items():
                for english in names:
                    if (key, english) not in seen:
                        seen.add((key, english))
                        self._fuzzy_keys.append(key)
                        self._fuzzy_names.append(english)
        for language in ("en", *PRINTED_LANGUAGES):
            entries = sorted(self._entries_for(language), key=lambda e: (e.key, e.display))
            self._autocomplete[language] = entries
            self._autocomplete_keys[language] = [e.key for e in entries]

    def _entries_for(self, language: str) -> Iterable[_Entry]:
        """English names (and faces) for everyone, plus printed names in ``language``."""
        for card in self._cards.values():
            display = _display(card, language)
            names = {card.name, *card.face_names}
            printed = card.printed_names.get(language) if language != "en" else None
            if printed:
                names |= {printed, *face_parts(printed)}
            for name in names:
                yield _Entry(self._normalise(name), display, card.name)

    # -- reading -----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, english_name: object) -> bool:
        return english_name in self._cards

    def get(self, english_name: str) -> Card | None:
        """The card with exactly this English name (the canonical name stored everywhere)."""
        return self._cards.get(english_name)

    def cards(self) -> Iterable[Card]:
        return self._cards.values()

    def resolve(self, name: str) -> Resolution:
        """Which card the user meant by ``name`` (see the module docstring for the order)."""
        query = name.strip()
        card = self._cards.get(query)
        if card is not None:
            return Resolution(query, card, "exact")
        key = normalise(query)
        for tier_name, tier in self._tiers:
            names = tier.get(key)
            if not names:
                continue
            matched_by = "printed" if tier_name.startswith("printed") else tier_name
            if len(names) == 1:
                return Resolution(query, self._cards[names[0]], matched_by)
            ordered = tuple(sorted(names))
            return Resolution(query, None, matched_by, suggestions=ordered[:MAX_SUGGESTIONS], ambiguous=ordered)
        return Resolution(query, None, "none", suggestions=self.suggest(query))

    def suggest(self, name: str, limit: int = MAX_SUGGESTIONS) -> tuple[str, ...]:
        """English names that look most like ``name`` (typos, partial names, printed names), best first."""
        key = normalise(name)
        if not key:
            return ()
        hits = self._fuzzy_candidates(key)
        out: list[str] = []
        for _, position in hits:
            english = self._fuzzy_names[position]
            if english not in out:
                out.append(english)
            if len(out) == limit:
                break
        return tuple(out)

    def _fuzzy_candidates(self, key: str) -> list[tuple[float, int]]:
        """(score, position) of the likeliest keys, best first.

        Scoring every key with WRatio costs ~35 ms over the full data; instead a cheap whole-string
        ratio (typos) plus the shortest keys containing the text (partial names) pick a few dozen
        candidates, and only those get the finer WRatio.
        """
        candidates = {position for _, _, position in process.extract(
            key, self._fuzzy_keys, scorer=fuzz.ratio, limit=FUZZY_CANDIDATES, score_cutoff=FUZZY_CUTOFF - 10)}
        containing = [i for i, candidate in enumerate(self._fuzzy_keys) if key in candidate]
        containing.sort(key=lambda i: len(self._fuzzy_keys[i]))
        candidates.update(containing[:FUZZY_CANDIDATES])
        scored = []
        for position in candidates:
            candidate = self._fuzzy_keys[position]
            score = fuzz.WRatio(key, candidate)
            if score >= FUZZY_CUTOFF:
                scored.append((score, position))
        # Best score first; among equals, the closer length (a typo) before a long name that merely contains it.
        scored.sort(key=lambda hit: (-hit[0], abs(len(self._fuzzy_keys[hit[1]]) - len(key)), hit[1]))
        return scored

    def autocomplete(self, text: str, language: str = "en", limit: int = AUTOCOMPLETE_LIMIT) -> list[tuple[str, str]]:
        """Up to ``limit`` ``(display name in the user's language, English name)`` pairs for ``text``.

        Names that start with the text come first (shortest first), then names that contain it.
        English names always match, so a Japanese user typing "bolt" still finds Lightning Bolt.
        """
        key = normalise(text) if text.strip() else ""
        if not key:
            return []
        language = language if language in self._autocomplete else "en"
        entries, keys = self._autocomplete[language], self._autocomplete_keys[language]
        start = bisect.bisect_left(keys, key)
        end = bisect.bisect_left(keys, key + "\U0010ffff", lo=start)
        prefix = sorted(entries[start:end], key=lambda e: (len(e.key), e.key))
        chosen: dict[str, str] = {}
        for entry in prefix:
            chosen.setdefault(entry.english, entry.display)
            if len(chosen) >= limit:
                return list(zip(chosen.values(), chosen.keys(), strict=True))
        contains = [entries[i] for i, candidate in enumerate(keys) if key in candidate]
        contains = [e for e in contains if e.english not in chosen]
        contains.sort(key=lambda e: (e.key.find(key), len(e.key), e.key))
        for entry in contains:
            chosen.setdefault(entry.english, entry.display)
            if len(chosen) >= limit:
                break
        return [(display, english) for english, display in chosen.items()]


def _display(card: Card, language: str) -> str:
    """How a card is shown in a choice list: the printed name, with the English name when they differ."""
    printed = card.printed_name(language)
    shown = printed if printed == card.name else f"{printed} ({card.name})"
    return shown if len(shown) <= DISCORD_CHOICE_MAX else shown[: DISCORD_CHOICE_MAX - 1] + "…"
