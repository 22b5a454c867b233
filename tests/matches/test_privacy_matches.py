"""Members' data rights cover matches: export, pseudonymised delete (the other player's match stays), purge."""

from __future__ import annotations

from bot.domain import pod
from bot.services.matches import MatchService
from bot.services.pods import PodService
from bot.storage.privacy import PrivacyRepository

ALICE, BOB = 111111111111, 222222222222
PSEUDONYM = 999999999999


async def _a_match(db, clock):
    pods = PodService(db, clock=clock)
    matches = MatchService(db, pods)
    loaded, game = await matches.start_match(
        guild_id=5,
        channel_id=6,
        created_by=ALICE,
        ruleset="duel-zh",
        players=[(ALICE, "Alice"), (BOB, "Bob")],
        tournament_id=7,
    )
    await pods.change(game.game_id, ALICE, pod.NEXT_TURN)
    await pods.change(game.game_id, ALICE, pod.CONCEDE, player=ALICE)
    await matches.next_game(loaded.match_id, ALICE, BOB)
    await matches.repo.add_bye(7, 1, ALICE)
    await matches.set_sideboard_rule(5, True)
    return loaded.match_id


async def test_export_and_delete_cover_matches(db, clock):
    match_id = await _a_match(db, clock)
    privacy = PrivacyRepository(db)
    exported = await privacy.export_user(ALICE)
    assert {row["kind"] for row in exported["match_events"]} == {"create", "game"}
    assert exported["tournament_match_byes"] == [{"tournament_id": 7, "round_number": 1, "user_id": ALICE}]

    await privacy.delete_user(ALICE, PSEUDONYM)
    rows = await db.fetchall("SELECT actor_id, data FROM pod_match_events WHERE match_id = ?", (match_id,))
    assert all(str(ALICE) not in row[1] and row[0] != ALICE for row in rows)
    state = (await MatchService(db, PodService(db, clock=clock)).get(match_id)).state
    assert state.players == (PSEUDONYM, BOB) and state.score == (0, 1)  # Bob's win stays
    assert await db.scalar("SELECT user_id FROM tournament_match_byes") == PSEUDONYM


async def test_purging_a_server_removes_its_matches(db, clock):
    await _a_match(db, clock)
    await PrivacyRepository(db).purge_guild(5)
    for table in ("pod_matches", "pod_match_events", "guild_sideboard_rule"):
        assert await db.scalar(f"SELECT COUNT(*) FROM {table}") == 0
