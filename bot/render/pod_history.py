"""The words of a pod game that are not on its image: history lines, commander labels, player names.

Next to the board renderer (``bot.render.board``) rather than inside the pod cog, so the text can be
tested without Discord and the cog only sends it (text building lives with the renderers).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.domain import pod
from bot.domain.pod import Event, PodError, PodState
from bot.i18n import Translate, has
from bot.render.board import seat_label
from bot.text import ECHO, fit, fit_lines

HISTORY_LINES = 25
HISTORY_BUDGET = 1900  # characters of history in one message (Discord's limit is 2,000)


def history_pages(events: list[Event]) -> int:
    """How many pages of ``HISTORY_LINES`` changes the game's history has (at least one)."""
    return max(1, -(-len(events) // HISTORY_LINES))


def history_text(events: list[Event], state: PodState, tr: Translate, page: int = 1) -> str:
    """One page of changes, newest last; undone ones struck through. Page 1 is the latest changes,
    page 2 the ones before, and so on; with more than one page, a first line says which changes these
    are (the last 25 alone once looked like the whole game)."""
    pages = history_pages(events)
    page = min(max(page, 1), pages)
    end = len(events) - (page - 1) * HISTORY_LINES
    start = max(0, end - HISTORY_LINES)
    dropped = {seq for e in events if e.kind == pod.UNDO for seq in e.data["seqs"]}
    lines = []
    for event in events[start:end]:
        text = f"{discord_time(event.at)} {describe_event(event, state, tr)}"
        lines.append(f"~~{text}~~" if event.seq in dropped else text)
    text = fit_lines(
        lines, HISTORY_BUDGET, lambda count: tr("core.and_more", count=count), keep_last=True
    ) or tr("pod.history.empty")
    if pages == 1:
        return text
    return (
        tr("pod.history.page", first=start + 1, last=end, total=len(events), page=page, pages=pages)
        + "\n"
        + text
    )


def describe_event(event: Event, state: PodState, tr: Translate) -> str:
    """One history line in the reader's language."""
    data = event.data
    actor = player_name(state, event.actor) if event.actor is not None else "-"
    values: dict[str, Any] = {"actor": actor}
    if "player" in data and data["player"] is not None:
        values["player"] = player_name(state, data["player"])
    if "target" in data:
        values["player"] = player_name(state, data["target"])
    if "amount" in data:
        values["amount"] = _signed(data["amount"])
    if "commander" in data:
        try:
            values["commander"] = commander_label(state, state.commander(data["commander"]), tr)
        except PodError:
            values["commander"] = data["commander"]
    values.update(_kind_values(event))
    key = f"pod.history.{event.kind}"
    try:
        if "decision" in values:
            values["decision"] = decision_words(values["decision"], tr)
        return tr(key, **values)
    except (KeyError, IndexError):
        return f"{actor}: {event.kind}"


def _kind_values(event: Event) -> dict[str, Any]:
    """The values only some kinds of change name (a total, a count, a decision, a swap)."""
    data, kind = event.data, event.kind
    if kind == pod.SET_LIFE:
        return {"total": data.get("total")}
    if kind == pod.UNDO:
        return {"count": len(data.get("seqs", []))}
    if kind == pod.COUNTER:
        return {"name": fit(str(data.get("name") or ""), ECHO)}  # typed by a player: shown as typed
    if kind == pod.MULLIGAN:
        return {"decision": data.get("decision")}  # words of the reader's language: describe_event
    if kind == pod.SWAP:  # one event per batch (all or nothing)
        return {
            "swaps": "; ".join(
                f"{s['count']} × {fit(s['out'], ECHO)} → {fit(s['in'], ECHO)}" for s in pod.swaps_of(data)
            )
        }
    if kind == pod.WISH:
        return {"card": fit(str(data.get("card") or ""), ECHO)}
    if kind == pod.BRACKET:
        return {"level": data.get("level")}
    if kind == pod.COMMANDERS:
        return {"names": [n or "?" for n in data.get("names", [])] or "-"}
    if kind in (pod.MONARCH, pod.INITIATIVE) and data.get("player") is None:
        return {"player": "-"}
    return {}


def commander_label(state: PodState, commander: pod.Commander, tr: Translate) -> str:
    """ "3a Tymna (bob)": seat label, printed name (or "unnamed"), owner."""
    owner = player_name(state, commander.owner)
    name = commander.name or tr("pod.board.unnamed_commander")
    return f"{seat_label(state, commander)} {name} ({owner})"


def player_name(state: PodState, user_id: Any) -> str:
    """The seated player's name, or ``<id>`` for someone not (or no longer) at the table."""
    try:
        return state.player(int(user_id)).name
    except (PodError, TypeError, ValueError):
        return f"<{user_id}>"


def discord_time(iso: str) -> str:
    """A Discord timestamp tag: each reader sees the time in their own time zone."""
    try:
        return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:T>"
    except ValueError:
        return f"`{iso}`"


def _signed(value: Any) -> str:
    try:
        return f"{int(value):+d}"
    except (TypeError, ValueError):
        return str(value)


def decision_words(decision: Any, tr: Translate) -> str:
    """A stored mulligan answer ("keep", "mulligan", or how many cards were set aside) in the reader's words."""
    if str(decision).isdigit():
        return tr("pod.history.decision.set_aside", count=int(decision))
    key = f"pod.history.decision.{decision}"
    return tr(key) if has(key) else str(decision)
