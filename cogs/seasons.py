"""``/season open|close|standings|export|result|decide``, and each finished pod game's result posted with
Confirm and Dispute buttons for the players at that table.

Thin: options are read and who may act is checked here; ``SeasonService`` scores, stores and ranks.
Organisers are members with Manage Server or the server's organiser role (``cogs._common.is_organiser``),
the same rule as tournaments. A season scores a game when the pod tracker dispatches
``pod_game_finished``; after a restart the reconciler scores the games finished while the bot was away.
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.clock import clock_of, iso_clock
from bot.domain import season as rules
from bot.domain.pod import PodGameRecord
from bot.domain.season import SeasonError, SeatResult
from bot.i18n import Translate, t
from bot.services.reconcile import register_reconcile
from bot.services.seasons import CSV_COLUMNS, SeasonService, SeasonStandings
from bot.storage.seasons import ScoredGame, Season
from cogs._buttons import KeyedButton
from cogs._common import cog_of, command_text, guild_id_of, is_organiser
from cogs._errors import RefusingCog
from cogs.pods.cog import PodsCog

log = logging.getLogger(__name__)

_T = command_text("season")
COLOUR = discord.Colour.teal()
DESCRIPTION_ROOM = 3900  # of an embed description's 4,096 characters: room for the "…" line
ANSWER_CHOICES = [
    app_commands.Choice(name=_T("Confirm", key="app.season.choice.Confirm"), value=rules.CONFIRM),
    app_commands.Choice(name=_T("Dispute", key="app.season.choice.Dispute"), value=rules.DISPUTE),
]
DECISION_CHOICES = [
    app_commands.Choice(name=_T("Accept", key="app.season.choice.Accept"), value=rules.ACCEPT),
    app_commands.Choice(name=_T("Void", key="app.season.choice.Void"), value=rules.VOID),
]


def player_name(user_id: int, name: str) -> str:
    """A mention for a member; the stored name for a deleted one (their id is a negative pseudonym)."""
    return f"<@{user_id}>" if user_id > 0 else name


def _cog(interaction: discord.Interaction) -> SeasonCog:
    return cog_of(interaction, SeasonCog.__cog_name__, SeasonCog)


class ConfirmButton(KeyedButton, prefix="season:confirm", style=discord.ButtonStyle.success, emoji="✅"):
    """A player at the table confirms the posted result (keyed by the game)."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).answer_pressed(interaction, self.key, rules.CONFIRM)


class DisputeButton(KeyedButton, prefix="season:dispute", style=discord.ButtonStyle.danger, emoji="⚠️"):
    """A player at the table disputes the posted result: an organiser decides."""

    async def pressed(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).answer_pressed(interaction, self.key, rules.DISPUTE)


class SeasonCog(
    RefusingCog,
    commands.GroupCog,
    name="Seasons",
    group_name=_T("season", key="app.season.cmd.season"),
    group_description=_T("Seasons and leagues over the server's pod games"),
):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.service = SeasonService(bot.db, clock=iso_clock(clock_of(bot)))
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ConfirmButton, DisputeButton)
        register_reconcile(self.bot, "seasons", self.reconcile)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ConfirmButton, DisputeButton)

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    async def _require_organiser(self, interaction: discord.Interaction) -> None:
        """Go on for an organiser (the one rule, ``cogs._common.is_organiser``); refuse anyone else."""
        if not await is_organiser(interaction):
            raise SeasonError("organiser_only")

    # -- commands ---------------------------------------------------------------------------------------

    @app_commands.command(
        name=_T("open", key="app.season.cmd.open"),
        description=_T("Open a season with a points rule (organisers)"),
    )
    @app_commands.describe(
        name=_T("Season name"),
        points=_T("Points, e.g. win=3 survive=1 elimination=1"),
        min_games=_T("Games a player needs to be ranked (default 0)"),
        league_only=_T("Count only games started with /pod start league:True"),
    )
    @app_commands.rename(
        min_games=_T("min_games", key="app.season.opt.min_games"),
        league_only=_T("league_only", key="app.season.opt.league_only"),
    )
    @app_commands.guild_only()
    async def open(
        self,
        interaction: discord.Interaction,
        name: str,
        points: str | None = None,
        min_games: int = 0,
        league_only: bool = False,
    ) -> None:
        await self._require_organiser(interaction)
        rule = rules.parse_points(points, min_games=min_games)
        season = await self.service.open(
            guild_id_of(interaction), name, rule, league_only=league_only, opened_by=interaction.user.id
        )
        tr = await self._tr(interaction)
        embed = discord.Embed(
            title=tr("season.opened.title", name=season.name),
            colour=COLOUR,
            description=tr(
                "season.opened.body",
                rule=self._rule_text(tr, season),
                min_games=tr("season.min_games", games=rule.min_games),
                scope=tr("season.scope.league" if league_only else "season.scope.all"),
            ),
        )
        await interaction.response.send_message(embed=embed)

    @app_commands.command(
        name=_T("close", key="app.season.cmd.close"),
        description=_T("Close the open season and post its final standings (organisers)"),
    )
    @app_commands.guild_only()
    async def close(self, interaction: discord.Interaction) -> None:
        await self._require_organiser(interaction)
        season = await self.service.close(guild_id_of(interaction), interaction.user.id)
        tr = await self._tr(interaction)
        embed = self._standings_embed(tr, await self.service.standings(season))
        await interaction.response.send_message(
            tr("season.closed", name=season.name),
            embed=embed,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="standings", description=_T("A season's standings"))
    @app_commands.describe(season=_T("The season (default: the open or latest one)"))
    @app_commands.rename(season=_T("season", key="app.season.opt.season"))
    @app_commands.guild_only()
    async def standings(self, interaction: discord.Interaction, season: str | None = None) -> None:
        found = await self.service.find(guild_id_of(interaction), season)
        tr = await self._tr(interaction)
        await interaction.response.send_message(
            embed=self._standings_embed(tr, await self.service.standings(found)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="export", description=_T("A season's standings as a CSV file"))
    @app_commands.describe(season=_T("The season (default: the open or latest one)"))
    @app_commands.rename(season=_T("season", key="app.season.opt.season"))
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction, season: str | None = None) -> None:
        found = await self.service.find(guild_id_of(interaction), season)
        tr = await self._tr(interaction)
        headers = {key: tr(f"season.csv.{key}") for key in (*CSV_COLUMNS, "yes", "no")}
        data = await self.service.export_csv(found, headers)
        await interaction.response.send_message(
            tr("season.export.done", name=found.name),
            ephemeral=True,
            file=discord.File(io.BytesIO(data), filename=f"season-{found.season_id}.csv"),
        )

    @standings.autocomplete("season")
    @export.autocomplete("season")
    async def _season_names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wanted = current.casefold()
        names = await self.service.names(guild_id_of(interaction))
        return [app_commands.Choice(name=n, value=n) for n in names if wanted in n.casefold()][:25]

    @app_commands.command(
        name=_T("result", key="app.season.cmd.result"),
        description=_T("Confirm or dispute the result of a game you played"),
    )
    @app_commands.describe(game=_T("The game number"), answer=_T("Confirm or dispute"))
    @app_commands.rename(answer=_T("answer", key="app.season.opt.answer"))
    @app_commands.choices(answer=ANSWER_CHOICES)
    @app_commands.guild_only()
    async def result(self, interaction: discord.Interaction, game: int, answer: str) -> None:
        season, scored = await self.service.answer(
            guild_id_of(interaction), game, interaction.user.id, answer
        )
        tr = await self._tr(interaction)
        await interaction.response.send_message(tr(f"season.answered.{answer}", game=game), ephemeral=True)
        await self._refresh_posted(season, scored)

    @app_commands.command(
        name=_T("decide", key="app.season.cmd.decide"), description=_T("Decide a game's result (organisers)")
    )
    @app_commands.describe(
        game=_T("The game number"), decision=_T("Accept the result as recorded, or void it")
    )
    @app_commands.rename(decision=_T("decision", key="app.season.opt.decision"))
    @app_commands.choices(decision=DECISION_CHOICES)
    @app_commands.guild_only()
    async def decide(self, interaction: discord.Interaction, game: int, decision: str) -> None:
        await self._require_organiser(interaction)
        season, scored = await self.service.decide(
            guild_id_of(interaction), game, decision, interaction.user.id
        )
        tr = await self._tr(interaction)
        await interaction.response.send_message(tr(f"season.decided.{decision}", game=game))
        await self._refresh_posted(season, scored)

    # -- the posted result ------------------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_pod_game_finished(self, record: PodGameRecord) -> None:
        """A pod game ended: score it into the server's open season and ask its table to confirm."""
        await self._score(record)

    async def _score(self, record: PodGameRecord) -> bool:
        """Score and post a finished game; False when no season takes it (or it was scored already)."""
        scored = await self.service.score_finished_game(record)
        if scored is not None:
            await self._post_result(*scored)
        return scored is not None

    async def reconcile(self) -> int:
        """After a start: score the games that finished while no listener heard them, and post them."""
        pods = self.bot.get_cog(PodsCog.__cog_name__)
        if not isinstance(pods, PodsCog):
            return 0
        count = 0
        for game_id in await self.service.unscored_finished_games():
            record = (await pods.service.get(game_id)).record
            count += record is not None and await self._score(record)
        return count

    async def _post_result(self, season: Season, game: ScoredGame) -> None:
        if game.channel_id is None:
            return
        language = await self.bot.guild_language(season.guild_id)
        channel = self.bot.get_partial_messageable(game.channel_id)
        try:
            message = await channel.send(
                content=" ".join(player_name(s.user_id, s.name) for s in game.seats if s.user_id > 0),
                embed=self._result_embed(season, game, language),
                view=self._answer_view(game, language) or discord.ui.View(),  # a new result is never final
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )
        except discord.HTTPException:
            log.warning("could not post the season result of game %s", game.game_id)
            return
        await self.service.set_message(game.game_id, game.channel_id, message.id)

    async def answer_pressed(self, interaction: discord.Interaction, game_id: int, choice: str) -> None:
        """Confirm or Dispute pressed: only a player at that table is heard; the message shows the new state."""
        season, scored = await self.service.answer(
            guild_id_of(interaction), game_id, interaction.user.id, choice
        )
        tr = await self._tr(interaction)
        language = await self.bot.guild_language(season.guild_id)
        await interaction.response.edit_message(
            embed=self._result_embed(season, scored, language), view=self._answer_view(scored, language)
        )
        await interaction.followup.send(tr(f"season.answered.{choice}", game=game_id), ephemeral=True)

    async def _refresh_posted(self, season: Season, game: ScoredGame) -> None:
        """After an answer or decision by command: the posted result shows it too."""
        if game.channel_id is None or game.message_id is None:
            return
        language = await self.bot.guild_language(season.guild_id)
        message = self.bot.get_partial_messageable(game.channel_id).get_partial_message(game.message_id)
        try:
            await message.edit(
                embed=self._result_embed(season, game, language), view=self._answer_view(game, language)
            )
        except discord.HTTPException:
            log.warning("could not update the season result of game %s", game.game_id)

    @staticmethod
    def _answer_view(game: ScoredGame, language: str) -> discord.ui.View | None:
        """Confirm and Dispute while the result is open; no buttons once it is final."""
        if game.state.final:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(ConfirmButton(game.game_id, label=t("season.button.confirm", language)))
        view.add_item(DisputeButton(game.game_id, label=t("season.button.dispute", language)))
        return view

    @staticmethod
    def _result_embed(season: Season, game: ScoredGame, language: str) -> discord.Embed:
        def line(seat: SeatResult) -> str:
            kind = "won" if seat.won else "survived" if seat.survived else "out"
            return t(
                f"season.result.{kind}",
                language,
                player=player_name(seat.user_id, seat.name),
                eliminations=seat.eliminations,
                points=seat.points,
            )

        state = game.state
        if state.status == rules.PENDING:
            status = t(
                "season.result.pending", language, confirmed=len(state.confirmed), total=len(state.players)
            )
        elif state.status == rules.DISPUTED:
            names = {s.user_id: s.name for s in game.seats}
            status = t(
                "season.result.disputed",
                language,
                players=" ".join(player_name(u, names.get(u, "")) for u in sorted(state.disputed)),
            )
        else:
            status = t(f"season.result.{state.status}", language)
        description = "\n".join([*(line(s) for s in game.seats), "", status])
        return discord.Embed(
            title=t("season.result.title", language, name=season.name, game=game.game_id),
            description=description,
            colour=COLOUR,
        )

    # -- standings --------------------------------------------------------------------------------------

    @staticmethod
    def _rule_text(tr: Translate, season: Season) -> str:
        rule = season.rule
        return tr("season.rule", win=rule.win, survive=rule.survive, elimination=rule.elimination)

    def _standings_embed(self, tr: Translate, standings: SeasonStandings) -> discord.Embed:
        season = standings.season
        ranked = [
            tr(
                "season.standings.line",
                place=s.place,
                player=player_name(s.user_id, s.name),
                points=s.points,
                games=s.games,
                wins=s.wins,
                eliminations=s.eliminations,
            )
            for s in standings.lines
            if s.ranked
        ]
        unranked = [
            tr(
                "season.standings.unranked_line",
                player=player_name(s.user_id, s.name),
                points=s.points,
                games=s.games,
            )
            for s in standings.lines
            if not s.ranked
        ]
        parts = ranked or ([] if unranked else [tr("season.standings.empty")])
        if unranked:
            parts += ["", f"**{tr('season.standings.unranked', games=season.rule.min_games)}**", *unranked]
        status = tr("season.standings.status_open" if season.is_open else "season.standings.status_closed")
        embed = discord.Embed(
            title=f"{tr('season.standings.title', name=season.name)} ({status})",
            description=_fitted(parts),
            colour=COLOUR,
        )
        footer = f"{self._rule_text(tr, season)}. {tr('season.min_games', games=season.rule.min_games)}"
        if standings.waiting:
            footer += "\n" + tr("season.standings.waiting", count=standings.waiting)
        embed.set_footer(text=footer)
        return embed


def _fitted(lines: list[str]) -> str:
    """As many lines as an embed description holds, then "…": a season of hundreds of players still posts."""
    kept: list[str] = []
    size = 0
    for line in lines:
        size += len(line) + 1
        if size > DESCRIPTION_ROOM:
            kept.append("…")
            break
        kept.append(line)
    return "\n".join(kept)


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(SeasonCog(bot))
