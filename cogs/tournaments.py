"""``/tournament ...``: Commander tournaments with democratic victory (T3), T2 prizes, pods and standings.

Thin by design: parse options, check who may act, call ``TournamentService``, render. Organisers are
members with Manage Server or the server's organiser role (``/config``'s ``organiser_role_id``).

The democratic vote (T3): when a pod game linked to a tournament ends (``on_pod_game_finished``),
the table gets one public message with a Vote button and a count of votes cast (votes are secret).
Each player presses it and picks one OTHER player of that table in a private select; votes can be
changed until the vote closes, which happens when all have voted or at the stored deadline. Both
components are ``DynamicItem``s keyed by the game id, so they work on old messages after a restart,
and ``cog_load`` reschedules every open deadline (closing overdue ones at once).
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _T
from discord.ext import commands

from bot.clock import clock_of
from bot.domain.pod import PodError
from bot.domain.tournament import TournamentError
from bot.domain.tournament.prizes import PRIZE_GOALS, prize_leaders
from bot.domain.tournament.standings import standings_csv
from bot.i18n import Translate, t
from bot.leases import leases_of
from bot.render.fonts import png_bytes
from bot.render.standings import render_standings
from bot.services.reconcile import register_reconcile
from bot.services.tournaments import (
    DEFAULT_VOTE_MINUTES,
    MAX_ROUNDS,
    MAX_VOTE_MINUTES,
    StandingsView,
    TournamentService,
    VoteOutcome,
    mana_value_lookup,
)
from bot.storage.tournaments import PodAssignment, Tournament, TournamentGame
from bot.text import fit_lines
from cogs._tournament_matches import FORMAT_MATCHES, MatchRounds

log = logging.getLogger(__name__)

EMBED_ROWS = 15
# Characters of one prize field: ties can list dozens of players, and a field holds 1,024 while every
# field of the standings embed shares its 6,000 with 15 lines of standings.
PRIZE_FIELD_BUDGET = 400
TABLES_PER_EMBED = 24
COLOUR = discord.Colour.gold()
SCORING_CHOICES = [app_commands.Choice(name=_T("Democratic victory (T3)"), value="democratic"),
                   app_commands.Choice(name=_T("Standard: win 5, draw 1"), value="standard"),
                   app_commands.Choice(name=_T("Custom points"), value="custom")]
FORMAT_CHOICES = [app_commands.Choice(name=_T("Pods (multiplayer)"), value="pods"),
                  app_commands.Choice(name=_T("1-vs-1 matches (best of three)"), value=FORMAT_MATCHES)]
REMAINDER_CHOICES = [app_commands.Choice(name="3", value=3), app_commands.Choice(name="5", value=5)]
_PLAYER_VALUES = ("voter", "votee", "player")


@dataclass(frozen=True)
class SeatedPlayer:
    """What the pod tracker reads of a player (``id``, ``display_name``), without fetching members:
    the bot has no members intent, and a 256-player round should not cost 256 requests."""

    id: int
    display_name: str


def _mention(user_id: Any) -> str:
    return f"<@{user_id}>" if isinstance(user_id, int) else str(user_id)


def error_text(error: TournamentError | PodError, language: str) -> str:
    """The refused action in the user's language, with player ids shown as mentions."""
    if isinstance(error, PodError):
        return t(error.key, language, **error.values)
    values = {k: _mention(v) if k in _PLAYER_VALUES else v for k, v in error.values.items()}
    return t(error.key, language, **values)


class VoteButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tournament:vote:(?P<game>\d+)"):
    """The public "Vote" button under a finished game: opens the private ballot (T3)."""

    def __init__(self, game_id: int, label: str = "Vote") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary, emoji="🗳️",
                                           custom_id=f"tournament:vote:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> VoteButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).open_ballot(interaction, self.game_id)


class BallotSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tournament:ballot:(?P<game>\d+)"):
    """The private select of the other players at the table; choosing again changes the vote."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tournament:ballot:{game_id}", placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="-")]))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> BallotSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        await _cog(interaction).cast_vote(interaction, self.game_id, int(values[0]))


class ManaConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tournament:mana:(?P<report>\d+)"):
    """Another player at the table confirms a mana pool report (T2)."""

    def __init__(self, report_id: int, label: str = "Confirm") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=f"tournament:mana:{report_id}"))
        self.report_id = report_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> ManaConfirmButton:
        return cls(int(match["report"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).confirm_mana(interaction, self.report_id)


class EndConfirmButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tournament:end:(?P<tournament>\d+)"):
    """Ending a tournament while games are unfinished ends them without points: asked once more."""

    def __init__(self, tournament_id: int, label: str = "End") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger,
                                           custom_id=f"tournament:end:{tournament_id}"))
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> EndConfirmButton:
        return cls(int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).end_tournament(interaction, self.tournament_id)


def _cog(interaction: discord.Interaction) -> TournamentCog:
    cog = interaction.client.get_cog(TournamentCog.__cog_name__)  # type: ignore[attr-defined]
    assert isinstance(cog, TournamentCog)
    return cog


class TournamentCog(commands.Cog, name="Tournaments"):
    tournament = app_commands.Group(name="tournament", guild_only=True,
                                    description=_T("Commander tournaments: democratic victory, prizes, standings"))

    def __init__(self, bot: commands.Bot, service: TournamentService | None = None) -> None:
        self.bot = bot
        cards = getattr(bot, "cards", None)
        self.service = service or TournamentService(
            bot.db, clock=clock_of(bot).now,  # type: ignore[attr-defined]
            mana_value=mana_value_lookup(getattr(cards, "index", None)))
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

    # -- helpers -----------------------------------------------------------------------------------

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))  # type: ignore[attr-defined]

    async def _guild_language(self, guild_id: int | None) -> str:
        """Language for messages no single user asked for (vote results at a table)."""
        return await self.bot.guild_language(guild_id)  # type: ignore[attr-defined]

    async def _refuse(self, interaction: discord.Interaction, error: TournamentError | PodError) -> None:
        text = error_text(error, (await self._tr(interaction)).language)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def _is_organiser(self, interaction: discord.Interaction) -> bool:
        member = interaction.user
        if not isinstance(member, discord.Member):
            return False
        if member.guild_permissions.manage_guild:
            return True
        settings = getattr(self.bot, "guild_settings", None)
        role_id = (await settings.get(interaction.guild_id)).organiser_role_id if settings else None
        return role_id is not None and any(role.id == role_id for role in member.roles)

    async def _require_organiser(self, interaction: discord.Interaction) -> bool:
        if await self._is_organiser(interaction):
            return True
        tr = await self._tr(interaction)
        await interaction.response.send_message(tr("tournament.organiser_only"), ephemeral=True)
        return False

    def _scoring_text(self, tr: Translate, tournament: Tournament) -> str:
        rule = self.service.rule(tournament)
        return tr(f"tournament.scoring.{rule.name}", win=rule.win, draw=rule.draw, survival=rule.survival,
                  vote=rule.vote, elimination=rule.elimination)

    # -- /tournament create | join | drop | end ----------------------------------------------------

    @tournament.command(name="create", description=_T("Create a tournament (organisers)"))
    @app_commands.describe(name=_T("Tournament name"), scoring=_T("How games score"),
                           rounds=_T("Number of rounds"), remainder=_T("Size of pods for the remainder"),
                           vote_minutes=_T("Minutes each democratic vote stays open"),
                           win=_T("Custom: points per win"), draw=_T("Custom: points per draw"),
                           survival=_T("Custom: points for surviving"), vote=_T("Custom: points per vote"),
                           elimination=_T("Custom: points per opponent eliminated"),
                           format=_T("Pods, or 1-vs-1 best-of-three matches (G9)"))
    @app_commands.choices(scoring=SCORING_CHOICES, remainder=REMAINDER_CHOICES, format=FORMAT_CHOICES)
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 64],
                     scoring: str = "democratic", rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
                     remainder: int = 3,
                     vote_minutes: app_commands.Range[int, 1, MAX_VOTE_MINUTES] = DEFAULT_VOTE_MINUTES,
                     win: int = 0, draw: int = 0, survival: int = 0, vote: int = 0, elimination: int = 0,
                     format: str = "pods") -> None:
        if not await self._require_organiser(interaction):
            return
        try:
            created = await self.service.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id, name=name, scoring=scoring,
                rounds=rounds, created_by=interaction.user.id, remainder_size=remainder, vote_minutes=vote_minutes,
                win=win, draw=draw, survival=survival, vote=vote, elimination=elimination)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        if format == FORMAT_MATCHES:  # pairs and match points instead of pods (cogs/_tournament_matches.py)
            await self.match_rounds.service.set_matches(created.tournament_id)
        tr = await self._tr(interaction)
        embed = discord.Embed(title=tr("tournament.created.title", name=discord.utils.escape_markdown(created.name)),
                              description=tr("tournament.created.body", rounds=created.rounds,
                                             minutes=created.vote_minutes), colour=COLOUR)
        embed.add_field(name=tr("tournament.scoring"), value=self._scoring_text(tr, created), inline=False)
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(name="join", description=_T("Join this server's tournament"))
    async def join(self, interaction: discord.Interaction) -> None:
        try:
            joined = await self.service.join(interaction.guild_id, interaction.user.id,
                                             interaction.user.display_name)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        count = sum(e.active for e in await self.service.entrants(joined.tournament_id))
        await interaction.response.send_message(
            tr("tournament.joined", player=interaction.user.mention,
               name=discord.utils.escape_markdown(joined.name), count=count),
            allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(name="drop", description=_T("Leave this server's tournament"))
    async def drop(self, interaction: discord.Interaction) -> None:
        try:
            left = await self.service.drop(interaction.guild_id, interaction.user.id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr("tournament.dropped_out", player=interaction.user.mention,
               name=discord.utils.escape_markdown(left.name)), allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(name="end", description=_T("End the tournament and post the final standings (organisers)"))
    async def end(self, interaction: discord.Interaction) -> None:
        """End now, unless games of the round are unfinished: then ask first (they would end
        without points for anyone)."""
        if not await self._require_organiser(interaction):
            return
        try:
            tournament = await self.service.active(interaction.guild_id)
            unfinished = await self.service.unfinished_tables(tournament)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        if unfinished:
            tr = await self._tr(interaction)
            view = discord.ui.View(timeout=None)
            view.add_item(EndConfirmButton(tournament.tournament_id, label=tr("tournament.end.confirm_button")))
            await interaction.response.send_message(
                tr("tournament.end.confirm", name=discord.utils.escape_markdown(tournament.name),
                   tables=", ".join(str(table) for table in unfinished)), view=view, ephemeral=True)
            return
        await self.end_tournament(interaction, tournament.tournament_id)

    async def end_tournament(self, interaction: discord.Interaction, tournament_id: int) -> None:
        """End the active tournament (the confirmation names it: a stale button ends nothing else)."""
        if not await self._require_organiser(interaction):
            return
        try:
            if (await self.service.active(interaction.guild_id)).tournament_id != tournament_id:
                raise TournamentError("no_tournament")
            ended = await self.service.finish(interaction.guild_id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        await interaction.response.defer(thinking=True)
        tr = await self._tr(interaction)
        view = await self.service.standings(ended)
        await interaction.followup.send(
            content=tr("tournament.ended", name=discord.utils.escape_markdown(ended.name)),
            **await self._standings_message(view, tr), allowed_mentions=discord.AllowedMentions.none())

    # -- /tournament pair ----------------------------------------------------------------------------

    @tournament.command(name="pair", description=_T("Pair the next round into pods (organisers)"))
    @app_commands.describe(force=_T("Pair even if games of the current round are unfinished"))
    async def pair(self, interaction: discord.Interaction, force: bool = False) -> None:
        if not await self._require_organiser(interaction):
            return
        if await self.match_rounds.pair(interaction, force):  # a tournament of 1-vs-1 matches
            return
        try:
            tournament, pods = await self.service.pair_next_round(interaction.guild_id, force=force)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        await interaction.response.defer(thinking=True)
        tr = await self._tr(interaction)
        names = await self.service.names(tournament.tournament_id)
        title = tr("tournament.round.title", name=discord.utils.escape_markdown(tournament.name),
                   round=tournament.current_round, rounds=tournament.rounds)
        for start in range(0, len(pods), TABLES_PER_EMBED):  # an embed holds at most 25 fields
            embed = discord.Embed(title=title, colour=COLOUR)
            for pod in pods[start:start + TABLES_PER_EMBED]:
                embed.add_field(name=tr("tournament.table", table=pod.table_number),
                                value="\n".join(f"{seat}. {_mention(user)}" for seat, user in enumerate(pod.seats, 1)))
            await interaction.followup.send(embed=embed, allowed_mentions=discord.AllowedMentions(users=True))
        for pod in pods:
            await self._start_pod_game(interaction, tournament, pod, names)

    async def _start_pod_game(self, interaction: discord.Interaction, tournament: Tournament, pod: PodAssignment,
                              names: dict[int, str]) -> None:
        """Give the pod a pod board (the pod tracker) linked to the tournament and round."""
        pods_cog = self.bot.get_cog("Pods")
        if pods_cog is None or interaction.channel is None:
            log.warning("pod tracker not loaded: tournament %s table %s has no board", tournament.tournament_id,
                        pod.table_number)
            return
        players = [SeatedPlayer(user, names.get(user, str(user))) for user in pod.seats]
        try:
            loaded, _message = await pods_cog.start_linked_game(  # type: ignore[attr-defined]
                interaction.channel, players, ruleset=await self.bot.ruleset_for(interaction.guild_id),  # type: ignore[attr-defined]
                guild_id=interaction.guild_id, created_by=interaction.user.id,
                tournament_id=tournament.tournament_id, round_number=pod.round_number)
        except PodError as error:
            await self._refuse(interaction, error)
            return
        await self.service.link_game(pod.pod_id, loaded.game_id)

    # -- /tournament standings | prizes | correct | log ------------------------------------------------

    @tournament.command(name="standings", description=_T("Standings as a table, an image and a CSV file"))
    @app_commands.describe(round=_T("Only this round (default: the whole tournament)"))
    async def standings(self, interaction: discord.Interaction,
                        round: app_commands.Range[int, 1, MAX_ROUNDS] | None = None) -> None:
        try:
            tournament = await self.service.latest(interaction.guild_id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        if await self.match_rounds.standings(interaction, tournament):  # match points (G9)
            return
        await interaction.response.defer(thinking=True)
        tr = await self._tr(interaction)
        view = await self.service.standings(tournament, round)
        await interaction.followup.send(**await self._standings_message(view, tr),
                                        allowed_mentions=discord.AllowedMentions.none())

    async def _standings_message(self, view: StandingsView, tr: Translate) -> dict[str, Any]:
        title = tr("tournament.standings.title", name=view.tournament.name) if view.round_number is None else \
            tr("tournament.standings.round_title", name=view.tournament.name, round=view.round_number)
        lines = [tr("tournament.standings.line", rank=s.rank, player=_mention(s.player), points=s.points,
                    opponents=f"{float(s.opponents_average):.2f}", votes=s.tally.votes)
                 + (f" ({tr('tournament.dropped')})" if s.dropped else "")
                 for s in view.standings[:EMBED_ROWS]]
        embed = discord.Embed(title=discord.utils.escape_markdown(title),
                              description="\n".join(lines) or tr("tournament.standings.empty"), colour=COLOUR)
        if len(view.standings) > EMBED_ROWS:
            embed.set_footer(text=tr("tournament.standings.more", count=len(view.standings) - EMBED_ROWS))
        self._add_prize_fields(embed, view, tr)
        embed.set_image(url="attachment://standings.png")
        name = self._namer(view)
        png = await self.bot.workers.run(_standings_png, title, view.standings, dict(view.names),  # type: ignore[attr-defined]
                                         tr.language)
        files = [discord.File(io.BytesIO(png), filename="standings.png"),
                 discord.File(io.BytesIO(standings_csv(view.standings, name).encode("utf-8")),
                              filename="standings.csv")]
        return {"embed": embed, "files": files}

    @staticmethod
    def _namer(view: StandingsView):
        return lambda player: view.names.get(player, str(player))

    @staticmethod
    def _add_prize_fields(embed: discord.Embed, view: StandingsView, tr: Translate) -> None:
        leaders = prize_leaders({s.player: s.prizes for s in view.standings})
        for goal in PRIZE_GOALS:
            if goal in leaders:
                value, players = leaders[goal]
                tail = f" — {value}"
                winners = fit_lines([_mention(p) for p in players], PRIZE_FIELD_BUDGET - len(tail),
                                    lambda count: tr("core.and_more", count=count), separator=", ")
                embed.add_field(name=tr(f"tournament.prize.{goal}"), value=winners + tail, inline=True)

    @tournament.command(name="prizes", description=_T("Prize goals (T2): leaders per round or overall"))
    @app_commands.describe(round=_T("Only this round (default: the whole tournament)"))
    async def prizes(self, interaction: discord.Interaction,
                     round: app_commands.Range[int, 1, MAX_ROUNDS] | None = None) -> None:
        try:
            tournament = await self.service.latest(interaction.guild_id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        view = await self.service.standings(tournament, round)
        embed = discord.Embed(title=tr("tournament.prizes.title", name=discord.utils.escape_markdown(tournament.name)),
                              colour=COLOUR)
        self._add_prize_fields(embed, view, tr)
        if not embed.fields:
            embed.description = tr("tournament.prizes.none")
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(name="correct", description=_T("Correct a player's points, with a reason (organisers)"))
    @app_commands.describe(player=_T("The player"), points=_T("Points to add (negative to remove)"),
                           reason=_T("Why (kept in the audit log)"))
    async def correct(self, interaction: discord.Interaction, player: discord.Member,
                      points: app_commands.Range[int, -1000, 1000], reason: app_commands.Range[str, 1, 200]) -> None:
        if not await self._require_organiser(interaction):
            return
        try:
            await self.service.correct(interaction.guild_id, player.id, points, reason, interaction.user.id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr("tournament.corrected", player=player.mention, points=f"{points:+d}", by=interaction.user.mention,
               reason=discord.utils.escape_markdown(reason)), allowed_mentions=discord.AllowedMentions.none())

    @tournament.command(name="log", description=_T("The audit log of point corrections"))
    async def audit_log(self, interaction: discord.Interaction) -> None:
        try:
            tournament = await self.service.latest(interaction.guild_id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        rows = await self.service.corrections(tournament.tournament_id)
        lines = [tr("tournament.log.line", at=row.created_at, player=_mention(row.user_id), points=f"{row.points:+d}",
                    by=_mention(row.by_user_id), reason=discord.utils.escape_markdown(row.reason)) for row in rows]
        embed = discord.Embed(title=tr("tournament.log.title", name=discord.utils.escape_markdown(tournament.name)),
                              description="\n".join(lines)[-4000:] or tr("tournament.log.empty"), colour=COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- secret votes: organisers' view and the server switch ---------------------------------------

    @tournament.command(name="votes", description=_T("Who voted for whom in a game (organisers, if enabled)"))
    @app_commands.describe(game=_T("The game number"))
    async def votes(self, interaction: discord.Interaction, game: int) -> None:
        try:
            ballots = await self.service.individual_votes(game, guild_id=interaction.guild_id,
                                                          organiser=await self._is_organiser(interaction))
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        lines = [f"{_mention(voter)} → {_mention(votee)}" for voter, votee in ballots.items()]
        tr = await self._tr(interaction)
        await interaction.response.send_message("\n".join(lines) or tr("tournament.vote.none_yet"), ephemeral=True)

    @tournament.command(name="reveal-votes", description=_T("Let organisers see individual votes (Manage Server)"))
    @app_commands.describe(enabled=_T("On or off"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def reveal_votes(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self.service.set_reveal_votes(interaction.guild_id, enabled)
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            tr("tournament.reveal.on" if enabled else "tournament.reveal.off"), ephemeral=True)

    # -- T2: mana pool reports ---------------------------------------------------------------------

    @tournament.command(name="mana-pool", description=_T("Report the most mana you had in your pool at once"))
    @app_commands.describe(amount=_T("Mana in pool at once"))
    async def mana_pool(self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 1000]) -> None:
        try:
            game_id = await self.service.current_game_of(interaction.guild_id, interaction.user.id)
            report = await self.service.report_mana_pool(interaction.guild_id, game_id, interaction.user.id, amount)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(ManaConfirmButton(report, label=tr("tournament.mana.confirm_button")))
        await interaction.response.send_message(
            tr("tournament.mana.reported", player=interaction.user.mention, amount=amount, game=game_id),
            view=view, allowed_mentions=discord.AllowedMentions.none())

    async def confirm_mana(self, interaction: discord.Interaction, report_id: int) -> None:
        try:
            reporter = await self.service.confirm_mana_pool(interaction.guild_id, report_id, interaction.user.id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        content = (interaction.message.content if interaction.message else "") + "\n" + tr(
            "tournament.mana.confirmed", player=_mention(reporter), by=interaction.user.mention)
        await interaction.response.edit_message(content=content, view=None,
                                                 allowed_mentions=discord.AllowedMentions.none())

    # -- the democratic vote (T3) --------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_pod_game_finished(self, record: Any) -> None:
        """A pod game ended: if it belongs to a tournament, store it and open its vote."""
        if getattr(record, "match_id", None) is not None:
            return  # a game of a 1-vs-1 match: the match is what scores (cogs/_tournament_matches.py)
        try:
            game = await self.service.record_finished_game(record)
        except TournamentError:
            log.exception("could not record finished game %s for its tournament", getattr(record, "game_id", "?"))
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
                content=" ".join(_mention(p.user_id) for p in game.players),
                embed=self._vote_embed(game, status.cast, language), view=self._vote_view(game, language),
                allowed_mentions=discord.AllowedMentions(users=True))
        except discord.HTTPException:
            log.warning("could not post the vote of game %s", game.game_id)
            return
        await self.service.set_vote_message(game.game_id, message.id)

    def _vote_view(self, game: TournamentGame, language: str) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(VoteButton(game.game_id, label=t("tournament.vote.button", language)))
        return view

    @staticmethod
    def _vote_embed(game: TournamentGame, cast: int, language: str) -> discord.Embed:
        deadline = int(datetime.fromisoformat(game.vote_deadline or game.finished_at).timestamp())
        embed = discord.Embed(title=t("tournament.vote.title", language, game=game.game_id),
                              description=t("tournament.vote.body", language,
                                            players=" ".join(_mention(p.user_id) for p in game.players),
                                            deadline=f"<t:{deadline}:R>"), colour=COLOUR)
        embed.set_footer(text=t("tournament.vote.count", language, cast=cast, total=len(game.players)))
        return embed

    async def open_ballot(self, interaction: discord.Interaction, game_id: int) -> None:
        """The private ballot: the other players of that table (T3: not oneself)."""
        tr = await self._tr(interaction)
        try:
            game = await self.service.game(game_id)
            seated = [p.user_id for p in game.players]
            if interaction.user.id not in seated:
                raise TournamentError("not_at_table", game=game_id)
            if not game.vote_open:
                raise TournamentError("vote_closed", game=game_id)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        names = await self.service.names(game.tournament_id)
        mine = await self.service.vote_of(game_id, interaction.user.id)
        options = [discord.SelectOption(label=names.get(user, str(user))[:100], value=str(user), default=user == mine)
                   for user in seated if user != interaction.user.id]
        view = discord.ui.View(timeout=None)
        view.add_item(BallotSelect(game_id, options, placeholder=tr("tournament.vote.placeholder")))
        await interaction.response.send_message(tr("tournament.vote.ballot", game=game_id), view=view, ephemeral=True)

    async def cast_vote(self, interaction: discord.Interaction, game_id: int, votee: int) -> None:
        try:
            status, outcome = await self.service.cast_vote(game_id, interaction.user.id, votee)
        except TournamentError as error:
            await self._refuse(interaction, error)
            return
        tr = await self._tr(interaction)
        await interaction.response.edit_message(content=tr("tournament.vote.recorded", votee=_mention(votee)))
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
        lines = [t("tournament.result.line", language, player=_mention(user), votes=outcome.received[user],
                   points=outcome.points[user],
                   survived="✅" if any(p.user_id == user and p.survived for p in outcome.game.players) else "—")
                 for user in sorted(outcome.points, key=lambda u: (-outcome.points[u], -outcome.received[u]))]
        title = "tournament.result.title" if outcome.game.vote_deadline else "tournament.result.title_no_vote"
        return discord.Embed(title=t(title, language, game=outcome.game.game_id),
                             description="\n".join(lines), colour=COLOUR)

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
        pods_cog = self.bot.get_cog("Pods")
        for game_id in await self.service.unrecorded_finished_games() if pods_cog is not None else []:
            record = (await pods_cog.service.get(game_id)).record  # type: ignore[union-attr]
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
        deadline = datetime.fromisoformat(game.vote_deadline)
        self._deadlines[game.game_id] = asyncio.create_task(self._close_at(game.game_id, deadline),
                                                            name=f"tournament-vote-{game.game_id}")

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


def _standings_png(title: str, standings: Any, names: dict[Any, str], language: str) -> bytes:
    """Drawn and encoded in the work pool (``bot.workers``), off the event loop; ``names`` as in
    ``StandingsView.names`` (a worker process gets data, not the view's closures)."""
    return png_bytes(render_standings(title, standings, lambda player: names.get(player, str(player)), language))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TournamentCog(bot))
