"""Who may change a pod game and the server's settings, asked of every kind of person (see ``_world``).

Each row is one state-changing command or board button, called by someone who should be refused and by
someone who should be let through: the refusal is private, names the rule, and leaves every record table as
it was; the allowed call changes the tables it should. A manager of another server never reaches this
server's game, even by its number or by a copy of its board's buttons."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.testing import DiscordHarness
from tests.authz._world import attempt, copy_into, people
from tests.conftest import TEST_DATA

CARDS = TEST_DATA / "pods_cards.jsonl"
NOT_A_PLAYER = t("pod.error.not_your_game", "en")
NO_SUCH_GAME = t("pod.error.no_game", "en")
MANAGERS_ONLY = "You need the Manage Server permission for this."


@pytest.fixture
async def world(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS) as h:
        h.bot.get_cog("Pods").updater.delay = 0
        other = await people(h)
        board = await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")
        await h.click(board, label="Start turn 1", user="alice")
        yield h, other, board


# (command, options, who) -> refused with NOT_A_PLAYER: an outsider, and an organiser (the organiser role
# governs tournaments and events, not a casual table).
GAME_CHANGES = [
    ("pod life", {"player": "bob", "amount": -5}),
    ("pod damage", {"owner": "alice", "target": "bob", "amount": 3}),
    ("pod next", {}),
    ("pod undo", {}),
    ("pod end", {}),
    ("pod commander", {"name": "Atraxa, Praetors' Voice"}),
]


@pytest.mark.parametrize(("command", "options"), GAME_CHANGES, ids=[c for c, _ in GAME_CHANGES])
@pytest.mark.parametrize("who", ["carol", "dave"])
async def test_someone_outside_the_game_changes_nothing(world, command, options, who) -> None:
    h, _, _ = world
    reply, changed = await attempt(h, lambda: h.slash(command, user=who, **options))
    assert reply.ephemeral and reply.content == NOT_A_PLAYER
    assert changed == set()


@pytest.mark.parametrize(("command", "options"), GAME_CHANGES, ids=[c for c, _ in GAME_CHANGES])
async def test_a_manager_of_another_server_cannot_reach_the_game_by_its_number(
    world, command, options
) -> None:
    h, other, _ = world
    options = {**options, "player": "elsewhere_owner"} if "player" in options else dict(options)
    options.pop("owner", None), options.pop("target", None)
    if command == "pod damage":
        options.update(owner="elsewhere_owner", target="elsewhere_owner")
    reply, changed = await attempt(h, lambda: other.slash(command, game=1, **options))
    assert reply.ephemeral and reply.content == NO_SUCH_GAME
    assert changed == set()


async def test_a_player_may_change_another_players_totals_unless_the_table_chose_own_totals(world) -> None:
    h, _, _ = world
    reply, changed = await attempt(h, lambda: h.slash("pod life", player="bob", amount=-5, user="alice"))
    assert reply.content == t("pod.done_game", "en", game=1) and "pod_events" in changed
    strict = await h.slash(
        "pod start",
        players=f"<@{h.user('alice').id}> <@{h.user('carol').id}>",
        own_totals_only=True,
        channel="games",
    )
    await h.click(strict, label="Start turn 1", user="alice")
    reply, changed = await attempt(
        h, lambda: h.slash("pod life", player="carol", amount=-5, user="alice", channel="games")
    )
    assert reply.ephemeral and reply.content == t("pod.error.own_totals_only", "en") and changed == set()


async def test_a_player_cannot_concede_for_another_but_a_manager_is_asked_to_confirm(world) -> None:
    h, _, _ = world
    reply, changed = await attempt(h, lambda: h.slash("pod concede", player="bob", user="alice"))
    assert reply.content == t("pod.error.concede_for_others", "en") and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("pod concede", player="bob", user="dave"))
    assert reply.content == t("pod.error.concede_for_others", "en") and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("pod concede", player="bob", user="mod"))
    assert reply.message.buttons and changed == set()  # asked first: nothing yet


async def test_the_board_buttons_refuse_an_outsider(world) -> None:
    h, _, board = world
    for label in ("+1", "-5", "Undo"):
        reply, changed = await attempt(h, lambda label=label: h.click(board, label=label, user="carol"))
        assert NOT_A_PLAYER in reply.text and changed == set(), label


async def test_a_copy_of_the_board_in_another_server_cannot_change_the_game(world) -> None:
    h, other, board = world
    copy = copy_into(other, board)
    for label in ("+1", "-5", "Undo"):
        reply, changed = await attempt(h, lambda label=label: other.click(copy, label=label))
        assert NO_SUCH_GAME in reply.text and changed == set(), label
    reply, changed = await attempt(
        h, lambda: other.select(copy, custom_id="pod-pick:1", values=[str(h.user("bob").id)])
    )
    assert NO_SUCH_GAME in reply.text and changed == set()


async def test_an_outsider_and_another_servers_manager_get_no_overlay_link(world) -> None:
    h, other, _ = world
    reply, changed = await attempt(h, lambda: h.slash("pod overlay", user="carol"))
    assert reply.ephemeral and "Only the game's players" in reply.content and changed == set()
    reply, changed = await attempt(h, lambda: other.slash("pod overlay", game=1))
    assert reply.content == NO_SUCH_GAME and changed == set()


SETTINGS = [
    ("config ruleset", {"ruleset": "edh-2010"}),
    ("config pod-threads", {"enabled": True}),
    ("config sideboard-rule", {"enabled": True}),
    ("config locale", {"locale": "ja"}),
]


@pytest.mark.parametrize(("command", "options"), SETTINGS, ids=[c for c, _ in SETTINGS])
@pytest.mark.parametrize("who", ["alice", "dave"])  # a member; an organiser: neither has Manage Server
async def test_only_a_manager_changes_the_servers_settings(world, command, options, who) -> None:
    h, _, _ = world
    reply, changed = await attempt(h, lambda: h.slash(command, user=who, options=options))
    assert reply.ephemeral and reply.content == MANAGERS_ONLY and changed == set()
    reply, changed = await attempt(h, lambda: h.slash(command, user="mod", options=options))
    assert changed == {"guild_settings"} or changed == {"guild_sideboard_rule"}, (command, changed)


@pytest.mark.parametrize("command", ["config organiser-role", "config winner-role"])
async def test_only_a_manager_names_the_organiser_and_winner_roles(world, command) -> None:
    h, _, _ = world
    role = h.add_role("Champions")
    for who in ("alice", "dave"):
        reply, changed = await attempt(h, lambda who=who: h.slash(command, role=role, user=who))
        assert reply.content == MANAGERS_ONLY and changed == set(), who


async def test_another_servers_manager_changes_only_their_own_servers_settings(world) -> None:
    h, other, _ = world
    await other.slash("config ruleset", ruleset="edh-2010")
    assert (await h.bot.guild_settings.get(h.guild.id)).ruleset is None  # the default, untouched
    assert (await h.bot.guild_settings.get(other.guild.id)).ruleset == "edh-2010"


async def test_my_language_is_each_members_own(world) -> None:
    h, _, _ = world
    reply, changed = await attempt(h, lambda: h.slash("config my-language", language="ja", user="alice"))
    assert changed == {"user_settings"}
    rows = await h.bot.db.fetchall("SELECT user_id FROM user_settings")
    assert [int(r["user_id"]) for r in rows] == [h.user("alice").id]


async def test_a_mulligan_line_copied_into_another_server_names_no_game(tmp_path) -> None:
    """A mulligan decision line's buttons name the game by number only: pressed from a copy in another
    server they reach no game (not even "it is alice's turn", which would say there is one)."""
    async with DiscordHarness.start(tmp_path, cards_path=CARDS) as h:
        h.bot.get_cog("Pods").updater.delay = 0
        other = await people(h)
        board = await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")
        await h.click(board, label="Mulligan", user="bob")  # the mulligan step begins: alice is asked
        await h.settle()
        (line,) = [m for m in h.messages("general") if "your mulligan decision" in m.content]
        keep = next(b for b in line.buttons if b["label"] == "Keep")
        reply, changed = await attempt(
            h, lambda: other.click(copy_into(other, line), custom_id=keep["custom_id"])
        )
        assert NO_SUCH_GAME in reply.text and changed == set()
        reply, changed = await attempt(h, lambda: h.click(line, label="Keep", user="alice"))
        assert "pod_events" in changed  # in this server it is her decision, and it is stored


async def test_a_bracket_is_declared_by_a_player_for_their_own_deck_alone(world) -> None:
    h, other, _ = world
    for who in ("carol", "dave", "mod"):  # Manage Server changes totals for the table, never a declaration
        reply, changed = await attempt(h, lambda w=who: h.slash("pod bracket", level=3, user=w))
        assert reply.ephemeral and reply.content == t("pod.error.not_a_player", "en") and changed == set(), (
            who
        )
    reply, changed = await attempt(h, lambda: other.slash("pod bracket", level=3, game=1))
    assert reply.ephemeral and NO_SUCH_GAME in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("pod bracket", level=3, user="alice"))
    assert changed, reply.content


async def test_the_player_picker_on_the_board_refuses_an_outsider(world) -> None:
    """The board's "whose totals" picker is remembered per presser: an outsider picking changes nothing
    and is told the same rule as for the life buttons."""
    h, _, board = world
    reply, changed = await attempt(
        h, lambda: h.select(board, custom_id="pod-pick:1", values=[str(h.user("bob").id)], user="carol")
    )
    assert NOT_A_PLAYER in reply.text and changed == set()


async def test_each_mulligan_decision_is_its_own_players_alone(tmp_path) -> None:
    """``/pod mulligan`` opens a panel for a player of the game only; on the panel (as on the decision
    line) a decision is always the presser's own: another player pressing alice's Keep is told it is her
    turn, and an outsider, the organiser or a manager decides nothing for anyone."""
    async with DiscordHarness.start(tmp_path, cards_path=CARDS) as h:
        h.bot.get_cog("Pods").updater.delay = 0
        other = await people(h)
        board = await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")
        await h.click(board, label="Mulligan", user="bob")  # the step begins: alice decides first
        for who in ("carol", "dave", "mod"):
            reply, changed = await attempt(h, lambda w=who: h.slash("pod mulligan", user=w))
            assert reply.ephemeral and reply.content == t("pod.error.not_a_player", "en"), who
            assert changed == set(), who
        reply, changed = await attempt(h, lambda: other.slash("pod mulligan", game=1))
        assert reply.ephemeral and NO_SUCH_GAME in reply.text and changed == set()
        panel = await h.slash("pod mulligan", user="alice")
        reply, changed = await attempt(h, lambda: h.click(panel.message, label="Keep", user="bob"))
        assert reply.ephemeral and "it is alice's turn" in reply.text and changed == set()
        for who in ("carol", "mod"):
            reply, changed = await attempt(h, lambda w=who: h.click(panel.message, label="Keep", user=w))
            assert reply.ephemeral and NOT_A_PLAYER in reply.text and changed == set(), who
        reply, changed = await attempt(h, lambda: h.click(panel.message, label="Keep", user="alice"))
        assert "alice kept 7" in reply.text and changed == {"pod_events", "pod_games"}
