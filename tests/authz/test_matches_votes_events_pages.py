"""Who may act on a match's sideboard, a tournament's votes and mana reports, challenge events and private
page links, asked of every kind of person (see ``_world``): a refusal is private, names the rule, and
leaves every record table as it was; the allowed call changes exactly what it should; another server's
manager never reaches this server's records, by number or by a copy of their buttons."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.testing import DiscordHarness
from tests.authz._world import attempt, copy_into, people
from tests.conftest import TEST_DATA

EVENT_ORGANISERS = t("hydra_events.error.organiser_only", "en")
NO_EVENT = t("hydra_events.error.no_event", "en")


@pytest.fixture
async def world(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        other = await people(h)
        yield h, other


CHALLENGE_EVENT_STEPS = ["challenge event begin", "challenge event end", "challenge event cancel"]


async def test_only_organisers_create_and_run_a_challenge_event(world) -> None:
    h, _ = world
    reply, changed = await attempt(
        h, lambda: h.slash("challenge event create", name="Horde night", start="in 30 minutes", user="alice")
    )
    assert reply.ephemeral and reply.content == EVENT_ORGANISERS and changed == set()
    for who in ("dave", "mod"):  # the organiser role, and Manage Server: both are organisers of events
        reply, changed = await attempt(
            h,
            lambda w=who: h.slash(
                "challenge event create", name=f"Night of {w}", start="in 30 minutes", user=w
            ),
        )
        assert "hydra_events" in changed, who
    reply, changed = await attempt(
        h, lambda: h.slash("challenge event create", name="Horde night", start="in 30 minutes", user="dave")
    )
    assert "hydra_events" in changed
    for step in CHALLENGE_EVENT_STEPS:
        for who in ("alice", "carol"):
            reply, changed = await attempt(h, lambda s=step, w=who: h.slash(s, user=w))
            assert reply.ephemeral and reply.content == EVENT_ORGANISERS and changed == set(), (step, who)
    asked, changed = await attempt(h, lambda: h.slash("challenge event cancel", event=3, user="dave"))
    assert asked.ephemeral and changed == set()  # asked to confirm first
    [confirm] = [b for b in asked.message.buttons if b.get("style") == 4]
    for who in ("alice", "carol"):
        reply, changed = await attempt(
            h, lambda w=who: h.click(asked, custom_id=confirm["custom_id"], user=w)
        )
        assert reply.ephemeral and reply.content == EVENT_ORGANISERS and changed == set(), who
    reply, changed = await attempt(h, lambda: h.click(asked, custom_id=confirm["custom_id"], user="dave"))
    assert "hydra_events" in changed, reply.text


async def test_another_servers_manager_cannot_reach_a_challenge_event(world) -> None:
    h, other = world
    await h.slash("challenge event create", name="Horde night", start="in 30 minutes", user="dave")
    [announcement] = [m for m in h.messages() if m.buttons]
    for step in [
        *CHALLENGE_EVENT_STEPS,
        "challenge event join",
        "challenge event leave",
        "challenge event status",
    ]:
        reply, changed = await attempt(h, lambda s=step: other.slash(s, event=1))
        assert reply.ephemeral and reply.content == NO_EVENT and changed == set(), step
    copy = copy_into(other, announcement)
    for button in announcement.buttons:
        reply, changed = await attempt(h, lambda b=button: other.click(copy, custom_id=b["custom_id"]))
        assert NO_EVENT in reply.text and changed == set(), button["custom_id"]


async def test_a_member_joins_a_challenge_event_for_themselves_and_leaves_only_their_own_seat(world) -> None:
    h, _ = world
    await h.slash("challenge event create", name="Horde night", start="in 30 minutes", user="dave")
    reply, changed = await attempt(h, lambda: h.slash("challenge event join", user="alice"))
    assert changed == {"hydra_event_entrants"}
    reply, changed = await attempt(h, lambda: h.slash("challenge event leave", user="carol"))
    assert reply.ephemeral and changed == set()  # carol never joined: alice's entry stays
    reply, changed = await attempt(h, lambda: h.slash("challenge event leave", user="alice"))
    assert changed == {"hydra_event_entrants"}


# -- tournament: mana pool reports and votes ------------------------------------------------------------

SEATED = ("alice", "bob", "carol", "erin")


def tournament_error(key: str, **values: object) -> str:
    return t(f"tournament.error.{key}", "en", **values)


async def one_table(h: DiscordHarness) -> int:
    """A tournament (run by dave) of alice, bob, carol and erin at one table; ``frank`` is a member outside
    it. Returns the table's game."""
    h.add_member("erin")
    h.add_member("frank")
    await h.slash("tournament create", user="dave", name="Cup")
    for name in SEATED:
        await h.slash("tournament join", user=name)
    await h.slash("tournament pair", user="dave")
    service = h.bot.get_cog("Tournaments").service
    tournament = await service.active(h.guild.id)
    (table,) = await service.repo.pods(tournament.tournament_id, 1)
    return table.game_id


async def test_a_mana_report_is_the_reporters_own_and_only_another_player_at_the_table_confirms(
    world,
) -> None:
    h, other = world
    game = await one_table(h)
    for who in ("frank", "dave", "mod"):  # not at any table of the round: nothing to report for
        reply, changed = await attempt(h, lambda w=who: h.slash("tournament mana-pool", amount=7, user=w))
        assert (
            reply.ephemeral and reply.content == tournament_error("no_current_game") and changed == set()
        ), who
    reply, changed = await attempt(h, lambda: other.slash("tournament mana-pool", amount=7))
    assert reply.content == t("tournament.error.no_tournament", "en") and changed == set()
    report, changed = await attempt(h, lambda: h.slash("tournament mana-pool", amount=7, user="alice"))
    assert changed == {"tournament_mana_reports"}
    [confirm] = report.message.buttons
    refusals = {
        "alice": tournament_error("confirm_own_report"),
        **{w: tournament_error("not_at_table", game=game) for w in ("frank", "dave", "mod")},
    }
    for who, refusal in refusals.items():
        reply, changed = await attempt(
            h, lambda w=who: h.click(report, custom_id=confirm["custom_id"], user=w)
        )
        assert reply.ephemeral and reply.content == refusal and changed == set(), who
    reply, changed = await attempt(
        h, lambda: other.click(copy_into(other, report), custom_id=confirm["custom_id"])
    )
    assert t("tournament.error.no_tournament", "en") in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.click(report, custom_id=confirm["custom_id"], user="bob"))
    assert changed == {"tournament_mana_reports"}


async def test_a_member_drops_only_themselves_and_the_end_confirmation_is_for_organisers(world) -> None:
    h, other = world
    await one_table(h)
    reply, changed = await attempt(h, lambda: h.slash("tournament drop", user="frank"))  # never entered
    assert (
        reply.ephemeral and reply.content == tournament_error("not_joined", name="Cup") and changed == set()
    )
    reply, changed = await attempt(h, lambda: other.slash("tournament drop"))
    assert reply.content == t("tournament.error.no_tournament", "en") and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("tournament drop", user="erin"))
    assert changed == {"tournament_entrants"}, changed
    asked = await h.slash("tournament end", user="dave")  # the table is still playing: asked first
    [confirm] = asked.message.buttons
    for who in ("alice", "frank"):
        reply, changed = await attempt(
            h, lambda w=who: h.click(asked, custom_id=confirm["custom_id"], user=w)
        )
        assert (
            reply.ephemeral and reply.content == t("tournament.organiser_only", "en") and changed == set()
        ), who
    reply, changed = await attempt(
        h, lambda: other.click(copy_into(other, asked), custom_id=confirm["custom_id"])
    )
    assert reply.content == t("tournament.error.no_tournament", "en") and changed == set()
    reply, changed = await attempt(h, lambda: h.click(asked, custom_id=confirm["custom_id"], user="dave"))
    assert "tournaments" in changed


def forged_ballot(h: DiscordHarness, driver, game: int, *names: str):
    """A ballot select for ``game`` offering ``names``, as a message of ``driver``'s server: what a member
    sends by hand-made custom id and value (the real ballot is private to each player)."""
    options = [{"label": n, "value": str(h.user(n).id)} for n in names]
    body = {
        "content": "ballot",
        "components": [
            {
                "type": 1,
                "components": [{"type": 3, "custom_id": f"tournament:ballot:{game}", "options": options}],
            }
        ],
    }
    return driver.fake._new_message(driver.channel("general").id, body, [])


async def test_only_the_players_of_a_table_vote_there_and_never_for_themselves_or_strangers(world) -> None:
    h, other = world
    game = await one_table(h)
    pods, ids = h.bot.get_cog("Pods").service, {n: h.user(n).id for n in SEATED}
    await pods.change(game, ids["alice"], "next_turn", manager=True)
    for name in ("bob", "carol", "erin"):
        await pods.change(game, ids[name], "concede", player=ids[name])
    await h.settle()
    [vote] = [m for m in h.messages() if any("tournament:vote" in b.get("custom_id", "") for b in m.buttons)]
    reply, changed = await attempt(
        h, lambda: h.click(vote, label=t("tournament.vote.button", "en"), user="frank")
    )
    assert (
        reply.ephemeral and reply.content == tournament_error("not_at_table", game=game) and changed == set()
    )
    ballot = forged_ballot(h, h, game, "alice", "bob", "frank")
    mention = {n: f"<@{ids.get(n) or h.user(n).id}>" for n in (*SEATED, "frank")}
    refused = [
        (
            "frank",
            "alice",
            tournament_error(
                "vote_voter_not_at_table", game=game, voter=mention["frank"], votee=mention["alice"]
            ),
        ),
        (
            "alice",
            "alice",
            tournament_error("vote_for_self", game=game, voter=mention["alice"], votee=mention["alice"]),
        ),
        (
            "alice",
            "frank",
            tournament_error(
                "vote_votee_not_at_table", game=game, voter=mention["alice"], votee=mention["frank"]
            ),
        ),
    ]
    for voter, votee, refusal in refused:
        reply, changed = await attempt(
            h,
            lambda v=voter, e=votee: h.select(
                ballot, f"tournament:ballot:{game}", [str(h.user(e).id)], user=v
            ),
        )
        assert reply.ephemeral and changed == set() and refusal in reply.text, (voter, votee, reply.text)
    elsewhere = forged_ballot(h, other, game, "alice")
    reply, changed = await attempt(
        h, lambda: other.select(elsewhere, f"tournament:ballot:{game}", [str(ids["alice"])])
    )
    owner = f"<@{other.user('elsewhere_owner').id}>"  # refused as a voter who did not play there
    assert (
        changed == set()
        and tournament_error("vote_voter_not_at_table", game=game, voter=owner, votee=mention["alice"])
        in reply.text
    )
    reply, changed = await attempt(
        h, lambda: h.select(ballot, f"tournament:ballot:{game}", [str(ids["bob"])], user="alice")
    )
    assert changed == {"tournament_votes"}
    for who in ("alice", "dave"):  # secret: a player, and an organiser while the server has not enabled it
        reply, changed = await attempt(h, lambda w=who: h.slash("tournament votes", game=game, user=w))
        assert reply.ephemeral and reply.content == tournament_error("votes_secret") and changed == set(), who


# -- private page links: who may get one, and who may replace (revoke) it -----------------------------------


@pytest.fixture
async def web_world(tmp_path):
    async with DiscordHarness.start(tmp_path, web__enabled=True, web__port=0) as h:
        other = await people(h)
        yield h, other


def web_text(key: str) -> str:
    return t(f"web.link.{key}", "en")


async def test_a_tournament_or_event_page_link_is_replaced_only_by_an_organiser(web_world) -> None:
    h, other = web_world
    h.add_member("frank")
    await h.slash("tournament create", user="dave", name="Cup")
    await h.slash("hydra event create", user="dave", name="Night", start="in 30 minutes")
    for name in ("alice", "bob"):
        await h.slash("tournament join", user=name)
        await h.slash("hydra event join", user=name)
    for command in ("tournament page", "hydra event page"):
        given, changed = await attempt(h, lambda c=command: h.slash(c, user="dave"))
        assert changed == {"page_links"}, command
        for who, revoke, refusal in (
            ("alice", True, "revoke_organisers"),
            ("frank", False, "organisers_only"),
            ("frank", True, "organisers_only"),
        ):
            reply, changed = await attempt(h, lambda c=command, w=who, r=revoke: h.slash(c, revoke=r, user=w))
            assert reply.ephemeral and reply.content == web_text(refusal) and changed == set(), (command, who)
        reply, changed = await attempt(
            h, lambda c=command: h.slash(c, user="alice")
        )  # a player may follow it
        assert reply.ephemeral and reply.content == given.content and changed == set(), command
        reply, changed = await attempt(h, lambda c=command: h.slash(c, revoke=True, user="dave"))
        assert changed == {"page_links"} and web_text("revoked") in reply.content, command
    reply, changed = await attempt(h, lambda: other.slash("tournament page", revoke=True))
    assert reply.content == t("tournament.error.no_tournament", "en") and changed == set()
    reply, changed = await attempt(h, lambda: other.slash("hydra event page", event=1, revoke=True))
    assert reply.content == NO_EVENT and changed == set()


async def test_a_games_overlay_link_is_its_players_and_managers_alone(web_world) -> None:
    h, other = web_world
    await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")
    for who, revoke in (("carol", False), ("carol", True), ("dave", True)):  # an outsider; the organiser role
        reply, changed = await attempt(
            h, lambda w=who, r=revoke: h.slash("pod overlay", game=1, revoke=r, user=w)
        )
        assert reply.ephemeral and reply.content == web_text("players_only") and changed == set(), (
            who,
            revoke,
        )
    reply, changed = await attempt(h, lambda: other.slash("pod overlay", game=1, revoke=True))
    assert reply.content == t("pod.error.no_game", "en") and changed == set()
    for who in ("alice", "mod"):  # a player, and Manage Server
        reply, changed = await attempt(h, lambda w=who: h.slash("pod overlay", game=1, revoke=True, user=w))
        assert "page_links" in changed, who


# -- a match's sideboard: each player swaps their own deck, between games only ---------------------------


@pytest.fixture
async def match_world(tmp_path):
    from bot.domain import pod
    from bot.services.decks import DeckService
    from tests.matches.conftest import SIDEBOARD_DECK

    async with DiscordHarness.start(tmp_path, cards_path=TEST_DATA / "deck_cards.jsonl") as h:
        pods = h.bot.get_cog("Pods")
        pods.updater.delay = 0
        other = await people(h)
        await h.slash("config sideboard-rule", user="admin", enabled=True)
        board = await h.slash(
            "pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>", ruleset="duel-zh"
        )
        decks = DeckService(h.bot.db, h.bot.cards)
        for name in ("alice", "bob"):
            user = h.user(name)
            await decks.register(
                h.guild.id, user.id, "Kaalia", SIDEBOARD_DECK.read_text(encoding="utf-8"), "duel-zh"
            )
            await pods.service.change(
                1, user.id, pod.COMMANDERS, player=user.id, names=["Kaalia of the Vast"], deck="Kaalia"
            )
        await pods.refresh_board(1)
        await h.settle()
        yield h, other, board


async def test_only_a_player_of_the_match_swaps_and_only_their_own_deck(match_world) -> None:
    h, other, board = match_world
    for who in ("carol", "dave", "mod"):  # an outsider, the organiser role, Manage Server: no deck in it
        reply, changed = await attempt(
            h, lambda w=who: h.slash("sideboard swap", out="Anger", into="Duress", user=w)
        )
        assert reply.ephemeral and reply.content == t("pod.error.no_open_game", "en") and changed == set(), (
            who
        )
        reply, changed = await attempt(h, lambda w=who: h.click(board, label="Sideboard", user=w))
        assert reply.ephemeral and reply.content == t("pod.error.not_a_player", "en") and changed == set(), (
            who
        )
    reply, changed = await attempt(h, lambda: other.slash("sideboard swap", out="Anger", into="Duress"))
    assert reply.ephemeral and reply.content == t("pod.error.no_open_game", "en") and changed == set()
    copy = copy_into(other, board)
    for button in [b for b in board.message.buttons if b["custom_id"].startswith("pod-match:")]:
        reply, changed = await attempt(h, lambda b=button: other.click(copy, custom_id=b["custom_id"]))
        assert t("pod.error.no_game", "en") in reply.text and changed == set(), button["custom_id"]
    reply, changed = await attempt(
        h, lambda: h.slash("sideboard swap", out="Vow of Duty", into="Duress", user="bob")
    )
    assert "1 swap made" in reply.text and changed == {"pod_events", "pod_games"}
    swapped = await h.bot.db.fetchall("SELECT actor_id FROM pod_events WHERE kind = 'swap'")
    assert [int(r["actor_id"]) for r in swapped] == [h.user("bob").id]  # bob's deck only
    await h.click(board, label="Start", user="alice")
    reply, changed = await attempt(
        h, lambda: h.slash("sideboard swap", out="Anger", into="Chaos Warp", user="bob")
    )
    assert "Too late" in reply.text and changed == set()  # the game began: the deck is what it is


async def test_the_leaderboard_link_is_everyones_and_replaced_only_by_an_organiser(web_world) -> None:
    h, other = web_world
    given, changed = await attempt(h, lambda: h.slash("stats page", user="alice"))
    assert given.ephemeral and changed == {"page_links"}  # the first ask makes the server's link
    for who in ("alice", "carol"):
        reply, changed = await attempt(h, lambda w=who: h.slash("stats page", revoke=True, user=w))
        assert reply.ephemeral and reply.content == web_text("revoke_organisers") and changed == set(), who
    reply, changed = await attempt(h, lambda: h.slash("stats page", user="carol"))
    assert reply.content == given.content and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("stats page", revoke=True, user="dave"))
    assert changed == {"page_links"} and web_text("revoked") in reply.content
    ours = (await h.slash("stats page", user="alice")).content
    assert ours != given.content
    await other.slash("stats page", revoke=True)  # another server's manager replaces their own link ...
    assert (await h.slash("stats page", user="alice")).content == ours  # ... never this server's


async def test_only_a_player_of_the_match_opens_a_swap_panel_or_wishes_from_their_own_sideboard(
    match_world,
) -> None:
    h, other, board = match_world
    for command, options in (("sideboard panel", {}), ("sideboard wish", {"card": "Duress"})):
        for who in ("carol", "dave", "mod"):
            reply, changed = await attempt(h, lambda c=command, o=options, w=who: h.slash(c, user=w, **o))
            assert (
                reply.ephemeral and reply.content == t("pod.error.no_open_game", "en") and changed == set()
            ), (command, who)
        reply, changed = await attempt(h, lambda c=command, o=options: other.slash(c, **o))
        assert reply.ephemeral and reply.content == t("pod.error.no_open_game", "en") and changed == set(), (
            command
        )
    await h.click(board, label="Start", user="alice")
    reply, changed = await attempt(h, lambda: h.slash("sideboard wish", card="Duress", user="bob"))
    assert "pod_events" in changed, reply.text
    wished = await h.bot.db.fetchall("SELECT actor_id FROM pod_events WHERE kind = 'wish'")
    assert [int(r["actor_id"]) for r in wished] == [h.user("bob").id]
