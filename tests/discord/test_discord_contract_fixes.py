"""The violations the strict Discord stand-in found, reproduced and now fixed.

Every call here runs against the strict stand-in, so a reply Discord would refuse (over 2,000
characters, a field over 1,024, a choice value over 100) or a message that would ping @everyone,
@here or a role fails the call by itself; the assertions say what the user sees instead.
"""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.cards.index import choice_id
from bot.client import bot_intents, cog_modules
from bot.i18n import t
from bot.invite import DISPLAY_NAMES, PERMISSIONS, invite_url, permissions_integer
from bot.testing import DiscordHarness, UploadFile
from bot.testing.fakediscord import contract
from bot.testing.fakediscord.model import FakeMessage
from bot.testing.harness import HARNESS_CARDS
from bot.text import ECHO, fit

LOCALES = ("en-US", "ja", "zh-CN", "zh-TW")
LANGUAGE = {"en-US": "en", "ja": "ja", "zh-CN": "zh-Hans", "zh-TW": "zh-Hant"}
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
LONG_NAME = (
    "Our Market Research Shows That Players Like Really Long Card Names So We Made this Card to Have "
    "the Absolute Longest Card Name Ever Elemental"
)
# 6,000 characters a user may type into one option: Markdown that escaping doubles, and pings.
TYPED = ("*_~|`> @everyone @here <@&1> " * 300)[:6000]


@pytest.fixture(scope="module")
def cards_path(tmp_path_factory) -> Path:
    """The harness's 60 cards plus the one card whose name passes Discord's 100-character choice value."""
    path = tmp_path_factory.mktemp("cards") / "cards.jsonl"
    long_card = (
        '{"color_identity": ["G"], "colors": ["G"], "layout": "normal", "legalities": {"commander": '
        '"not_legal"}, "mana_cost": "{1}{G}{G}", "name": "'
        + LONG_NAME
        + '", "oracle_text": "Art rampage 2", '
        '"power": "2", "printings": ["UNH"], "toughness": "2", "type_line": "Creature — Elemental"}'
    )
    path.write_text(
        HARNESS_CARDS.read_text(encoding="utf-8").rstrip("\n") + "\n" + long_card + "\n", encoding="utf-8"
    )
    return path


def assert_fits(message: FakeMessage) -> None:
    """What the user sees: within Discord's limits (the stand-in also checked), escaped and cut with "…"."""
    assert len(message.content) <= 2000
    assert "\\*\\_\\~\\|\\`>" in message.content and "…" in message.content
    assert not message.pings.mass and message.pings.users == []


# -- replies that echo what the user typed -------------------------------------------------------------


async def test_echoed_names_are_escaped_and_shortened_in_every_language(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=DATA / "deck_cards.jsonl") as h:
        alice, bob = h.user("alice"), h.user("bob")
        await h.slash("pod start", players=f"{alice.mention} {bob.mention}")
        for locale in LOCALES:
            for command, option in (
                ("card", "name"),
                ("deck show", "name"),
                ("deck export", "name"),
                ("deck delete", "name"),
                ("mulligan practice", "deck"),
                ("mulligan odds", "deck"),
            ):
                reply = await h.slash(command, locale=locale, options={option: TYPED})
                assert reply.ephemeral, command
                assert_fits(reply.message)
            refused = await h.slash("pod commander", locale=locale, name=TYPED)
            assert_fits(refused.message)
            assert refused.content == t(
                "pod.error.unknown_card", LANGUAGE[locale], name=fit(TYPED, ECHO), suggestions="-"
            )


async def test_the_card_with_a_141_character_name_can_be_picked_and_typed(tmp_path, cards_path):
    async with DiscordHarness.start(tmp_path, cards_path=cards_path) as h:
        for locale in LOCALES:
            choices = await h.autocomplete("card", "name", "market research", locale=locale)
            assert choices == [{"name": LONG_NAME[:99] + "…", "value": choice_id(LONG_NAME)}]
            assert len(choices[0]["value"]) <= 100
            picked = await h.slash("card", locale=locale, name=choices[0]["value"])
            assert picked.embed["title"] == LONG_NAME
            typed = await h.slash("card", locale=locale, name=LONG_NAME.lower())  # typed without picking
            assert typed.embed["title"] == LONG_NAME
            commander = await h.autocomplete("deck check", "commander", "market research", locale=locale)
            assert commander[0]["value"] == choice_id(LONG_NAME)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_prize_tied_by_many_players_fits_its_field_with_and_n_more(locale):
    from bot.domain.tournament.prizes import PRIZE_GOALS, PrizeStats
    from bot.i18n import Translate
    from cogs.tournaments import TournamentCog

    class Standing:  # the two attributes _add_prize_fields reads
        def __init__(self, player: int) -> None:
            self.player = player
            self.prizes = PrizeStats(7, 7, 7, 7)

    class View:
        standings = [Standing(10**17 + n) for n in range(120)]  # 120 players tie on every goal

    tr = Translate(LANGUAGE[locale])
    embed = discord.Embed(title="Standings", description="\n".join(f"{n}. player" for n in range(15)))
    TournamentCog._add_prize_fields(embed, View(), tr)  # type: ignore[arg-type]
    body = {"embeds": [embed.to_dict()]}
    assert contract.problems_of("POST", "/channels/1/messages", body) == []  # what Discord would say
    values = [f["value"] for f in body["embeds"][0]["fields"]]
    assert len(values) == len(PRIZE_GOALS)
    shown = values[0].count("<@")
    assert 5 < shown < 120 and tr("core.and_more", count=120 - shown) in values[0]


# -- pings -----------------------------------------------------------------------------------------------


def crowd_pings(h: DiscordHarness) -> list[FakeMessage]:
    return [m for m in h.fake.messages.values() if m.pings.mass]


async def test_user_typed_pings_in_event_deck_and_counter_names_ping_no_one(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=DATA / "deck_cards.jsonl") as h:
        role = h.add_role("Players")
        typed = f"@everyone @here {role.mention}"
        created = await h.slash(
            "hydra event create", user="admin", name=typed, start="in 1h", heads=2, table_size=2
        )
        assert typed in created.text  # shown as typed ...
        deck = (DATA / "decks" / "heavenly_inferno_cmd2011.txt").read_bytes()
        saved = await h.slash("deck register", name=typed, file=UploadFile("k.txt", deck))
        assert saved.text.startswith("Saved “@\u200beveryone @\u200bhere <@\u200b&")  # defused, and ...
        listed = await h.slash("deck list")
        assert "@\u200beveryone @\u200bhere" in listed.text
        alice, bob = h.user("alice"), h.user("bob")
        board = await h.slash("pod start", players=f"{alice.mention} {bob.mention}")
        opened = await h.click(board, label="Counters …")
        await h.submit_modal(opened, {"name": f"@here {role.mention}"[:32], "amount": "2"})
        await h.settle()
        assert h.fake.messages, "messages were sent"
        assert crowd_pings(h) == []  # ... and pings no one (the harness checks every call too)
        sent = [m for m in h.fake.messages.values() if not m.ephemeral]
        assert all(
            m.allowed_mentions is None or "everyone" not in (m.allowed_mentions.get("parse") or [])
            for m in sent
        )


async def test_a_user_typed_ping_in_a_creature_name_pings_no_one(tmp_path):
    from tests.hydra.test_cog import _fix, latest, open_table

    async with DiscordHarness.start(tmp_path) as h:
        _fix(h)
        role = h.add_role("Players")
        lobby = await open_table(h, "bob")
        await h.slash("hydra heroes", first="The Slayer")
        await h.click(lobby, label="Start", user="bob")
        board = lobby.message
        await h.select(
            board, "hydra-head:1", ["1"], user="alice"
        )  # the seed-5 game of tests/hydra/test_cog.py
        opened = await h.click(board, label="Attack…", user="alice")
        await h.submit_modal(opened, {"text": "1 3"})
        await h.click(board, label="End our turn", user="bob")
        turn = latest(h)
        await h.click(turn, label="Let it resolve", user="bob")
        opened = await h.click(turn, label="Name the creature…", user="alice")
        await h.submit_modal(opened, {"text": f"@everyone {role.mention} @here Bears"})
        await h.settle()
        assert any("Bears" in m.content for m in h.fake.messages.values())  # the typed name is shown ...
        assert crowd_pings(h) == []  # ... and pings no one


async def test_the_bot_pings_users_only_where_it_means_to(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        assert h.bot.allowed_mentions.everyone is False and h.bot.allowed_mentions.roles is False
        bob = h.user("bob")
        reply = await h.slash("card", name=f"{bob.mention} @everyone")  # a mention typed into a card name
        assert reply.message.pings.users == [] and not reply.message.pings.mass


# -- permissions as Discord has them today (part 4) ------------------------------------------------------


def test_the_invite_asks_for_exactly_the_listed_permissions_and_the_manual_says_so():
    assert permissions_integer() == discord.Permissions(**dict.fromkeys(PERMISSIONS, True)).value
    for name, (bit, _why) in PERMISSIONS.items():
        assert getattr(discord.Permissions, name).flag == bit
    assert permissions_integer() == 17901692177408
    setup = (ROOT / "docs" / "operators" / "discord-application.md").read_text(encoding="utf-8")
    assert invite_url() in setup and str(permissions_integer()) in setup
    rows = [line.split("|")[1].strip() for line in setup.splitlines() if line.strip().startswith("| ")]
    listed = [row for row in rows if row not in ("permission", "---")]
    assert listed == [DISPLAY_NAMES[name] for name in PERMISSIONS]
    assert "Manage Events" not in listed and "Read Message History" not in listed
    assert not discord.Permissions(permissions_integer()).manage_events


def test_the_bot_asks_only_for_the_guilds_intent_and_listens_to_no_scheduled_event():
    assert bot_intents().value == discord.Intents(guilds=True).value
    # a cog is a module or a package: read every file of it
    files = [
        path
        for m in cog_modules()
        for path in ([ROOT / f"{m.replace('.', '/')}.py"] + sorted((ROOT / m.replace(".", "/")).glob("*.py")))
        if path.is_file()
    ]
    assert ROOT / "cogs" / "hydra_events" / "cog.py" in files
    sources = "".join(path.read_text(encoding="utf-8") for path in files)
    assert "on_scheduled_event" not in sources  # no listener would miss the dropped intent


async def test_missing_create_public_threads_is_explained_privately_in_the_users_language(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        await h.slash("config pod-threads", user="admin", enabled=True)
        general = h.channel("general")
        deny = PERMISSIONS["create_public_threads"][0]
        general.overwrites[h.fake.bot_role(h.guild).id] = (0, deny, 0)
        h._refresh_guild()
        alice, bob = h.user("alice"), h.user("bob")
        for locale in LOCALES:
            reply = await h.slash(
                "pod start", locale=locale, players=f"{alice.mention} {bob.mention}", expect_refusal=50013
            )
            language = LANGUAGE[locale]
            assert (
                reply.message.embeds and not reply.ephemeral
            )  # the board, in the channel instead of a thread
            (note,) = reply.followups  # and, privately, why there is no thread
            assert note.ephemeral
            assert note.content == t(
                "core.error.bot_missing_permission",
                language,
                permissions=t("core.permission.create_public_threads", language),
            )


async def test_a_winner_role_above_the_bot_is_refused_with_the_reason(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        top = h.fake.bot_role(h.guild).position
        above = h.fake.add_role(h.guild, "Champion", position=top + 1)
        below = h.add_role("Winner")
        for locale in LOCALES:
            refused = await h.slash("config winner-role", user="admin", locale=locale, role=above)
            assert refused.ephemeral
            assert refused.content == t("core.error.role_above_bot", LANGUAGE[locale], role=above.mention)
            assert (await h.bot.guild_settings.get(h.guild.id)).winner_role_id is None  # nothing changed
        await h.slash("config winner-role", user="admin", role=below)
        assert (await h.bot.guild_settings.get(h.guild.id)).winner_role_id == below.id


async def test_a_hydra_event_without_create_events_tells_the_organiser(tmp_path):
    without = permissions_integer([n for n in PERMISSIONS if n != "create_events"]) | (
        1 << 33
    )  # Manage Events
    async with DiscordHarness.start(tmp_path, bot_permissions=without) as h:
        for locale in LOCALES:
            made = await h.slash(
                "hydra event create",
                user="admin",
                locale=locale,
                name="Night",
                start="in 1h",
                heads=2,
                table_size=2,
                expect_refusal=50013,
            )
            assert not h.guild.scheduled_events
            notes = [m for m in made.followups if m.ephemeral]
            assert [m.content for m in notes] == [t("core.error.no_scheduled_event", LANGUAGE[locale])]
    async with DiscordHarness.start(tmp_path / "invited") as h:  # with the invite's permissions
        await h.slash("hydra event create", user="admin", name="Night", start="in 1h", heads=2, table_size=2)
        assert [e.data["name"] for e in h.guild.scheduled_events.values()] == ["Night"]


async def test_an_event_named_with_pings_posts_its_results_pinging_no_crowd(tmp_path):
    from tests.hydra_events.test_cog import board_of, booted, finished

    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        role = h.add_role("Players")
        name = f"@everyone {role.mention} @here night"
        announcement = await h.slash(
            "hydra event create", user="admin", name=name, start="in 1h", heads=2, table_size=2
        )
        for player in ("alice", "bob"):
            await h.click(announcement, label="Join", user=player)
        await h.slash("hydra event begin", user="admin")
        (thread,) = h.threads()
        game_id = board_of(h, thread).buttons[0]["custom_id"].split(":")[1]
        for player in ("alice", "bob"):
            await h.click(board_of(h, thread), custom_id=f"hydra:{game_id}:concede", user=player)
        results = h.fake.messages[(await finished(h)).results_message_id]
        assert name in results.content  # the name as typed, in the content of a channel message ...
        assert results.pings.everyone is False and results.pings.roles == []  # ... pings no crowd
        assert crowd_pings(h) == []
