"""The mulligan step at the table: whose decision it is, told to that player, one press per decision.

Part of the pod cog's package (``cogs.pods``): ``PodsCog`` owns one ``MulliganStep`` and calls it from the
board's Mulligan button and ``/pod mulligan``.

How a player is reached on real Discord. An ephemeral (private) message can only be the answer to an
interaction of that player, and the interaction's token lets the bot edit that answer for 15 minutes; a
bot cannot start a private message in a channel by itself, and a DM is intrusive (and often closed). So:

* **Private panel.** Pressing Mulligan on the board (or ``/pod mulligan``) answers with the player's own
  panel: where the table stands, and the choices when it is their decision (partial Paris: Keep, 1 … N
  cards set aside; London/Vancouver: Keep / Mulligan). The panel *keeps updating itself*: after every
  change of the game the bot edits it through the interaction it answered
  (``edit_original_response``), for ``PANEL_LIFETIME`` (just under the token's 15 minutes). A press on a
  panel answers that very interaction with the updated panel, which also renews the 15 minutes.
* **A ping for the player whose decision it is.** Editing an ephemeral message notifies nobody, so when
  the decision passes to a player the bot posts one short public line in the board's channel, in the
  board's language: "@bob: your mulligan decision …", with the choices on it. ``allowed_mentions`` names
  that one user (never @everyone or roles). The line before it is deleted, so the channel holds at most
  one. Only the named player's press counts (anyone else is refused privately); the press answers with
  the player's private panel (what to do with the cards), which from then on updates itself. The ping is
  left out when the decider has just opened or answered on their own panel (e.g. the last player still
  mulliganing, asked again at once).

Every choice carries the prompt's number (``pod.MulliganPrompt.number``: the answers given so far), and
the domain refuses a press whose number is not the current one, under the game's lock: a double press, a
press on a line or panel of an earlier moment is never taken as the next answer; the presser gets their
current panel instead. (After an undo the undone question is the current one again, so buttons that ask
it count again: the same question, the same answers.) The state is the game's event log in SQLite, so a restart
loses nothing that matters: buttons are ``DynamicItem``s that route after a restart, a press on a line or
panel from before it is answered from the stored state (the old line is deleted when pressed), and only
the self-updating of panels opened before the restart stops (press Mulligan again).

The step ends by itself: once everyone has kept, the ping line goes, panels and the board say so, with
any set-aside cards to shuffle back (M1), and the board's Start turn 1 button begins the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.domain import pod
from bot.domain.mulligan import Choice, MulliganStyle, TableMulligan
from bot.domain.pod import PodError, PodState
from bot.i18n import Translate, t
from bot.services.mulligan import instruction_text, status_line, style_name
from bot.services.pods import LoadedGame
from cogs._common import rebuilt
from cogs.pods.components import pods_cog

if TYPE_CHECKING:
    from cogs.pods.cog import PodsCog

log = logging.getLogger(__name__)

PromptKey = tuple[int, int, int]  # (player, answers so far, hand size): see _key

PANEL_LIFETIME = 14 * 60  # seconds: an interaction token may edit its answer for 15 minutes
OUTDATED = "pod.error.mulligan_outdated"
SWEEP_LIMIT = 50  # recent messages of a board's channel searched for lines left by a previous run


class MulliganChoice(discord.ui.DynamicItem[discord.ui.Button],
                     template=r"pod-mull:(?P<game>\d+):(?P<number>\d+):(?P<decision>keep|mulligan|\d+)"):
    """One answer on a ping line or a panel: ``pod-mull:<game>:<prompt number>:<decision>``."""

    def __init__(self, game_id: int, number: int, decision: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or decision, style=style, row=row,
                                           custom_id=f"pod-mull:{game_id}:{number}:{decision}"))
        self.game_id, self.number, self.decision = game_id, number, decision

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> MulliganChoice:
        button = rebuilt(item, discord.ui.Button)
        return cls(int(match["game"]), int(match["number"]), match["decision"], label=button.label or "",
                   style=button.style, row=button.row)

    async def callback(self, interaction: discord.Interaction) -> None:
        await pods_cog(interaction).mulligan_step.answer(interaction, self.game_id, self.number, self.decision)


@dataclass
class Panel:
    """A player's private panel the bot may still edit through the interaction that answered with it."""

    interaction: discord.Interaction
    language: str
    opened: float  # time.monotonic() of that interaction
    shown: str  # what it shows (text and prompt number): edited only when that changes
    asked: PromptKey | None  # the prompt it put to its player when they last pressed or opened it

    @property
    def expired(self) -> bool:
        return time.monotonic() - self.opened > PANEL_LIFETIME


@dataclass
class Notice:
    """The public ping line of a game: where it is and which prompt it asks (player, number, hand)."""

    channel_id: int
    message_id: int
    key: PromptKey


class MulliganStep:
    """Tells each player when the mulligan decision is theirs and takes their answers (see module doc)."""

    def __init__(self, cog: PodsCog) -> None:
        self.cog = cog
        self.panels: dict[tuple[int, int], Panel] = {}  # (game, player) -> live private panel
        self.notices: dict[int, Notice] = {}  # game -> its ping line
        self.opened: set[int] = set()  # games where someone opened a panel before the first answer
        self._swept: set[int] = set()  # games whose lines from before a restart were cleaned up
        self._locks: dict[int, asyncio.Lock] = {}
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}

    # -- presses --------------------------------------------------------------------------------

    async def open(self, interaction: discord.Interaction, loaded: LoadedGame) -> None:
        """The board's Mulligan button or ``/pod mulligan``: the presser's private panel (it begins the step)."""
        if not loaded.state.is_player(interaction.user.id):
            await self.cog.send_error(interaction, PodError("not_a_player"))
            return
        language = await self.cog.bot.language_for(interaction)
        await self._show(interaction, loaded, language, new_message=True)
        self.opened.add(loaded.game_id)
        self.request(loaded.game_id)

    async def answer(self, interaction: discord.Interaction, game_id: int, number: int, decision: str) -> None:
        """A press on a choice: record it (in turn, on the current prompt only) and answer privately."""
        user = interaction.user.id
        language = await self.cog.bot.language_for(interaction)
        on_line = not _is_ephemeral(interaction.message)
        note = ""
        try:
            loaded = await self.cog.service.change(game_id, user, pod.MULLIGAN, player=user,
                                                   decision=_decision(decision), prompt=number)
        except PodError as error:
            if error.key != OUTDATED:
                await self.cog.send_error(interaction, error, game_id)
                return
            loaded, note = await self.cog.service.get(game_id), t(OUTDATED, language)
        await self._show(interaction, loaded, language, new_message=on_line, note=note)
        if on_line and interaction.message is not None:
            await self._retire_line(game_id, interaction.message)
        if not note:
            self.cog.updater.request(game_id)
        self.request(game_id)

    async def _show(self, interaction: discord.Interaction, loaded: LoadedGame, language: str, *,
                    new_message: bool, note: str = "") -> None:
        """Answer ``interaction`` with the presser's panel and remember it for later edits."""
        user, live = interaction.user.id, _live(loaded.state)
        content, view = panel_payload(loaded, user, language, note)
        # Read before awaiting: the cached state changes in place when someone else answers meanwhile,
        # and the next sync must see that this panel shows the older state.
        prompt = pod.mulligan_prompt(loaded.state)
        asked = _key(prompt) if prompt is not None and prompt.player == user else None
        shown = _signature(loaded, user, language)
        if new_message:
            await interaction.response.send_message(content, view=view, ephemeral=True)
        else:
            await interaction.response.edit_message(content=content, view=view)
        if live:
            self.panels[(loaded.game_id, user)] = Panel(interaction, language, time.monotonic(), shown, asked)

    async def _retire_line(self, game_id: int, message: discord.Message) -> None:
        """A press on a ping line answered it (or found it outdated): the line goes."""
        notice = self.notices.get(game_id)
        if notice is not None and notice.message_id == message.id:
            return  # still the current line (e.g. the wrong player pressed it): sync decides
        await _delete_quietly(message)

    # -- keeping everyone told --------------------------------------------------------------------

    def request(self, game_id: int) -> None:
        """Bring the game's panels and ping line up to date soon (a burst of changes makes one pass)."""
        self._dirty.add(game_id)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id),
                                                                         name=f"pod-mulligan-{game_id}")

    async def _run(self, game_id: int) -> None:
        while game_id in self._dirty:
            self._dirty.discard(game_id)
            try:
                await self.sync(game_id)
            except Exception:  # one failed pass must not stop later ones
                log.exception("could not update the mulligan step of pod game %s", game_id)
        self._tasks.pop(game_id, None)

    async def sync(self, game_id: int) -> None:
        """Edit the live panels that show an older state, and make the ping line ask the current prompt."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            try:
                loaded = await self.cog.service.get(game_id)
            except PodError:
                self._forget(game_id)
                return
            await self._sync_panels(loaded)
            await self._sync_notice(loaded)
            if not _live(loaded.state):
                self._forget(game_id)

    async def _sync_panels(self, loaded: LoadedGame) -> None:
        for (game_id, user), panel in list(self.panels.items()):
            if game_id != loaded.game_id:
                continue
            shown = _signature(loaded, user, panel.language)
            if panel.shown == shown:  # e.g. someone named a commander: nothing new for this panel
                continue
            if panel.expired:
                del self.panels[(game_id, user)]
                continue
            content, view = panel_payload(loaded, user, panel.language)
            try:
                await panel.interaction.edit_original_response(content=content, view=view)
            except discord.HTTPException:  # token expired or the panel was dismissed
                self.panels.pop((game_id, user), None)
                continue
            panel.shown = shown

    async def _sync_notice(self, loaded: LoadedGame) -> None:
        game_id, state = loaded.game_id, loaded.state
        prompt = pod.mulligan_prompt(state)
        want = None
        if prompt is not None and (state.mulligan is not None or game_id in self.opened):
            decider = self.panels.get((game_id, prompt.player))
            looking = decider is not None and not decider.expired and decider.asked == _key(prompt)
            want = None if looking else _key(prompt)
        if game_id not in self._swept:
            await self._sweep(loaded)
        notice = self.notices.get(game_id)
        if notice is not None and notice.key == want:
            return
        if notice is not None:
            del self.notices[game_id]
            await self._delete(notice)
        if want is None or prompt is None or loaded.row.channel_id is None:
            return
        language = await self.cog.board_language(loaded.row.guild_id)
        content, view = notice_payload(loaded, prompt, language)
        channel = self.cog.bot.get_partial_messageable(loaded.row.channel_id)
        try:
            message = await channel.send(content, view=view, allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[discord.Object(id=prompt.player)]))
        except discord.HTTPException:
            log.warning("could not post the mulligan ping of pod game %s", game_id)
            return
        self.notices[game_id] = Notice(loaded.row.channel_id, message.id, want)

    async def _sweep(self, loaded: LoadedGame) -> None:
        """Once per game after a (re)start: delete ping lines an earlier run left, whose ids died with it,
        so the channel never shows two lines (a fresh one is posted next). One read of recent history."""
        self._swept.add(loaded.game_id)
        if loaded.row.channel_id is None or self.cog.bot.user is None:
            return
        prefix = f"pod-mull:{loaded.game_id}:"
        current = self.notices.get(loaded.game_id)
        channel = self.cog.bot.get_partial_messageable(loaded.row.channel_id)
        try:
            async for message in channel.history(limit=SWEEP_LIMIT):
                if current is not None and message.id == current.message_id:
                    continue
                if message.author.id == self.cog.bot.user.id and any(
                        (getattr(item, "custom_id", None) or "").startswith(prefix)
                        for row in message.components for item in getattr(row, "children", ())):
                    await _delete_quietly(message)
        except discord.HTTPException:  # no Read Message History: an old line then stays until pressed
            log.info("could not look for old mulligan lines of pod game %s", loaded.game_id)

    async def _delete(self, notice: Notice) -> None:
        await _delete_quietly(
            self.cog.bot.get_partial_messageable(notice.channel_id).get_partial_message(notice.message_id))

    def _forget(self, game_id: int) -> None:
        """Turn 1 started or the game ended: nothing will change any more, drop what we kept."""
        self.opened.discard(game_id)
        for key in [k for k in self.panels if k[0] == game_id]:
            del self.panels[key]

    def cancel(self) -> None:
        for task in self._tasks.values():
            task.cancel()


# -- what the board, the panels and the ping line say ------------------------------------------------

def board_lines(state: PodState, names: Mapping[Any, str], tr: Translate) -> list[str]:
    """The board's mulligan lines before turn 1, in the board's language: where everyone stands and whose
    decision it is; once all have kept, who shuffles what back and that turn 1 may start."""
    prompt = pod.mulligan_prompt(state)
    if state.mulligan is None:
        lines = [tr("pod.embed.pregame_help")]
        if prompt is not None:
            lines.append(tr("pod.embed.mulligan_first", name=names.get(prompt.player, "?")))
        return lines
    lines = [status_line(state.mulligan, names, tr.language)]
    if prompt is not None:
        lines.append(tr("pod.embed.mulligan_turn", name=names.get(prompt.player, "?")))
        return lines
    for who, todo in state.mulligan.closing_instructions().items():
        lines.append(f"{names.get(who, who)}: {instruction_text(todo, tr.language)}")
    lines.append(tr("pod.embed.mulligan_done"))
    return lines


def panel_payload(loaded: LoadedGame, user: int, language: str, note: str = "") -> tuple[str, discord.ui.View]:
    """A player's private panel: the table, what to do with their cards, and their choices if it is their turn."""
    view = discord.ui.View(timeout=None)
    prompt = pod.mulligan_prompt(loaded.state)
    if prompt is not None and prompt.player == user:
        add_choices(view, loaded.game_id, prompt, Translate(language))
    return panel_text(loaded.state, user, language, note), view


def panel_text(state: PodState, user: int, language: str, note: str = "") -> str:
    tr = Translate(language)
    names = {p.user_id: p.name for p in state.players}
    lines = [tr("pod.panel.mulligan", style=style_name(state.mulligan_style, language))]
    if note:
        lines.append(note)
    if not _live(state):
        lines.append(tr("pod.mulligan.over"))
        return "\n".join(lines)
    lines.append(status_line(_table(state), names, language))
    told = instruction_text(pod.mulligan_instructions(state, user), language)
    if told:
        lines.append(tr("pod.mulligan.told", text=told))
    prompt = pod.mulligan_prompt(state)
    if prompt is None:
        closing = _table(state).closing_instructions().get(user, ())
        lines.append(tr("pod.mulligan.all_kept"))
        if closing:
            lines.append(instruction_text(closing, language))
    elif prompt.player == user:
        lines.append(_question(prompt, tr))
    else:
        lines.append(tr("pod.mulligan.waiting", name=names.get(prompt.player, "?")))
    return "\n".join(lines)[:2000]


def notice_payload(loaded: LoadedGame, prompt: pod.MulliganPrompt, language: str) -> tuple[str, discord.ui.View]:
    """The public ping line: "@bob: your mulligan decision (…)" with bob's choices on it."""
    tr = Translate(language)
    content = tr("pod.mulligan.ping", mention=f"<@{prompt.player}>", style=style_name(prompt.style, language),
                 count=prompt.hand_size) + " " + _question(prompt, tr)
    view = discord.ui.View(timeout=None)
    add_choices(view, loaded.game_id, prompt, tr)
    return content, view


def add_choices(view: discord.ui.View, game_id: int, prompt: pod.MulliganPrompt, tr: Translate) -> None:
    """Keep first (green), then the cards to set aside (partial Paris) or Mulligan, five to a row."""
    for index, choice in enumerate(prompt.choices):
        if choice in (0, Choice.KEEP):
            label = tr("pod.button.keep_bottom", count=prompt.to_bottom) if prompt.to_bottom else tr("pod.button.keep")
            decision, style = "keep", discord.ButtonStyle.success
        elif choice == Choice.MULLIGAN:
            label, decision, style = tr("pod.button.mulligan"), "mulligan", discord.ButtonStyle.danger
        else:
            label, decision, style = str(choice), str(choice), discord.ButtonStyle.secondary
        view.add_item(MulliganChoice(game_id, prompt.number, decision, label=label[:80], style=style,
                                     row=index // 5))


def _key(prompt: pod.MulliganPrompt) -> PromptKey:
    """What makes two prompts the same question: who, after how many answers, with how many cards."""
    return prompt.player, prompt.number, prompt.hand_size


def _signature(loaded: LoadedGame, user: int, language: str) -> str:
    """What a panel shows, to skip edits that would change nothing (the note of a press is not kept)."""
    prompt = pod.mulligan_prompt(loaded.state)
    return f"{prompt.number if prompt else '-'}\n{panel_text(loaded.state, user, language)}"


def _question(prompt: pod.MulliganPrompt, tr: Translate) -> str:
    if prompt.style is MulliganStyle.PARTIAL_PARIS:
        return tr("pod.mulligan.ask_set_aside", count=prompt.hand_size)
    return tr("pod.mulligan.ask_keep", count=prompt.hand_size)


def _table(state: PodState) -> TableMulligan:
    return state.mulligan or TableMulligan.start(state.mulligan_style, [p.user_id for p in state.players])


def _live(state: PodState) -> bool:
    """Before turn 1 of a running game: the only time the mulligan step can change."""
    return not state.started and not state.finished


def _decision(value: str) -> int | str:
    """Partial Paris answers are card counts (keep = 0 is resolved by the domain); the rest stay words."""
    return int(value) if value.isdigit() else value


async def _delete_quietly(message: discord.Message | discord.PartialMessage) -> None:
    """Delete a line of ours; one already gone (deleted by the other path, or by a moderator) is fine."""
    with contextlib.suppress(discord.HTTPException):
        await message.delete()


def _is_ephemeral(message: discord.Message | None) -> bool:
    return message is not None and message.flags.ephemeral
