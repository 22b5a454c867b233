"""What each live page shows: plain dictionaries built from the services' committed state.

Only public facts go in (life totals, commander damage, standings over scored games, a Hydra table's
severed heads). Never: who voted for a draw or in a tournament vote, a vote before it closes, mulligan
choices, decks, the Hydra's library or hand. The page templates see nothing else, so nothing private can
leak through a template change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.domain import pod
from bot.domain.hydra_events import EventError
from bot.domain.pod import PodError
from bot.domain.stats.figures import MIN_GAMES_TO_RANK
from bot.domain.tournament.matches import percent
from bot.services.hydra import hydra_game_topic
from bot.services.hydra_events import hydra_event_topic
from bot.services.pods import pod_topic
from bot.services.stats import stats_topic
from bot.services.tournaments import tournament_topic
from bot.storage.pages import PageLink


class Sources(Protocol):
    """Where pages read from: the running bot's services (None while a feature is not loaded)."""

    @property
    def pods(self) -> Any: ...

    @property
    def tournaments(self) -> Any: ...

    @property
    def match_tournaments(self) -> Any: ...  # bot.services.match_tournaments.MatchTournaments

    @property
    def hydra_events(self) -> Any: ...

    @property
    def stats(self) -> Any: ...  # bot.services.stats.StatsService

    async def language(self, guild_id: int | None) -> str: ...


class NotShown(Exception):
    """The resource behind a link is gone (or its feature is not loaded): answered as 404."""


@dataclass
class PageData:
    template: str
    title: dict[str, Any]  # i18n key and values
    data: dict[str, Any]
    topics: list[str] = field(default_factory=list)  # change-hub topics that make this page stale


def link_topic(link: PageLink) -> str:
    """Published when a link is replaced, so the pages open on the old one stop at once."""
    return f"page:{link.kind}:{link.resource_id}"


async def page_data(link: PageLink, sources: Sources) -> PageData:
    builder = {"pod": _pod, "tournament": _tournament, "hydra_event": _hydra_event, "stats": _stats}[
        link.kind
    ]
    data = await builder(link.resource_id, sources)
    data.topics.append(link_topic(link))
    return data


# -- a pod game ---------------------------------------------------------------------------------------


async def _pod(game_id: int, sources: Sources) -> PageData:
    if sources.pods is None:
        raise NotShown
    try:
        loaded = await sources.pods.get(game_id)
    except PodError:
        raise NotShown from None
    state = loaded.state
    active = state.active_player
    players = [
        _pod_player(state, p, active is not None and p.user_id == active.user_id) for p in state.players
    ]
    data = {
        "game": game_id,
        "turn": state.turn,
        "finished": state.finished,
        "players": players,
        "columns": min(max(len(players), 1), 4),
    }
    return PageData("pod.html", {"key": "web.pod.title", "game": game_id}, data, [pod_topic(game_id)])


def _pod_player(state: pod.PodState, player: pod.Player, active: bool) -> dict[str, Any]:
    damage = [
        {"commander": _commander_name(state, key), "amount": amount}
        for key, amount in sorted(player.commander_damage_taken.items())
        if amount
    ]
    return {
        "name": player.name,
        "life": player.life,
        "poison": player.poison,
        "alive": player.alive,
        "active": active,
        "monarch": state.monarch == player.user_id,
        "initiative": state.initiative == player.user_id,
        "commanders": [{"name": c.name, "tax": state.next_tax(c)} for c in player.commanders if c.name],
        "damage": damage,
    }


def _commander_name(state: pod.PodState, key: str) -> str:
    """The commander's card name, else its owner's name (with #2 for a second, unnamed partner)."""
    try:
        commander = state.commander(key)
    except PodError:
        return key
    if commander.name:
        return commander.name
    owner = state.player(commander.owner).name
    return owner if commander.index == 0 else f"{owner} #{commander.index + 1}"


# -- a tournament -------------------------------------------------------------------------------------


async def _tournament(tournament_id: int, sources: Sources) -> PageData:
    service = sources.tournaments
    if service is None:
        raise NotShown
    tournament = await service.repo.get(tournament_id)
    if tournament is None:
        raise NotShown
    matches = sources.match_tournaments
    if matches is not None and await matches.is_matches(tournament_id):
        return await _match_tournament(tournament, matches)
    view = await service.standings(tournament)
    standings = [
        {
            "rank": s.rank,
            "name": _shown_name(view.names, s.player),
            "points": s.points,
            "games": s.tally.games,
            "dropped": s.dropped,
        }
        for s in view.standings
    ]
    round_number = tournament.current_round
    pods = await service.repo.pods(tournament_id, round_number)  # none before round 1
    games = {g.game_id: g for g in await service.repo.games(tournament_id)}
    pairings = [
        {
            "table": p.table_number,
            "seats": [_shown_name(view.names, u) for u in p.seats],
            "state": _game_state(games.get(p.game_id)),
        }
        for p in pods
    ]
    data = {
        "name": tournament.name,
        "round": round_number,
        "rounds": tournament.rounds,
        "finished": tournament.status == "finished",
        "standings": standings,
        "pairings": pairings,
    }
    return PageData(
        "tournament.html", {"key": "", "text": tournament.name}, data, [tournament_topic(tournament_id)]
    )


async def _match_tournament(tournament: Any, service: Any) -> PageData:
    """A 1-vs-1 tournament of matches: the standings of ``/tournament standings`` (match points, MTR
    tie-breakers) and every round's pairs with their scores. It changes when a game of a match ends, so
    the page also follows each match's games (a new game is announced on the tournament's topic)."""
    view = await service.standings(tournament)
    names = view.names
    standings = [
        {
            "rank": s.rank,
            "name": _shown_name(names, s.player),
            "points": s.match_points,
            "wins": s.record[0],
            "losses": s.record[1],
            "draws": s.record[2],
            "omw": percent(s.opponents_match_win),
            "gw": percent(s.game_win),
            "dropped": s.dropped,
        }
        for s in view.standings
    ]
    rounds = await service.rounds(tournament)
    shown = [
        {
            "round": r.round_number,
            "bye": None if r.bye is None else _shown_name(names, r.bye),
            "pairs": [
                {
                    "table": p.table,
                    "players": [_shown_name(names, u) for u in p.players],
                    "wins": list(p.wins),
                    "draws": p.draws,
                    "finished": p.finished,
                }
                for p in r.pairs
            ],
        }
        for r in reversed(rounds)
    ]  # the running round first
    data = {
        "name": tournament.name,
        "round": tournament.current_round,
        "rounds": tournament.rounds,
        "finished": tournament.status == "finished",
        "standings": standings,
        "match_rounds": shown,
    }
    games = [pod_topic(game) for r in rounds for p in r.pairs for game in p.games]
    return PageData(
        "match_tournament.html",
        {"key": "", "text": tournament.name},
        data,
        [tournament_topic(tournament.tournament_id), *games],
    )


def _shown_name(names: dict[int, str], user: int) -> str:
    """An entrant's name; a player outside the entrants (who sat at a game of the tournament that no
    pairing links, so scored there) by their id, which a page may show but never fail on."""
    return names.get(user, str(user))


def _game_state(game: Any) -> str:
    """playing, voting (finished, its secret vote still open) or scored: never the votes themselves."""
    if game is None:
        return "playing"
    return "voting" if game.vote_open else "scored"


# -- a Hydra event -----------------------------------------------------------------------------------


async def _hydra_event(event_id: int, sources: Sources) -> PageData:
    service = sources.hydra_events
    if service is None:
        raise NotShown
    try:
        status = await service.status(event_id)
    except EventError:
        raise NotShown from None
    summary = status.summary
    tables = [
        {
            "table": t.table_no,
            "outcome": t.outcome,
            "turns": t.turns,
            "severed": t.severed,
            "standing": t.standing,
            "seated": t.seated,
            "players": [p.name for p in t.players],
        }
        for t in summary.tables
    ]
    players = [
        {"rank": i, "name": p.name, "table": p.table_no, "severed": p.severed, "standing": p.standing}
        for i, p in enumerate(summary.players, start=1)
    ]
    data = {
        "name": status.event.name,
        "status": status.event.status,
        "tables": tables,
        "players": players,
        "entrants": len(status.entrants),
        "won": summary.won,
        "lost": summary.lost,
        "playing": summary.playing,
        "standing": summary.standing,
    }
    topics = [hydra_event_topic(event_id)] + [hydra_game_topic(t.game_id) for t in status.tables]
    return PageData("hydra_event.html", {"key": "", "text": status.event.name}, data, topics)


# -- a server's leaderboard --------------------------------------------------------------------------


async def _stats(guild_id: int, sources: Sources) -> PageData:
    """The members ranked by win rate (bot.services.stats): names as they played, deleted members never."""
    if sources.stats is None:
        raise NotShown
    lines = await sources.stats.leaderboard(guild_id)
    ranked = [
        {
            "rank": rank,
            "name": line.name,
            "games": line.games,
            "wins": line.wins,
            "rate": round(100 * line.rate),
        }
        for rank, line in enumerate(lines, start=1)
    ]
    data = {"ranked": ranked, "minimum": MIN_GAMES_TO_RANK}
    return PageData("stats.html", {"key": "stats.page.title"}, data, [stats_topic(guild_id)])
