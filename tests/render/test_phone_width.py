"""Every image at phone width: Discord shows it about 360 px wide. Each renderer reports where it drew its
texts (``bot.render.layout``); the PNG is decoded and shrunk to 360 px as a phone would, and every text must
keep a readable size, hold real ink there, stay inside the image and not overlap another text."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from bot.cards.model import Card
from bot.domain import pod
from bot.domain.hydra_events import LOST, ONGOING, WON, PlayerLine, TableLine, build_leaderboard, summarize
from bot.domain.mulligan.odds import DeckCounts, deck_odds
from bot.domain.rules.summary import DeckSummary
from bot.domain.tournament import DEMOCRATIC
from bot.domain.tournament.games import checked_game
from bot.domain.tournament.matches import MatchRecord, match_standings
from bot.domain.tournament.standings import compute_standings
from bot.i18n import LANGUAGES, t
from bot.render import board as pod_board
from bot.render.deck import summary_picture
from bot.render.fonts import png_bytes
from bot.render.hand import hand_image
from bot.render.layout import PHONE_WIDTH, TextBox, phone_problems
from bot.render.leaderboard import render_leaderboard
from bot.render.odds import odds_chart
from bot.render.standings import render_match_standings, render_standings

DATA = Path(__file__).parent.parent / "data"
MIN_INK_PX = 6  # the drawn height of the tallest glyph of a text, on the phone


def _cards() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for line in (DATA / "mulligan_cards.jsonl").read_text(encoding="utf-8").splitlines():
        card = Card.from_scryfall(json.loads(line))
        cards[card.name] = card
        cards.setdefault(card.front.name, card)
    return cards


CARDS = _cards()


def _library() -> list[Card]:
    library = []
    for line in (DATA / "mulligan_heavenly_inferno.txt").read_text(encoding="utf-8").splitlines():
        match = re.match(r"(\d+)\s+(.+)", line.strip())
        if match:
            library += [CARDS[match.group(2)]] * int(match.group(1))
    return library


def odds(language: str, boxes: list[TextBox]) -> Image.Image:
    return odds_chart(deck_odds(DeckCounts.of(_library())), language, boxes=boxes)


def hand(language: str, boxes: list[TextBox]) -> Image.Image:
    cards = sorted({card.name: card for card in _library()}.values(), key=lambda c: -len(c.name))[:7]
    title = t(
        "mulligan.practice.title",
        language,
        deck="Heavenly Inferno of the Long Deck Names",
        style=t("mulligan.style.partial_paris", language),
    )
    subtitle = t("mulligan.practice.hand_status", language, cards=7, lands=1, mulligans=1)
    return hand_image(cards, language, title=title, subtitle=subtitle, marked={1}, boxes=boxes)


def standings(language: str, boxes: list[TextBox]) -> Image.Image:
    names = ["アトラクサ使いの長い名前のプレイヤー", "Ben", "魔判官之声", "Dan the very long-named player"]
    games = [checked_game(1, names, {"Ben"}, {"Ben": "Dan the very long-named player"})]
    players = names + [f"player {i}" for i in range(50)]
    return render_standings(
        "Friday night EDH league, season 3",
        compute_standings(games, DEMOCRATIC, seed=1, players=players),
        str,
        language,
        boxes=boxes,
    )


def match_standings_image(language: str, boxes: list[TextBox]) -> Image.Image:
    """A 1-vs-1 tournament of matches: long and CJK names, a drawn match, a bye, a dropped player."""
    names = ["アトラクサ使いの長い名前のプレイヤー", "Ben", "魔判官之声", "Dan the very long-named player"]
    records = [MatchRecord(names[0], names[1], (2, 1)), MatchRecord(names[2], names[3], (1, 1), draws=1)]
    table = match_standings(
        records, seed=1, players=names + [f"player {i}" for i in range(50)], byes=["Eve"], dropped=[names[3]]
    )
    return render_match_standings("Friday night duels, season 3", table, str, language, boxes=boxes)


def leaderboard(language: str, boxes: list[TextBox]) -> Image.Image:
    lines = []
    for no in range(1, 19):
        outcome = (WON, LOST, ONGOING)[no % 3]
        players = tuple(
            PlayerLine(no * 10 + i, f"プレイヤー番号{no}-{i} with a long name", no, i, outcome != LOST)
            for i in range(4)
        )
        lines.append(TableLine(no, outcome, 3 + no, 12, 2, players))
    return render_leaderboard(
        "Hydra night of the longest name",
        summarize(build_leaderboard(lines), over=True),
        language,
        boxes=boxes,
    )


def pod_board_image(language: str, boxes: list[TextBox]) -> Image.Image:
    """A busy 6-player board: long and CJK names, partners, taxes, poison, counters, a player out, the
    commander-damage matrix with double-digit figures."""
    names = [
        "アトラクサ使いの長い名前のプレイヤー",
        "Ben",
        "魔判官之声",
        "Dan the very long-named player",
        "Eve",
        "Fay",
    ]
    events = [
        pod.Event(
            1,
            pod.CREATE,
            1,
            "t",
            {
                "ruleset": "commander",
                "players": [{"user_id": i + 1, "name": name} for i, name in enumerate(names)],
            },
        )
    ]

    def add(kind: str, **data) -> None:
        events.append(pod.Event(len(events) + 1, kind, 1, "t", data))

    add(pod.COMMANDERS, player=1, names=["Tymna the Weaver", "Thrasios, Triton Hero"])
    for player in range(2, 7):
        add(pod.COMMANDERS, player=player, names=["Atraxa, Praetors' Voice"])
    add(pod.NEXT_TURN)
    add(pod.CAST, commander=pod.commander_key(1, 0))
    add(pod.CAST, commander=pod.commander_key(1, 0))
    add(pod.POISON, player=2, amount=3)
    add(pod.COUNTER, player=2, name="energy", amount=4)
    add(pod.MONARCH, player=2)
    add(pod.COMMANDER_DAMAGE, commander=pod.commander_key(1, 1), target=2, amount=16)
    add(pod.COMMANDER_DAMAGE, commander=pod.commander_key(3, 0), target=4, amount=21)
    add(pod.LIFE, player=5, amount=-1040)
    snapshot = pod_board.snapshot(pod.replay(events), language, title="#12")
    return pod_board.board_image(snapshot, boxes)


def deck_summary(language: str, boxes: list[TextBox]) -> Image.Image:
    summary = DeckSummary(
        types={"Creature": 29, "Land": 38}, curve=(0, 5, 10, 8, 17, 7, 6, 9), lands=38, unknown=0
    )
    return summary_picture(summary, "WUBRG", language, boxes=boxes)


RENDERERS: dict[str, Callable[[str, list[TextBox]], Image.Image]] = {
    "odds chart": odds,
    "practice hand": hand,
    "standings": standings,
    "match standings": match_standings_image,
    "hydra event leaderboard": leaderboard,
    "pod board": pod_board_image,
    "deck summary": deck_summary,
}


def _ink_height(phone: Image.Image, box: tuple[int, int, int, int], scale: float) -> int:
    """Rows of the shrunk image inside ``box`` that hold ink (differ from the box's commonest colour)."""
    left, top, right, bottom = (
        int(box[0] * scale),
        int(box[1] * scale),
        int(box[2] * scale) + 1,
        int(box[3] * scale) + 1,
    )
    crop = phone.crop((left, top, right, bottom))
    background = max(crop.getcolors(maxcolors=crop.width * crop.height))[1]
    rows = 0
    for y in range(crop.height):
        if any(
            max(abs(a - b) for a, b in zip(crop.getpixel((x, y)), background, strict=True)) > 60
            for x in range(crop.width)
        ):
            rows += 1
    return rows


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(RENDERERS))
def test_every_image_reads_at_phone_width(name: str, language: str) -> None:
    boxes: list[TextBox] = []
    image = Image.open(io.BytesIO(png_bytes(RENDERERS[name](language, boxes)))).convert("RGB")
    assert len(boxes) >= 10, "the renderer reports its texts"
    assert not phone_problems(boxes, image.width), "\n".join(phone_problems(boxes, image.width))
    scale = PHONE_WIDTH / image.width
    phone = image.resize((PHONE_WIDTH, round(image.height * scale)), Image.Resampling.LANCZOS)
    thin = [
        f"{b.text!r}: {ink} px of ink"
        for b in boxes
        if re.search(r"\w", b.text) and (ink := _ink_height(phone, b.box, scale)) < MIN_INK_PX
    ]
    assert not thin, "\n".join(thin)


def test_the_check_catches_small_and_overlapping_text() -> None:
    small = TextBox("tiny", (0, 0, 40, 10), 20)
    assert phone_problems([small], 1000) == ["'tiny': 7.2 px at 360 px wide (< 12)"]
    first, second = TextBox("a", (0, 0, 50, 30), 30), TextBox("b", (40, 20, 90, 50), 30)
    assert "overlaps" in phone_problems([first, second], 720)[0]
    assert phone_problems([TextBox("c", (700, 0, 730, 30), 30)], 720)[0].startswith("'c' leaves the image")


PRINTED = {  # commanders' printed names in the card data (tests/data/pods_cards.jsonl): never cut
    "ja": ["織り手のティムナ", "トリトンの英雄、トラシオス", "法務官の声、アトラクサ"],
    "zh-Hans": ["织命使堤谟娜", "屈东英雄萨拉希洛斯", "魔判官之声亚崔夏"],
}
BOARD_MIN_INK_PX = 10  # every word a player needs on the pod board, as tall as this on the phone


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pod_board_reads_at_ten_px_on_a_phone_and_keeps_printed_commander_names_whole(
    language: str,
) -> None:
    """Tax, commander names and "Out: …" were about 6 px tall on a phone, and Chinese commander names
    were cut to four characters: every text is now at least 10 px tall there, and lines wrap rather than cut."""
    names = [
        "アトラクサ使いの長い名前のプレイヤー",
        "Ben",
        "魔判官之声",
        "Dan the very long-named player",
        "Eve",
        "Fay",
    ]
    events = [
        pod.Event(
            1,
            pod.CREATE,
            1,
            "t",
            {
                "ruleset": "commander",
                "players": [{"user_id": i + 1, "name": name} for i, name in enumerate(names)],
            },
        )
    ]

    def add(kind: str, **data) -> None:
        events.append(pod.Event(len(events) + 1, kind, 1, "t", data))

    english = ["Tymna the Weaver", "Thrasios, Triton Hero", "Atraxa, Praetors' Voice"]
    add(pod.COMMANDERS, player=1, names=english[:2])
    for player in range(2, 7):
        add(pod.COMMANDERS, player=player, names=english[2:])
    add(pod.NEXT_TURN)
    add(pod.POISON, player=2, amount=3)
    add(pod.COUNTER, player=2, name="energy", amount=4)
    add(pod.MONARCH, player=2)
    add(pod.COMMANDER_DAMAGE, commander=pod.commander_key(3, 0), target=4, amount=21)
    add(pod.POISON, player=5, amount=10)
    state = pod.replay(events)
    printed = PRINTED.get(language, english)
    shown = {
        c.key: printed[0 if c.owner == 1 and c.index == 0 else 1 if c.owner == 1 else 2]
        for c in state.all_commanders()
    }
    boxes: list[TextBox] = []
    image = pod_board.board_image(
        pod_board.snapshot(state, language, title="#12", commander_names=shown), boxes
    )
    image = Image.open(io.BytesIO(png_bytes(image))).convert("RGB")
    _assert_tall_enough_on_a_phone(image, boxes)
    drawn = "".join(b.text for b in boxes).replace(" ", "")
    for name in printed:
        assert name.replace(" ", "") in drawn, f"{name} was cut"
    out_lines = [t(f"pod.board.out.{reason}", language) for reason in ("commander_damage", "poison")]
    for line in out_lines:
        assert line.replace(" ", "") in drawn


def _assert_tall_enough_on_a_phone(image: Image.Image, boxes: list[TextBox]) -> None:
    """Every text of ``image`` reads at 360 px: no phone problem, and ``BOARD_MIN_INK_PX`` of ink."""
    assert not phone_problems(boxes, image.width), "\n".join(phone_problems(boxes, image.width))
    scale = PHONE_WIDTH / image.width
    phone = image.resize((PHONE_WIDTH, round(image.height * scale)), Image.Resampling.LANCZOS)
    thin = [
        f"{b.text!r}: {ink} px of ink"
        for b in boxes
        if re.search(r"\w", b.text) and (ink := _ink_height(phone, b.box, scale)) < BOARD_MIN_INK_PX
    ]
    assert not thin, "\n".join(thin)


def _table_boards() -> dict[str, Callable[[str, list[TextBox]], Image.Image]]:
    """The Hydra, Horde and God boards of a busy table (long rules texts, tapped permanents, 4 players)."""
    from bot.domain.challenge.creatures import Seat
    from bot.domain.challenge.god import THRONG, XENAGOS, GodGame
    from bot.domain.challenge.horde import ALTAR, HordeGame
    from bot.domain.hydra import cards as C
    from bot.render import challenge, hydra
    from tests.challenge.helpers import rig
    from tests.hydra.hydra_helpers import BRUTE, HH, new_game

    def hydra_board(language: str, boxes: list[TextBox]) -> Image.Image:
        game = new_game(
            battlefield=[HH, C.SHRIEKING_TITAN_HEAD, C.SNAPPING_FANG_HEAD, C.SAVAGE_VIGOR_HEAD, BRUTE],
            players=4,
            heroes=[("The Slayer",)],
        )
        game.apply("tap all")
        return hydra.board_image(game, language, boxes=boxes)

    def deck_board(game) -> Callable[[str, list[TextBox]], Image.Image]:
        game.apply("tap 2")
        return lambda language, boxes: challenge.board_image(game, language, boxes=boxes)

    return {
        "hydra": hydra_board,
        "horde": deck_board(rig(HordeGame([Seat("A")], 1), battlefield=[ALTAR, "Minotaur Younghorn"])),
        "god": deck_board(rig(GodGame([Seat("A"), Seat("B")], 1), battlefield=[XENAGOS, THRONG])),
    }


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("board", ["hydra", "horde", "god"])
def test_the_hydra_horde_and_god_boards_read_at_ten_px_on_a_phone(board: str, language: str) -> None:
    boxes: list[TextBox] = []
    image = Image.open(io.BytesIO(png_bytes(_table_boards()[board](language, boxes)))).convert("RGB")
    _assert_tall_enough_on_a_phone(image, boxes)
