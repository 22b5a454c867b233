"""Joining an event with friends asks the friends first: ``friend1:@X`` used to enter X at once (any
member, pinged, never asked) and then X could not join with their own friends. Now an invitation pings
only the friends; nobody is entered until all accept; a decline enters nobody; only the invited may
answer; refusals the inviter can fix are told to the inviter at once. Invitations are stored: a restart
keeps them, and their expiry runs on the bot's clock from when they were asked."""

from __future__ import annotations

from bot.i18n import t
from bot.testing import DiscordHarness
from tests.hydra_events.test_cog import booted, cog, create


def invitation_of(reply):
    (message,) = [m for m in reply.created if not m.ephemeral]
    return message


async def test_a_friend_is_asked_and_nobody_is_entered_until_they_accept(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=4)
        asked = await h.slash("hydra event join", user="alice", friend1="bob")
        invitation = invitation_of(asked)
        bob = h.user("bob").id
        assert f"<@{bob}>" in invitation.content and invitation.pings.users == [bob]  # pings bob alone
        assert await cog(h).events.repo.entrants(1) == []  # asked, not entered
        stranger = await h.click(invitation, label="Accept", user="carol", locale="ja")
        assert stranger.ephemeral and stranger.content == t("hydra_events.invite.not_yours", "ja")
        await h.click(invitation, label="Accept", user="bob")
        entrants = await cog(h).events.repo.entrants(1)
        assert (
            sorted(e.name for e in entrants) == ["alice", "bob"] and len({e.group_id for e in entrants}) == 1
        )
        assert "accepted" in invitation.content and invitation.components == []


async def test_a_declined_invitation_enters_nobody_and_leaves_the_friend_free(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=4)
        invitation = invitation_of(await h.slash("hydra event join", user="alice", friend1="bob"))
        await h.click(invitation, label="Decline", user="bob")
        assert await cog(h).events.repo.entrants(1) == [] and invitation.components == []
        # bob was never entered by alice: he joins with his own friend
        own = invitation_of(await h.slash("hydra event join", user="bob", friend1="carol"))
        await h.click(own, label="Accept", user="carol")
        assert sorted(e.name for e in await cog(h).events.repo.entrants(1)) == ["bob", "carol"]


async def test_an_invitation_survives_a_restart_and_is_answered_after_it(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=4)
        invitation = invitation_of(
            await h.slash("hydra event join", user="alice", friend1="bob", friend2="carol")
        )
        await h.click(invitation, label="Accept", user="bob")
        await h.restart()  # the invitation, and bob's acceptance, are stored
        assert await cog(h).events.repo.entrants(1) == []
        await h.click(invitation, label="Accept", user="carol")
        entrants = await cog(h).events.repo.entrants(1)
        assert sorted(e.name for e in entrants) == ["alice", "bob", "carol"]
        assert len({e.group_id for e in entrants}) == 1 and invitation.components == []
        assert await cog(h).invitations.stored.all_open() == []


async def test_an_invitation_expires_on_the_bot_clock_even_across_a_restart(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=4, start="in 30h")
        invitation = invitation_of(await h.slash("hydra event join", user="alice", friend1="bob"))
        await h.advance(hours=23)
        assert invitation.components != []  # still open
        await h.restart()  # the expiry is re-armed from the stored time, not restarted from now
        await h.advance(hours=1, seconds=1)
        assert invitation.components == []  # no button left to press
        assert invitation.content == t(
            "hydra_events.invite.expired",
            "en",
            friends=f"<@{h.user('bob').id}>",
            inviter=f"<@{h.user('alice').id}>",
            event="Hydra night",
        )
        assert await cog(h).events.repo.entrants(1) == []
        assert await cog(h).invitations.stored.all_open() == []


async def test_asking_again_replaces_the_inviters_open_invitation(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=4)
        first = invitation_of(await h.slash("hydra event join", user="alice", friend1="bob"))
        invitation_of(await h.slash("hydra event join", user="alice", friend1="carol"))
        stale = await h.click(first, label="Accept", user="bob", locale="zh-TW")
        assert stale.ephemeral and stale.content == t("hydra_events.invite.gone", "zh-Hant")
        assert await cog(h).events.repo.entrants(1) == []
        assert len(await cog(h).invitations.stored.all_open()) == 1


async def test_the_inviter_hears_a_refusal_at_once(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=2)
        too_many = await h.slash("hydra event join", user="alice", friend1="bob", friend2="carol")
        assert too_many.ephemeral and not [m for m in too_many.created if not m.ephemeral]
        assert too_many.content == t("hydra_events.error.group_too_big", "en", max=2)
        await h.slash("hydra event join", user="bob")
        taken = await h.slash("hydra event join", user="alice", friend1="bob")
        assert "Already in this event: bob" in taken.content and not [
            m for m in taken.created if not m.ephemeral
        ]
