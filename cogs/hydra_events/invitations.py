"""Joining an event with friends asks the friends first.

``/hydra event join friend1:@X`` used to enter X at once - any member, pinged, seated without being
asked - and X, now in someone else's group, could no longer join with their own friends. Now the
command posts an invitation that pings only the invited friends, with Accept and Decline buttons;
nobody is entered until every friend has accepted, and then the whole group joins together (the same
join as before). A decline ends the invitation with nobody entered.

Invitations live in memory: they are short-lived, and after a restart their buttons say the invitation
is no longer open (ask again), which is honest and stores no one's id for later. Their keys are random,
so a stale button never answers a newer invitation.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import discord

from bot.domain.hydra_events import EventError
from bot.i18n import Translate
from bot.storage.hydra_events import EventRow
from bot.text import member_name
from cogs._buttons import KeyedButton
from cogs._common import bot_of
from cogs.hydra_events.panels import shown

Members = list[tuple[int, str]]
EnterGroup = Callable[[discord.Interaction, EventRow, Members], Awaitable[None]]
CheckJoin = Callable[[int, Members], Awaitable[None]]
MAX_OPEN = 1000  # invitations waiting at once in this process; the oldest goes beyond that


@dataclass
class Invitation:
    event: EventRow
    inviter: tuple[int, str]
    friends: dict[int, str]  # user id -> display name
    accepted: set[int] = field(default_factory=set)

    def members(self) -> Members:
        return [self.inviter, *self.friends.items()]

    def mentions(self) -> str:
        return " ".join(f"<@{user}>" for user in self.friends)


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
    """The open invitations of one bot process, and what their buttons do."""

    def __init__(self, enter_group: EnterGroup, check_may_join: CheckJoin) -> None:
        self.enter_group, self.check_may_join = enter_group, check_may_join
        self.open: dict[int, Invitation] = {}

    async def ask(
        self, interaction: discord.Interaction, event: EventRow, friends: list[discord.Member], tr: Translate
    ) -> None:
        """Post the invitation (pinging the friends, no one else) and tell the inviter privately."""
        user = interaction.user
        invitation = Invitation(
            event,
            (user.id, member_name(user.display_name, user.id)),
            {f.id: member_name(f.display_name, f.id) for f in friends},
        )
        await self.check_may_join(event.event_id, invitation.members())
        key = self._keep(invitation)
        shared = Translate(event.language)
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(key, label=shared("hydra_events.invite.accept")))
        view.add_item(DeclineButton(key, label=shared("hydra_events.invite.decline")))
        await interaction.response.send_message(
            tr("hydra_events.invite.sent", friends=invitation.mentions()),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send(
            shared(
                "hydra_events.invite.asked",
                friends=invitation.mentions(),
                inviter=f"<@{user.id}>",
                event=shown(event.name),
            ),
            view=view,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=list(friends)),
        )

    def _keep(self, invitation: Invitation) -> int:
        if len(self.open) >= MAX_OPEN:
            del self.open[next(iter(self.open))]
        key = secrets.randbelow(2**48) + 1
        self.open[key] = invitation
        return key

    async def answer(self, interaction: discord.Interaction, key: int, *, accepted: bool) -> None:
        tr = Translate(await bot_of(interaction).language_for(interaction))
        invitation = self.open.get(key)
        if invitation is None:
            await interaction.response.send_message(tr("hydra_events.invite.gone"), ephemeral=True)
            return
        user = interaction.user.id
        if user not in invitation.friends:
            await interaction.response.send_message(tr("hydra_events.invite.not_yours"), ephemeral=True)
            return
        shared = Translate(invitation.event.language)
        if not accepted:
            del self.open[key]
            await interaction.response.edit_message(
                content=shared(
                    "hydra_events.invite.declined", friend=f"<@{user}>", inviter=f"<@{invitation.inviter[0]}>"
                ),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        invitation.accepted.add(user)
        if invitation.accepted != set(invitation.friends):
            await interaction.response.edit_message(
                content=shared(
                    "hydra_events.invite.waiting",
                    friends=invitation.mentions(),
                    inviter=f"<@{invitation.inviter[0]}>",
                    event=shown(invitation.event.name),
                    accepted=len(invitation.accepted),
                    total=len(invitation.friends),
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        del self.open[key]  # before entering: a second press meanwhile finds it answered
        try:
            await self.enter_group(interaction, invitation.event, invitation.members())
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
                friends=invitation.mentions(),
                inviter=f"<@{invitation.inviter[0]}>",
                event=shown(invitation.event.name),
            ),
        )

    @staticmethod
    async def _close(interaction: discord.Interaction, text: str) -> None:
        """The invitation message, answered: its text says how, its buttons go."""
        if interaction.message is not None:
            await interaction.message.edit(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
