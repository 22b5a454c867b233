"""MatchService's exact promises on a real database: a match needs two different players, the next game
keeps the table's options and its tournament seat, only a player of the match takes a start back, and a
tournament's live page hears of every new or taken-back game."""

from __future__ import annotations

import pytest

from bot.domain import match as m
from bot.domain import pod
from bot.domain.sideboard import Swap
from bot.services.decks import DeckService
from bot.services.matches import MatchService, outcome_of
from bot.services.pods import PodService
from bot.services.tournaments import tournament_topic
from tests.matches.test_match_service import _game_two_with_decks

ALICE, BOB, STRANGER = 11, 22, 99
GUILD, CHANNEL, TOURNAMENT = 5, 6, 7


async def _start(matches: MatchService, **options):
    return await matches.start_match(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ALICE,
        ruleset="duel-zh",
        players=options.pop("players", [(ALICE, "Alice"), (BOB, "Bob")]),
        **options,
    )


async def _lose(pods: PodService, game_id: int, loser: int) -> None:
    first = (await pods.get(game_id)).state.players[0].user_id
    await pods.change(game_id, first, pod.NEXT_TURN)
    await pods.change(game_id, loser, pod.CONCEDE, player=loser)


async def test_a_match_is_between_two_different_players_and_stores_nothing_otherwise(db, clock) -> None:
    matches = MatchService(db, PodService(db, clock=clock))
    for players in (
        [(ALICE, "Alice"), (ALICE, "Alice")],
        [(ALICE, "Alice")],
        [(ALICE, "Alice"), (BOB, "Bob"), (STRANGER, "S")],
    ):
        with pytest.raises(m.MatchError) as refused:
            await _start(matches, players=players)
        assert refused.value.key == "match.error.two_players"
    assert await db.scalar("SELECT COUNT(*) FROM pod_games") == 0
    with pytest.raises(m.MatchError) as unknown:
        await matches.get(404)
    assert unknown.value.key == "match.error.no_match"


async def test_game_one_is_recorded_with_who_plays_first(db, clock) -> None:
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    loaded, game = await _start(matches, players=[(BOB, "Bob"), (ALICE, "Alice")])
    (current,) = loaded.state.games
    assert (current.game_id, current.number, current.first, current.chosen_by) == (game.game_id, 1, BOB, BOB)
    assert [e.actor for e in loaded.events] == [ALICE, ALICE] and loaded.state.players == (BOB, ALICE)
    assert await matches.for_game(game) is not None
    single = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    assert await matches.for_game(single) is None


async def test_the_next_game_keeps_the_tables_options_and_its_tournament_seat(db, clock) -> None:
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    loaded, game = await _start(
        matches,
        starting_life=30,
        own_totals_only=True,
        mulligan_style="vancouver",
        tournament_id=TOURNAMENT,
        round_number=2,
    )
    await _lose(pods, game.game_id, BOB)
    _, second = await matches.next_game(loaded.match_id, BOB, ALICE)
    state = second.state
    assert (state.starting_life, state.own_totals_only, state.mulligan_style.value) == (30, True, "vancouver")
    assert (second.row.tournament_id, second.row.round_number, second.row.channel_id) == (
        TOURNAMENT,
        2,
        CHANNEL,
    )
    assert second.row.guild_id == GUILD and second.state.player(ALICE).life == 30
    assert second.row.created_by == BOB  # the chooser opened it: it counts among their open games
    events = (await matches.get(loaded.match_id)).events
    assert events[-1].actor == BOB and events[-1].data == {
        "game_id": second.game_id,
        "number": 2,
        "first": ALICE,
        "chosen_by": BOB,
    }


async def test_only_a_player_of_the_match_takes_a_start_back(db, clock) -> None:
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    loaded, game = await _start(matches)
    await _lose(pods, game.game_id, BOB)
    _, wrong = await matches.next_game(loaded.match_id, BOB, BOB)
    with pytest.raises(m.MatchError) as refused:
        await matches.undo_next(loaded.match_id, STRANGER)
    assert refused.value.key == "match.error.not_a_player"
    assert (await pods.get(wrong.game_id)).row.status == "open"
    undone, abandoned = await matches.undo_next(loaded.match_id, BOB)
    assert abandoned == wrong.game_id and undone.events[-1].actor == BOB
    assert undone.events[-1].data == {"seqs": [3]}


async def test_a_tournaments_page_hears_of_each_new_and_taken_back_game(db, clock) -> None:
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    topic = tournament_topic(TOURNAMENT)
    heard = db.changes.version(topic)
    loaded, game = await _start(matches, tournament_id=TOURNAMENT, round_number=1)
    assert db.changes.version(topic) == heard + 1
    await _lose(pods, game.game_id, BOB)
    await matches.next_game(loaded.match_id, BOB, BOB)
    assert db.changes.version(topic) == heard + 2
    await matches.undo_next(loaded.match_id, BOB)
    assert db.changes.version(topic) == heard + 3
    casual, _ = await _start(matches)  # a match outside tournaments is news to no tournament
    assert db.changes.version(topic) == heard + 3 and casual.row.tournament_id is None


async def test_tournament_records_list_finished_matches_of_the_round_asked(db, clock) -> None:
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    for round_number in (1, 2):
        loaded, game = await _start(matches, tournament_id=TOURNAMENT, round_number=round_number)
        await _lose(pods, game.game_id, BOB)
        _, second = await matches.next_game(loaded.match_id, BOB, BOB)
        await _lose(pods, second.game_id, BOB)
    await _start(matches, tournament_id=TOURNAMENT, round_number=2)  # still running: not a record yet
    assert len(await matches.for_tournament(TOURNAMENT)) == 3
    assert len(await matches.tournament_records(TOURNAMENT)) == 2
    (record,) = await matches.tournament_records(TOURNAMENT, 2)
    assert (record.first, record.second, record.wins) == (ALICE, BOB, (2, 0))


async def test_the_sideboard_rule_is_per_server_and_never_for_a_game_outside_servers(db, clock) -> None:
    matches = MatchService(db, PodService(db, clock=clock))
    assert not await matches.sideboard_rule(GUILD)
    await matches.set_sideboard_rule(GUILD, True)
    assert await matches.sideboard_rule(GUILD) and not await matches.sideboard_rule(GUILD + 1)
    assert not await matches.sideboard_rule(None)


async def test_a_finished_games_outcome_names_the_only_survivor_else_a_draw(db, clock) -> None:
    pods = PodService(db, clock=clock)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ALICE,
        ruleset="duel-zh",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    assert outcome_of(game.state) is None
    stopped = await pods.change(game.game_id, ALICE, pod.STOP)
    assert outcome_of(stopped.state) == m.Outcome(None)
    other = await pods.start_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        created_by=ALICE,
        ruleset="duel-zh",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    await _lose(pods, other.game_id, ALICE)
    assert outcome_of((await pods.get(other.game_id)).state) == m.Outcome(BOB)


async def test_a_player_swaps_twice_before_a_game_and_both_batches_stand(db, clock, index) -> None:
    """The second batch is checked against the player's own swaps so far, not somebody else's (nor none)."""
    pods = PodService(db, clock=clock)
    decks = DeckService(db, index)
    matches = MatchService(db, pods, decks)
    game2 = await _game_two_with_decks(pods, decks, matches)
    await matches.swap(game2.game_id, ALICE, [Swap("Anger", "Lightning Bolt")])
    game, verdict = await matches.swap(game2.game_id, ALICE, [Swap("Mountain", "Badlands")])
    assert verdict.verdict.legal
    assert [s["in"] for s in game.state.swaps] == ["Lightning Bolt", "Badlands"]


async def test_a_drawn_game_is_in_the_tournament_record_and_an_undo_is_stored_at_the_next_seq(
    db, clock
) -> None:
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    loaded, game = await _start(matches, tournament_id=TOURNAMENT, round_number=1)
    await pods.change(game.game_id, ALICE, pod.NEXT_TURN)
    for user in (ALICE, BOB):
        await pods.change(game.game_id, user, pod.DRAW_VOTE, player=user)
    _, wrong = await matches.next_game(loaded.match_id, ALICE, BOB)
    undone, _ = await matches.undo_next(loaded.match_id, ALICE)
    assert [e.seq for e in undone.events] == [1, 2, 3, 4]
    for number in (2, 3):
        _, next_game = await matches.next_game(loaded.match_id, ALICE if number == 2 else BOB, ALICE)
        await _lose(pods, next_game.game_id, BOB)
    (record,) = await matches.tournament_records(TOURNAMENT)
    assert (record.wins, record.draws) == ((2, 0), 1)


async def test_the_next_game_copies_both_commanders_even_with_own_totals_only(db, clock) -> None:
    """The chooser's next game declares both players' commanders again on the bot's authority, so a table
    that changes only its own totals still gets both, and a start nobody touched can still be taken back."""
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    loaded, game = await _start(matches, own_totals_only=True)
    assert game.row.created_by == ALICE
    await pods.change(game.game_id, ALICE, pod.COMMANDERS, player=ALICE, names=["Kaalia of the Vast"])
    await pods.change(game.game_id, BOB, pod.COMMANDERS, player=BOB, names=["Heliod"])
    await _lose(pods, game.game_id, BOB)
    record = (await pods.get(game.game_id)).record
    assert record is not None and (record.match_id, record.match_game) == (loaded.match_id, 1)
    _, second = await matches.next_game(loaded.match_id, BOB, BOB)
    assert [[c.name for c in second.state.player(u).commanders] for u in (ALICE, BOB)] == [
        ["Kaalia of the Vast"],
        ["Heliod"],
    ]
    assert {e.actor for e in second.events} == {BOB}
    assert await matches.undo_offer(await matches.get(loaded.match_id), second)
    _, abandoned = await matches.undo_next(loaded.match_id, BOB)
    assert abandoned == second.game_id
