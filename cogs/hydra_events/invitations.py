"""Joining an event with friends asks the friends first.

``/hydra event join friend1:@X`` used to enter X at once - any member, pinged, seated without being
asked - and X, now in someone else's group, could no longer join with their own friends. Now the
command posts an invitation that pings only the invited friends, with Accept and Decline buttons;
nobody is entered until every friend has accepted, and then the whole group joins together (the same
join as before). A decline ends the invitation with nobody entered.

Invitations are stored (bot/storage/event_invitations.py), so a restart keeps them: a friend who
accepts after the bot restarted is entered as if it had not. Each expires ``LIFETIME`` after it was
asked, on the bot's clock: its message then says so and loses its buttons. The expiry timers are armed
again at start (``rearm``). Keys are random, so a stale button never answers a newer invitation.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from datetime import timedelta

import discord

from bot.clock import Clock
from bot.domain.hydra_events import EventError
from bot.i18n import Translate
from bot.storage.event_invitations import InvitationRepository, StoredInvitation
from bot.storage.hydra_events import EventRow
from bot.text import member_name
from cogs._buttons import KeyedButton
from cogs._common import bot_of
from cogs._timers import Timers
from cogs.hydra_events.panels import shown

log = logging.getLogger(__name__)

Members = list[tuple[int, str]]
EnterGroup = Callable[[discord.Interaction, EventRow, Members], Awaitable[None]]
CheckJoin = Callable[[int, Members], Awaitable[None]]
EventOf = Callable[[int], Awaitable[EventRow]]
LIFETIME = timedelta(hours=24)  # an invitation nobody finished answering by then is withdrawn


def _mentions(user_ids: Iterable[int]) -> str:
    return " ".join(f"<@{user}>" for user in user_ids)


def _invitations(interaction: discord.Interaction) -> Invitations:
    from cogs.hydra_events.cog import HydraEventsCog  # the cog imports this module

    cog = bot_of(interaction).get_cog(HydraEventsCog.__cog_name__)
    assert isinstance(cog, HydraEventsCog), "the HydraEvents cog is not loaded"
    return cog.invitations


class AcceptButton(KeyedButton, prefix="hevent-invite:accept", style=discord.ButtonStyle.success):
    async def pressed(self, interaction: discord.Interaction) -> None:
        await _invitations(interaction).answer(interaction, self.key, accepted=True)


class DeclineButton(KeyedButton, prefix="hevent-invite:decline"):
    async def pressed(self, interaction: discord.Interaction) -> None:
        await _invitations(interaction).answer(interaction, self.key, accepted=False)


class Invitations:
    """The open invitations (stored), what their buttons do, and their expiry timers."""

    def __init__(
        self,
        bot: discord.Client,
        enter_group: EnterGroup,
        check_may_join: CheckJoin,
        event_of: EventOf,
        timers: Timers,
        clock: Clock,
    ) -> None:
        self.bot, self.enter_group, self.check_may_join, self.event_of = (
            bot,
            enter_group,
            check_may_join,
            event_of,
        )
        self.timers, self.clock = timers, clock
        self.repo: InvitationRepository | None = None  # the bot's database, once the cog is loaded

    @property
    def stored(self) -> InvitationRepository:
        assert self.repo is not None, "the HydraEvents cog is not loaded"
        return self.repo

    async def ask(
        self, interaction: discord.Interaction, event: EventRow, friends: list[discord.Member], tr: Translate
    ) -> None:
        """Post the invitation (pinging the friends, no one else) and tell the inviter privately."""
        user = interaction.user
        inviter = (user.id, member_name(user.display_name, user.id))
        invited = [(f.id, member_name(f.display_name, f.id)) for f in friends]
        await self.check_may_join(event.event_id, [inviter, *invited])
        key = secrets.randbelow(2**48) + 1
        now = self.clock.now()
        for replaced in await self.stored.add(
            key, event.event_id, inviter, invited, asked_at=now, expires_at=now + LIFETIME
        ):
            self.timers.cancel(("invite", replaced.event_id, replaced.key))
        shared = Translate(event.language)
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(key, label=shared("hydra_events.invite.accept")))
        view.add_item(DeclineButton(key, label=shared("hydra_events.invite.decline")))
        friend_ids = [f.id for f in friends]
        await interaction.response.send_message(
            tr("hydra_events.invite.sent", friends=_mentions(friend_ids)),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        message = await interaction.followup.send(
            shared(
                "hydra_events.invite.asked",
                friends=_mentions(friend_ids),
                inviter=f"<@{user.id}>",
                event=shown(event.name),
            ),
            view=view,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=list(friends)),
            wait=True,
        )
        await self.stored.posted(key, message.channel.id, message.id)
        invitation = await self.stored.get(key)
        if invitation is not None:
            self.arm(invitation)

    # -- expiry ---------------------------------------------------------------------------------------
    async def rearm(self) -> None:
        """At start (or when this process takes the events' timers over): every stored invitation's
        expiry, from the time it was asked (a clock that jumped back is noticed by ``Timers.at``)."""
        for invitation in await self.stored.all_open():
            self.arm(invitation)

    def arm(self, invitation: StoredInvitation) -> None:
        self.timers.at(
            ("invite", invitation.event_id, invitation.key),
            invitation.expires_at,
            lambda: self._expire(invitation.key),
            armed=invitation.asked_at,
        )

    async def _expire(self, key: int) -> None:
        """Withdraw an invitation nobody finished answering: its message says so and loses its buttons."""
        invitation = await self.stored.remove(key)
        if invitation is None or invitation.message_id is None or invitation.channel_id is None:
            return  # answered meanwhile, or never posted (the bot stopped in between)
        event = await self.event_of(invitation.event_id)
        shared = Translate(event.language)
        text = shared(
            "hydra_events.invite.expired",
            friends=_mentions(invitation.friends),
            inviter=f"<@{invitation.inviter[0]}>",
            event=shown(event.name),
        )
        message = self.bot.get_partial_messageable(invitation.channel_id).get_partial_message(
            invitation.message_id
        )
        try:
            await message.edit(content=text, view=None, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as failure:  # deleted, or the channel is gone: nothing to show it on
            log.info("expired invitation %s: its message could not be edited (%s)", key, failure)

    # -- answers --------------------------------------------------------------------------------------
    async def answer(self, interaction: discord.Interaction, key: int, *, accepted: bool) -> None:
        tr = Translate(await bot_of(interaction).language_for(interaction))
        invitation = await self.stored.get(key)
        if invitation is None or invitation.expires_at <= self.clock.now():
            await interaction.response.send_message(tr("hydra_events.invite.gone"), ephemeral=True)
            return
        user = interaction.user.id
        if user not in invitation.friends:
            await interaction.response.send_message(tr("hydra_events.invite.not_yours"), ephemeral=True)
            return
        event = await self.event_of(invitation.event_id)
        if event.guild_id != interaction.guild_id:
            # A copy of the invitation pressed in another server: no invitation there (answering it would
            # enter the event here and post its name and the group's pings over there).
            await interaction.response.send_message(tr("hydra_events.invite.gone"), ephemeral=True)
            return
        shared = Translate(event.language)
        if not accepted:
            await self._declined(interaction, key, shared)
            return
        answer = await self.stored.accept(key, user)
        if answer is None:  # answered or withdrawn between the two reads
            await interaction.response.send_message(tr("hydra_events.invite.gone"), ephemeral=True)
            return
        invitation = answer.invitation
        if not answer.complete:
            await interaction.response.edit_message(
                content=shared(
                    "hydra_events.invite.waiting",
                    friends=_mentions(invitation.friends),
                    inviter=f"<@{invitation.inviter[0]}>",
                    event=shown(event.name),
                    accepted=len(invitation.accepted),
                    total=len(invitation.friends),
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        self.timers.cancel(("invite", invitation.event_id, key))
        try:
            await self.enter_group(interaction, event, invitation.members())
        except EventError as refusal:  # e.g. the inviter joined alone meanwhile: told to the accepter
            await self._close(
                interaction,
                shared("hydra_events.invite.failed", reason=shared(refusal.key, **refusal.values)),
            )
            raise
        await self._close(
            interaction,
            shared(
                "hydra_events.invite.all_accepted",
                friends=_mentions(invitation.friends),
                inviter=f"<@{invitation.inviter[0]}>",
                event=shown(event.name),
            ),
        )

    async def _declined(self, interaction: discord.Interaction, key: int, shared: Translate) -> None:
        invitation = await self.stored.remove(key)
        if invitation is None:
            tr = Translate(await bot_of(interaction).language_for(interaction))
            await interaction.response.send_message(tr("hydra_events.invite.gone"), ephemeral=True)
            return
        self.timers.cancel(("invite", invitation.event_id, key))
        await interaction.response.edit_message(
            content=shared(
                "hydra_events.invite.declined",
                friend=f"<@{interaction.user.id}>",
                inviter=f"<@{invitation.inviter[0]}>",
            ),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @staticmethod
    async def _close(interaction: discord.Interaction, text: str) -> None:
        """The invitation message, answered: its text says how, its buttons go."""
        if interaction.message is not None:
            await interaction.message.edit(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
