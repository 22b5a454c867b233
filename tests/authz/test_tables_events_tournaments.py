"""Who may act on challenge tables, Hydra events, tournaments, decks and a member's own data, asked of every
kind of person (see ``_world``): a refusal is private, names the rule, and leaves every record table as it
was; the organiser role and Manage Server let through exactly what they should; another server's manager
never reaches this server's records, by number or by a copy of their buttons."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.testing import DiscordHarness
from tests.authz._world import attempt, copy_into, people

NO_TABLE = t("hydra.error.no_table", "en")
NOT_A_CHALLENGER = t("hydra.error.not_a_challenger", "en")
EVENT_ORGANISERS = t("hydra_events.error.organiser_only", "en")
NO_EVENT = t("hydra_events.error.no_event", "en")
TOURNAMENT_ORGANISERS = t("tournament.organiser_only", "en")
NO_TOURNAMENT = t("tournament.error.no_tournament", "en")
MANAGERS_ONLY = "You need the Manage Server permission for this."


@pytest.fixture
async def world(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        other = await people(h)
        yield h, other


async def test_a_hydra_lobby_copied_into_another_server_is_no_table_there(world) -> None:
    h, other = world
    lobby = await h.slash("hydra start", heads=3, user="alice")
    copy = copy_into(other, lobby)
    for action in ("join", "leave", "start"):
        reply, changed = await attempt(h, lambda a=action: other.click(copy, custom_id=f"hydra:1:{a}"))
        assert NO_TABLE in reply.text and changed == set(), action
    reply, changed = await attempt(h, lambda: h.click(lobby, custom_id="hydra:1:start", user="carol"))
    assert NOT_A_CHALLENGER in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.click(lobby, custom_id="hydra:1:join", user="carol"))
    assert changed == {"challenge_table_seats"}  # joining an open table is anyone's own choice here


async def test_a_challenge_table_copied_into_another_server_is_no_table_there(world) -> None:
    h, other = world
    table = await h.slash("challenge start", deck="god", user="alice")
    copy = copy_into(other, table)
    for action in ("join", "start"):
        reply, changed = await attempt(h, lambda a=action: other.click(copy, custom_id=f"chal:1:{a}"))
        assert NO_TABLE in reply.text and changed == set(), action
        assert "Hydra" not in reply.text  # the God's table is not called a Hydra's
    # the lobby's Hero cards select too: to another server the table does not exist (not "not seated")
    reply, changed = await attempt(h, lambda: other.select(copy, "chal-heroes:1", ["The Slayer"]))
    assert NO_TABLE in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.click(table, custom_id="chal:1:start", user="carol"))
    assert NOT_A_CHALLENGER in reply.text and changed == set()


EVENT_STEPS = ["hydra event begin", "hydra event end", "hydra event cancel"]


async def test_only_organisers_create_and_run_a_hydra_event(world) -> None:
    h, _ = world
    reply, changed = await attempt(
        h, lambda: h.slash("hydra event create", name="Night", start="in 30 minutes", user="alice")
    )
    assert reply.ephemeral and reply.content == EVENT_ORGANISERS and changed == set()
    reply, changed = await attempt(
        h, lambda: h.slash("hydra event create", name="Night", start="in 30 minutes", user="dave")
    )
    assert "hydra_events" in changed
    for step in EVENT_STEPS:
        for who in ("alice", "carol"):
            reply, changed = await attempt(h, lambda s=step, w=who: h.slash(s, user=w))
            assert reply.ephemeral and reply.content == EVENT_ORGANISERS and changed == set(), (step, who)


async def test_another_servers_manager_cannot_reach_an_event_by_number_or_by_its_buttons(world) -> None:
    h, other = world
    await h.slash("hydra event create", name="Night", start="in 30 minutes", user="dave")
    [announcement] = [m for m in h.messages() if m.buttons]
    for step in [
        *EVENT_STEPS,
        "hydra event join",
        "hydra event leave",
        "hydra event page",
        "hydra event status",
    ]:
        reply, changed = await attempt(h, lambda s=step: other.slash(s, event=1))
        assert reply.ephemeral and reply.content == NO_EVENT and changed == set(), step
    copy = copy_into(other, announcement)
    for action in ("join", "leave"):
        reply, changed = await attempt(h, lambda a=action: other.click(copy, custom_id=f"hevent:1:{a}"))
        assert NO_EVENT in reply.text and changed == set(), action


TOURNAMENT_STEPS = [
    ("tournament pair", {}),
    ("tournament correct", {"player": "bob", "points": 3, "reason": "a scoring slip"}),
    ("tournament end", {}),
]


async def test_only_organisers_create_and_run_a_tournament(world) -> None:
    h, other = world
    reply, changed = await attempt(h, lambda: h.slash("tournament create", name="Cup", user="alice"))
    assert reply.ephemeral and reply.content == TOURNAMENT_ORGANISERS and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("tournament create", name="Cup", user="dave"))
    assert changed == {"tournaments"}
    for who in ("alice", "bob", "carol"):
        await h.slash("tournament join", user=who)
    for command, options in TOURNAMENT_STEPS:
        reply, changed = await attempt(h, lambda c=command, o=options: h.slash(c, user="alice", **o))
        assert reply.ephemeral and reply.content == TOURNAMENT_ORGANISERS and changed == set(), command
        reply, changed = await attempt(
            h,
            lambda c=command, o=options: other.slash(
                c, **{k: ("elsewhere_owner" if k == "player" else v) for k, v in o.items()}
            ),
        )
        assert reply.content == NO_TOURNAMENT and changed == set(), command
    reply, changed = await attempt(
        h, lambda: h.slash("tournament correct", player="bob", points=3, reason="a scoring slip", user="dave")
    )
    assert changed == {"tournament_corrections"}


async def test_revealing_votes_takes_manage_server_not_the_organiser_role(world) -> None:
    h, _ = world
    for who in ("alice", "dave"):
        reply, changed = await attempt(
            h, lambda w=who: h.slash("tournament reveal-votes", enabled=True, user=w)
        )
        assert reply.ephemeral and reply.content == MANAGERS_ONLY and changed == set(), who
    reply, changed = await attempt(h, lambda: h.slash("tournament reveal-votes", enabled=True, user="mod"))
    assert changed == {"tournament_guild_settings"}


async def test_only_a_manager_deletes_someone_elses_deck(world) -> None:
    h, other = world
    await h.slash(
        "deck register", name="mine", decklist="1 Sol Ring\n1 Atraxa, Praetors' Voice", user="alice"
    )
    for who in ("carol", "dave"):
        reply, changed = await attempt(
            h, lambda w=who: h.slash("deck delete", name="mine", owner="alice", user=w)
        )
        assert reply.ephemeral and reply.content == MANAGERS_ONLY and changed == set(), who
    reply, changed = await attempt(
        h, lambda: other.slash("deck delete", name="mine", owner="elsewhere_owner")
    )
    assert reply.content == t("deck.error.not_found", "en", name="mine") and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("deck delete", name="mine", owner="alice", user="mod"))
    confirm = [b for b in reply.message.buttons if b.get("style") == 4]
    if confirm:  # a deletion is confirmed with a button first
        reply, changed = await attempt(
            h, lambda: h.click(reply, custom_id=confirm[0]["custom_id"], user="mod")
        )
    assert changed == {"decks"} or changed == {"decks", "deck_verdict_changes"}


async def test_a_members_delete_confirmation_is_theirs_alone(world) -> None:
    h, _ = world
    await h.slash("config my-language", language="ja", user="alice")
    asked = await h.slash("privacy delete", user="alice")
    [button] = asked.message.buttons
    for who in ("bob", "mod", "admin"):  # a member, a manager, the owner: none may confirm it for alice
        reply, changed = await attempt(h, lambda w=who: h.click(asked, custom_id=button["custom_id"], user=w))
        assert t("privacy.delete.not_yours", "en") in reply.text and changed == set(), who


async def test_a_practice_hand_and_hero_cards_are_their_owners_alone(world) -> None:
    h, _ = world
    await h.slash("deck register", name="d", decklist="1 Atraxa, Praetors' Voice\n99 Forest", user="alice")
    practice = await h.slash("mulligan practice", deck="d", user="alice")
    keep = practice.message.component(label="Keep")
    reply, changed = await attempt(h, lambda: h.click(practice, custom_id=keep["custom_id"], user="bob"))
    assert "belong to someone else" in reply.text and changed == set()
    for label in ("Mulligan", "Mulligan", "Keep"):  # a London keep after two: one card to the bottom
        await h.click(practice, label=label, user="alice")
    bottom = practice.message.components[0]["components"][0]["custom_id"]
    reply, changed = await attempt(h, lambda: h.select(practice, bottom, ["0"], user="bob"))
    assert "belong to someone else" in reply.text and changed == set()
    chosen = await h.select(practice, bottom, ["0"], user="alice")
    assert "Kept 6 cards" in chosen.text or "6 cards" in chosen.text, chosen.text
    await h.slash("hydra start", heads=3, user="alice")
    reply, changed = await attempt(h, lambda: h.slash("hydra heroes", first="The Slayer", user="bob"))
    assert reply.ephemeral and reply.content == NOT_A_CHALLENGER and changed == set()
