"""In-memory card name index: the ONE name resolution used by every command.

Resolution order (first hit wins):

1. ``exact`` — the English name as printed ("Lim-Dûl's Vault").
2. ``normalised`` — case-, accent-, width-, space- and punctuation-insensitive English name
   ("lim dul's vault", "LIM-DUL'S VAULT", "Fire/Ice", "Fire // Ice", "Life+Death").
3. ``face`` — one face of a multi-face card ("Fire", "kenzo the hardhearted").
4. ``printed`` — a printed name in another language (Japanese, Chinese, and after a sync German, French,
   Italian, Spanish, Portuguese, Korean, Russian), whole or one face ("祖神兽", "リム＝ドゥールの櫃" with
   full-width "＝", "心靈絞裂", "Blitzschlag").
5. ``fuzzy`` — no card; the best few suggestions from rapidfuzz (``matched_by == "none"``).

A key that several different cards share at the same step (two cards whose Chinese names are both
"重生") is *ambiguous*: no card is picked, the candidates are returned so the user can choose —
unless one meaning is clear (``CardIndex._disambiguate``: "wasteland" is Wasteland, not Waste Land).
"""

from __future__ import annotations

import bisect
import copy
import hashlib
import heapq
import re
import unicodedata
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate, islice
from typing import NamedTuple

from bot.cards.model import PRINTED_LANGUAGES, UI_PRINTED_LANGUAGES, Card

MAX_SUGGESTIONS = 5
AUTOCOMPLETE_LIMIT = 25
DISCORD_CHOICE_MAX = 100
FUZZY_CUTOFF = 60.0
FUZZY_CANDIDATES = 30
# A name is "close" to a card the data knows when its whole-string similarity (rapidfuzz ``ratio``) with
# one of them reaches this, or when it is part of one's name (a partial name). Measured over real
# cases (benchmarks/bench_cards.py, "closeness"): 1,053 typos (1 and 2 letters) and partial names of
# the cards of real deck lists and of random cards, against 76 names of cards printed after the
# bundled data (2022-2025). At 80, 0.5 % of the typos are called "may be newer" (they still get their
# suggestions) and 5 % of the newer cards are not; at 75: 0.1 % and 13 %; at 85: 4.6 % and 1.3 %.
CLOSE_RATIO = 80.0
_FACE_SEPARATOR = " // "
_VARIANT = re.compile(r"\s*[(\[]\w[)\]]$")  # "Boros Guildgate (a)": an art variant the data lists apart
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


def _soft(text: str) -> str:
    """Case-, width- and accent-insensitive, but spaces and punctuation kept: tells apart names that
    ``normalise`` merges ("Wasteland" / "Waste Land")."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    stripped = "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))
    return " ".join(stripped.split())


def face_parts(name: str) -> list[str]:
    """The faces of a multi-face name ("Fire // Ice" -> ["Fire", "Ice"]); [] for a single-faced name."""
    parts = [p.strip() for p in name.split(_FACE_SEPARATOR)]
    return parts if len(parts) > 1 else []


class NewerThanData(NamedTuple):
    """An unknown name that matches no card of the data closely: it may be a card printed after the
    data was made. ``data_date`` says how current the data is (YYYY-MM-DD), None when unknown."""

    data_date: str | None


@dataclass(frozen=True, slots=True)
class Resolution:
    """The answer to "which card did the user mean?".

    ``card`` is None when nothing matched or the match was ambiguous; then ``suggestions`` (English
    names, best first) says what the user may have meant, and ``ambiguous`` lists every card that
    shares the key they typed. ``newer`` is set when no card is close to the name (``CLOSE_RATIO``):
    the suggestions are then only the least unlike older names, and the card may be newer than the data.
    """

    query: str
    card: Card | None
    matched_by: str
    suggestions: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()
    newer: NewerThanData | None = None

    @property
    def found(self) -> bool:
        return self.card is not None


class _SearchList:
    """(key, English name) pairs ordered shortest key first, with the keys joined into one string.

    ``str.find`` then scans in C, and because the keys are in length order the first hits ARE the
    best ones for autocomplete ("shortest match first") and for fuzzy candidates: a search stops
    after ``limit`` hits instead of collecting and sorting thousands for a one-letter prefix.
    """

    __slots__ = ("keys", "names", "starts", "text")

    def __init__(self, pairs: Iterable[tuple[str, str]]) -> None:
        ordered = sorted(set(pairs), key=lambda pair: (len(pair[0]), pair))
        self._fill([key for key, _ in ordered], [name for _, name in ordered])

    @classmethod
    def from_ordered(cls, keys: list[str], names: list[str]) -> _SearchList:
        """A list whose pairs are already in order (read back from a stored index): no sorting."""
        search = cls.__new__(cls)
        search._fill(keys, names)
        return search

    def _fill(self, keys: list[str], names: list[str]) -> None:
        self.keys = keys
        self.names = names
        self.starts = array("i", accumulate((len(key) + 1 for key in keys), initial=1))
        self.starts.pop()
        self.text = "\n" + "\n".join(keys) + "\n"

    def hits(self, key: str, *, prefix: bool) -> Iterator[int]:
        """Positions of the keys that start with (``prefix``) or contain ``key``, shortest first."""
        needle = "\n" + key if prefix else key
        found = self.text.find(needle)
        while found != -1:
            position = bisect.bisect_right(self.starts, found + 1 if prefix else found) - 1
            yield position
            found = self.text.find(needle, self.starts[position] + len(self.keys[position]))


_Tier = dict[str, "str | tuple[str, ...]"]  # key -> the English name, or several when ambiguous


class CardIndex:
    """Every lookup structure over a set of cards, built once (``from_cards``) and then read-only."""

    def __init__(self) -> None:
        self._cards: dict[str, Card] = {}
        self._tiers: list[tuple[str, _Tier]] = [
            ("normalised", {}),
            ("face", {}),
            ("printed", {}),
            ("printed", {}),
        ]
        self._search: dict[str, _SearchList] = {}  # "en" only: English names and faces
        self._printed_only: dict[
            str, _SearchList
        ] = {}  # printed names of languages beyond UI_PRINTED_LANGUAGES
        self._printed_search = _SearchList(())  # the printed names of UI_PRINTED_LANGUAGES, together
        self._printed_languages = b""  # per entry of _printed_search: a bit per UI language that prints it
        self._build_keys: dict[str, str] = {}  # name -> normalise(name), only while building
        self._by_choice_id: dict[str, str] | None = None  # choice_id(name) -> name, built on first use
        # How current the cards are (YYYY-MM-DD, set by the card database): said beside a name that
        # may be newer than the data.
        self.data_date: str | None = None

    # -- building ----------------------------------------------------------------------------------

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> CardIndex:
        index = cls()
        for card in cards:
            index._add(card)
        index._build_search()
        index._build_keys = {}
        return index

    def state(self) -> tuple:
        """Everything the index is built of, as plain tuples/lists/dicts of strings (what
        ``bot.cards.snapshot`` stores), without the cards themselves: ``from_state`` rebuilds it
        in a fraction of ``from_cards``'s time."""
        tiers = tuple(tier for _, tier in self._tiers)
        search = {language: (s.keys, s.names) for language, s in self._search.items()}
        only = {language: (s.keys, s.names) for language, s in self._printed_only.items()}
        return (
            tiers,
            search,
            (self._printed_search.keys, self._printed_search.names, self._printed_languages),
            only,
        )

    @classmethod
    def from_state(cls, cards: Iterable[Card], state: tuple) -> CardIndex:
        """The index ``state()`` described, over ``cards`` (the same cards, in the same order)."""
        tiers, search, printed, only = state
        index = cls()
        index._cards = {card.name: card for card in cards}
        index._tiers = [(label, tier) for (label, _), tier in zip(index._tiers, tiers, strict=True)]
        index._search = {language: _SearchList.from_ordered(*pair) for language, pair in search.items()}
        keys, names, index._printed_languages = printed
        index._printed_search = _SearchList.from_ordered(keys, names)
        index._printed_only = {language: _SearchList.from_ordered(*pair) for language, pair in only.items()}
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

    def _key(self, tier: _Tier, name: str, english: str) -> None:
        key = self._normalise(name)
        known = tier.get(key)
        if known is None:
            tier[key] = english
        elif isinstance(known, str):
            if known != english:
                tier[key] = (known, english)
        elif english not in known:
            tier[key] = (*known, english)

    def _build_search(self) -> None:
        """Search lists: English names and faces for every language, plus that language's printed names.

        The bot's own languages (ja, zh) share one list of their printed names, each entry with a bit per
        language, searched together with the English list as if it were one (``_hits``). The other printed
        languages (after a sync) get a list of their printed names only, searched before the English list:
        a copy of the English names per language cost ~60 MB with all ten languages loaded."""
        english = [
            (self._normalise(name), card.name)
            for card in self._cards.values()
            for name in {card.name, *card.face_names}
        ]
        self._search["en"] = _SearchList(english)
        ui_languages: dict[tuple[str, str], int] = {}  # (key, English name) -> bits of the UI languages
        for language in PRINTED_LANGUAGES:
            printed = [
                (self._normalise(name), card.name)
                for card in self._cards.values()
                if (full := card.printed_names.get(language))
                for name in {full, *face_parts(full)}
            ]
            if language in UI_PRINTED_LANGUAGES:
                bit = 1 << UI_PRINTED_LANGUAGES.index(language)
                for pair in printed:
                    ui_languages[pair] = ui_languages.get(pair, 0) | bit
            elif printed:
                self._printed_only[language] = _SearchList(printed)
        self._printed_search = _SearchList(ui_languages)
        self._printed_languages = bytes(
            ui_languages[pair]
            for pair in zip(self._printed_search.keys, self._printed_search.names, strict=True)
        )

    # -- reading -----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, english_name: object) -> bool:
        return english_name in self._cards

    def get(self, english_name: str) -> Card | None:
        """The card with exactly this English name (the canonical name stored everywhere)."""
        return self._cards.get(english_name)

    def exact_lookup(self) -> Callable[[str], Card | None]:
        """``get`` as the mapping's own C method: a deck resolves ~100 names with it, and the Python frame
        of ``get`` was a tenth of the time resolving took (see bench_decks.py)."""
        return self._cards.get

    def cards(self) -> Iterable[Card]:
        return self._cards.values()

    def resolve(self, name: str) -> Resolution:
        """Which card the user meant by ``name`` (see the module docstring for the order), or by the
        id of an autocomplete choice (``choice_id``)."""
        query = name.strip()
        card = self._cards.get(query) or self._by_id(query)
        if card is not None:
            return Resolution(query, card, "exact")
        key = normalise(query)
        for matched_by, tier in self._tiers:
            names = tier.get(key)
            if names is None:
                continue
            if isinstance(names, str):
                return Resolution(query, self._cards[names], matched_by)
            chosen = self._disambiguate(query, key, names)
            if chosen is not None:
                return Resolution(query, chosen, matched_by)
            ordered = tuple(sorted(names))
            return Resolution(
                query, None, matched_by, suggestions=ordered[:MAX_SUGGESTIONS], ambiguous=ordered
            )
        suggestions, close = self._suggest(query, MAX_SUGGESTIONS)
        newer = None if close else NewerThanData(self.data_date)
        return Resolution(query, None, "none", suggestions=suggestions, newer=newer)

    def _disambiguate(self, query: str, key: str, names: tuple[str, ...]) -> Card | None:
        """The one card a shared key clearly means, or None when it is a real ambiguity (重生).

        Tried in order, each must leave exactly one card:
        1. written the same up to case and accents ("wasteland" is Wasteland, not Unhinged's Waste Land);
        2. the card whose FRONT face has the name (Will Kenrith opens "Will Kenrith // Rowan Kenrith");
        3. the plain name over its art variants (Boros Guildgate over "Boros Guildgate (a)").
        """
        cards = [self._cards[name] for name in names]
        soft = _soft(query)
        rules = (
            lambda card: _soft(card.name) == soft,
            lambda card: (
                key
                in {
                    normalise(card.front.name),
                    *(normalise(face_parts(p)[0]) for p in card.printed_names.values() if face_parts(p)),
                }
            ),
            lambda card: all(other is card or _VARIANT.sub("", other.name) == card.name for other in cards),
        )
        for rule in rules:
            matching = [card for card in cards if rule(card)]
            if len(matching) == 1:
                return matching[0]
        return None

    def suggest(self, name: str, limit: int = MAX_SUGGESTIONS) -> tuple[str, ...]:
        """English names that look most like ``name`` (typos, partial names, printed names), best first."""
        return self._suggest(name, limit)[0]

    def without_suggestions(self) -> CardIndex:
        """The same index with "did you mean" switched off: every name it knows resolves the same, an
        unknown one gets no suggestions and is not judged newer (nothing was compared)."""
        quiet = copy.copy(self)
        quiet._suggest = _nothing_suggested  # type: ignore[method-assign]
        return quiet

    def _suggest(self, name: str, limit: int) -> tuple[tuple[str, ...], bool]:
        """``suggest``'s names, and whether one of the cards is close to ``name`` (``CLOSE_RATIO``).

        Scoring every key with WRatio costs ~35 ms over the full data; instead a cheap whole-string
        ratio (typos) and the shortest keys containing the text (partial names) pick a few dozen
        candidates, and only those get the finer WRatio. English text is compared with English
        names only, other scripts with printed names only.
        """
        # Imported here, not at the top: ~3 MB of RSS that a process which never suggests never loads.
        from rapidfuzz import fuzz, process

        key = normalise(name)
        if not key:
            return (), True
        pool = self._search.get("en") if key.isascii() else self._printed_search
        if pool is None or not pool.keys:
            return (), False
        similar = process.extract(
            key, pool.keys, scorer=fuzz.ratio, limit=FUZZY_CANDIDATES, score_cutoff=FUZZY_CUTOFF - 10
        )
        containing = list(islice(pool.hits(key, prefix=False), FUZZY_CANDIDATES))
        close = bool(containing) or any(score >= CLOSE_RATIO for _, score, _ in similar)
        candidates = {position for _, _, position in similar}
        candidates.update(containing)
        scored = [
            (score, position)
            for position in candidates
            if (score := fuzz.WRatio(key, pool.keys[position])) >= FUZZY_CUTOFF
        ]
        # Best score first; among equals, the closer length (a typo) before a long name that merely contains it.
        scored.sort(key=lambda hit: (-hit[0], abs(len(pool.keys[hit[1]]) - len(key)), hit[1]))
        return tuple(islice(dict.fromkeys(pool.names[position] for _, position in scored), limit)), close

    def _hits(self, english: _SearchList, language: int, key: str, prefix: bool) -> Iterator[str]:
        """English names whose English key (and, with a ``language`` bit, printed key in that language)
        starts with / contains ``key``, in the order of one list holding them all (shortest first):
        each name is stored once, not once more per language."""
        if not language:
            return (english.names[position] for position in english.hits(key, prefix=prefix))
        merged = heapq.merge(
            _sorted_hits(english, key, prefix),
            _sorted_hits(self._printed_search, key, prefix, self._printed_languages, language),
        )
        return (name for _, _, name in merged)

    def autocomplete(
        self, text: str, language: str = "en", limit: int = AUTOCOMPLETE_LIMIT
    ) -> list[tuple[str, str]]:
        """Up to ``limit`` ``(display name in the user's language, English name)`` pairs for ``text``.

        Names that start with the text come first, then names that contain it, shortest first.
        English names always match, so a Japanese user typing "bolt" still finds Lightning Bolt.
        """
        key = normalise(text) if text.strip() else ""
        english = self._search.get("en")
        if not key or english is None:
            return []
        printed = 1 << UI_PRINTED_LANGUAGES.index(language) if language in UI_PRINTED_LANGUAGES else 0
        # Another printed language (after a sync): its own names first, then the English ones.
        own = self._printed_only.get(language)
        chosen: dict[str, None] = {}
        for prefix in (True, False):
            if own is not None:
                for position in own.hits(key, prefix=prefix):
                    chosen.setdefault(own.names[position])
                    if len(chosen) >= limit:
                        break
            if len(chosen) >= limit:
                break
            for name in self._hits(english, printed, key, prefix):
                chosen.setdefault(name)
                if len(chosen) >= limit:
                    break
            if len(chosen) >= limit:
                break
        return [(display_name(self._cards[name], language), name) for name in chosen]

    def choices(
        self, text: str, language: str = "en", limit: int = AUTOCOMPLETE_LIMIT
    ) -> list[tuple[str, str]]:
        """Autocomplete as ``(display name, choice id)``: Discord caps a choice's value at 100
        characters and a few card names are longer, so the value is a short id that ``resolve`` takes."""
        return [(shown, choice_id(english)) for shown, english in self.autocomplete(text, language, limit)]

    def _by_id(self, query: str) -> Card | None:
        if not CHOICE_ID.fullmatch(query):
            return None
        if self._by_choice_id is None:
            self._by_choice_id = {choice_id(name): name for name in self._cards}
        english = self._by_choice_id.get(query)
        return self._cards[english] if english else None


def _nothing_suggested(name: str, limit: int) -> tuple[tuple[str, ...], bool]:
    return (), True


def _sorted_hits(
    search: _SearchList, key: str, prefix: bool, languages: bytes = b"", language: int = 0
) -> Iterator[tuple[int, str, str]]:
    """(key length, key, English name) of ``search.hits``, shortest first; with ``languages``, only the
    entries whose bits include ``language``."""
    for position in search.hits(key, prefix=prefix):
        if languages and not languages[position] & language:
            continue
        found = search.keys[position]
        yield len(found), found, search.names[position]


CHOICE_ID = re.compile(r"#[0-9a-f]{12}")


def choice_id(english_name: str) -> str:
    """A short, stable id for a card (``#`` + 12 hex digits of a hash of its English name): the same
    across restarts and data syncs, so a choice picked just before one still resolves."""
    return "#" + hashlib.blake2b(english_name.encode(), digest_size=6).hexdigest()


def display_name(card: Card, language: str, limit: int = DISCORD_CHOICE_MAX) -> str:
    """How a card is shown (a choice's name by default, at most 100 characters): the printed name,
    with the English name when they differ."""
    printed = card.printed_name(language)
    shown = printed if printed == card.name else f"{printed} ({card.name})"
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
