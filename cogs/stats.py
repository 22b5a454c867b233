"""``/stats me|member|commander|server``: what a server's recorded pod games mean over time.

Thin: the figures come from ``StatsService`` (SQL over the summaries each finish writes), the words from
``bot/i18n/messages/stats.toml``, the chart from ``bot.render.stats`` drawn in the work pool. Statistics
stay in their server: every command reads the figures of the server it is used in. Members are shown
as mentions (no ping); one who deleted their data shows as "deleted member" in the reader's language.
The games finished before the statistics existed are summarised once at load (``StatsService.backfill``).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.domain.pod import PodGameRecord
from bot.domain.stats.figures import MIN_GAMES_TO_RANK, MemberStats, ServerStats, Tally
from bot.domain.stats.summary import COLOURLESS
from bot.i18n import Translate
from bot.render.deck_text import printed_names
from bot.render.fonts import png_bytes
from bot.render.stats import CHART, render_stats_chart
from bot.services.stats import StatsService, stats_topic
from bot.text import fit_lines
from cogs._common import command_text

log = logging.getLogger(__name__)
_T = command_text("stats")
COLOUR = 0x4CAF6E
FIELD_BUDGET = 1000  # an embed field holds 1,024 characters


def percent(rate: float) -> str:
    return f"{round(rate * 100)}%"


def player_text(user_id: int | None, tr: Translate) -> str:
    """A member as a mention; one who deleted their data (a negative pseudonym) as "deleted member"."""
    if user_id is None:
        return "—"
    return tr("stats.deleted_member") if user_id < 0 else f"<@{user_id}>"


def _chart_png(title: str, rates: Sequence[Tally], months: Sequence[Tally], language: str) -> bytes:
    """Drawn and encoded in the work pool (``bot.workers``), off the event loop."""
    tr = Translate(language)
    return png_bytes(
        render_stats_chart(
            title,
            rates_title=tr("stats.chart.rates"),
            rates=rates,
            months_title=tr("stats.chart.months"),
            months=months,
            language=language,
        )
    )


class StatsCog(commands.Cog, name="Stats"):
    stats = app_commands.Group(
        name=_T("stats"), description=_T("Statistics of this server's pod games"), guild_only=True
    )

    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        self.service = StatsService(bot.db, offload=bot.workers.run)
        self._backfill: asyncio.Task[int] | None = None

    async def cog_load(self) -> None:
        self._backfill = asyncio.get_running_loop().create_task(self._run_backfill(), name="stats-backfill")

    async def cog_unload(self) -> None:
        if self._backfill is not None and not self._backfill.done():
            self._backfill.cancel()
            await asyncio.gather(self._backfill, return_exceptions=True)

    async def _run_backfill(self) -> int:
        try:
            return await self.service.backfill()
        except Exception:  # the next start tries again; the figures lack only the older games meanwhile
            log.exception("statistics: the backfill of older games failed")
            return 0

    @commands.Cog.listener()
    async def on_pod_game_finished(self, record: PodGameRecord) -> None:
        """The game's summary was committed with its finish: the leaderboard pages read it again."""
        self.bot.db.changes.publish(stats_topic(record.guild_id))

    # -- helpers -----------------------------------------------------------------------------------

    async def _tr(self, interaction: discord.Interaction) -> Translate:
        return Translate(await self.bot.language_for(interaction))

    @staticmethod
    async def _refuse(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(text, ephemeral=True)

    def _commander_label(self, tr: Translate) -> Callable[[str], str]:
        """A commander (or "A + B" pair) in the reader's language: the printed names the card data has."""
        name_for = printed_names(self.bot.cards, tr.language)
        return lambda label: " + ".join(name_for(part) for part in label.split(" + "))

    @staticmethod
    def _field(embed: discord.Embed, name: str, lines: Sequence[str], tr: Translate) -> None:
        if lines:
            embed.add_field(
                name=name,
                value=fit_lines(lines, FIELD_BUDGET, lambda n: tr("core.and_more", count=n)),
                inline=False,
            )

    @staticmethod
    def _tally_lines(tallies: Sequence[Tally], tr: Translate, label: Callable[[str], str]) -> list[str]:
        return [
            tr(
                "stats.tally",
                label=discord.utils.escape_markdown(label(t.label)),
                games=t.games,
                wins=t.wins,
                rate=percent(t.rate),
            )
            for t in tallies
        ]

    async def _send(
        self,
        interaction: discord.Interaction,
        embed: discord.Embed,
        tr: Translate,
        title: str,
        commanders: Sequence[Tally],
        months: Sequence[Tally],
    ) -> None:
        """The embed, with the chart of the commanders' win rates (named in the reader's language) and the
        games per month under it when there is something to draw."""
        if not commanders and not months:
            await interaction.followup.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
            return
        label = self._commander_label(tr)
        rates = [Tally(label=label(t.label), games=t.games, wins=t.wins) for t in commanders]
        png = await self.bot.workers.run(_chart_png, title, rates, list(months), tr.language)
        embed.set_image(url=f"attachment://{CHART}")
        await interaction.followup.send(
            embed=embed,
            file=discord.File(io.BytesIO(png), filename=CHART),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # -- /stats me, /stats member --------------------------------------------------------------------

    @stats.command(name=_T("me"), description=_T("Your games, wins and commanders in this server"))
    async def me(self, interaction: discord.Interaction) -> None:
        await self._member(interaction, interaction.user)

    @stats.command(name=_T("member"), description=_T("A member's games, wins and commanders in this server"))
    @app_commands.describe(member=_T("Whose statistics"))
    @app_commands.rename(member=_T("member"))
    async def member(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await self._member(interaction, member)

    async def _member(self, interaction: discord.Interaction, who: discord.abc.User) -> None:
        tr = await self._tr(interaction)
        name = discord.utils.escape_markdown(who.display_name)
        if not await self.service.has_games(interaction.guild_id or 0, user_id=who.id):
            await self._refuse(interaction, tr("stats.empty.member", name=name))
            return
        await interaction.response.defer(
            thinking=True
        )  # a busy server's figures take longer than Discord waits
        figures = await self.service.member(interaction.guild_id or 0, who.id)
        title = tr("stats.title.member", name=who.display_name)
        embed = self._member_embed(figures, tr, discord.utils.escape_markdown(title))
        await self._send(interaction, embed, tr, title, figures.by_commander, figures.per_month)

    def _member_embed(self, figures: MemberStats, tr: Translate, title: str) -> discord.Embed:
        lines = [
            tr("stats.record", games=figures.games, wins=figures.wins, rate=percent(figures.rate)),
            self._length(tr, figures.average_turns, figures.average_minutes),
            tr("stats.streaks", best=figures.streaks.best, current=figures.streaks.current),
        ]
        embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
        self._field(
            embed,
            tr("stats.field.by_commander"),
            self._tally_lines(figures.by_commander, tr, self._commander_label(tr)),
            tr,
        )
        self._field(embed, tr("stats.field.by_deck"), self._tally_lines(figures.by_deck, tr, str), tr)
        for key, counts in (
            ("eliminated_how", figures.eliminated_how),
            ("eliminated_others", figures.eliminated_others),
        ):
            lines = [tr("stats.count", label=tr(f"stats.how.{t.label}"), count=t.games) for t in counts]
            self._field(embed, tr(f"stats.field.{key}"), lines, tr)
        self._field(
            embed,
            tr("stats.field.head_to_head"),
            [
                tr(
                    "stats.head_to_head_line",
                    opponent=player_text(h.opponent, tr),
                    games=h.games,
                    wins=h.wins,
                    losses=h.losses,
                )
                for h in figures.head_to_head
            ],
            tr,
        )
        return embed

    @staticmethod
    def _length(tr: Translate, turns: float | None, minutes: float | None) -> str:
        if turns is None:
            return ""
        if minutes is None:
            return tr("stats.length_turns", turns=f"{turns:.1f}")
        return tr("stats.length", turns=f"{turns:.1f}", minutes=round(minutes))

    # -- /stats commander ----------------------------------------------------------------------------

    @stats.command(name=_T("commander"), description=_T("How a commander fared in this server"))
    @app_commands.describe(name=_T("A commander played in this server; pick from the list"))
    @app_commands.rename(name=_T("name"))
    async def commander(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 200]
    ) -> None:
        tr = await self._tr(interaction)
        label = self._commander_label(tr)(name.strip())
        if not await self.service.has_games(interaction.guild_id or 0, commander=name.strip()):
            await self._refuse(
                interaction, tr("stats.error.unknown_commander", name=discord.utils.escape_markdown(label))
            )
            return
        await interaction.response.defer(thinking=True)
        figures = await self.service.commander(interaction.guild_id or 0, name.strip())
        title = tr("stats.title.commander", name=label)
        lines = [
            tr("stats.record", games=figures.games, wins=figures.wins, rate=percent(figures.rate)),
            self._length(tr, figures.average_turns, None),
            tr("stats.commander_record", pilots=figures.pilots, eliminations=figures.eliminations),
        ]
        embed = discord.Embed(
            title=discord.utils.escape_markdown(title), description="\n".join(lines), colour=COLOUR
        )
        self._field(
            embed,
            tr("stats.field.pilots"),
            self._tally_lines(figures.top_pilots, tr, lambda user: player_text(int(user), tr)),
            tr,
        )
        await interaction.followup.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @commander.autocomplete("name")
    async def commander_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tr = await self._tr(interaction)
        label = self._commander_label(tr)
        names = await self.service.commander_names(interaction.guild_id or 0, current)
        return [app_commands.Choice(name=label(n)[:100], value=n[:100]) for n in names]

    # -- /stats server -------------------------------------------------------------------------------

    @stats.command(
        name=_T("server"), description=_T("The server's most played commanders, longest games and leaders")
    )
    async def server(self, interaction: discord.Interaction) -> None:
        tr = await self._tr(interaction)
        if not await self.service.has_games(interaction.guild_id or 0):
            await self._refuse(interaction, tr("stats.empty.server"))
            return
        await interaction.response.defer(thinking=True)
        figures = await self.service.server(interaction.guild_id or 0)
        guild_name = interaction.guild.name if interaction.guild is not None else ""
        title = tr("stats.title.server", name=guild_name)
        embed = self._server_embed(figures, tr, discord.utils.escape_markdown(title))
        await self._send(interaction, embed, tr, title, figures.commanders, figures.per_month)

    def _server_embed(self, figures: ServerStats, tr: Translate, title: str) -> discord.Embed:
        lines = [
            tr("stats.server_record", games=figures.games, players=figures.players),
            self._length(tr, figures.average_turns, figures.average_minutes),
        ]
        embed = discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)
        self._field(
            embed,
            tr("stats.field.commanders"),
            self._tally_lines(figures.commanders, tr, self._commander_label(tr)),
            tr,
        )

        def colours(identity: str) -> str:
            return tr("stats.colourless") if identity == COLOURLESS else identity

        self._field(
            embed, tr("stats.field.identities"), self._tally_lines(figures.identities, tr, colours), tr
        )
        self._field(
            embed,
            tr("stats.field.leaderboard", count=MIN_GAMES_TO_RANK),
            [
                tr(
                    "stats.rank_line",
                    rank=rank,
                    player=player_text(line.user_id, tr),
                    wins=line.wins,
                    games=line.games,
                    rate=percent(line.rate),
                )
                for rank, line in enumerate(figures.leaderboard, start=1)
            ],
            tr,
        )
        self._field(
            embed,
            tr("stats.field.streaks"),
            [
                tr("stats.streak_line", player=player_text(s.user_id, tr), streak=s.streak)
                for s in figures.streaks
            ],
            tr,
        )
        self._field(
            embed,
            tr("stats.field.longest"),
            [
                tr(
                    "stats.longest_line",
                    game=g.game_id,
                    turns=g.turns,
                    winner=""
                    if g.winner is None
                    else tr("stats.longest_winner", player=player_text(g.winner, tr)),
                )
                for g in figures.longest
            ],
            tr,
        )
        return embed


async def setup(bot: PodkeeperBot) -> None:
    await bot.add_cog(StatsCog(bot))
