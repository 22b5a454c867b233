"""``/pod start|show|history|end|list|mulligan|commander|bracket|life|damage|next|undo``: the slash commands.

Thin: options are read and checked here; the change goes through the layers below (``cogs.pods.base``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import PodkeeperBot
from bot.clock import clock_of, iso_clock
from bot.domain import pod
from bot.domain.mulligan import MulliganStyle
from bot.domain.pod import PodError
from bot.render.board import header_text
from bot.services.pods import LoadedGame, PodService
from bot.services.reconcile import register_reconcile
from bot.services.seasons import SeasonService
from cogs._boards import LiveBoards
from cogs._common import command_text
from cogs._permissions import refuse_unless_bot_can_post
from cogs._timers import Timers
from cogs._updater import BoardUpdater, lanes_of
from cogs.pods.components import PlayerSelect, PodButton
from cogs.pods.concede import ConcedeStep
from cogs.pods.match import MATCH_CHOICE, MatchButton, MatchStep, Refusal
from cogs.pods.mulligan import MulliganStep
from cogs.pods.mulligan_panels import MulliganChoice
from cogs.pods.players import players_from
from cogs.pods.presses import PodPresses

# A command text localised through the key ``app.pod.<text>``: the ``pod`` namespace keeps our
# catalogue keys from colliding with another feature's identical English text.
_T = command_text("pod")

RECENT_GAMES = 10
LEAGUE_TEXT = "app.season.A league game: it counts for a league-only season"  # in season.toml

RULESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in pod.RULESETS]
MATCH_CHOICES = [app_commands.Choice(name=_T("Best of three"), value=MATCH_CHOICE)]
BRACKET_CHOICES = [
    app_commands.Choice(name=_T(f"{level} {name}"), value=level)
    for level, name in enumerate(("Exhibition", "Core", "Upgraded", "Optimized", "cEDH"), start=1)
]
MULLIGAN_CHOICES = [
    app_commands.Choice(name=_T(style.value.replace("_", " ").title()), value=style.value)
    for style in MulliganStyle
]


class NamedPlayer(Protocol):
    """What a seat needs of a player: a Discord user, or a tournament's entrant known by id and name."""

    @property
    def id(self) -> int: ...

    @property
    def display_name(self) -> str: ...


class PodsCog(
    PodPresses,
    commands.GroupCog,
    name="Pods",
    group_name="pod",
    group_description=_T("Track a Commander game at the table"),
):
    def __init__(self, bot: PodkeeperBot) -> None:
        self.bot = bot
        # Event stamps follow the bot's clock, like the match's swap window that is timed from them.
        self.service = PodService(bot.db, notify=bot.dispatch, clock=iso_clock(clock_of(bot)))
        self.boards = LiveBoards(bot, "pod board")
        self.updater = BoardUpdater(
            self.refresh_board,
            what="pod board",
            channel_of=self.board_channel,
            lanes=lanes_of(bot),
            clock=clock_of(bot),
        )
        self.first_posts: Timers[int] = Timers(clock_of(bot), "pod-first-post")  # see reconcile_boards
        self.mulligan_step = MulliganStep(self)
        self.match_step = MatchStep(self)  # matches and sideboard swaps: cogs/pods/match.py
        self.concede_step = ConcedeStep(self)  # conceding for someone else: cogs/pods/concede.py
        self.selected = {}
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PodButton, PlayerSelect, MulliganChoice, MatchButton)
        register_reconcile(self.bot, "pods", self.reconcile_boards)
        await self.replay_presses()  # before any interaction arrives, and before the boards' reconcile

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PodButton, PlayerSelect, MulliganChoice, MatchButton)
        self.updater.cancel()
        self.first_posts.cancel_all()
        if self.journal is not None:
            self.journal.close()
            self.journal = None
        self.mulligan_step.cancel()
        self.match_step.cancel()

    # -- starting ---------------------------------------------------------------------------------------------

    async def start_linked_game(
        self,
        channel: discord.abc.Messageable,
        players: Sequence[NamedPlayer],
        *,
        ruleset: str,
        guild_id: int | None = None,
        created_by: int | None = None,
        starting_life: int | None = None,
        tournament_id: int | None = None,
        round_number: int | None = None,
    ) -> tuple[LoadedGame, discord.Message]:
        """For the tournament feature: create a game linked to a round and post its board in ``channel``.

        Raises PodError (nothing stored) for a bad ruleset, life total or player list."""
        guild = getattr(channel, "guild", None)
        loaded = await self.service.start_game(
            guild_id=guild_id if guild_id is not None else (guild.id if guild else None),
            channel_id=getattr(channel, "id", None),
            created_by=created_by,
            players=[(p.id, p.display_name) for p in players],
            ruleset=ruleset,
            starting_life=starting_life,
            tournament_id=tournament_id,
            round_number=round_number,
        )
        return loaded, await self.post_board(channel, loaded)

    @app_commands.command(name="start", description=_T("Start a game and post its live board"))
    @app_commands.describe(
        players=_T("Players by mention, in seat order (2 to 8; more can join before turn 1)"),
        ruleset=_T("Ruleset (default: the server's)"),
        life=_T("Starting life (default 40)"),
        own_totals_only=_T("Players change only their own totals"),
        mulligan=_T("Mulligan style (default: the ruleset's)"),
        match=_T("Best of three games (a duel-zh game of two players always is)"),
        league=_T("A league game: it counts for a league-only season", key=LEAGUE_TEXT),
    )
    @app_commands.rename(league=_T("league", key="app.season.opt.league"))
    @app_commands.choices(ruleset=RULESET_CHOICES, mulligan=MULLIGAN_CHOICES, match=MATCH_CHOICES)
    @app_commands.guild_only()
    async def start(
        self,
        interaction: discord.Interaction,
        players: str,
        ruleset: str | None = None,
        life: app_commands.Range[int, 1, pod.LIFE_BOUND] | None = None,
        own_totals_only: bool = False,
        mulligan: str | None = None,
        match: str | None = None,
        league: bool = False,
    ) -> None:
        tr = await self._tr(interaction)
        try:
            chosen = await players_from(self.bot, interaction, players)
        except PodError as error:
            await self.send_error(interaction, error)
            return
        if not chosen:
            await interaction.response.send_message(tr("pod.error.no_players_mentioned"), ephemeral=True)
            return
        if await refuse_unless_bot_can_post(interaction):  # else every later board edit would be refused
            return
        ruleset = ruleset or await self.bot.ruleset_for(interaction.guild_id)
        try:
            loaded = await self.match_step.start_game(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                created_by=interaction.user.id,
                players=chosen,
                ruleset=ruleset,
                starting_life=life,
                own_totals_only=own_totals_only,
                mulligan_style=mulligan,
                match=match,
            )
        except Refusal as error:
            await self.send_error(interaction, error)
            return
        if league:  # a league-only season scores only these (docs/players/seasons.md)
            await SeasonService(self.bot.db, clock=iso_clock(clock_of(self.bot))).mark_league(
                loaded.game_id, interaction.user.id
            )
        await interaction.response.defer(thinking=True)  # the board image may wait for the work pool
        channel = interaction.channel
        settings = await self.bot.guild_settings.get(interaction.guild_id or 0)
        refused: discord.Forbidden | None = None
        if settings.pod_threads and isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(
                    name=tr("pod.thread_name", game=loaded.game_id)[:100],
                    type=discord.ChannelType.public_thread,
                )
            except discord.Forbidden as error:
                refused = error  # no thread here: the board goes in the channel, and the user learns why
            else:
                await self.post_board(thread, loaded)
                await interaction.followup.send(
                    tr("pod.started_in_thread", game=loaded.game_id, thread=thread.mention)
                )
                await self._tell_league(interaction, loaded, league)
                return
        await self._send_board(interaction, loaded)
        if refused is not None:
            await self.bot.explain_refusal(interaction, refused)
        await self._tell_league(interaction, loaded, league)

    async def _tell_league(self, interaction: discord.Interaction, loaded: LoadedGame, league: bool) -> None:
        """The starter learns (privately) that the game counts for a league-only season."""
        if league:
            tr = await self._tr(interaction)
            await interaction.followup.send(tr("season.league.marked", game=loaded.game_id), ephemeral=True)

    # -- slash alternatives ---------------------------------------------------------------------------------------

    async def game_here(
        self, interaction: discord.Interaction, game: int | None, who: int | None = None
    ) -> LoadedGame | None:
        """The game named by ``game:``, else the running game in this channel that the caller (or ``who``)
        plays in (a tournament round posts every table's board in one channel), else the only running one.
        With several candidates the caller is asked to name one rather than reaching the newest.
        A refusal is told here and None returned (public: ``/pod overlay`` of ``cogs.web_pages`` uses it)."""
        try:
            if game is not None:
                return await self.game_in_this_server(interaction, game)
            running = [
                await self.service.get(row.game_id)
                for row in await self.service.open_in_channel(interaction.channel_id or 0)
            ]
            if not running:
                raise PodError("no_open_game")
            mine = [g for g in running if g.state.is_player(who or interaction.user.id)] or running
            if len(mine) > 1:
                raise PodError("which_game", games=[f"#{g.game_id}" for g in reversed(mine)])
            return mine[0]
        except PodError as error:
            await self.send_error(interaction, error)
            return None

    @app_commands.command(name="show", description=_T("Post the board of the game again"))
    @app_commands.describe(game=_T("Game number (default: the running game in this channel)"))
    @app_commands.guild_only()
    async def show(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is None or await refuse_unless_bot_can_post(interaction):  # the new board is edited later
            return
        await interaction.response.defer(thinking=True)
        await self._send_board(interaction, loaded)

    @app_commands.command(name="history", description=_T("Who changed what, and when"))
    @app_commands.describe(game=_T("Game number (default: the running game in this channel)"))
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is None:
            return
        await self.send_history(interaction, loaded, await self._tr(interaction))

    @app_commands.command(name="end", description=_T("End the game now; whoever is alive survives"))
    @app_commands.describe(game=_T("Game number (default: the running game in this channel)"))
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Ending stops the game for everyone (no winner), so it is asked for twice: this command
        only offers a confirmation button. A tournament game is ended only by an organiser."""
        loaded = await self.game_here(interaction, game)
        if loaded is None or not await self._may_end(interaction, loaded):
            return
        tr = await self._tr(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(
            PodButton(
                loaded.game_id,
                "confirm_end",
                label=tr("pod.button.confirm_end"),
                style=discord.ButtonStyle.danger,
            )
        )
        await interaction.response.send_message(
            tr("pod.confirm_end", game=loaded.game_id), view=view, ephemeral=True
        )

    @app_commands.command(
        name="concede", description=_T("Concede; or, with Manage Server, for a player who left")
    )
    @app_commands.describe(
        player=_T("Who concedes (default: you)"),
        game=_T("Game number (default: that player's running game in this channel)"),
    )
    @app_commands.guild_only()
    async def concede(
        self, interaction: discord.Interaction, player: discord.Member | None = None, game: int | None = None
    ) -> None:
        """For another player this only offers a confirmation (``cogs/pods/concede.py``)."""
        who = (player or interaction.user).id
        loaded = await self.game_here(interaction, game, who)
        if loaded is not None:
            await self.concede_step.ask(interaction, loaded, who)

    @app_commands.command(name="list", description=_T("Recent games in this server"))
    @app_commands.guild_only()
    async def list_games(self, interaction: discord.Interaction) -> None:
        tr = await self._tr(interaction)
        rows = await self.service.recent(interaction.guild_id or 0, RECENT_GAMES)
        if not rows:
            await interaction.response.send_message(tr("pod.list.empty"), ephemeral=True)
            return
        lines = []
        for row in rows:
            state = (await self.service.get(row.game_id)).state
            names = [p.name for p in state.players]
            where = f"<#{row.channel_id}>" if row.channel_id else "-"
            lines.append(
                tr(
                    "pod.list.line",
                    game=row.game_id,
                    date=row.created_at[:10],
                    where=where,
                    names=names,
                    result=header_text(state, tr.language) if state.finished else tr("pod.list.running"),
                )
            )
        embed = discord.Embed(title=tr("pod.list.title"), description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="mulligan", description=_T("Answer the mulligan step before turn 1"))
    @app_commands.describe(game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def mulligan_command(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is not None:
            await self.mulligan_step.open(interaction, loaded)

    @app_commands.command(name="commander", description=_T("Name your commander(s) for the running game"))
    @app_commands.describe(
        name=_T("Your commander"),
        partner=_T("Your second commander (partners)"),
        game=_T("Game number (default: your running game in this channel)"),
    )
    @app_commands.guild_only()
    async def commander(
        self, interaction: discord.Interaction, name: str, partner: str | None = None, game: int | None = None
    ) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is not None:
            await self.name_commanders(interaction, loaded.game_id, interaction.user.id, [name, partner])

    @app_commands.command(
        name="bracket", description=_T("Declare your deck's Commander bracket for the game")
    )
    @app_commands.describe(
        level=_T("Your bracket: 1 Exhibition to 5 cEDH"),
        game=_T("Game number (default: your running game in this channel)"),
    )
    @app_commands.choices(level=BRACKET_CHOICES)
    @app_commands.guild_only()
    async def bracket(
        self, interaction: discord.Interaction, level: app_commands.Choice[int], game: int | None = None
    ) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is not None:
            await self.declare_bracket(interaction, loaded, level.value)

    @commander.autocomplete("name")
    @commander.autocomplete("partner")
    async def commander_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        cards = self.bot.cards
        if cards is None or not current:
            return []
        language = await self.bot.language_for(interaction)
        return [
            app_commands.Choice(name=shown, value=card_id)
            for shown, card_id in cards.choices(current, language, limit=25)
        ]

    @app_commands.command(name="life", description=_T("Change a player's life"))
    @app_commands.describe(
        player=_T("Whose life"),
        amount=_T("Change, e.g. -3 or 5"),
        game=_T("Game number (default: your running game in this channel)"),
    )
    @app_commands.guild_only()
    async def life(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        amount: app_commands.Range[int, -pod.LIFE_BOUND, pod.LIFE_BOUND],
        game: int | None = None,
    ) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is not None:
            await self.act(interaction, loaded.game_id, pod.LIFE, player=player.id, amount=amount)

    @app_commands.command(
        name="damage", description=_T("Commander damage: source commander, player hit, amount")
    )
    @app_commands.describe(
        owner=_T("The commander's owner"),
        target=_T("The player hit"),
        amount=_T("Combat damage"),
        partner=_T("The owner's second commander (partners)"),
        game=_T("Game number (default: your running game in this channel)"),
    )
    @app_commands.guild_only()
    async def damage(
        self,
        interaction: discord.Interaction,
        owner: discord.Member,
        target: discord.Member,
        amount: app_commands.Range[int, 1, pod.MAX_COMMANDER_HIT],
        partner: bool = False,
        game: int | None = None,
    ) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is not None:
            await self.act(
                interaction,
                loaded.game_id,
                pod.COMMANDER_DAMAGE,
                commander=pod.commander_key(owner.id, 1 if partner else 0),
                target=target.id,
                amount=amount,
            )

    @app_commands.command(name="next", description=_T("Pass to the next turn"))
    @app_commands.describe(game=_T("Game number (default: your running game in this channel)"))
    @app_commands.guild_only()
    async def next_turn(self, interaction: discord.Interaction, game: int | None = None) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is not None:
            await self.act(interaction, loaded.game_id, pod.NEXT_TURN)

    @app_commands.command(name="undo", description=_T("Undo the last changes"))
    @app_commands.describe(
        steps=_T("How many changes to undo"),
        game=_T("Game number (default: your running game in this channel)"),
    )
    @app_commands.guild_only()
    async def undo(
        self,
        interaction: discord.Interaction,
        steps: app_commands.Range[int, 1, 50] = 1,
        game: int | None = None,
    ) -> None:
        loaded = await self.game_here(interaction, game)
        if loaded is not None:
            await self._undo(interaction, loaded.game_id, steps)
