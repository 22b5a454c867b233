"""Matches on a real SQLite file (G9): 2–0, 2–1, drawn games, who plays first, fresh games, undo,
restarts; sideboard swaps through the service (D7, T1) with the window closing by itself."""

from __future__ import annotations

import pytest

from bot.domain import match as m
from bot.domain import pod
from bot.domain.pod import commander_key
from bot.domain.sideboard import Swap, SwapError
from bot.services.decks import DeckService
from bot.services.matches import MatchService, is_match
from bot.services.pods import PodService
from bot.storage.db import Database
from tests.matches.conftest import BLUE_SIDEBOARD_DECK, SIDEBOARD_DECK, WISH_DECK

ALICE, BOB, STRANGER = 11, 22, 99
GUILD = 5


def _services(db, clock, index):
    pods = PodService(db, clock=clock)
    decks = DeckService(db, index)
    return pods, decks, MatchService(db, pods, decks)


async def _start(matches: MatchService, ruleset: str = "duel-zh"):
    return await matches.start_match(
        guild_id=GUILD,
        channel_id=6,
        created_by=ALICE,
        players=[(ALICE, "Alice"), (BOB, "Bob")],
        ruleset=ruleset,
    )


async def _play(pods: PodService, game_id: int, loser: int | None) -> None:
    """Declare, start turn 1 and end the game: ``loser`` concedes, or both agree on a draw."""
    await pods.change(game_id, ALICE, pod.NEXT_TURN)
    state = (await pods.get(game_id)).state
    if loser is None:
        for player in state.players:
            await pods.change(game_id, player.user_id, pod.DRAW_VOTE, player=player.user_id)
    else:
        await pods.change(game_id, loser, pod.CONCEDE, player=loser)
    assert (await pods.get(game_id)).state.finished


def test_which_pods_are_matches():
    assert is_match("duel-zh", 2, False) and not is_match("duel-zh", 3, False)
    assert not is_match("commander", 2, False) and is_match("commander", 2, True)


async def test_a_two_nil_match(db, clock, index):
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _play(pods, game.game_id, BOB)
    loaded = await matches.get(loaded.match_id)
    assert loaded.state.score == (1, 0) and loaded.state.chooser == BOB and not loaded.state.finished
    loaded, game2 = await matches.next_game(loaded.match_id, BOB, BOB)
    assert [p.user_id for p in game2.state.players] == [BOB, ALICE]  # Bob chose to play first
    await _play(pods, game2.game_id, BOB)
    state = (await matches.get(loaded.match_id)).state
    assert state.finished and state.winner == ALICE and state.score == (2, 0) and len(state.games) == 2
    with pytest.raises(m.MatchError, match="match_over"):
        await matches.next_game(loaded.match_id, BOB, BOB)
    assert m.result(state) == m.MatchResult(loaded.match_id, (ALICE, BOB), (2, 0), 0, ALICE)


async def test_a_two_one_match_and_who_plays_first(db, clock, index):
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _play(pods, game.game_id, ALICE)
    with pytest.raises(m.MatchError, match=r"\.not_chooser( |$)"):  # the winner doesn't choose
        await matches.next_game(loaded.match_id, BOB, BOB)
    with pytest.raises(m.MatchError, match=r"\.not_a_player( |$)"):
        await matches.next_game(loaded.match_id, ALICE, STRANGER)
    loaded, game2 = await matches.next_game(loaded.match_id, ALICE, BOB)  # Alice lets Bob play first
    assert [p.user_id for p in game2.state.players] == [BOB, ALICE]
    with pytest.raises(m.MatchError, match="game_running"):
        await matches.next_game(loaded.match_id, ALICE, ALICE)
    await _play(pods, game2.game_id, BOB)
    assert (await matches.get(loaded.match_id)).state.score == (1, 1)
    loaded, game3 = await matches.next_game(loaded.match_id, BOB, BOB)
    assert game3.state.match["game"] == 3
    await _play(pods, game3.game_id, ALICE)
    state = (await matches.get(loaded.match_id)).state
    assert state.finished and state.winner == BOB and state.score == (1, 2)
    record = (await pods.get(game3.game_id)).record
    assert record.match_id == loaded.match_id and record.match_game == 3


async def test_a_drawn_game_counts_as_played_and_its_chooser_chooses_again(db, clock, index):
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _play(pods, game.game_id, None)
    state = (await matches.get(loaded.match_id)).state
    assert state.score == (0, 0) and state.draws == 1 and state.chooser == ALICE  # seat 1 "chose" game 1
    loaded, game2 = await matches.next_game(loaded.match_id, ALICE, BOB)
    await _play(pods, game2.game_id, None)
    assert (await matches.get(loaded.match_id)).state.chooser == ALICE  # she chose for the drawn game
    loaded, game3 = await matches.next_game(loaded.match_id, ALICE, ALICE)
    await _play(pods, game3.game_id, BOB)
    state = (await matches.get(loaded.match_id)).state
    assert state.finished and state.winner == ALICE and state.score == (1, 0)  # three games played


async def test_equal_wins_after_three_games_is_a_drawn_match(db, clock, index):
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _play(pods, game.game_id, ALICE)
    loaded, game2 = await matches.next_game(loaded.match_id, ALICE, ALICE)
    await _play(pods, game2.game_id, BOB)
    loaded, game3 = await matches.next_game(loaded.match_id, BOB, BOB)
    await _play(pods, game3.game_id, None)
    state = (await matches.get(loaded.match_id)).state
    assert state.finished and state.drawn and state.winner is None and state.score == (1, 1)


async def test_each_game_starts_fresh_death_counters_included(db, clock, index):
    """G3b: death counters belong to a game; the next game starts at 40 life with no tax, same commanders."""
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await pods.change(game.game_id, ALICE, pod.COMMANDERS, player=ALICE, names=["Kaalia of the Vast"])
    await pods.change(game.game_id, BOB, pod.COMMANDERS, player=BOB, names=["Heliod"])
    await pods.change(game.game_id, ALICE, pod.NEXT_TURN)
    kaalia = commander_key(ALICE, 0)
    await pods.change(game.game_id, ALICE, pod.CAST, commander=kaalia)
    await pods.change(game.game_id, ALICE, pod.TO_COMMAND_ZONE, commander=kaalia)
    await pods.change(game.game_id, ALICE, pod.TO_COMMAND_ZONE, commander=kaalia)
    await pods.change(game.game_id, ALICE, pod.LIFE, player=ALICE, amount=-12)
    state = (await pods.get(game.game_id)).state
    assert state.next_tax(state.commander(kaalia)) == 4
    await pods.change(game.game_id, ALICE, pod.CONCEDE, player=ALICE)
    _, game2 = await matches.next_game(loaded.match_id, ALICE, ALICE)
    fresh = game2.state
    assert fresh.commander(kaalia).death_counters == 0 and fresh.next_tax(fresh.commander(kaalia)) == 0
    assert fresh.player(ALICE).life == 40 and not fresh.started
    assert [c.name for c in fresh.player(BOB).commanders] == ["Heliod"]


async def test_the_start_of_a_game_can_be_undone_until_it_is_played(db, clock, index):
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    with pytest.raises(m.MatchError, match="nothing_to_undo"):
        await matches.undo_next(loaded.match_id, ALICE)
    await _play(pods, game.game_id, BOB)
    _, wrong = await matches.next_game(loaded.match_id, BOB, ALICE)
    assert await matches.undo_offer(await matches.get(loaded.match_id), wrong)
    with pytest.raises(m.MatchError, match=r"\.not_chooser( |$)"):  # only who chose takes the choice back
        await matches.undo_next(loaded.match_id, ALICE)
    loaded, abandoned = await matches.undo_next(loaded.match_id, BOB)
    assert abandoned == wrong.game_id
    assert len(loaded.state.games) == 1 and loaded.state.chooser == BOB
    assert (await pods.get(wrong.game_id)).row.status == "abandoned"
    with pytest.raises(pod.PodError, match="game_abandoned"):  # its old board's buttons change nothing
        await pods.change(wrong.game_id, BOB, pod.LIFE, player=BOB, amount=-1)
    _, right = await matches.next_game(loaded.match_id, BOB, BOB)
    await pods.change(right.game_id, BOB, pod.LIFE, player=BOB, amount=-1)
    assert not await matches.undo_offer(await matches.get(loaded.match_id), await pods.get(right.game_id))
    with pytest.raises(m.MatchError, match=r"\.game_begun( |$)"):
        await matches.undo_next(loaded.match_id, BOB)


async def test_a_match_survives_a_restart(db_url, clock, index):
    db = await Database.open(db_url)
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _play(pods, game.game_id, BOB)
    await db.close()
    reopened = await Database.open(db_url)
    try:
        _, _, fresh = _services(reopened, clock, index)
        state = (await fresh.get(loaded.match_id)).state
        assert state.score == (1, 0) and state.chooser == BOB
        _, game2 = await fresh.next_game(loaded.match_id, BOB, BOB)
        assert game2.state.match == {"id": loaded.match_id, "game": 2, "swaps": {}}
    finally:
        await reopened.close()


# -- swaps ------------------------------------------------------------------------------------------


async def _with_decks(pods, decks, game_id, deck_file=SIDEBOARD_DECK, ruleset="duel-zh"):
    for user in (ALICE, BOB):
        result = await decks.register(GUILD, user, "Kaalia", deck_file.read_text(encoding="utf-8"), ruleset)
        assert result.record is not None
        await pods.change(
            game_id, user, pod.COMMANDERS, player=user, names=["Kaalia of the Vast"], deck="Kaalia"
        )


async def test_swaps_between_games_travel_with_the_match_and_reach_the_record(db, clock, index):
    pods, decks, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _with_decks(pods, decks, game.game_id)
    with pytest.raises(SwapError, match="not_allowed"):  # game 1 without the optional rule
        await matches.swap(game.game_id, ALICE, [Swap("Anger", "Lightning Bolt")])
    await _play(pods, game.game_id, ALICE)
    _, game2 = await matches.next_game(loaded.match_id, ALICE, ALICE)
    clock.advance(hours=2)  # no time limit between games (000)
    game2, verdict = await matches.swap(
        game2.game_id, ALICE, [Swap("Anger", "Lightning Bolt"), Swap("Mountain", "Badlands")]
    )
    assert verdict.verdict.legal and verdict.deck.main_count == 100
    with pytest.raises(SwapError, match=r"\.not_in_main( |$)"):  # Anger is in the sideboard now
        await matches.swap(game2.game_id, ALICE, [Swap("Anger", "Duress")])
    with pytest.raises(SwapError, match="commander"):
        await matches.swap(game2.game_id, BOB, [Swap("Kaalia of the Vast", "Duress")])
    with pytest.raises(SwapError, match=r"\.not_a_player( |$)"):
        await matches.swap(game2.game_id, STRANGER, [Swap("Anger", "Duress")])
    undone = await pods.undo(game2.game_id, ALICE)  # a batch is undone like any change: as a whole
    assert undone.state.swaps == []
    await matches.swap(game2.game_id, ALICE, [Swap("Anger", "Lightning Bolt")])
    await _play(pods, game2.game_id, BOB)
    record = (await pods.get(game2.game_id)).record
    assert record.swaps == {ALICE: [{"out": "Anger", "in": "Lightning Bolt", "count": 1}]}
    _, game3 = await matches.next_game(loaded.match_id, BOB, BOB)
    with pytest.raises(
        SwapError, match=r"\.not_in_main( |$)"
    ):  # game 3 starts from the deck as played in game 2
        await matches.swap(game3.game_id, ALICE, [Swap("Anger", "Duress")])
    played = await matches.played_deck(game3, ALICE)
    assert "Lightning Bolt" in {c.name for c in played.deck.in_section(pod_main())}
    await pods.change(game3.game_id, ALICE, pod.NEXT_TURN)
    with pytest.raises(SwapError, match=r"\.window_closed( |$)"):  # late: turn 1 has begun
        await matches.swap(game3.game_id, BOB, [Swap("Anger", "Duress")])


def pod_main():
    from bot.domain.decklist import Section

    return Section.MAIN


async def test_without_a_registered_deck_there_is_nothing_to_swap(db, clock, index):
    pods, _, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _play(pods, game.game_id, ALICE)
    _, game2 = await matches.next_game(loaded.match_id, ALICE, ALICE)
    with pytest.raises(SwapError, match=r"\.no_deck( |$)"):
        await matches.swap(game2.game_id, ALICE, [Swap("Anger", "Duress")])


async def test_the_optional_rule_window_closes_by_itself_also_across_a_restart(db_url, clock, index):
    db = await Database.open(db_url)
    pods, decks, matches = _services(db, clock, index)
    await matches.set_sideboard_rule(GUILD, True)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=6,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob"), (33, "Carol")],
    )
    await pods.change(game.game_id, ALICE, pod.COMMANDERS, player=33, names=[None])
    await _with_decks(pods, decks, game.game_id, BLUE_SIDEBOARD_DECK, "commander")
    clock.advance(minutes=2, seconds=59)
    _, verdict = await matches.swap(game.game_id, BOB, [Swap("Anger", "Duress")])
    with pytest.raises(SwapError, match="illegal"):  # Counterspell is outside Kaalia's colours
        await matches.swap(game.game_id, BOB, [Swap("Vow of Duty", "Counterspell")])
    await db.close()

    clock.advance(seconds=1)  # three minutes after the last declaration: closed, nothing ran to close it
    reopened = await Database.open(db_url)
    try:
        pods2, decks2, fresh = _services(reopened, clock, index)
        window = await fresh.window(await pods2.get(game.game_id))
        assert not window.open and window.reason == "window_closed"
        with pytest.raises(SwapError, match=r"\.window_closed( |$)"):
            await fresh.swap(game.game_id, ALICE, [Swap("Anger", "Duress")])
        assert len((await pods2.get(game.game_id)).state.swaps) == 1
    finally:
        await reopened.close()


async def test_the_window_waits_for_every_declaration_and_the_rule_switch(db, clock, index):
    pods, decks, matches = _services(db, clock, index)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=6,
        created_by=ALICE,
        ruleset="duel-zh",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    result = await decks.register(
        GUILD, ALICE, "Kaalia", SIDEBOARD_DECK.read_text(encoding="utf-8"), "duel-zh"
    )
    assert result.record is not None
    await matches.set_sideboard_rule(GUILD, True)
    await pods.change(
        game.game_id, ALICE, pod.COMMANDERS, player=ALICE, names=["Kaalia of the Vast"], deck="Kaalia"
    )
    with pytest.raises(SwapError, match=r"\.not_declared( |$)"):
        await matches.swap(game.game_id, ALICE, [Swap("Anger", "Duress")])
    clock.advance(minutes=10)
    await pods.change(game.game_id, BOB, pod.COMMANDERS, player=BOB, names=["Heliod"])
    window = await matches.window(await pods.get(game.game_id))
    assert window.open and window.seconds_left(matches.now()) == 180
    await matches.set_sideboard_rule(GUILD, False)
    with pytest.raises(SwapError, match="not_allowed"):
        await matches.swap(game.game_id, ALICE, [Swap("Anger", "Duress")])


# -- a pasted batch is all or nothing -------------------------------------------------------------


async def _game_two_with_decks(pods, decks, matches):
    loaded, game = await _start(matches)
    await _with_decks(pods, decks, game.game_id)
    await _play(pods, game.game_id, ALICE)
    _, game2 = await matches.next_game(loaded.match_id, ALICE, ALICE)
    return game2


async def test_a_batch_of_swaps_is_one_event_in_one_transaction(db, clock, index):
    pods, decks, matches = _services(db, clock, index)
    game2 = await _game_two_with_decks(pods, decks, matches)
    before = len(await pods.repo.events(game2.game_id))
    await matches.swap(
        game2.game_id,
        ALICE,
        [Swap("Anger", "Lightning Bolt"), Swap("Mountain", "Badlands"), Swap("Vow of Duty", "Duress")],
    )
    stored = await pods.repo.events(game2.game_id)
    assert len(stored) == before + 1 and stored[-1].kind == pod.SWAP
    assert [s["in"] for s in pod.swaps_of(stored[-1].data)] == ["Lightning Bolt", "Badlands", "Duress"]
    with pytest.raises(
        SwapError, match=r"\.not_in_sideboard( |$)"
    ):  # the third is wrong: the first two are not kept
        await matches.swap(
            game2.game_id,
            BOB,
            [
                Swap("Anger", "Lightning Bolt"),
                Swap("Mountain", "Badlands"),
                Swap("Vow of Duty", "Counterspell"),
            ],
        )
    assert len(await pods.repo.events(game2.game_id)) == before + 1
    assert [s["player"] for s in (await pods.get(game2.game_id)).state.swaps] == [ALICE] * 3


async def test_a_mulligan_that_starts_while_a_batch_is_checked_refuses_the_whole_batch(db, clock, index):
    """The deck check runs in the work pool without the game's lock; the first mulligan answer lands
    meanwhile. The batch is judged again under the lock on the current log: none of it is stored."""
    pods, decks, matches = _services(db, clock, index)
    game2 = await _game_two_with_decks(pods, decks, matches)
    check = decks.offload

    async def mulligan_meanwhile(fn, *args):
        result = await check(fn, *args)
        prompt = pod.mulligan_prompt((await pods.get(game2.game_id)).state)
        assert prompt is not None
        await pods.change(
            game2.game_id, prompt.player, pod.MULLIGAN, player=prompt.player, decision=0, prompt=prompt.number
        )
        return result

    decks.offload = mulligan_meanwhile
    with pytest.raises(SwapError, match=r"\.window_closed( |$)"):
        await matches.swap(
            game2.game_id, ALICE, [Swap("Anger", "Lightning Bolt"), Swap("Mountain", "Badlands")]
        )
    fresh = await PodService(db, clock=clock).get(game2.game_id)  # what is stored, not the cache
    assert fresh.state.swaps == [] and fresh.state.mulligan is not None


async def test_a_batch_checked_against_swaps_that_changed_meanwhile_is_refused(db, clock, index):
    pods, decks, matches = _services(db, clock, index)
    game2 = await _game_two_with_decks(pods, decks, matches)
    check = decks.offload
    other_panel = [True]

    async def swap_meanwhile(fn, *args):
        result = await check(fn, *args)
        if other_panel.pop() if other_panel else False:  # the same player's other panel, once
            await matches.swap(game2.game_id, ALICE, [Swap("Anger", "Lightning Bolt")])
        return result

    decks.offload = swap_meanwhile
    with pytest.raises(SwapError, match=r"\.changed_meanwhile( |$)"):
        await matches.swap(game2.game_id, ALICE, [Swap("Anger", "Duress"), Swap("Mountain", "Badlands")])
    assert [s["in"] for s in (await pods.get(game2.game_id)).state.swaps] == ["Lightning Bolt"]


# -- wishes (D7) -----------------------------------------------------------------------------------


async def test_a_wish_fetches_from_the_sideboard_as_played_once_per_game(db, clock, index):
    pods, decks, matches = _services(db, clock, index)
    loaded, game = await _start(matches)
    await _with_decks(pods, decks, game.game_id, WISH_DECK)
    with pytest.raises(SwapError, match=r"\.wish_not_now( |$)"):  # before turn 1
        await matches.wish(game.game_id, ALICE, "Gamble")
    await pods.change(game.game_id, ALICE, pod.NEXT_TURN)
    assert "Gamble" in await matches.wishable(await pods.get(game.game_id), ALICE)
    game, name = await matches.wish(game.game_id, ALICE, "gamble")
    assert name == "Gamble" and game.state.wishes == [{"player": ALICE, "card": "Gamble", "turn": 1}]
    assert "Gamble" not in await matches.wishable(game, ALICE)
    for card, key in (("Gamble", "wish_already"), ("Anger", "wish_not_in_sideboard")):
        with pytest.raises(SwapError, match=key):
            await matches.wish(game.game_id, ALICE, card)
    with pytest.raises(SwapError, match=r"\.not_a_player( |$)"):
        await matches.wish(game.game_id, STRANGER, "Duress")
    undone = await pods.undo(game.game_id, ALICE)  # undone like any change
    assert undone.state.wishes == []
    await matches.wish(game.game_id, ALICE, "Gamble")
    await pods.change(game.game_id, BOB, pod.CONCEDE, player=BOB)
    assert (await pods.get(game.game_id)).record.wishes == {ALICE: ["Gamble"]}
    with pytest.raises(SwapError, match=r"\.wish_not_now( |$)"):  # the game is over
        await matches.wish(game.game_id, ALICE, "Duress")

    _, game2 = await matches.next_game(loaded.match_id, BOB, BOB)
    await matches.swap(game2.game_id, ALICE, [Swap("Anger", "Gamble")])
    await pods.change(game2.game_id, BOB, pod.NEXT_TURN)
    with pytest.raises(SwapError, match="wish_not_in_sideboard"):  # Gamble is in the main deck this game
        await matches.wish(game2.game_id, ALICE, "Gamble")
    _, fetched = await matches.wish(game2.game_id, ALICE, "Anger")  # a fetched card returns between games
    assert fetched == "Anger"


async def test_a_single_game_has_sideboards_only_with_the_optional_rule(db, clock, index):
    pods, decks, matches = _services(db, clock, index)
    game = await pods.start_game(
        guild_id=GUILD,
        channel_id=6,
        created_by=ALICE,
        ruleset="commander",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
    )
    await _with_decks(pods, decks, game.game_id, WISH_DECK, "commander")
    await pods.change(game.game_id, ALICE, pod.NEXT_TURN)
    with pytest.raises(SwapError, match=r"\.wish_not_allowed( |$)"):
        await matches.wish(game.game_id, ALICE, "Gamble")
    await matches.set_sideboard_rule(GUILD, True)
    _, name = await matches.wish(game.game_id, ALICE, "Gamble")
    assert name == "Gamble"
