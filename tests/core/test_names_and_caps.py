"""What one member can do to the others' view and the bot's capacity, through the real commands:

* a deck name of zero-width characters only was accepted; names with direction overrides and
  stacked combining marks were shown raw on boards (an override at a name's end reversed the rest of
  the line). Names are now stored as ``bot.text.shown_name`` gives them.
* a member option naming someone not in the server answered "Something went wrong" and logged an
  ERROR; it is now told plainly, in the member's language.
* no per-member caps: one member opened 200 pods, 200 Hydra tables and 300 decks. Now 10 open games,
  5 unfinished Hydra tables and 100 decks per member and server, each refused clearly.
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n import t
from bot.services.decks import MAX_DECKS_PER_MEMBER
from bot.services.hydra import MAX_OPEN_TABLES_PER_MEMBER
from bot.services.pods import MAX_OPEN_GAMES_PER_MEMBER
from bot.testing import DiscordHarness
from bot.text import shown_name
from tests.hydra_events.test_cog import booted, create

DECK = "Commander: Kaalia of the Vast\n1 Sol Ring\n"
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u202e\u2066\u200f"


@pytest.mark.parametrize("locale", ["en-US", "ja"])
async def test_a_deck_name_with_nothing_visible_is_refused(tmp_path, locale) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        refused = await h.slash("deck register", name="\u200b\u200d\u2060", decklist=DECK, locale=locale)
        assert refused.ephemeral and refused.content == t("deck.error.name_empty", locale[:2])
        assert await h.bot.db.scalar("SELECT COUNT(*) FROM decks") == 0


async def test_direction_overrides_and_stacked_marks_do_not_reach_the_board(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        evil = h.add_member("Eve\u202e" + "a" + "\u0301" * 30)
        board = await h.slash("pod start", players=f"{h.user('alice').mention} {evil.mention}")
        labels = str(board.message.components)
        assert "Eve" + "á" + "\u0301" in labels  # two marks kept at most, composed first
        assert "\u202e" not in labels and "\u0301" * 3 not in labels


async def test_seats_and_entrants_keep_the_shown_name_too(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        evil = h.add_member("Eve\u202e\u2066")
        await h.slash("hydra start", user=evil, heads=2)
        await h.slash("tournament create", user="admin", name="Friday", channel="games")
        await h.slash("tournament join", user=evil, channel="games")
        seat = await h.bot.db.scalar("SELECT name FROM challenge_table_seats")
        entrant = await h.bot.db.scalar("SELECT name FROM tournament_entrants")
        assert seat == entrant == "Eve"


@given(st.text(alphabet=st.sampled_from([*INVISIBLE, "a", "\u0301", " ", "é", "👍"]), max_size=30))
def test_shown_names_have_no_invisible_characters_and_few_marks(text: str) -> None:
    name = shown_name(text)
    assert not set(name) & (set(INVISIBLE) - {"\u200d"}) and "\u0301" * 3 not in name
    assert name == name.strip() and shown_name(name) == name  # stable: storing again changes nothing


async def test_a_member_option_naming_a_non_member_is_told_without_an_error_logged(tmp_path, caplog) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=4)
        stranger = h.fake.add_user("stranger")  # a user, not a member of this server
        caplog.set_level(logging.WARNING)
        reply = await h.slash(
            "hydra event join", user="alice", friend1=stranger, locale="zh-CN", expect_error=True
        )
        assert reply.ephemeral and reply.content == t(
            "core.error.not_a_member", "zh-Hans", user=f"<@{stranger.id}>"
        )
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_one_member_may_run_only_so_many_pod_games(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        players = f"{h.user('alice').mention} {h.user('bob').mention}"
        for _ in range(MAX_OPEN_GAMES_PER_MEMBER):
            assert not (await h.slash("pod start", user="alice", players=players)).ephemeral
        refused = await h.slash("pod start", user="alice", players=players, locale="ja")
        assert refused.ephemeral
        assert refused.content == t("pod.error.too_many_open_games", "ja", limit=MAX_OPEN_GAMES_PER_MEMBER)
        assert not (await h.slash("pod start", user="bob", players=players)).ephemeral  # bob has his own


async def test_one_member_may_open_only_so_many_hydra_tables(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        for _ in range(MAX_OPEN_TABLES_PER_MEMBER):
            assert not (await h.slash("hydra start", user="alice", heads=2)).ephemeral
        refused = await h.slash("hydra start", user="alice", heads=2, locale="zh-TW")
        assert refused.ephemeral
        assert refused.content == t(
            "hydra.error.too_many_tables", "zh-Hant", limit=MAX_OPEN_TABLES_PER_MEMBER
        )


async def test_one_member_may_keep_only_so_many_decks(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path) as h:
        decks = h.bot.get_cog("Decks").service
        alice = h.user("alice").id
        for number in range(MAX_DECKS_PER_MEMBER - 1):  # most of them through the service, to keep it quick
            await decks.register(h.guild.id, alice, f"Deck {number}", DECK, "commander")
        await h.slash("deck register", user="alice", name="The last one", decklist=DECK)
        assert len(await decks.list_decks(h.guild.id, alice)) == MAX_DECKS_PER_MEMBER
        refused = await h.slash("deck register", user="alice", name="One too many", decklist=DECK)
        assert refused.ephemeral and refused.content == t(
            "deck.error.too_many_decks", "en", limit=MAX_DECKS_PER_MEMBER
        )
        assert len(await decks.list_decks(h.guild.id, alice)) == MAX_DECKS_PER_MEMBER
