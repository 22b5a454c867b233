"""SeasonService on a real database: which finished games a season scores, the table's answers and an
organiser's decision on one server's games only, the standings and the CSV a spreadsheet opens."""

from __future__ import annotations

import asyncio
import csv
import io

import pytest

from bot.domain import pod
from bot.domain import season as rules
from bot.domain.pod import PodGameRecord
from bot.domain.season import PointsRule, SeasonError
from bot.services.pods import PodService
from bot.services.seasons import BOM, CSV_COLUMNS, SeasonService, standings_csv

GUILD, OTHER = 1000, 2000
CHANNEL_POSTED = 7
ALICE, BOB, CAROL = 11, 22, 33
HEADERS = {**{column: column.upper() for column in CSV_COLUMNS}, "yes": "oui", "no": "non"}


def clock(stamp: str = "2026-12-01T10:00:00+00:00"):
    return lambda: stamp


async def finished(
    db, *, guild_id: int = GUILD, players=((ALICE, "Alice"), (BOB, "Bob")), turn: bool = True, **options
) -> PodGameRecord:
    """A real pod game played to its end: the first player wins when everyone else concedes."""
    heard: list[PodGameRecord] = []
    pods = PodService(db, notify=lambda name, record: heard.append(record))
    game = await pods.start_game(
        guild_id=guild_id,
        channel_id=6,
        created_by=players[0][0],
        players=list(players),
        ruleset="commander",
        **options,
    )
    if not turn:  # stopped before turn 1
        await pods.change(game.game_id, players[0][0], pod.STOP, manager=True)
    else:
        await pods.change(game.game_id, players[0][0], pod.NEXT_TURN)
    for user, _ in players[1:] if turn else ():
        await pods.change(game.game_id, user, pod.CONCEDE, player=user)
    (record,) = heard
    return record


async def test_only_one_season_is_open_and_a_name_is_used_once(db) -> None:
    service = SeasonService(db, clock=clock())
    spring = await service.open(GUILD, "  Spring   2027 ", PointsRule(), opened_by=ALICE)
    assert (spring.name, spring.opened_by, spring.opened_at) == (
        "Spring 2027",
        ALICE,
        "2026-12-01T10:00:00+00:00",
    )
    with pytest.raises(SeasonError) as refused:
        await service.open(GUILD, "Summer", PointsRule())
    assert refused.value.key == "season.error.already_open" and refused.value.values["name"] == "Spring 2027"
    await service.open(OTHER, "Summer", PointsRule())  # another server has its own
    closed = await service.close(GUILD, closed_by=BOB)
    assert closed.closed_at == "2026-12-01T10:00:00+00:00" and not closed.is_open
    assert await db.scalar("SELECT closed_by FROM seasons WHERE season_id = ?", (spring.season_id,)) == BOB
    with pytest.raises(SeasonError) as none_open:
        await service.close(GUILD)
    assert none_open.value.key == "season.error.no_open_season"
    with pytest.raises(SeasonError) as taken:
        await service.open(GUILD, "Spring 2027", PointsRule())
    assert taken.value.key == "season.error.name_taken" and taken.value.values == {"name": "Spring 2027"}
    assert await service.names(GUILD) == ["Spring 2027"]


async def test_two_seasons_opened_at_once_leave_one_open_and_tell_the_other_which(db) -> None:
    service = SeasonService(db)
    results = await asyncio.gather(
        service.open(GUILD, "Spring", PointsRule()),
        service.open(GUILD, "Summer", PointsRule()),
        return_exceptions=True,
    )
    opened = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, SeasonError)]
    assert len(opened) == 1 and len(refused) == 1
    assert refused[0].key == "season.error.already_open" and refused[0].values == {"name": opened[0].name}
    assert await service.names(GUILD) == [opened[0].name]


async def test_find_names_the_season_else_the_open_one_else_the_latest(db) -> None:
    service = SeasonService(db)
    with pytest.raises(SeasonError) as none_yet:
        await service.find(GUILD)
    assert none_yet.value.key == "season.error.no_seasons"
    await service.open(GUILD, "Spring Cup", PointsRule())
    await service.close(GUILD)
    await service.open(GUILD, "Summer", PointsRule())
    assert (await service.find(GUILD)).name == "Summer"
    assert (await service.find(GUILD, "  Spring   Cup ")).name == "Spring Cup"
    await service.close(GUILD)
    await service.open(GUILD, "Autumn", PointsRule())
    await service.close(GUILD)
    assert (await service.find(GUILD)).name == "Autumn"  # none open: the newest
    with pytest.raises(SeasonError) as unknown:
        await service.find(GUILD, "W" * 80)
    assert (
        unknown.value.key == "season.error.no_season" and unknown.value.values["name"] == "W" * rules.MAX_NAME
    )


async def test_a_finished_casual_game_is_scored_once_into_the_open_season(db) -> None:
    service = SeasonService(db)
    record = await finished(db)
    assert await service.score_finished_game(record) is None  # no season open yet
    season = await service.open(GUILD, "Spring", PointsRule(win=5))
    scored = await service.score_finished_game(record)
    assert scored is not None
    got, game = scored
    assert got.season_id == season.season_id and game.game_id == record.game_id and game.channel_id == 6
    assert {seat.user_id: seat.points for seat in game.seats} == {ALICE: 5, BOB: 0}
    finished_at = await db.scalar("SELECT finished_at FROM season_games WHERE game_id = ?", (record.game_id,))
    assert finished_at == record.ended_at and finished_at
    assert await service.score_finished_game(record) is None  # a repeated notification
    assert await service.unscored_finished_games() == []


async def test_tournament_match_unstarted_and_other_servers_games_are_not_scored(db) -> None:
    service = SeasonService(db)
    await service.open(GUILD, "Spring", PointsRule())
    assert await service.score_finished_game(await finished(db, tournament_id=4, round_number=1)) is None
    assert (
        await service.score_finished_game(await finished(db, match={"id": 9, "game": 1, "swaps": {}})) is None
    )
    assert await service.score_finished_game(await finished(db, turn=False)) is None  # ended before turn 1
    assert await service.score_finished_game(await finished(db, guild_id=OTHER)) is None  # no season there
    assert await service.score_finished_game(await finished(db, guild_id=None)) is None


async def test_a_league_only_season_scores_only_games_marked_for_the_league(db) -> None:
    service = SeasonService(db)
    await service.open(GUILD, "League", PointsRule(), league_only=True)
    casual = await finished(db)
    assert await service.score_finished_game(casual) is None
    pods = PodService(db)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=6,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    await service.mark_league(game.game_id, ALICE)
    assert (
        await db.scalar("SELECT marked_by FROM season_league_games WHERE game_id = ?", (game.game_id,))
        == ALICE
    )
    heard: list[PodGameRecord] = []
    pods.notify = lambda name, record: heard.append(record)
    await pods.change(game.game_id, ALICE, pod.NEXT_TURN)
    await pods.change(game.game_id, BOB, pod.CONCEDE, player=BOB)
    assert await service.score_finished_game(heard[0]) is not None


async def test_answers_and_decisions_reach_only_this_servers_games(db) -> None:
    service = SeasonService(db, clock=clock())
    await service.open(GUILD, "Spring", PointsRule())
    record = await finished(db, players=((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")))
    await service.score_finished_game(record)
    with pytest.raises(SeasonError) as elsewhere:
        await service.answer(OTHER, record.game_id, ALICE, rules.CONFIRM)
    assert (
        elsewhere.value.key == "season.error.not_in_season"
        and elsewhere.value.values["game"] == record.game_id
    )
    with pytest.raises(SeasonError, match="not_in_season"):
        await service.decide(OTHER, record.game_id, rules.ACCEPT, decided_by=99)
    with pytest.raises(SeasonError, match="not_in_season"):
        await service.game(GUILD, record.game_id + 100)
    await service.set_message(record.game_id, CHANNEL_POSTED, 4242)  # the result's post, for its buttons
    _, game = await service.answer(GUILD, record.game_id, ALICE, rules.CONFIRM)
    assert (game.channel_id, game.message_id) == (CHANNEL_POSTED, 4242)
    assert game.state.status == rules.PENDING and game.state.confirmed == {ALICE}
    _, game = await service.answer(GUILD, record.game_id, BOB, rules.DISPUTE)
    assert game.state.status == rules.DISPUTED
    assert (await service.standings(await service.find(GUILD))).waiting == 1
    _, game = await service.decide(GUILD, record.game_id, rules.ACCEPT, decided_by=99)
    assert game.state.status == rules.ACCEPTED
    decided = await db.fetchone(
        "SELECT decided_by, decided_at FROM season_games WHERE game_id = ?", (record.game_id,)
    )
    assert tuple(decided) == (99, "2026-12-01T10:00:00+00:00")
    answered = await db.scalar(
        "SELECT answered_at FROM season_game_players WHERE game_id = ? AND user_id = ?",
        (record.game_id, ALICE),
    )
    assert answered == "2026-12-01T10:00:00+00:00"
    standings = await service.standings(await service.find(GUILD))
    assert standings.season.name == "Spring"
    assert standings.waiting == 0 and [line.user_id for line in standings.lines][0] == ALICE
    with pytest.raises(SeasonError, match="already_final"):
        await service.answer(GUILD, record.game_id, CAROL, rules.CONFIRM)


async def test_the_csv_opens_as_utf8_with_names_never_read_as_formulas(db) -> None:
    service = SeasonService(db)
    season = await service.open(GUILD, "Spring", PointsRule(min_games=2))
    record = await finished(db, players=((ALICE, "=SUM(A1)"), (BOB, "ボブ")))
    await service.score_finished_game(record)
    for user in (ALICE, BOB):
        await service.answer(GUILD, record.game_id, user, rules.CONFIRM)
    data = await service.export_csv(season, HEADERS)
    assert data.startswith(BOM.encode("utf-8"))
    rows = list(csv.reader(io.StringIO(data.decode("utf-8").removeprefix(BOM))))
    assert rows[0] == [column.upper() for column in CSV_COLUMNS]
    assert rows[1] == ["", "'=SUM(A1)", str(ALICE), "3", "1", "1", "0", "non"]  # one game of two: unranked
    assert rows[2] == ["", "ボブ", str(BOB), "0", "1", "0", "0", "non"]
    assert data.decode("utf-8").count("\r\n") == 3


@pytest.mark.parametrize("name", ["=1+1", "+1", "-1", "@SUM", "\tx", "\rx"])
def test_every_formula_start_is_quoted(name: str) -> None:
    line = rules.Standing(user_id=1, name=name, points=1, games=1, wins=1, eliminations=0, place=1)
    rows = list(csv.reader(io.StringIO(standings_csv([line], HEADERS).decode("utf-8").removeprefix(BOM))))
    assert rows[1][:2] == ["1", "'" + name] and rows[1][-1] == "oui"


def test_a_plain_name_is_written_as_it_is() -> None:
    line = rules.Standing(user_id=1, name="Alice", points=1, games=1, wins=1, eliminations=0, place=None)
    assert b"\r\n,Alice,1," in standings_csv([line], HEADERS)


async def test_a_decision_and_an_answer_at_once_are_applied_one_after_the_other(db) -> None:
    """An organiser voids a result while the last player answers it: the answer is judged on the decided
    result (refused as final), never written over the decision from the state read before it."""
    service = SeasonService(db, clock=clock())
    await service.open(GUILD, "Spring", PointsRule())
    record = await finished(db, players=((ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")))
    await service.score_finished_game(record)
    for user in (ALICE, BOB):
        await service.answer(GUILD, record.game_id, user, rules.CONFIRM)
    decided, answered = await asyncio.gather(
        service.decide(GUILD, record.game_id, rules.VOID, decided_by=99),
        service.answer(GUILD, record.game_id, CAROL, rules.DISPUTE),
        return_exceptions=True,
    )
    assert not isinstance(decided, BaseException)
    assert isinstance(answered, SeasonError) and answered.key == "season.error.already_final"
    _, game = await service.game(GUILD, record.game_id)
    assert game.state.status == rules.VOIDED and CAROL not in game.state.disputed
