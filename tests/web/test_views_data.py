"""What the pod and leaderboard pages are given to show, read from the real services over a real SQLite
file (``page_data``, the one door from the services to the templates): every public fact of a seat,
the names of commanders that have none, and the leaderboard's rounded rates. A fact wrong here is wrong
on every overlay; a fact added here (a vote, a hand) would leak through any template."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.domain import pod
from bot.domain.pod import commander_key
from bot.services.hydra import HydraService, hydra_game_topic
from bot.services.hydra_events import HydraEventService, hydra_event_topic
from bot.services.match_tournaments import MatchTournaments
from bot.services.matches import MatchService
from bot.services.pods import PodService, pod_topic
from bot.services.stats import StatsService, stats_topic
from bot.services.tournaments import TournamentService, mana_value_lookup, tournament_topic
from bot.storage.db import Database
from bot.storage.pages import PageLink
from bot.storage.tournaments import PodAssignment
from bot.web.views import NotShown, link_topic, page_data

ANN, BEN, CAT = 10, 11, 12
GUILD = 5


class _Sources:
    def __init__(self, db: Database) -> None:
        self.pods, self.stats = PodService(db), StatsService(db)
        self.tournaments = self.match_tournaments = self.hydra_events = None

    async def language(self, guild_id: int | None) -> str:
        return "en"


@pytest.fixture
async def sources(tmp_path: Path):
    db = await Database.open(tmp_path / "views.sqlite3")
    try:
        yield _Sources(db)
    finally:
        await db.close()


async def _game(sources: _Sources, *players: tuple[int, str]) -> int:
    game = await sources.pods.start_game(
        guild_id=GUILD, channel_id=1, created_by=ANN, ruleset="commander", players=list(players)
    )
    return game.game_id


async def test_a_seat_shows_life_poison_marks_commanders_with_their_tax_and_damage_by_name(sources) -> None:
    """Ann plays partners (Tymna, cast twice, and an unnamed second one), Ben has not named his commander,
    Cat plays Atraxa. Damage is listed by commander name, or the owner's name (#2 for the second partner)
    when unnamed; the monarch and the initiative are each one seat's."""
    pods = sources.pods
    game = await _game(sources, (ANN, "Ann"), (BEN, "Ben"), (CAT, "Cat"))
    await pods.change(game, ANN, pod.COMMANDERS, player=ANN, names=["Tymna the Weaver", None])
    await pods.change(game, CAT, pod.COMMANDERS, player=CAT, names=["Atraxa, Praetors' Voice"])
    await pods.change(game, ANN, pod.NEXT_TURN)
    tymna, second, bens = commander_key(ANN, 0), commander_key(ANN, 1), commander_key(BEN, 0)
    await pods.change(game, ANN, pod.CAST, commander=tymna)
    await pods.change(game, ANN, pod.CAST, commander=tymna)
    await pods.change(game, ANN, pod.COMMANDER_DAMAGE, commander=tymna, target=BEN, amount=5)
    await pods.change(game, ANN, pod.COMMANDER_DAMAGE, commander=second, target=BEN, amount=2)
    await pods.change(game, BEN, pod.COMMANDER_DAMAGE, commander=bens, target=CAT, amount=3)
    await pods.change(game, CAT, pod.POISON, player=ANN, amount=2)
    await pods.change(game, BEN, pod.MONARCH, player=BEN)
    await pods.change(game, CAT, pod.INITIATIVE, player=CAT)
    data = await page_data(PageLink("pod", game, "t", GUILD), sources)

    assert data.template == "pod.html" and data.title == {"key": "web.pod.title", "game": game}
    assert data.topics == [pod_topic(game), f"page:pod:{game}"]
    assert {k: v for k, v in data.data.items() if k != "players"} == {
        "game": game,
        "turn": 1,
        "finished": False,
        "columns": 3,
    }
    ann, ben, cat = data.data["players"]
    assert ann == {
        "name": "Ann",
        "life": 40,
        "poison": 2,
        "alive": True,
        "active": True,
        "monarch": False,
        "initiative": False,
        "commanders": [{"name": "Tymna the Weaver", "tax": 4}],  # the unnamed partner has no line
        "damage": [],
    }
    assert ben["damage"] == [
        {"commander": "Tymna the Weaver", "amount": 5},
        {"commander": "Ann #2", "amount": 2},
    ]
    assert (ben["life"], cat["life"]) == (33, 37)
    assert (ben["active"], ben["monarch"], ben["initiative"], ben["commanders"]) == (False, True, False, [])
    assert cat["damage"] == [{"commander": "Ben", "amount": 3}]
    assert (cat["monarch"], cat["initiative"]) == (False, True)
    assert cat["commanders"] == [{"name": "Atraxa, Praetors' Voice", "tax": 0}]


async def test_before_turn_one_nobody_is_active_and_a_finished_game_says_who_is_out(sources) -> None:
    """No active seat before the first turn (not the first seat); after a concession the game is over
    and the conceded seat is out."""
    pods = sources.pods
    game = await _game(sources, (ANN, "Ann"), (BEN, "Ben"))
    link = PageLink("pod", game, "t", GUILD)
    before = (await page_data(link, sources)).data
    assert before["turn"] == 0 and not any(p["active"] for p in before["players"])
    await pods.change(game, ANN, pod.NEXT_TURN)
    await pods.change(game, BEN, pod.CONCEDE, player=BEN)
    after = (await page_data(link, sources)).data
    assert after["finished"] is True
    assert [(p["name"], p["alive"]) for p in after["players"]] == [("Ann", True), ("Ben", False)]


async def test_the_seats_are_laid_out_in_at_most_four_columns(sources) -> None:
    """Two seats side by side, a table of six in four columns (a fifth would not fit a stream overlay)."""
    two = await _game(sources, (ANN, "Ann"), (BEN, "Ben"))
    six = await _game(sources, *[(100 + i, f"P{i}") for i in range(6)])
    assert (await page_data(PageLink("pod", two, "t", GUILD), sources)).data["columns"] == 2
    assert (await page_data(PageLink("pod", six, "t", GUILD), sources)).data["columns"] == 4


async def test_a_game_stored_with_one_seat_is_laid_out_in_one_column(sources) -> None:
    """A game stored before a game needed two players still loads (the rule is checked at the start, not
    in the fold) and its one seat fills one column, not half of two."""
    created = pod.Event(
        seq=1,
        kind=pod.CREATE,
        actor=ANN,
        at=sources.pods.clock(),
        data={"ruleset": "commander", "players": [{"user_id": ANN, "name": "Ann"}]},
    )
    game = await sources.pods.repo.create(
        guild_id=GUILD, channel_id=1, ruleset="commander", first_event=created
    )
    data = (await page_data(PageLink("pod", game, "t", GUILD), sources)).data
    assert [p["name"] for p in data["players"]] == ["Ann"] and data["columns"] == 1


async def test_a_missing_game_or_an_unloaded_feature_is_not_shown(sources) -> None:
    """A link to a deleted game, or to a page whose cog is not loaded, is a 404, never a crash."""
    with pytest.raises(NotShown):
        await page_data(PageLink("pod", 999, "t", GUILD), sources)
    sources.pods = None
    with pytest.raises(NotShown):
        await page_data(PageLink("pod", 1, "t", GUILD), sources)
    sources.stats = None
    with pytest.raises(NotShown):
        await page_data(PageLink("stats", GUILD, "t", GUILD), sources)
    for kind in ("tournament", "hydra_event"):
        with pytest.raises(NotShown):
            await page_data(PageLink(kind, 1, "t", GUILD), sources)


async def _won(sources: _Sources, winner: int, loser: int) -> None:
    game = await _game(sources, (ANN, "Ann"), (BEN, "Ben"))
    await sources.pods.change(game, winner, pod.NEXT_TURN)
    await sources.pods.change(game, loser, pod.CONCEDE, player=loser)


async def test_the_leaderboard_ranks_by_rate_rounded_to_whole_percents(sources) -> None:
    """Ann won 2 of 3 (67 %, not 66), Ben 1 of 3 (33 %); ranks count from 1."""
    for winner, loser in ((ANN, BEN), (ANN, BEN), (BEN, ANN)):
        await _won(sources, winner, loser)
    data = await page_data(PageLink("stats", GUILD, "t", GUILD), sources)
    assert data.template == "stats.html" and data.title == {"key": "stats.page.title"}
    assert data.topics == [stats_topic(GUILD), link_topic(PageLink("stats", GUILD, "t", GUILD))]
    assert data.data == {
        "ranked": [
            {"rank": 1, "name": "Ann", "games": 3, "wins": 2, "rate": 67},
            {"rank": 2, "name": "Ben", "games": 3, "wins": 1, "rate": 33},
        ],
        "minimum": 3,
    }


# -- a tournament of pods ---------------------------------------------------------------------------------


async def test_a_tournament_page_shows_its_round_tables_standings_and_who_dropped(tmp_path) -> None:
    """Round 1 of 2 paired into one table of five: while its game is unlinked the table is "playing",
    once the game is scored (standard scoring: no vote) "scored"; the standings are the service's, a
    dropped player marked; names from the entrants, in seat order."""
    db = await Database.open(tmp_path / "tournament.sqlite3")
    try:
        sources = _Sources(db)
        pods, clock = PodService(db, notify=lambda name, record: heard.append(record)), FakeClock()
        heard: list = []
        sources.pods = pods
        sources.tournaments = service = TournamentService(
            db, clock=clock.now, mana_value=mana_value_lookup(None)
        )
        created = await service.create(
            guild_id=GUILD,
            channel_id=1,
            name="Friday EDH",
            created_by=ANN,
            seed=7,
            rounds=2,
            scoring="standard",
        )
        names = {100 + i: f"P{i}" for i in range(5)}
        for user, name in names.items():
            await service.join(GUILD, user, name)
        _, (pairing,) = await service.pair_next_round(GUILD)
        link = PageLink("tournament", created.tournament_id, "t", GUILD)
        data = await page_data(link, sources)
        assert data.template == "tournament.html" and data.title == {"key": "", "text": "Friday EDH"}
        assert data.topics == [tournament_topic(created.tournament_id), link_topic(link)]
        seats = [names[u] for u in pairing.seats]
        assert data.data["pairings"] == [{"table": 1, "seats": seats, "state": "playing"}]
        assert (data.data["name"], data.data["round"], data.data["rounds"], data.data["finished"]) == (
            "Friday EDH",
            1,
            2,
            False,
        )

        game = await pods.start_game(
            guild_id=GUILD,
            channel_id=1,
            created_by=ANN,
            players=[(u, names[u]) for u in pairing.seats],
            ruleset="commander",
            tournament_id=created.tournament_id,
            round_number=1,
        )
        await service.link_game(pairing.pod_id, game.game_id)
        winner, *others = pairing.seats
        await pods.change(game.game_id, winner, pod.NEXT_TURN)
        for user in others:
            await pods.change(game.game_id, user, pod.CONCEDE, player=user)
        await service.record_finished_game(heard[-1])
        await service.drop(GUILD, others[0])
        data = (await page_data(link, sources)).data
        assert data["pairings"] == [{"table": 1, "seats": seats, "state": "scored"}]
        view = await service.standings(await service.repo.get(created.tournament_id))
        assert data["standings"] == [
            {
                "rank": s.rank,
                "name": names[s.player],
                "points": s.points,
                "games": 1,
                "dropped": s.player == others[0],
            }
            for s in view.standings
        ]
        assert data["standings"][0]["name"] == names[winner] and data["standings"][0]["points"] > 0
        assert sum(s["dropped"] for s in data["standings"]) == 1
    finally:
        await db.close()


STRANGER = 999  # not an entrant


async def _play_out(
    service: TournamentService, pods: PodService, heard: list, seats: list[int], **game
) -> None:
    """A game of the tournament won by the first of ``seats`` (the others concede), scored at once."""
    started = await pods.start_game(
        guild_id=GUILD,
        channel_id=1,
        created_by=seats[0],
        players=[(u, f"u{u}") for u in seats],
        ruleset="commander",
        **game,
    )
    await pods.change(started.game_id, seats[0], pod.NEXT_TURN)
    for user in seats[1:]:
        await pods.change(started.game_id, user, pod.CONCEDE, player=user)
    await service.record_finished_game(heard[-1])
    return started.game_id


async def test_the_page_pairs_the_running_round_only_and_shows_a_stranger_by_id(tmp_path) -> None:
    """In round 2 the pairings are round 2's tables, not every round's; a player outside the entrants who
    played a game of the tournament that no pairing links scores there and stands by their id; once the
    organiser finishes the tournament the page says so."""
    db = await Database.open(tmp_path / "tournament.sqlite3")
    try:
        sources, heard = _Sources(db), []
        sources.pods = pods = PodService(db, notify=lambda name, record: heard.append(record))
        sources.tournaments = service = TournamentService(
            db, clock=FakeClock().now, mana_value=mana_value_lookup(None)
        )
        created = await service.create(
            guild_id=GUILD,
            channel_id=1,
            name="Two rounds",
            created_by=ANN,
            seed=7,
            rounds=2,
            scoring="standard",
        )
        tournament = created.tournament_id
        names = {100 + i: f"P{i}" for i in range(5)}
        for user, name in names.items():
            await service.join(GUILD, user, name)
        _, (first,) = await service.pair_next_round(GUILD)
        game = await _play_out(service, pods, heard, first.seats, tournament_id=tournament, round_number=1)
        await service.link_game(first.pod_id, game)
        _, (second,) = await service.pair_next_round(GUILD)
        link = PageLink("tournament", tournament, "t", GUILD)
        data = (await page_data(link, sources)).data
        assert (data["round"], data["finished"]) == (2, False)
        assert data["pairings"] == [
            {"table": 1, "seats": [names[u] for u in second.seats], "state": "playing"}
        ]

        await _play_out(
            service, pods, heard, [second.seats[0], STRANGER], tournament_id=tournament, round_number=2
        )
        standings = (await page_data(link, sources)).data["standings"]
        assert [s["name"] for s in standings if s["name"] not in names.values()] == [str(STRANGER)]
        await service.finish(GUILD)
        assert (await page_data(link, sources)).data["finished"] is True
    finally:
        await db.close()


# -- a tournament of matches ---------------------------------------------------------------------------


async def _win_match(
    matches: MatchService,
    pods: PodService,
    tournaments: TournamentService,
    tournament_id: int,
    table: PodAssignment,
    round_number: int,
) -> None:
    """The table's match, linked to its pairing, won 2–0 by its first seat (the second concedes twice)."""
    winner, loser = table.seats
    match, game = await matches.start_match(
        guild_id=GUILD,
        channel_id=1,
        created_by=winner,
        players=[(winner, "w"), (loser, "l")],
        ruleset="duel-zh",
        tournament_id=tournament_id,
        round_number=round_number,
    )
    await tournaments.link_game(table.pod_id, game.game_id)
    for _ in range(2):
        await pods.change(game.game_id, winner, pod.NEXT_TURN)
        await pods.change(game.game_id, loser, pod.CONCEDE, player=loser)
        if not (await matches.get(match.match_id)).state.finished:
            _, game = await matches.next_game(match.match_id, loser, winner)


async def test_a_match_tournament_page_shows_the_rounds_newest_first_with_scores_byes_and_drops(
    tmp_path,
) -> None:
    """Four players: round 1 is two pairs and no bye (not a bye named "None"), table 1's match won 2–0,
    table 2's unplayed; one player drops and round 2 pairs the three left with a bye. The running round
    comes first; each pair keeps its table, seats, score and state; the standings mark the drop; the
    title is the tournament's own name; a finished tournament says so."""
    db = await Database.open(tmp_path / "matches.sqlite3")
    try:
        sources = _Sources(db)
        sources.pods = pods = PodService(db)
        matches = MatchService(db, pods)
        sources.tournaments = tournaments = TournamentService(db)
        created = await tournaments.create(
            guild_id=GUILD, channel_id=1, name="Duels", rounds=2, created_by=ANN, seed=3
        )
        sources.match_tournaments = service = MatchTournaments(matches, tournaments.repo)
        await service.set_matches(created.tournament_id)
        names = {user: f"p{user}" for user in (1, 2, 3, 4)}
        for user, name in names.items():
            await tournaments.join(GUILD, user, name)
        await service.pair_next_round(await tournaments.active(GUILD))
        one, two = await tournaments.repo.pods(created.tournament_id, 1)
        await _win_match(matches, pods, tournaments, created.tournament_id, one, 1)
        dropped = two.seats[1]
        await tournaments.drop(GUILD, dropped)
        _, pairing = await service.pair_next_round(await tournaments.active(GUILD), force=True)
        (three,) = await tournaments.repo.pods(created.tournament_id, 2)

        link = PageLink("tournament", created.tournament_id, "t", GUILD)
        page = await page_data(link, sources)
        assert page.template == "match_tournament.html" and page.title == {"key": "", "text": "Duels"}
        data = page.data
        assert {k: v for k, v in data.items() if k not in ("standings", "match_rounds")} == {
            "name": "Duels",
            "round": 2,
            "rounds": 2,
            "finished": False,
        }
        assert data["match_rounds"] == [
            {
                "round": 2,
                "bye": names[pairing.bye],
                "pairs": [
                    {
                        "table": 1,
                        "players": [names[u] for u in three.seats],
                        "wins": [0, 0],
                        "draws": 0,
                        "finished": False,
                    }
                ],
            },
            {
                "round": 1,
                "bye": None,
                "pairs": [
                    {
                        "table": 1,
                        "players": [names[u] for u in one.seats],
                        "wins": [2, 0],
                        "draws": 0,
                        "finished": True,
                    },
                    {
                        "table": 2,
                        "players": [names[u] for u in two.seats],
                        "wins": [0, 0],
                        "draws": 0,
                        "finished": False,
                    },
                ],
            },
        ]
        standings = {s["name"]: s for s in data["standings"]}
        assert {name: s["dropped"] for name, s in standings.items()} == {
            name: user == dropped for user, name in names.items()
        }
        winner = standings[names[one.seats[0]]]
        assert (winner["rank"], winner["points"], winner["wins"], winner["losses"], winner["draws"]) == (
            1,
            3,
            1,
            0,
            0,
        )
        await tournaments.finish(GUILD)
        assert (await page_data(link, sources)).data["finished"] is True
    finally:
        await db.close()


# -- a Hydra event ----------------------------------------------------------------------------------------

WIN_SCRIPT = ("attack 1 3", "end", "choose counter", "choose pass", "attack 2 3", "end")  # seed 5, 2 heads


async def test_a_hydra_event_page_shows_each_table_and_player_as_the_summary_ranks_them(tmp_path) -> None:
    """Two tables of two: one won in three turns (two heads severed), one still playing. Each table's
    outcome, turns, heads and who sits there; the players ranked from 1 with their table; the counts; and
    the page follows the event and each table's game."""
    db = await Database.open(tmp_path / "hydra.sqlite3")
    try:
        sources = _Sources(db)
        events = HydraEventService(db, HydraService(db), seed_for=lambda event, table: 5)
        sources.hydra_events = events
        event = await events.create(
            guild_id=GUILD,
            channel_id=2,
            user_id=9,
            name="Hydra night",
            start="in 1h",
            heads=2,
            table_size=2,
            language="en",
            now=datetime.now(UTC),
        )
        for user in (1, 2, 3, 4):
            await events.join(event.event_id, [(user, f"u{user}")])
        await events.plan(event.event_id)
        opened = await events.open_tables(event.event_id)
        for table, _ in opened:
            await events.attach_thread(event.event_id, table.table_no, 1000 + table.table_no)
        await events.mark_running(event.event_id)
        (won, won_game), (running, running_game) = opened
        winner = won_game.seats[0].user_id
        for line in WIN_SCRIPT:
            await events.hydra.act(won.game_id, winner, line)

        link = PageLink("hydra_event", event.event_id, "t", GUILD)
        data = await page_data(link, sources)
        assert data.template == "hydra_event.html" and data.title == {"key": "", "text": "Hydra night"}
        assert data.topics == [
            hydra_event_topic(event.event_id),
            hydra_game_topic(won.game_id),
            hydra_game_topic(running.game_id),
            link_topic(link),
        ]
        names = {t.table_no: [f"u{s.user_id}" for s in g.seats] for t, g in opened}
        tables = data.data["tables"]
        assert [(t["table"], t["outcome"], t["turns"], t["severed"]) for t in tables] == [
            (won.table_no, "won", 3, 2),
            (running.table_no, "ongoing", tables[1]["turns"], 0),
        ]
        assert [(t["standing"], t["seated"]) for t in tables] == [(2, 2), (2, 2)]
        assert [sorted(t["players"]) for t in tables] == [
            sorted(names[won.table_no]),
            sorted(names[running.table_no]),
        ]
        players = data.data["players"]
        assert [p["rank"] for p in players] == [1, 2, 3, 4]
        assert players[0]["table"] == won.table_no and players[0]["severed"] in (1, 2)
        assert sum(p["severed"] for p in players) == 2 and all(p["standing"] for p in players)
        status = await events.status(event.event_id)
        assert [(p["name"], p["table"], p["severed"]) for p in players] == [
            (p.name, p.table_no, p.severed) for p in status.summary.players
        ]
        assert {
            k: data.data[k] for k in ("name", "status", "entrants", "won", "lost", "playing", "standing")
        } == {
            "name": "Hydra night",
            "status": "running",
            "entrants": 4,
            "won": 1,
            "lost": 0,
            "playing": 1,
            "standing": 4,
        }
    finally:
        await db.close()
