"""Game integrity, each defect reproduced through the real bot (bot/testing harness):
tournament seats, who ends a game, undo with "own totals only", no default target, two games in one
channel, and loose input (one-player pods, strangers, illegal commanders, unreal numbers)."""

from __future__ import annotations

import pytest

from bot.domain import pod
from bot.domain.pod import PodError
from bot.i18n import t
from bot.testing import DiscordHarness


@pytest.fixture
async def h(tmp_path):
    # The harness's default 60 cards: legendary creatures, partners (Thrasios, Tymna) and non-commanders.
    async with DiscordHarness.start(tmp_path, members=("alice", "bob", "carol", "dave")) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


def pods(h):
    return h.bot.get_cog("Pods")


async def settled(h) -> None:
    await h.settle()
    await pods(h).updater.flush()


def mention(h, *names: str) -> str:
    return " ".join(h.user(name).mention for name in names)


async def events(h, game_id: int = 1) -> int:
    return await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE game_id = ?", (game_id,))


async def pair_one_table(h):
    """A tournament of alice, bob, carol, dave paired into one table; returns (tournament, game id)."""
    await h.slash("tournament create", user="admin", name="Friday", channel="games")
    for name in ("alice", "bob", "carol", "dave"):
        await h.slash("tournament join", user=name, channel="games")
    await h.slash("tournament pair", user="admin", channel="games")
    service = h.bot.get_cog("Tournaments").service
    tournament = await service.active(h.guild.id)
    (pairing,) = await service.repo.pods(tournament.tournament_id, 1)
    return tournament, pairing.game_id


def board_of(h, game_id: int):
    return next(
        m
        for m in h.messages("games")
        if any(str(c.get("custom_id", "")).startswith(f"pod:{game_id}:") for c in m.walk_components())
    )


# -- tournament tables --------------------------------------------------------------------------------


async def test_a_tournament_board_has_no_join_and_seats_only_the_paired_players(h):
    h.add_member("erin")
    _, game_id = await pair_one_table(h)
    board = board_of(h, game_id)
    labels = [b["label"] for b in board.buttons]
    assert "Join" not in labels and "Start turn 1" in labels
    # A Join press from a board posted before this fix is refused by the service too.
    with pytest.raises(PodError, match="tournament_seats"):
        await pods(h).service.change(
            game_id, h.user("erin").id, pod.JOIN, player=h.user("erin").id, name="erin"
        )
    assert not (await pods(h).service.get(game_id)).state.is_player(h.user("erin").id)


@pytest.mark.parametrize(
    ("guild_locale", "language"), [("en-US", "en"), ("ja", "ja"), ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant")]
)
async def test_a_tournament_board_hints_at_what_its_buttons_offer_and_an_ended_one_at_nothing(
    tmp_path, guild_locale, language
):
    """The pre-game hint of a board a round posted says "name your commanders", not "join, shuffle seats"
    (the round seated the table: it has no such buttons); once an organiser ends the game, the board has
    nothing left to set up and says neither."""
    async with DiscordHarness.start(
        tmp_path, members=("alice", "bob", "carol", "dave"), guild_locale=guild_locale
    ) as h:
        pods(h).updater.delay = 0
        _, game_id = await pair_one_table(h)
        seated, open_seats = (
            t("pod.embed.pregame_help_seated", language),
            t("pod.embed.pregame_help", language),
        )
        board = board_of(h, game_id)
        assert seated in board.embeds[0]["description"] and open_seats not in board.embeds[0]["description"]
        assert not {"join", "shuffle"} & {b["custom_id"].split(":")[2] for b in board.buttons}
        asked = await h.slash("pod end", user="admin", channel="games", game=game_id)
        await h.click(asked, label="Yes, end it now", user="admin")  # the admin's own locale: en-US
        await settled(h)
        ended = board_of(h, game_id).embeds[0]["description"]
        assert seated not in ended and open_seats not in ended


async def test_an_outsider_who_joined_an_old_board_does_not_score(h):
    """Before the fix erin could press Join: her JOIN is in the log. She must not reach the standings."""
    h.add_member("erin")
    tournament, game_id = await pair_one_table(h)
    erin = h.user("erin").id
    await h.bot.db.execute(
        "INSERT INTO pod_events (game_id, seq, kind, actor_id, at, data) VALUES (?, 2, 'join', ?, "
        "'2026-12-01T00:00:00+00:00', ?)",
        (game_id, erin, f'{{"name": "erin", "player": {erin}}}'),
    )
    await h.restart()
    service = pods(h).service
    ids = {name: h.user(name).id for name in ("alice", "bob", "carol", "dave")}
    await service.change(game_id, ids["alice"], pod.NEXT_TURN, manager=True)
    for name in ("bob", "carol", "dave"):
        await service.change(game_id, ids[name], pod.CONCEDE, player=ids[name])
    await service.change(game_id, erin, pod.CONCEDE, player=erin)
    await h.settle()
    game = await h.bot.get_cog("Tournaments").service.game(game_id)
    assert erin not in [p.user_id for p in game.players] and len(game.players) == 4
    standings = await h.bot.get_cog("Tournaments").service.standings(tournament)
    assert erin not in [s.player for s in standings.standings]


async def test_only_an_organiser_ends_a_tournament_game_and_only_after_confirming(h):
    _, game_id = await pair_one_table(h)
    refused = await h.slash("pod end", user="alice", channel="games", game=game_id)
    assert refused.ephemeral and "Only a tournament organiser" in refused.content
    asked = await h.slash("pod end", user="admin", channel="games", game=game_id)
    assert asked.ephemeral and f"#{game_id}" in asked.content and "can't be undone" in asked.content
    assert not (await pods(h).service.get(game_id)).state.finished  # asking changes nothing
    done = await h.click(asked, label="Yes, end it now", user="admin")
    assert f"#{game_id} has ended" in done.content
    assert (await pods(h).service.get(game_id)).state.ended == pod.END_STOPPED


async def test_ending_a_tournament_with_unfinished_tables_asks_first(h):
    tournament, _ = await pair_one_table(h)
    asked = await h.slash("tournament end", user="admin", channel="games")
    assert asked.ephemeral and "Tables 1" in asked.content and "no points" in asked.content
    service = h.bot.get_cog("Tournaments").service
    assert (await service.active(h.guild.id)).tournament_id == tournament.tournament_id
    pressed = await h.click(asked, label="Yes, end the tournament", user="admin")
    assert "Friday is over" in pressed.text
    assert (await service.latest(h.guild.id)).status == "finished"


# -- ending, undoing, targets ------------------------------------------------------------------------


async def test_pod_end_asks_for_confirmation_and_outsiders_cannot_confirm(h):
    board = await h.slash("pod start", players=mention(h, "alice", "bob"))
    asked = await h.slash("pod end", user="bob")
    assert asked.ephemeral and await events(h) == 1
    refused = await h.click(asked, label="Yes, end it now", user="carol")
    assert refused.ephemeral and "Only the players" in refused.text
    await h.click(asked, label="Yes, end it now", user="bob")
    await settled(h)
    assert (await pods(h).service.get(1)).state.ended == pod.END_STOPPED
    assert [b["label"] for b in board.message.buttons] == ["History"]  # the board caught up


async def test_own_totals_only_undo_refuses_someone_elses_change(h):
    board = await h.slash("pod start", players=mention(h, "alice", "bob"), own_totals_only=True)
    await h.click(board, label="-5", user="bob")
    refused = await h.click(board, label="Undo", user="alice")
    assert "someone else's" in refused.text and refused.followups[0].ephemeral  # the press is deferred first
    assert (await pods(h).service.get(1)).state.player(h.user("bob").id).life == 35 and await events(h) == 2
    await h.click(board, label="Undo", user="bob")  # bob may undo his own
    assert (await pods(h).service.get(1)).state.player(h.user("bob").id).life == 40
    h.add_member("mod", permissions=["manage_guild"])
    await h.click(board, label="-1", user="alice")
    await h.click(board, label="Undo", user="mod")  # a manager may undo anyone's
    assert (await pods(h).service.get(1)).state.player(h.user("alice").id).life == 40


async def test_commander_panel_has_no_default_target_and_the_press_asks(h):
    board = await h.slash("pod start", players=mention(h, "alice", "bob"))
    await h.slash("pod commander", user="alice", name="Atraxa, Praetors' Voice")
    panel = await h.click(board, label="Commander", user="alice")
    hit = next(s for s in panel.message.selects if s["placeholder"] == "Player hit")
    assert not any(o.get("default") for o in hit["options"])
    asked = await h.click(panel, label="Commander damage", user="alice")
    assert asked.modal is None and "choose the player hit" in asked.text
    assert await events(h) == 2  # the commanders only
    await h.select(panel.message, label="Player hit", values=[str(h.user("bob").id)], user="alice")
    opened = await h.click(panel, label="Commander damage", user="alice")
    await h.submit_modal(opened, {"damage": "6"})
    assert (await pods(h).service.get(1)).state.player(h.user("bob").id).life == 34


# -- two games in one channel ---------------------------------------------------------------------------


async def test_slash_commands_reach_the_callers_own_game_and_say_which(h):
    await h.slash("pod start", players=mention(h, "alice", "bob"))
    await h.slash("pod start", players=mention(h, "carol", "dave"))  # the newer game
    life = await h.slash("pod life", user="alice", player="bob", amount=-3)
    assert "game #1" in life.content
    service = pods(h).service
    assert (await service.get(1)).state.player(h.user("bob").id).life == 37
    assert (await service.get(2)).state.player(h.user("dave").id).life == 40
    nxt = await h.slash("pod next", user="carol")
    assert (
        "game #2" in nxt.content
        and (await service.get(2)).state.turn == 1
        and (await service.get(1)).state.turn == 0
    )
    dmg = await h.slash("pod damage", user="dave", owner="carol", target="dave", amount=2)
    assert "game #2" in dmg.content and (await service.get(2)).state.player(h.user("dave").id).life == 38
    await h.slash("pod next", user="alice")
    hit = await h.slash("pod damage", user="alice", owner="alice", target="bob", amount=2)
    assert "game #1" in hit.content
    undone = await h.slash("pod undo", user="bob")
    assert "game #1" in undone.content and (await service.get(1)).state.player(h.user("bob").id).life == 37
    h.add_member("mod", permissions=["manage_guild"])
    which = await h.slash("pod life", user="mod", player="bob", amount=-1)
    assert which.ephemeral and "#1, #2" in which.content
    named = await h.slash("pod life", user="mod", player="dave", amount=-1, game=2)
    assert "game #2" in named.content and (await service.get(2)).state.player(h.user("dave").id).life == 37


# -- loose input -------------------------------------------------------------------------------------------


async def test_a_one_player_pod_is_refused(h):
    alone = await h.slash("pod start", players=mention(h, "alice"))
    assert alone.ephemeral and "at least 2 players" in alone.content
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_games") == 0


async def test_a_mention_of_a_non_member_is_reported_not_dropped(h):
    stranger = "<@123456789012345678>"
    reply = await h.slash("pod start", players=f"{mention(h, 'alice', 'bob')} {stranger}", locale="ja")
    assert reply.ephemeral and stranger in reply.content and "メンバーではない" in reply.content
    assert await h.bot.db.scalar("SELECT COUNT(*) FROM pod_games") == 0


async def test_commander_names_are_checked_with_the_ruleset(h):
    await h.slash("pod start", players=mention(h, "alice", "bob"))
    ring = await h.slash("pod commander", user="alice", name="Sol Ring")
    assert (
        ring.ephemeral and "Sol Ring can't be your commander" in ring.content and "legendary" in ring.content
    )
    pair = await h.slash(
        "pod commander", user="alice", name="Atraxa, Praetors' Voice", partner="Edgar Markov"
    )
    assert pair.ephemeral and "can't be commanders together" in pair.content
    assert await events(h) == 1
    ok = await h.slash(
        "pod commander", user="alice", name="Tymna the Weaver", partner="Thrasios, Triton Hero"
    )
    assert "game #1" in ok.content
    await h.slash("pod start", players=mention(h, "carol", "dave"), ruleset="edh-2010")
    one_only = await h.slash(
        "pod commander",
        user="carol",
        name="Tymna the Weaver",
        partner="Thrasios, Triton Hero",
        locale="zh-CN",
    )
    assert one_only.ephemeral and "最多" in one_only.content


async def test_numbers_are_bounded_to_a_real_game_and_the_bound_is_said(h):
    """Slash options carry the same bounds (Discord's client enforces them); typed fields are checked."""
    board = await h.slash("pod start", players=mention(h, "alice", "bob"))
    opened = await h.click(board, label="± …", user="alice")
    huge = await h.submit_modal(opened, {"amount": "-1000000"})
    assert "between -9999 and 9999" in huge.text
    await h.slash("pod commander", user="alice", name="Atraxa, Praetors' Voice")
    panel = await h.click(board, label="Commander", user="alice")
    await h.select(panel.message, label="Player hit", values=[str(h.user("bob").id)], user="alice")
    opened = await h.click(panel, label="Commander damage", user="alice")
    damage = await h.submit_modal(opened, {"damage": "1000"})
    assert "between 1 and 999" in damage.text
    opened = await h.click(board, label="± …", user="alice")  # alice's own totals
    own = await h.submit_modal(opened, {"amount": "-4", "source": "1"})  # combat damage from her own seat
    assert "not from the player's own seat" in own.text
    opened = await h.click(board, label="± …", user="alice")
    total = await h.submit_modal(opened, {"total": "99999"})
    assert "between -9999 and 9999" in total.text
    assert await events(h) == 2  # the game and alice's commander: nothing else was stored
    await settled(h)


async def test_the_organiser_role_may_end_a_tournament_game(h):
    organisers = h.add_role("Organisers")
    h.add_member("olga", roles=[organisers])
    await h.slash("config organiser-role", user="admin", role=organisers)
    _, game_id = await pair_one_table(h)
    asked = await h.slash("pod end", user="olga", channel="games", game=game_id)
    assert asked.ephemeral and "can't be undone" in asked.content
    await h.click(asked, label="Yes, end it now", user="olga")
    assert (await pods(h).service.get(game_id)).state.ended == pod.END_STOPPED
