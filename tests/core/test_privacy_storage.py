"""The data-rights storage (bot/storage/privacy.py) on both engines, read straight from the repository:
where a member's id hides inside a pod event's JSON, what a delete reports it changed (and what it must
leave alone: another member whose id contains the deleted one's digits), an export's event logs in their
order, a purge's counts per table, and the departed servers the retention pass reads."""

from __future__ import annotations

import json

from bot.domain.events import Event
from bot.storage.pods import GameFinish, PodRepository
from bot.storage.privacy import DELETED_NAME, PrivacyRepository, pseudonymise_json

# Discord-sized ids; ANN_LONGER holds ANN's digits: a LIKE finds it, the rewrite must leave it alone
ANN, ANN_LONGER, BEN, CY = 111111111111, 2111111111112, 222222222222, 333333333333
PSEUDONYM = -77


def test_an_id_is_replaced_as_a_number_a_commander_key_and_beside_its_name_and_nowhere_else() -> None:
    data = {
        "players": [{"user_id": ANN, "name": "Ann"}, {"user_id": BEN, "name": "Ben"}],
        "target": {"player": ANN, "name": "Ann", "amount": 3},
        "commander": f"{ANN}:0",
        "others": [f"{ANN_LONGER}:0", f"{ANN}:x", str(ANN), ANN_LONGER, 1.0],
        "note": None,
    }
    assert pseudonymise_json(data, ANN, PSEUDONYM) == {
        "players": [{"user_id": PSEUDONYM, "name": DELETED_NAME}, {"user_id": BEN, "name": "Ben"}],
        "target": {"player": PSEUDONYM, "name": DELETED_NAME, "amount": 3},
        "commander": f"{PSEUDONYM}:0",
        "others": [f"{ANN_LONGER}:0", f"{ANN}:x", str(ANN), ANN_LONGER, 1.0],
        "note": None,
    }
    assert pseudonymise_json({"user_id": BEN, "name": "Ben"}, ANN, PSEUDONYM) == {
        "user_id": BEN,
        "name": "Ben",
    }
    assert pseudonymise_json({"player": ANN}, ANN, PSEUDONYM) == {"player": PSEUDONYM}  # no name: none added
    assert pseudonymise_json([True, 1, False, 0], 1, PSEUDONYM) == [True, PSEUDONYM, False, 0]  # True == 1


async def _game(pods: PodRepository, players: list[tuple[int, str]], guild: int = 5) -> int:
    first = Event(
        seq=1,
        kind="create",
        actor=players[0][0],
        at="2026-03-01T20:00:00+00:00",
        data={"players": [{"user_id": u, "name": n} for u, n in players]},
    )
    return await pods.create(guild_id=guild, channel_id=6, ruleset="commander", first_event=first)


async def test_a_delete_counts_the_events_it_rewrote_and_leaves_a_lookalike_id_alone(db) -> None:
    pods, privacy = PodRepository(db), PrivacyRepository(db)
    with_ann = await _game(pods, [(ANN, "Ann"), (BEN, "Ben")])
    await pods.append(
        with_ann,
        Event(seq=2, kind="eliminate", actor=BEN, at="2026-03-01T20:05:00+00:00", data={"player": BEN}),
        GameFinish(ended="last_standing", ended_at=None, survivors=[ANN]),
    )
    lookalike = await _game(pods, [(ANN_LONGER, "Ten"), (BEN, "Ben")])  # its text holds ANN's digits too
    changed = await privacy.delete_user(ANN, PSEUDONYM)
    assert changed["pod_events"] == 2  # the create event: its actor column, then its data
    assert changed["pod_games"] == 1  # created_by (the survivors' JSON is rewritten beside it)
    (created,) = await db.fetchall("SELECT data FROM pod_events WHERE game_id = ? AND seq = 1", (with_ann,))
    assert json.loads(created[0])["players"][0] == {"user_id": PSEUDONYM, "name": DELETED_NAME}
    assert json.loads(await db.scalar("SELECT survivors FROM pod_games WHERE game_id = ?", (with_ann,))) == [
        PSEUDONYM
    ]
    untouched = await db.fetchall("SELECT data FROM pod_events WHERE game_id = ?", (lookalike,))
    assert json.loads(untouched[0][0])["players"][0] == {"user_id": ANN_LONGER, "name": "Ten"}
    again = await privacy.delete_user(ANN, PSEUDONYM)  # nothing of them is left to change
    assert again["pod_events"] == 0 and again["pod_games"] == 0


async def test_an_export_holds_each_game_the_member_was_in_with_its_whole_log_in_order(db) -> None:
    pods, privacy = PodRepository(db), PrivacyRepository(db)
    game = await _game(pods, [(BEN, "Ben"), (ANN, "Ann")])  # Ben created it; Ann sat in it
    for seq in (2, 3, 4):
        await pods.append(
            game, Event(seq=seq, kind="life", actor=BEN, at=f"2026-03-01T20:0{seq}:00+00:00", data={"n": seq})
        )
    await db.execute("UPDATE pod_events SET at = at WHERE game_id = ? AND seq = 2", (game,))  # moves on PG
    await _game(pods, [(BEN, "Ben"), (CY, "Cy")])  # not Ann's
    exported = await privacy.export_user(ANN)
    (row,) = exported["pod_games"]
    assert row["game_id"] == game and row["created_by"] == BEN
    assert [(e["seq"], e["actor_id"], e["data"]) for e in row["events"]] == [
        (1, BEN, {"players": [{"user_id": BEN, "name": "Ben"}, {"user_id": ANN, "name": "Ann"}]}),
        (2, BEN, {"n": 2}),
        (3, BEN, {"n": 3}),
        (4, BEN, {"n": 4}),
    ]
    assert exported["decks"] == [] and exported["hydra_profile"] == []
    assert "events" not in exported["stats"]


async def test_a_purge_reports_the_rows_it_deleted_per_table_and_keeps_other_servers(db) -> None:
    pods, privacy = PodRepository(db), PrivacyRepository(db)
    gone = await _game(pods, [(ANN, "Ann"), (BEN, "Ben")], guild=5)
    await pods.append(gone, Event(seq=2, kind="life", actor=ANN, at="2026-03-01T20:01:00+00:00", data={}))
    kept = await _game(pods, [(ANN, "Ann"), (BEN, "Ben")], guild=6)
    deleted = await privacy.purge_guild(5)
    assert (deleted["pod_events"], deleted["pod_games"], deleted["decks"]) == (2, 1, 0)
    assert set(deleted) <= set(await db.tables())
    assert [r[0] for r in await db.fetchall("SELECT game_id FROM pod_games")] == [kept]
    assert await db.scalar("SELECT COUNT(*) FROM pod_events") == 1


async def test_departed_servers_keep_their_first_leaving_time_and_are_read_up_to_the_cutoff_in_order(
    db,
) -> None:
    privacy = PrivacyRepository(db)
    await privacy.mark_left(30, "2026-03-03T00:00:00+00:00")
    await privacy.mark_left(10, "2026-03-01T00:00:00+00:00")
    await privacy.mark_left(20, "2026-03-02T00:00:00+00:00")
    await privacy.mark_left(10, "2026-03-05T00:00:00+00:00")  # left again without returning: first time stays
    await db.execute("UPDATE guild_departures SET left_at = left_at WHERE guild_id = 10")  # moves on PG
    assert await privacy.departed_before("2026-03-02T00:00:00+00:00") == [10, 20]  # the cutoff itself counts
    assert await privacy.departed_before("2026-03-04T00:00:00+00:00") == [10, 20, 30]
    await privacy.mark_returned(20)
    assert await privacy.departed_before("2026-03-04T00:00:00+00:00") == [10, 30]


async def test_a_delete_takes_the_members_deck_notices_and_every_invitation_naming_them(db) -> None:
    """A deleted deck's pending verdict notice goes with it, and an invitation the member sent or was
    asked to is withdrawn with all its friends' rows; everyone else's stay."""
    for deck_id, user in ((1, ANN), (2, BEN)):
        await db.execute(
            "INSERT INTO decks (deck_id, guild_id, user_id, name, name_key, raw_list, commanders, resolved, "
            "ruleset, status, verdict, cards_version, created_at, updated_at) "
            "VALUES (?, 5, ?, 'Deck', 'deck', '', '[]', '[]', 'commander', 'legal', '{}', 'v1', 't', 't')",
            (deck_id, user),
        )
        await db.execute(
            "INSERT INTO deck_verdict_changes (deck_id, old_status, new_status, problems, changed_at) "
            "VALUES (?, 'legal', 'illegal', '[]', 't')",
            (deck_id,),
        )
    invitations = {10: (ANN, [BEN]), 20: (BEN, [ANN, CY]), 30: (BEN, [CY])}
    for key, (inviter, friends) in invitations.items():
        await db.execute(
            "INSERT INTO hydra_event_invitations (invite_key, event_id, inviter_id, inviter_name, asked_at, "
            "expires_at) VALUES (?, 1, ?, 'Someone', 't', 't')",
            (key, inviter),
        )
        for seq, friend in enumerate(friends, 1):
            await db.execute(
                "INSERT INTO hydra_event_invited (invite_key, seq, user_id, name) VALUES (?, ?, ?, 'Friend')",
                (key, seq, friend),
            )
    changed = await PrivacyRepository(db).delete_user(ANN, PSEUDONYM)
    assert changed["decks"] == 1
    assert [r[0] for r in await db.fetchall("SELECT deck_id FROM deck_verdict_changes")] == [2]
    assert [r[0] for r in await db.fetchall("SELECT invite_key FROM hydra_event_invitations")] == [30]
    assert [tuple(r) for r in await db.fetchall("SELECT invite_key, user_id FROM hydra_event_invited")] == [
        (30, CY)
    ]


async def test_a_delete_adds_up_every_rewritten_event_and_both_columns_of_a_table_naming_the_member(
    db,
) -> None:
    """The counts a delete reports are sums: every event whose data it rewrote, and each column of a
    table that can name the member twice (a season they opened and closed)."""
    pods, privacy = PodRepository(db), PrivacyRepository(db)
    game = await _game(pods, [(BEN, "Ben"), (ANN, "Ann")])  # Ben's: its actor columns are not Ann's
    for seq in (2, 3):
        await pods.append(
            game, Event(seq=seq, kind="life", actor=BEN, at="2026-03-01T20:05:00+00:00", data={"player": ANN})
        )
    await db.execute(
        "INSERT INTO seasons (season_id, guild_id, name, win_points, survive_points, elimination_points, "
        "min_games, opened_by, opened_at, closed_by, closed_at) VALUES (1, 5, 'S', 3, 1, 1, 0, ?, 't', ?, 't')",
        (ANN, ANN),
    )
    changed = await privacy.delete_user(ANN, PSEUDONYM)
    assert (changed["pod_events"], changed["pod_games"], changed["seasons"]) == (3, 0, 2)
    assert tuple(await db.fetchone("SELECT opened_by, closed_by FROM seasons")) == (PSEUDONYM, PSEUDONYM)
