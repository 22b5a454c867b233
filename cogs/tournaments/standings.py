"""Standings messages of the tournament cog: an embed, the table as an image and a CSV file, with the T2
prize leaders. A tournament of 1-vs-1 matches shows match points and the MTR tie-breakers instead
(``cogs.tournaments.matches``)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from bot.domain.tournament.prizes import PRIZE_GOALS, prize_leaders
from bot.domain.tournament.standings import Standing, standings_csv
from bot.i18n import Translate
from bot.render.fonts import png_bytes
from bot.render.standings import render_standings
from bot.services.tournaments import StandingsView
from bot.text import fit_lines
from cogs.tournaments.base import TournamentBase
from cogs.tournaments.components import COLOUR, mention, namer

EMBED_ROWS = 15
# Characters of one prize field: ties can list dozens of players, and a field holds 1,024 while every
# field of the standings embed shares its 6,000 with 15 lines of standings.
PRIZE_FIELD_BUDGET = 400


def standings_files(png: bytes, csv_text: str) -> list[discord.File]:
    """The image and the CSV export that go with every standings embed."""
    return [
        discord.File(io.BytesIO(png), filename="standings.png"),
        discord.File(io.BytesIO(csv_text.encode("utf-8")), filename="standings.csv"),
    ]


class StandingsMessages(TournamentBase):
    """Builds standings messages (a layer of ``TournamentCog``, see ``base``)."""

    async def _standings_message(self, view: StandingsView, tr: Translate) -> dict[str, Any]:
        title = (
            tr("tournament.standings.title", name=view.tournament.name)
            if view.round_number is None
            else tr("tournament.standings.round_title", name=view.tournament.name, round=view.round_number)
        )
        lines = [
            tr(
                "tournament.standings.line",
                rank=s.rank,
                player=mention(s.player),
                points=s.points,
                opponents=f"{float(s.opponents_average):.2f}",
                votes=s.tally.votes,
            )
            + (f" ({tr('tournament.dropped')})" if s.dropped else "")
            for s in view.standings[:EMBED_ROWS]
        ]
        embed = discord.Embed(
            title=discord.utils.escape_markdown(title),
            description="\n".join(lines) or tr("tournament.standings.empty"),
            colour=COLOUR,
        )
        if len(view.standings) > EMBED_ROWS:
            embed.set_footer(text=tr("tournament.standings.more", count=len(view.standings) - EMBED_ROWS))
        self._add_prize_fields(embed, view, tr)
        embed.set_image(url="attachment://standings.png")
        png = await self.bot.workers.run(_standings_png, title, view.standings, dict(view.names), tr.language)
        return {
            "embed": embed,
            "files": standings_files(png, standings_csv(view.standings, namer(view.names))),
        }

    @staticmethod
    def _add_prize_fields(embed: discord.Embed, view: StandingsView, tr: Translate) -> None:
        leaders = prize_leaders({s.player: s.prizes for s in view.standings})
        for goal in PRIZE_GOALS:
            if goal in leaders:
                value, players = leaders[goal]
                tail = f" — {value}"
                winners = fit_lines(
                    [mention(p) for p in players],
                    PRIZE_FIELD_BUDGET - len(tail),
                    lambda count: tr("core.and_more", count=count),
                    separator=", ",
                )
                embed.add_field(name=tr(f"tournament.prize.{goal}"), value=winners + tail, inline=True)


def _standings_png(title: str, standings: Sequence[Standing], names: dict[Any, str], language: str) -> bytes:
    """Drawn and encoded in the work pool (``bot.workers``), off the event loop; ``names`` as in
    ``StandingsView.names`` (a worker process gets data, not the view's closures)."""
    return png_bytes(render_standings(title, standings, namer(names), language))
