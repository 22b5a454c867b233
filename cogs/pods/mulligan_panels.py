"""What the mulligan step shows (``cogs.pods.mulligan`` runs it): the board's mulligan lines, a player's
private panel, the public ping line and their answer buttons (``MulliganChoice``, a ``DynamicItem`` that
routes after a restart)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.domain import pod
from bot.domain.mulligan import Choice, MulliganStyle, TableMulligan
from bot.domain.pod import PodState
from bot.i18n import Translate
from bot.services.mulligan import instruction_text, status_line, style_name
from bot.services.pods import LoadedGame
from cogs._common import rebuilt
from cogs.pods.components import pods_cog

PromptKey = tuple[int, int, int]  # (player, answers so far, hand size): see prompt_key


class MulliganChoice(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"pod-mull:(?P<game>\d+):(?P<number>\d+):(?P<decision>keep|mulligan|\d+)",
):
    """One answer on a ping line or a panel: ``pod-mull:<game>:<prompt number>:<decision>``."""

    def __init__(
        self,
        game_id: int,
        number: int,
        decision: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or decision,
                style=style,
                row=row,
                custom_id=f"pod-mull:{game_id}:{number}:{decision}",
            )
        )
        self.game_id, self.number, self.decision = game_id, number, decision

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MulliganChoice:
        button = rebuilt(item, discord.ui.Button)
        return cls(
            int(match["game"]),
            int(match["number"]),
            match["decision"],
            label=button.label or "",
            style=button.style,
            row=button.row,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await pods_cog(interaction).mulligan_step.answer(
            interaction, self.game_id, self.number, self.decision
        )


def board_lines(
    state: PodState, names: Mapping[Any, str], tr: Translate, *, seats_open: bool = True
) -> list[str]:
    """The board's mulligan lines before turn 1, in the board's language: where everyone stands and whose
    decision it is; once all have kept, who shuffles what back and that turn 1 may start. The first hint
    offers joining and shuffling seats only where the board has those buttons (``seats_open``)."""
    prompt = pod.mulligan_prompt(state)
    if state.mulligan is None:
        lines = [tr("pod.embed.pregame_help" if seats_open else "pod.embed.pregame_help_seated")]
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


def panel_payload(
    loaded: LoadedGame, user: int, language: str, note: str = ""
) -> tuple[str, discord.ui.View]:
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
    if not mulligan_live(state):
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


def notice_payload(
    loaded: LoadedGame, prompt: pod.MulliganPrompt, language: str
) -> tuple[str, discord.ui.View]:
    """The public ping line: "@bob: your mulligan decision (…)" with bob's choices on it."""
    tr = Translate(language)
    content = (
        tr(
            "pod.mulligan.ping",
            mention=f"<@{prompt.player}>",
            style=style_name(prompt.style, language),
            count=prompt.hand_size,
        )
        + " "
        + _question(prompt, tr)
    )
    view = discord.ui.View(timeout=None)
    add_choices(view, loaded.game_id, prompt, tr)
    return content, view


def add_choices(view: discord.ui.View, game_id: int, prompt: pod.MulliganPrompt, tr: Translate) -> None:
    """Keep first (green), then the cards to set aside (partial Paris) or Mulligan, five to a row."""
    for index, choice in enumerate(prompt.choices):
        if choice in (0, Choice.KEEP):
            label = (
                tr("pod.button.keep_bottom", count=prompt.to_bottom)
                if prompt.to_bottom
                else tr("pod.button.keep")
            )
            decision, style = "keep", discord.ButtonStyle.success
        elif choice == Choice.MULLIGAN:
            label, decision, style = tr("pod.button.mulligan"), "mulligan", discord.ButtonStyle.danger
        else:
            label, decision, style = str(choice), str(choice), discord.ButtonStyle.secondary
        view.add_item(
            MulliganChoice(game_id, prompt.number, decision, label=label[:80], style=style, row=index // 5)
        )


def prompt_key(prompt: pod.MulliganPrompt) -> PromptKey:
    """What makes two prompts the same question: who, after how many answers, with how many cards."""
    return prompt.player, prompt.number, prompt.hand_size


def panel_signature(loaded: LoadedGame, user: int, language: str) -> str:
    """What a panel shows, to skip edits that would change nothing (the note of a press is not kept)."""
    prompt = pod.mulligan_prompt(loaded.state)
    return f"{prompt.number if prompt else '-'}\n{panel_text(loaded.state, user, language)}"


def _question(prompt: pod.MulliganPrompt, tr: Translate) -> str:
    if prompt.style is MulliganStyle.PARTIAL_PARIS:
        return tr("pod.mulligan.ask_set_aside", count=prompt.hand_size)
    return tr("pod.mulligan.ask_keep", count=prompt.hand_size)


def _table(state: PodState) -> TableMulligan:
    return state.mulligan or TableMulligan.start(state.mulligan_style, [p.user_id for p in state.players])


def mulligan_live(state: PodState) -> bool:
    """Before turn 1 of a running game: the only time the mulligan step can change."""
    return not state.started and not state.finished
