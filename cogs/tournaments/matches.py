"""1-vs-1 tournaments of matches in ``/tournament`` (G9): pairing and standings.

Used by ``cogs/tournaments/cog.py`` for a tournament created with ``format: matches``: ``/tournament pair``
pairs two by two and starts a best-of-three match (a pod board, ``cogs/pods/match.py``) per pair;
``/tournament standings`` and ``/tournament end`` show match points and the MTR tie-breakers (embed,
image, CSV), and ``/tournament end`` asks first while a match of the round still runs. The rules are
``bot/domain/tournament/matches.py``; the service ``bot/services/match_tournaments.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.domain.tournament import TournamentError
from bot.domain.tournament.matches import MatchStanding, match_standings_csv, percent
from bot.i18n import Translate
from bot.render.fonts import png_bytes
from bot.render.standings import render_match_standings
from bot.services.match_tournaments import MatchStandingsView, MatchTournaments
from bot.storage.tournaments import Tournament
from bot.text import fit_lines
from cogs._common import guild_id_of
from cogs.tournaments.components import namer
from cogs.tournaments.standings import standings_files

if TYPE_CHECKING:
    from cogs.tournaments.cog import TournamentCog

FORMAT_MATCHES = "matches"
COLOUR = discord.Colour.dark_gold()


class MatchRounds:
    def __init__(self, cog: TournamentCog) -> None:
        self.cog = cog
        self._service: MatchTournaments | None = None

    @property
    def service(self) -> MatchTournaments:
        """The matches' service, built on the pod tracker's match step (its store of matches)."""
        if self._service is None:
            pods = self.cog.pods
            assert pods is not None, (
                "the pod tracker is not loaded: tournaments of matches play on its boards"
            )
            self._service = MatchTournaments(pods.match_step.service, self.cog.service.repo)
        return self._service

    async def pair(self, interaction: discord.Interaction, force: bool) -> bool:
        """``/tournament pair`` for a tournament of matches; False when the running one is of pods."""
        try:
            tournament = await self.cog.service.active(guild_id_of(interaction))
        except TournamentError:
            return False  # the ordinary command says there is none
        if not await self.service.is_matches(tournament.tournament_id):
            return False
        round_number, pairing = await self.service.pair_next_round(tournament, force=force)
        await interaction.response.defer(thinking=True)
        tr = await self.cog._tr(interaction)
        names = await self.cog.service.names(tournament.tournament_id)
        lines = [
            tr("tournament.matches.pair", table=i, first=f"<@{a}>", second=f"<@{b}>")
            for i, (a, b) in enumerate(pairing.pairs, 1)
        ]
        if pairing.bye is not None:
            lines.append(tr("tournament.matches.bye", player=f"<@{pairing.bye}>"))
        title = tr(
            "tournament.round.title",
            name=discord.utils.escape_markdown(tournament.name),
            round=round_number,
            rounds=tournament.rounds,
        )
        embed = discord.Embed(title=title, description=fit_lines(lines, 4000, self._more(tr)), colour=COLOUR)
        await interaction.followup.send(embed=embed, allowed_mentions=discord.AllowedMentions(users=True))
        tables = await self.cog.service.repo.pods(tournament.tournament_id, round_number)
        for table in tables:
            await self._start_match(interaction, tournament, table.seats, names, table.pod_id, round_number)
        return True

    async def _start_match(
        self,
        interaction: discord.Interaction,
        tournament: Tournament,
        seats: list[int],
        names: dict[int, str],
        pod_id: int,
        round_number: int,
    ) -> None:
        pods, channel = self.cog.pods, interaction.channel
        if pods is None or not isinstance(channel, discord.abc.Messageable):
            return
        _, game = await pods.match_step.service.start_match(
            guild_id=guild_id_of(interaction),
            channel_id=interaction.channel_id,
            created_by=interaction.user.id,
            players=[(user, names.get(user, str(user))) for user in seats],
            ruleset=await self.cog.bot.ruleset_for(guild_id_of(interaction)),
            tournament_id=tournament.tournament_id,
            round_number=round_number,
        )
        await pods.post_board(channel, game)
        await self.cog.service.link_game(pod_id, game.game_id)

    async def standings(
        self, interaction: discord.Interaction, tournament: Tournament, round_number: int | None = None
    ) -> bool:
        """``/tournament standings`` for a tournament of matches; False when it is a tournament of pods."""
        if not await self.service.is_matches(tournament.tournament_id):
            return False
        await interaction.response.defer(thinking=True)
        tr = await self.cog._tr(interaction)
        view = await self.service.standings(tournament, round_number)
        await interaction.followup.send(
            **await self.standings_message(view, tr), allowed_mentions=discord.AllowedMentions.none()
        )
        return True

    async def standings_message(self, view: MatchStandingsView, tr: Translate) -> dict[str, Any]:
        """The embed (match points, record, OMW / GW / OGW), the table as an image and the CSV; also what
        ``/tournament end`` posts for a tournament of matches."""
        name = discord.utils.escape_markdown(view.tournament.name)
        title = (
            tr("tournament.matches.standings", name=name)
            if view.round_number is None
            else tr("tournament.matches.round_standings", name=name, round=view.round_number)
        )
        lines = [self._line(s, view.names, tr) for s in view.standings]
        embed = discord.Embed(
            title=title, description=fit_lines(lines, 4000, self._more(tr)) or "-", colour=COLOUR
        )
        embed.set_footer(text=tr("tournament.matches.tiebreakers"))
        embed.set_image(url="attachment://standings.png")
        png = await self.cog.bot.workers.run(
            _match_standings_png, title, view.standings, dict(view.names), tr.language
        )
        csv_text = match_standings_csv(view.standings, namer(view.names))
        return {"embed": embed, "files": standings_files(png, csv_text)}

    async def unfinished_tables(self, tournament: Tournament) -> list[int] | None:
        """Tables of the round whose match still runs; None for a tournament of pods."""
        if not await self.service.is_matches(tournament.tournament_id):
            return None
        return await self.service.unfinished_tables(tournament)

    @staticmethod
    def _more(tr: Translate):
        return lambda count: tr("tournament.matches.more", count=count)

    @staticmethod
    def _line(standing: MatchStanding, names: dict[int, str], tr: Translate) -> str:
        wins, losses, draws = standing.record
        return tr(
            "tournament.matches.line",
            rank=standing.rank,
            name=discord.utils.escape_markdown(namer(names)(standing.player)[:64]),
            points=standing.match_points,
            wins=wins,
            losses=losses,
            draws=draws,
            omw=percent(standing.opponents_match_win),
            gw=percent(standing.game_win),
            ogw=percent(standing.opponents_game_win),
        ) + (f" ({tr('tournament.dropped')})" if standing.dropped else "")


def _match_standings_png(
    title: str, standings: Sequence[MatchStanding], names: dict[Any, str], language: str
) -> bytes:
    """Drawn and encoded in the work pool (``bot.workers``), off the event loop."""
    return png_bytes(render_match_standings(title, standings, namer(names), language))
