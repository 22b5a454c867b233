"""Who may run a season and answer a posted result, and who may answer a Hydra event invitation, asked of
every kind of person (see ``_world``): a refusal is private, names the rule and leaves every record
table as it was; the organiser role and Manage Server let through exactly the organisers' steps; a
result is confirmed only by a player at its table; an invitation is answered only by a friend it asks;
another server's manager never reaches this server's season or invitation, by number or by a copy of
their buttons."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.i18n import t
from bot.testing import DiscordHarness
from tests.authz._world import attempt, copy_into, people

SEASON_ORGANISERS = t("season.error.organiser_only", "en")
NOT_AT_TABLE = t("season.error.not_at_table", "en")
NO_OPEN_SEASON = t("season.error.no_open_season", "en")
INVITE_NOT_YOURS = t("hydra_events.invite.not_yours", "en")
INVITE_GONE = t("hydra_events.invite.gone", "en")


@pytest.fixture
async def world(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        other = await people(h)
        yield h, other


async def finished_game(h: DiscordHarness) -> int:
    """A pod game of alice and bob, played to its end (alice wins): scored into the open season."""
    mentions = f"{h.user('alice').mention} {h.user('bob').mention}"
    await h.slash("pod start", user="alice", players=mentions)
    pods = h.bot.get_cog("Pods").service
    (row,) = await pods.recent(h.guild.id, 1)
    alice, bob = h.user("alice").id, h.user("bob").id
    await pods.change(row.game_id, alice, pod.NEXT_TURN)
    await pods.change(row.game_id, alice, pod.LIFE, player=bob, amount=-40, source=alice, combat=True)
    await h.settle()
    return int(row.game_id)


def posted_result(h: DiscordHarness, game_id: int):
    (message,) = [m for m in h.messages() if m.embeds and f"game {game_id}: result" in m.embeds[0]["title"]]
    return message


async def test_only_organisers_open_close_and_decide_a_season(world) -> None:
    h, other = world
    for who in ("alice", "carol"):
        reply, changed = await attempt(h, lambda w=who: h.slash("season open", name="Spring", user=w))
        assert reply.ephemeral and reply.content == SEASON_ORGANISERS and changed == set(), who
    reply, changed = await attempt(h, lambda: h.slash("season open", name="Spring", user="dave"))
    assert "seasons" in changed
    game = await finished_game(h)
    for who in ("alice", "bob", "carol"):  # a player of the game may answer it, never decide it
        reply, changed = await attempt(
            h, lambda w=who: h.slash("season decide", game=game, decision="void", user=w)
        )
        assert reply.ephemeral and reply.content == SEASON_ORGANISERS and changed == set(), who
        reply, changed = await attempt(h, lambda w=who: h.slash("season close", user=w))
        assert reply.ephemeral and reply.content == SEASON_ORGANISERS and changed == set(), who
    for command, options in (
        ("season close", {}),
        ("season decide", {"game": game, "decision": "void"}),
        ("season result", {"game": game, "answer": "confirm"}),
    ):
        reply, changed = await attempt(h, lambda c=command, o=options: other.slash(c, **o))
        assert reply.ephemeral and changed == set(), command  # no season there; this one is out of reach
    reply, changed = await attempt(
        h, lambda: h.slash("season decide", game=game, decision="void", user="mod")
    )
    assert changed and not reply.ephemeral  # Manage Server organises too
    reply, changed = await attempt(h, lambda: h.slash("season close", user="dave"))
    assert "seasons" in changed


async def test_only_a_player_at_the_table_answers_its_posted_result(world) -> None:
    h, other = world
    await h.slash("season open", name="Spring", user="dave")
    game = await finished_game(h)
    message = posted_result(h, game)
    confirm = message.component(label="Confirm")
    dispute = message.component(label="Dispute")
    for who in ("carol", "dave", "mod", "admin"):  # nobody answers for the table, not even an organiser
        for button in (confirm, dispute):
            reply, changed = await attempt(
                h, lambda w=who, b=button: h.click(message, custom_id=b["custom_id"], user=w)
            )
            assert reply.ephemeral and NOT_AT_TABLE in reply.text and changed == set(), (who, button["label"])
        reply, changed = await attempt(
            h, lambda w=who: h.slash("season result", game=game, answer="dispute", user=w)
        )
        assert reply.ephemeral and reply.content == NOT_AT_TABLE and changed == set(), who
    copy = copy_into(other, message)
    for button in (confirm, dispute):
        reply, changed = await attempt(h, lambda b=button: other.click(copy, custom_id=b["custom_id"]))
        assert reply.ephemeral and changed == set(), button["label"]
    reply, changed = await attempt(h, lambda: h.click(message, custom_id=confirm["custom_id"], user="bob"))
    assert changed and "1/2 confirmed" in message.embeds[0]["description"]


# -- a Hydra event invitation --------------------------------------------------------------------------


async def invitation(h: DiscordHarness):
    """alice joins the organisers' Hydra event with bob as her friend: the invitation asking bob."""
    await h.slash("hydra event create", name="Night", start="in 30 minutes", table_size=4, user="dave")
    asked = await h.slash("hydra event join", user="alice", friend1="bob")
    (message,) = [m for m in asked.created if not m.ephemeral]
    return message


async def test_only_the_invited_friend_answers_an_event_invitation(world) -> None:
    h, other = world
    message = await invitation(h)
    for who in ("alice", "carol", "dave", "mod", "admin"):  # the inviter neither: bob is asked, not them
        for label in ("Accept", "Decline"):
            reply, changed = await attempt(h, lambda w=who, b=label: h.click(message, label=b, user=w))
            assert reply.ephemeral and reply.content == INVITE_NOT_YOURS and changed == set(), (who, label)
    copy = copy_into(other, message)
    for label in ("Accept", "Decline"):
        reply, changed = await attempt(h, lambda b=label: other.click(copy, label=b))
        assert reply.ephemeral and reply.content == INVITE_NOT_YOURS and changed == set(), label
    reply, changed = await attempt(h, lambda: h.click(message, label="Accept", user="bob"))
    assert "hydra_event_entrants" in changed


async def test_an_invitation_copied_into_another_server_is_answered_only_where_it_was_asked(world) -> None:
    """bob is in both servers: the invitation is his to answer, in the server whose event it is."""
    h, other = world
    message = await invitation(h)
    other.fake.add_member(other.guild, h.user("bob").user)
    reply, changed = await attempt(
        h, lambda: other.click(copy_into(other, message), label="Accept", user="bob")
    )
    assert reply.ephemeral and reply.content == INVITE_GONE and changed == set()
    reply, changed = await attempt(h, lambda: h.click(message, label="Accept", user="bob"))
    assert "hydra_event_entrants" in changed
