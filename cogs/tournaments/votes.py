"""The democratic vote (T3) of the tournament cog: when a pod game linked to a tournament ends, the table
gets one public message with a Vote button and a count of votes cast (votes are secret). Each player picks
one OTHER player of that table in a private select; votes can be changed until the vote closes, when all
have voted or at the stored deadline (rescheduled at load, overdue ones closed at once)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

import discord
from discord.ext import commands

from bot.clock import clock_of
from bot.domain.pod import PodGameRecord
from bot.domain.tournament import TournamentError
from bot.i18n import t
from bot.services.tournaments import VoteOutcome
from bot.storage.tournaments import TournamentGame
from cogs._timers import sane_due
from cogs.tournaments.components import COLOUR, BallotSelect, VoteButton, mention
from cogs.tournaments.standings import StandingsMessages

log = logging.getLogger(__name__)


class VoteDesk(StandingsMessages):
    """The vote messages, ballots, deadlines and results (a layer of ``TournamentCog``, see ``base``)."""

    @commands.Cog.listener()
    async def on_pod_game_finished(self, record: PodGameRecord) -> None:
        """A pod game ended: if it belongs to a tournament, store it and open its vote."""
        if record.match_id is not None:
            return  # a game of a 1-vs-1 match: the match is what scores (cogs/tournaments/matches.py)
        try:
            game = await self.service.record_finished_game(record)
        except TournamentError:
            log.exception("could not record finished game %s for its tournament", record.game_id)
            return
        if game is None or game.channel_id is None:
            return
        if not game.vote_open:
            await self._announce(await self.service.outcome(game.game_id))
            return
        await self._post_vote_message(game)
        self._schedule(game)

    async def _post_vote_message(self, game: TournamentGame) -> None:
        """Ask the table to vote: the players are pinged, the embed explains T3, the button opens a ballot."""
        if game.channel_id is None:
            return
        language = await self._guild_language((await self.service.tournament_of(game)).guild_id)
        status = await self.service.vote_status(game.game_id)
        try:
            message = await self.bot.get_partial_messageable(game.channel_id).send(
                content=" ".join(mention(p.user_id) for p in game.players),
                embed=self._vote_embed(game, status.cast, language),
                view=self._vote_view(game, language),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException:
            log.warning("could not post the vote of game %s", game.game_id)
            return
        await self.service.set_vote_message(game.game_id, message.id)

    def _vote_view(self, game: TournamentGame, language: str) -> discord.ui.View:
        return VoteButton(game.game_id, label=t("tournament.vote.button", language)).alone()

    @staticmethod
    def _vote_embed(game: TournamentGame, cast: int, language: str) -> discord.Embed:
        deadline = int(datetime.fromisoformat(game.vote_deadline or game.finished_at).timestamp())
        embed = discord.Embed(
            title=t("tournament.vote.title", language, game=game.game_id),
            description=t(
                "tournament.vote.body",
                language,
                players=" ".join(mention(p.user_id) for p in game.players),
                deadline=f"<t:{deadline}:R>",
            ),
            colour=COLOUR,
        )
        embed.set_footer(text=t("tournament.vote.count", language, cast=cast, total=len(game.players)))
        return embed

    async def open_ballot(self, interaction: discord.Interaction, game_id: int) -> None:
        """The private ballot: the other players of that table (T3: not oneself)."""
        tr = await self._tr(interaction)
        game = await self.service.game(game_id)
        seated = [p.user_id for p in game.players]
        if interaction.user.id not in seated:
            raise TournamentError("not_at_table", game=game_id)
        if not game.vote_open:
            raise TournamentError("vote_closed", game=game_id)
        names = await self.service.names(game.tournament_id)
        mine = await self.service.vote_of(game_id, interaction.user.id)
        options = [
            discord.SelectOption(
                label=names.get(user, str(user))[:100], value=str(user), default=user == mine
            )
            for user in seated
            if user != interaction.user.id
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(BallotSelect(game_id, options, placeholder=tr("tournament.vote.placeholder")))
        await interaction.response.send_message(
            tr("tournament.vote.ballot", game=game_id), view=view, ephemeral=True
        )

    async def cast_vote(self, interaction: discord.Interaction, game_id: int, votee: int) -> None:
        status, outcome = await self.service.cast_vote(game_id, interaction.user.id, votee)
        tr = await self._tr(interaction)
        await interaction.response.edit_message(content=tr("tournament.vote.recorded", votee=mention(votee)))
        if outcome is not None:
            self._cancel_deadline(game_id)
            await self._announce(outcome)
        else:
            await self._update_count(game_id, status.cast)

    async def _update_count(self, game_id: int, cast: int) -> None:
        game = await self.service.game(game_id)
        if game.vote_message_id is None or game.channel_id is None:
            return
        language = await self._guild_language((await self.service.tournament_of(game)).guild_id)
        message = self.bot.get_partial_messageable(game.channel_id).get_partial_message(game.vote_message_id)
        try:
            await message.edit(embed=self._vote_embed(game, cast, language))
        except discord.HTTPException:
            log.warning("could not update the vote count of game %s", game_id)

    def _result_embed(self, outcome: VoteOutcome, language: str) -> discord.Embed:
        def survived(user: int) -> bool:
            return any(p.user_id == user and p.survived for p in outcome.game.players)

        # Survived or out in words: "survived —" read as "survived" for a player who was out.
        lines = [
            t(
                "tournament.result.line_survived" if survived(user) else "tournament.result.line_out",
                language,
                player=mention(user),
                votes=outcome.received[user],
                points=outcome.points[user],
            )
            for user in sorted(outcome.points, key=lambda u: (-outcome.points[u], -outcome.received[u]))
        ]
        title = "tournament.result.title" if outcome.game.vote_deadline else "tournament.result.title_no_vote"
        return discord.Embed(
            title=t(title, language, game=outcome.game.game_id), description="\n".join(lines), colour=COLOUR
        )

    async def _announce(self, outcome: VoteOutcome) -> None:
        """Closed: the table sees the result on the vote message (edited, buttons gone)."""
        game = outcome.game
        if game.channel_id is None:
            return
        language = await self._guild_language(outcome.tournament.guild_id)
        channel = self.bot.get_partial_messageable(game.channel_id)
        embed = self._result_embed(outcome, language)
        try:
            if game.vote_message_id is not None:
                await channel.get_partial_message(game.vote_message_id).edit(embed=embed, view=None)
            else:
                await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not show the vote result of game %s", game.game_id)
            return
        await self.service.mark_announced(game.game_id)

    async def reconcile(self) -> int:
        """After a start: store finished tournament games the tournament missed (opening their
        vote), refresh every open vote's count, and show every closed vote's result not yet shown."""
        count = 0
        if (pods_cog := self.pods) is not None:
            for game_id in await self.service.unrecorded_finished_games():
                record = (await pods_cog.service.get(game_id)).record
                if record is not None:
                    await self.on_pod_game_finished(record)
                    count += 1
        for game in await self.service.open_votes():
            if game.vote_message_id is not None:
                await self._update_count(game.game_id, (await self.service.vote_status(game.game_id)).cast)
                count += 1
        for game_id in await self.service.unannounced_results():
            await self._announce(await self.service.outcome(game_id))
            count += 1
        return count

    def _schedule(self, game: TournamentGame) -> None:
        """Close the vote at its stored deadline (now, when the bot was down past it)."""
        if game.vote_deadline is None or not self.deadlines.runs_here():
            return
        self._cancel_deadline(game.game_id)
        deadline = sane_due(
            datetime.fromisoformat(game.vote_deadline),
            datetime.fromisoformat(game.finished_at),
            clock_of(self.bot).now(),
            f"the vote of game {game.game_id}",
        )
        self._deadlines[game.game_id] = asyncio.create_task(
            self._close_at(game.game_id, deadline), name=f"tournament-vote-{game.game_id}"
        )

    def _cancel_deadline(self, game_id: int) -> None:
        task = self._deadlines.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _close_at(self, game_id: int, deadline: datetime) -> None:
        await clock_of(self.bot).sleep_until(deadline)
        await self.close_vote_now(game_id)

    async def close_vote_now(self, game_id: int) -> None:
        """Close one vote (the deadline task calls this) and show the result."""
        self._deadlines.pop(game_id, None)
        try:
            outcome = await self.service.close_vote(game_id)
        except Exception:
            log.exception("closing the vote of game %s failed", game_id)
            return
        if outcome is not None:
            await self._announce(outcome)
