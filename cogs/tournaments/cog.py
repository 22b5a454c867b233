"""``/tournament ...``: Commander tournaments with democratic victory (T3), T2 prizes, pods and standings,
or 1-vs-1 tournaments of best-of-three matches (G9).

Thin by design: parse options, check who may act, call ``TournamentService``, render. Organisers are
members with Manage Server or the server's organiser role (``cogs._common.is_organiser``).
The commands live here; the vote (``votes``), standings messages (``standings``), tournaments of
matches (``matches``), shared helpers (``base``) and Discord items (``components``) beside it.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.clock import clock_of
from bot.domain.pod import PodError
from bot.domain.tournament import TournamentError
from bot.leases import leases_of
from bot.services.reconcile import register_reconcile
from bot.services.tournaments import (
    DEFAULT_VOTE_MINUTES,
    MAX_ROUNDS,
    MAX_VOTE_MINUTES,
    TournamentService,
    mana_value_lookup,
)
from bot.storage.tournaments import PodAssignment, Tournament
from bot.text import member_name
from cogs._common import guild_id_of, is_organiser, managers_only
from cogs._errors import RefusingCog
from cogs._permissions import refuse_unless_bot_can_post
from cogs.tournaments.components import (
    COLOUR,
    BallotSelect,
    EndConfirmButton,
    ManaConfirmButton,
    SeatedPlayer,
    VoteButton,
    mention,
)
from cogs.tournaments.matches import FORMAT_MATCHES, MatchRounds
from cogs.tournaments.votes import VoteDesk

log = logging.getLogger(__name__)

TABLES_PER_EMBED = 24
SCORING_CHOICES = [
    app_commands.Choice(name=_T("Democratic victory (T3)"), value="democratic"),
    app_commands.Choice(name=_T("Standard: win 5, draw 1"), value="standard"),
    app_commands.Choice(name=_T("Custom points"), value="custom"),
]
FORMAT_CHOICES = [
    app_commands.Choice(name=_T("Pods (multiplayer)"), value="pods"),
    app_commands.Choice(name=_T("1-vs-1 matches (best of three)"), value=FORMAT_MATCHES),
]
REMAINDER_CHOICES = [app_commands.Choice(name="3", value=3), app_commands.Choice(name="5", value=5)]


class TournamentCog(RefusingCog, VoteDesk, commands.Cog, name="Tournaments"):
    tournament = app_commands.Group(
        name="tournament",
        guild_only=True,
        description=_T("Commander tournaments: democratic victory, prizes, standings"),
    )

    def __init__(self, bot: PodkeeperBot, service: TournamentService | None = None) -> None:
        self.bot = bot
        self.service = service or TournamentService(
            bot.db, clock=clock_of(bot).now, mana_value=mana_value_lookup(getattr(bot.cards, "index", None))
        )
        self._deadlines: dict[int, asyncio.Task[None]] = {}
        # Vote deadlines close in the one process holding this lease (bot.leases); the others poke it.
        self.deadlines = leases_of(bot).lease("tournament-votes", self._arm_votes, self._drop_deadlines)
        self.match_rounds = MatchRounds(self)  # tournaments of 1-vs-1 matches

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(VoteButton, BallotSelect, ManaConfirmButton, EndConfirmButton)
        register_reconcile(self.bot, "tournament votes", self.reconcile)
        await self.deadlines.start()

    async def _arm_votes(self, taking_over: bool) -> None:
        """Every open vote's deadline; on taking over, also ask the tables the last owner stopped
        before asking (a poke only arms: the process that opened the vote posts its message)."""
        for game in await self.service.open_votes():
            if taking_over and game.vote_message_id is None:  # the bot stopped before the table was asked
                await self._post_vote_message(game)
            self._schedule(game)

    def _drop_deadlines(self) -> None:
        for task in self._deadlines.values():
            task.cancel()
        self._deadlines.clear()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(VoteButton, BallotSelect, ManaConfirmButton, EndConfirmButton)
        self.deadlines.stop()
        self._drop_deadlines()

    # -- /tournament create | join | drop | end ----------------------------------------------------

    @tournament.command(name="create", description=_T("Create a tournament (organisers)"))
    @app_commands.describe(
        name=_T("Tournament name"),
        scoring=_T("How games score"),
        rounds=_T("Number of rounds"),
        remainder=_T("Size of pods for the remainder"),
        vote_minutes=_T("Minutes each democratic vote stays open"),
        win=_T("Custom: points per win"),
        draw=_T("Custom: points per draw"),
        survival=_T("Custom: points for surviving"),
        vote=_T("Custom: points per vote"),
        elimination=_T("Custom: points per opponent eliminated"),
        format=_T("Pods, or 1-vs-1 best-of-three matches (G9)"),
    )
    @app_commands.choices(scoring=SCORING_CHOICES, format=FORMAT_CHOICES)
    @app_commands.choices(remainder=REMAINDER_CHOICES)  # apart: one call's choices are all str or all int
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 64],
        scoring: str = "democratic",
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        remainder: int = 3,
        vote_minutes: app_commands.Range[int, 1, MAX_VOTE_MINUTES] = DEFAULT_VOTE_MINUTES,
        win: int = 0,
        draw: int = 0,
        survival: int = 0,
        vote: int = 0,
        elimination: int = 0,
        format: str = "pods",
    ) -> None:
        await self._require_organiser(interaction)
        created = await self.service.create(
            guild_id=guild_id_of(interaction),
            channel_id=interaction.channel_id,
            name=name,
            scoring=scoring,
            rounds=rounds,
            created_by=interaction.user.id,
            remainder_size=remainder,
            vote_minutes=vote_minutes,
            win=win,
            draw=draw,
            survival=survival,
            vote=vote,
            elimination=elimination,
        )
        if format == FORMAT_MATCHES:  # pairs and match points instead of pods (cogs/tournaments/matches.py)
            await self.match_rounds.service.set_matches(created.tournament_id)
        tr = await self._tr(interaction)
        embed = discord.Embed(
            title=tr("tournament.created.title", name=discord.utils.escape_markdown(created.name)),
            description=tr("tournament.created.body", rounds=created.rounds, minutes=created.vote_minutes),
            colour=COLOUR,
        )
        embed.add_field(name=tr("tournament.scoring"), value=self._scoring_text(tr, created), inline=False)
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(name="join", description=_T("Join this server's tournament"))
    async def join(self, interaction: discord.Interaction) -> None:
        joined = await self.service.join(
            guild_id_of(interaction),
            interaction.user.id,
            member_name(interaction.user.display_name, interaction.user.id),
        )
        tr = await self._tr(interaction)
        count = sum(e.active for e in await self.service.entrants(joined.tournament_id))
        await interaction.response.send_message(
            tr(
                "tournament.joined",
                player=interaction.user.mention,
                name=discord.utils.escape_markdown(joined.name),
                count=count,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @tournament.command(name="drop", description=_T("Leave this server's tournament"))
    async def drop(self, interaction: discord.Interaction) -> None:
        left = await self.service.drop(guild_id_of(interaction), interaction.user.id)
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr(
                "tournament.dropped_out",
                player=interaction.user.mention,
                name=discord.utils.escape_markdown(left.name),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @tournament.command(
        name="end", description=_T("End the tournament and post the final standings (organisers)")
    )
    async def end(self, interaction: discord.Interaction) -> None:
        """End now, unless games of the round are unfinished: then ask first (they would end
        without points for anyone)."""
        await self._require_organiser(interaction)
        tournament = await self.service.active(guild_id_of(interaction))
        unfinished = await self.match_rounds.unfinished_tables(tournament)
        if unfinished is None:  # a tournament of pods
            unfinished = await self.service.unfinished_tables(tournament)
        if unfinished:
            tr = await self._tr(interaction)
            view = EndConfirmButton(
                tournament.tournament_id, label=tr("tournament.end.confirm_button")
            ).alone()
            await interaction.response.send_message(
                tr(
                    "tournament.end.confirm",
                    name=discord.utils.escape_markdown(tournament.name),
                    tables=[str(table) for table in unfinished],
                ),
                view=view,
                ephemeral=True,
            )
            return
        await self.end_tournament(interaction, tournament.tournament_id)

    async def end_tournament(self, interaction: discord.Interaction, tournament_id: int) -> None:
        """End the active tournament (the confirmation names it: a stale button ends nothing else)."""
        await self._require_organiser(interaction)
        if (await self.service.active(guild_id_of(interaction))).tournament_id != tournament_id:
            raise TournamentError("no_tournament")
        ended = await self.service.finish(guild_id_of(interaction))
        await interaction.response.defer(thinking=True)
        tr = await self._tr(interaction)
        if await self.match_rounds.service.is_matches(ended.tournament_id):  # match points (G9)
            message = await self.match_rounds.standings_message(
                await self.match_rounds.service.standings(ended), tr
            )
        else:
            message = await self._standings_message(await self.service.standings(ended), tr)
        await interaction.followup.send(
            content=tr("tournament.ended", name=discord.utils.escape_markdown(ended.name)),
            **message,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # -- /tournament pair ----------------------------------------------------------------------------

    @tournament.command(name="pair", description=_T("Pair the next round into pods (organisers)"))
    @app_commands.describe(force=_T("Pair even if games of the current round are unfinished"))
    async def pair(self, interaction: discord.Interaction, force: bool = False) -> None:
        await self._require_organiser(interaction)
        if await refuse_unless_bot_can_post(interaction):  # each table's board is posted here and kept live
            return
        if await self.match_rounds.pair(interaction, force):  # a tournament of 1-vs-1 matches
            return
        tournament, pods = await self.service.pair_next_round(guild_id_of(interaction), force=force)
        await interaction.response.defer(thinking=True)
        tr = await self._tr(interaction)
        names = await self.service.names(tournament.tournament_id)
        title = tr(
            "tournament.round.title",
            name=discord.utils.escape_markdown(tournament.name),
            round=tournament.current_round,
            rounds=tournament.rounds,
        )
        for start in range(0, len(pods), TABLES_PER_EMBED):  # an embed holds at most 25 fields
            embed = discord.Embed(title=title, colour=COLOUR)
            for pod in pods[start : start + TABLES_PER_EMBED]:
                embed.add_field(
                    name=tr("tournament.table", table=pod.table_number),
                    value="\n".join(f"{seat}. {mention(user)}" for seat, user in enumerate(pod.seats, 1)),
                )
            await interaction.followup.send(embed=embed, allowed_mentions=discord.AllowedMentions(users=True))
        for pod in pods:
            await self._start_pod_game(interaction, tournament, pod, names)

    async def _start_pod_game(
        self,
        interaction: discord.Interaction,
        tournament: Tournament,
        pod: PodAssignment,
        names: dict[int, str],
    ) -> None:
        """Give the pod a pod board (the pod tracker) linked to the tournament and round."""
        pods_cog, channel = self.pods, interaction.channel
        if pods_cog is None or not isinstance(channel, discord.abc.Messageable):
            log.warning(
                "pod tracker not loaded: tournament %s table %s has no board",
                tournament.tournament_id,
                pod.table_number,
            )
            return
        players = [SeatedPlayer(user, names.get(user, str(user))) for user in pod.seats]
        try:
            loaded, _message = await pods_cog.start_linked_game(
                channel,
                players,
                ruleset=await self.bot.ruleset_for(guild_id_of(interaction)),
                guild_id=guild_id_of(interaction),
                created_by=interaction.user.id,
                tournament_id=tournament.tournament_id,
                round_number=pod.round_number,
            )
        except PodError as error:
            await self._refuse(interaction, error)
            return
        await self.service.link_game(pod.pod_id, loaded.game_id)

    # -- /tournament standings | prizes | correct | log ------------------------------------------------

    @tournament.command(name="standings", description=_T("Standings as a table, an image and a CSV file"))
    @app_commands.describe(round=_T("Only this round (default: the whole tournament)"))
    async def standings(
        self, interaction: discord.Interaction, round: app_commands.Range[int, 1, MAX_ROUNDS] | None = None
    ) -> None:
        tournament = await self.service.latest(guild_id_of(interaction))
        if await self.match_rounds.standings(interaction, tournament, round):  # match points (G9)
            return
        await interaction.response.defer(thinking=True)
        tr = await self._tr(interaction)
        view = await self.service.standings(tournament, round)
        await interaction.followup.send(
            **await self._standings_message(view, tr), allowed_mentions=discord.AllowedMentions.none()
        )

    @tournament.command(name="prizes", description=_T("Prize goals (T2): leaders per round or overall"))
    @app_commands.describe(round=_T("Only this round (default: the whole tournament)"))
    async def prizes(
        self, interaction: discord.Interaction, round: app_commands.Range[int, 1, MAX_ROUNDS] | None = None
    ) -> None:
        tournament = await self.service.latest(guild_id_of(interaction))
        tr = await self._tr(interaction)
        view = await self.service.standings(tournament, round)
        embed = discord.Embed(
            title=tr("tournament.prizes.title", name=discord.utils.escape_markdown(tournament.name)),
            colour=COLOUR,
        )
        self._add_prize_fields(embed, view, tr)
        if not embed.fields:
            embed.description = tr("tournament.prizes.none")
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(
        name="correct", description=_T("Correct a player's points, with a reason (organisers)")
    )
    @app_commands.describe(
        player=_T("The player"),
        points=_T("Points to add (negative to remove)"),
        reason=_T("Why (kept in the audit log)"),
    )
    async def correct(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        points: app_commands.Range[int, -1000, 1000],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        await self._require_organiser(interaction)
        await self.service.correct(guild_id_of(interaction), player.id, points, reason, interaction.user.id)
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr(
                "tournament.corrected",
                player=player.mention,
                points=f"{points:+d}",
                by=interaction.user.mention,
                reason=discord.utils.escape_markdown(reason),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @tournament.command(name="log", description=_T("The audit log of point corrections"))
    async def audit_log(self, interaction: discord.Interaction) -> None:
        tournament = await self.service.latest(guild_id_of(interaction))
        tr = await self._tr(interaction)
        rows = await self.service.corrections(tournament.tournament_id)
        lines = [
            tr(
                "tournament.log.line",
                at=row.created_at,
                player=mention(row.user_id),
                points=f"{row.points:+d}",
                by=mention(row.by_user_id),
                reason=discord.utils.escape_markdown(row.reason),
            )
            for row in rows
        ]
        embed = discord.Embed(
            title=tr("tournament.log.title", name=discord.utils.escape_markdown(tournament.name)),
            description="\n".join(lines)[-4000:] or tr("tournament.log.empty"),
            colour=COLOUR,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- secret votes: organisers' view and the server switch ---------------------------------------

    @tournament.command(name="votes", description=_T("Who voted for whom in a game (organisers, if enabled)"))
    @app_commands.describe(game=_T("The game number"))
    async def votes(self, interaction: discord.Interaction, game: int) -> None:
        ballots = await self.service.individual_votes(
            game, guild_id=guild_id_of(interaction), organiser=await is_organiser(interaction)
        )
        lines = [f"{mention(voter)} → {mention(votee)}" for voter, votee in ballots.items()]
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            "\n".join(lines) or tr("tournament.vote.none_yet"), ephemeral=True
        )

    @tournament.command(
        name="reveal-votes", description=_T("Let organisers see individual votes (Manage Server)")
    )
    @app_commands.describe(enabled=_T("On or off"))
    @managers_only
    async def reveal_votes(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self.service.set_reveal_votes(guild_id_of(interaction), enabled)
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr("tournament.reveal.on" if enabled else "tournament.reveal.off"), ephemeral=True
        )

    # -- T2: mana pool reports ---------------------------------------------------------------------

    @tournament.command(name="mana-pool", description=_T("Report the most mana you had in your pool at once"))
    @app_commands.describe(amount=_T("Mana in pool at once"))
    async def mana_pool(
        self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 1000]
    ) -> None:
        game_id = await self.service.current_game_of(guild_id_of(interaction), interaction.user.id)
        report = await self.service.report_mana_pool(
            guild_id_of(interaction), game_id, interaction.user.id, amount
        )
        tr = await self._tr(interaction)
        view = ManaConfirmButton(report, label=tr("tournament.mana.confirm_button")).alone()
        await interaction.response.send_message(
            tr("tournament.mana.reported", player=interaction.user.mention, amount=amount, game=game_id),
            view=view,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def confirm_mana(self, interaction: discord.Interaction, report_id: int) -> None:
        reporter = await self.service.confirm_mana_pool(
            guild_id_of(interaction), report_id, interaction.user.id
        )
        tr = await self._tr(interaction)
        content = (
            (interaction.message.content if interaction.message else "")
            + "\n"
            + tr("tournament.mana.confirmed", player=mention(reporter), by=interaction.user.mention)
        )
        await interaction.response.edit_message(
            content=content, view=None, allowed_mentions=discord.AllowedMentions.none()
        )
