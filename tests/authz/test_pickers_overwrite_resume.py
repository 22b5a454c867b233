"""Who may use a table's pickers, confirm a deck overwrite and resume a paused table, asked of every kind
of person (see ``_world``): the Hero cards picker of a Horde or God lobby, the permanent and question
pickers of a challenge board, the head and question pickers of a Hydra board, the Replace button that
confirms a deck overwrite, and ``/hydra resume``.

A refusal is private, names the rule and leaves every record table as it was; the allowed call does what
it should; another server's manager never reaches this server's table through a copy of its components.
Everything goes through Discord-level actions (commands, custom ids), so the tests hold whichever cog
module answers them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.testing import DiscordHarness
from bot.testing.fakediscord.driver import Reply, message_text
from tests.authz._world import attempt, copy_into, people

NO_TABLE = t("hydra.error.no_table", "en")
NOT_A_CHALLENGER = t("hydra.error.not_a_challenger", "en")
NOT_IDLE = t("hydra.error.not_idle", "en")
NOT_YOURS = t("core.error.not_yours", "en")
# Everyone who is not seated at alice's table: an outsider, the organiser, a manager, the server's owner.
NOT_SEATED = ("carol", "dave", "mod", "admin")


@pytest.fixture
async def world(tmp_path):
    async with DiscordHarness.start(tmp_path) as h:
        other = await people(h)
        yield h, other


def seeded(h: DiscordHarness, cog: str, seed: int) -> None:
    """Fix the table's shuffle, as the README walkthroughs do, so a known question comes up."""
    h.bot.get_cog(cog).fixed_seed = seed


def privately(reply: Reply, text: str) -> bool:
    """Whether ``text`` reached the presser in a private message: the answer itself, or the followup of
    a press acknowledged first (a table's buttons wait for its lock before they refuse)."""
    answers = ([reply.message] if reply.message else []) + reply.followups
    return any(text in message_text(m) and m.ephemeral for m in answers)


def selects(message: Any) -> list[str]:
    """The custom ids of the select menus on ``message``."""
    message = getattr(message, "message", message)
    return [
        c["custom_id"]
        for row in message.components or []
        for c in row.get("components", [])
        if c.get("type") == 3
    ]


def forged_select(driver: Any, custom_id: str, values: list[str]) -> Any:
    """A select menu with a hand-made custom id, as a message in ``driver``'s server: what a member can
    send who writes the interaction themselves (the id names this server's table or another's)."""
    options = [{"label": v, "value": v} for v in values]
    body = {
        "content": "-",
        "components": [
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": custom_id,
                        "options": options,
                        "min_values": 1,
                        "max_values": len(values),
                    }
                ],
            }
        ],
    }
    return driver.fake._new_message(driver.channel("general").id, body, [])


# -- the Hero cards picker of a Horde or God lobby -----------------------------------------------------


async def test_only_a_seated_player_picks_their_own_hero_cards_in_a_challenge_lobby(world) -> None:
    h, other = world
    lobby = await h.slash("challenge start", deck="horde", user="alice")
    [picker] = [c for c in selects(lobby) if c.startswith("chal-heroes:")]
    for who in NOT_SEATED:
        reply, changed = await attempt(h, lambda w=who: h.select(lobby, picker, ["The Slayer"], user=w))
        assert privately(reply, NOT_A_CHALLENGER) and changed == set(), who
    reply, changed = await attempt(h, lambda: other.select(copy_into(other, lobby), picker, ["The Slayer"]))
    assert privately(reply, NO_TABLE) and changed == set()
    reply, changed = await attempt(h, lambda: h.select(lobby, picker, ["The Slayer"], user="alice"))
    assert changed == {"challenge_table_seats"} and "The Slayer" in str(lobby.message.embeds[0]["fields"])


async def test_a_challenge_lobby_copied_into_another_server_sets_no_heroes_here_even_for_its_player(
    world,
) -> None:
    """alice is in both servers: her seat here is hers, but a copy of the lobby pressed in the other
    server is no table there (the same as every other component of a table)."""
    h, other = world
    lobby = await h.slash("challenge start", deck="horde", user="alice")
    [picker] = [c for c in selects(lobby) if c.startswith("chal-heroes:")]
    other.fake.add_member(other.guild, h.user("alice").user)
    reply, changed = await attempt(
        h, lambda: other.select(copy_into(other, lobby), picker, ["The Slayer"], user="alice")
    )
    assert NO_TABLE in reply.text and changed == set()


# -- the challenge board's permanent and question pickers ----------------------------------------------


async def horde_asking_for_blockers(h: DiscordHarness) -> Any:
    """alice's Horde table (the README's seed) at "Which attackers do you block?": the board with the
    ``chal-pick:1:blocks`` question picker."""
    seeded(h, "Challenge", 4)
    lobby = await h.slash("challenge start", deck="horde", window=0, user="alice")
    await h.click(lobby, label="Start", user="alice")
    board = lobby.message
    for label in ("End our turn", "End our turn", "End our turn", "Let it resolve", "Counter it"):
        await h.click(board, label=label, user="alice")
    assert "chal-pick:1:blocks" in selects(board)
    return board


async def test_only_a_seated_player_answers_a_challenge_question_picker(world) -> None:
    h, other = world
    board = await horde_asking_for_blockers(h)
    for who in NOT_SEATED:
        reply, changed = await attempt(h, lambda w=who: h.select(board, "chal-pick:1:blocks", ["1"], user=w))
        assert privately(reply, NOT_A_CHALLENGER) and changed == set(), who
    reply, changed = await attempt(
        h, lambda: other.select(copy_into(other, board), "chal-pick:1:blocks", ["1"])
    )
    assert NO_TABLE in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.select(board, "chal-pick:1:blocks", ["1"], user="alice"))
    assert changed == {"challenge_table_actions"}


async def test_only_a_seated_player_picks_a_permanent_on_a_challenge_board(world) -> None:
    h, other = world
    seeded(h, "Challenge", 4)
    lobby = await h.slash("challenge start", deck="god", window=0, user="alice")
    await h.click(lobby, label="Start", user="alice")
    board = lobby.message
    assert "chal-pick:1:perm" in selects(board)
    for who in NOT_SEATED:
        reply, changed = await attempt(h, lambda w=who: h.select(board, "chal-pick:1:perm", ["2"], user=w))
        assert privately(reply, NOT_A_CHALLENGER) and changed == set(), who
    reply, changed = await attempt(
        h, lambda: other.select(copy_into(other, board), "chal-pick:1:perm", ["2"])
    )
    assert NO_TABLE in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.select(board, "chal-pick:1:perm", ["2"], user="alice"))
    assert reply.message is None or not reply.ephemeral
    assert not reply.followups and changed == set()  # remembered for alice's next button, nothing stored
    reply, changed = await attempt(h, lambda: h.click(board, label="Destroy", user="alice"))
    assert "challenge_table_actions" in changed


# -- the Hydra board's head and question pickers -------------------------------------------------------


async def hydra_asking_for_heads(h: DiscordHarness) -> Any:
    """alice's Hydra table (a fixed shuffle) at a question answered by picking heads: the turn message
    with the ``hydra-pick:1:torn_tap`` picker."""
    seeded(h, "Hydra", 6)
    lobby = await h.slash("hydra start", heads=3, window=0, user="alice")
    await h.click(lobby, label="Start", user="alice")
    await h.click(lobby, label="End our turn", user="alice")
    [turn] = [m for m in h.messages() if "hydra-pick:1:torn_tap" in selects(m)] or [h.messages()[-1]]
    if "hydra-pick:1:torn_tap" not in selects(turn):
        await h.click(turn, label="Let it resolve", user="alice")
        [turn] = [m for m in h.messages() if "hydra-pick:1:torn_tap" in selects(m)]
    return turn


async def test_only_a_seated_challenger_answers_a_hydra_head_picker(world) -> None:
    h, other = world
    turn = await hydra_asking_for_heads(h)
    menu = turn.component(custom_id="hydra-pick:1:torn_tap")
    head = menu["options"][0]["value"]
    for who in NOT_SEATED:
        reply, changed = await attempt(
            h, lambda w=who: h.select(turn, "hydra-pick:1:torn_tap", [head], user=w)
        )
        assert privately(reply, NOT_A_CHALLENGER) and changed == set(), who
    copy = copy_into(other, turn)
    reply, changed = await attempt(h, lambda: other.select(copy, "hydra-pick:1:torn_tap", [head]))
    assert NO_TABLE in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.select(turn, "hydra-pick:1:torn_tap", [head], user="alice"))
    assert "challenge_table_actions" in changed


async def test_only_a_seated_challenger_picks_the_head_the_buttons_act_on(world) -> None:
    h, other = world
    lobby = await h.slash("hydra start", heads=3, window=0, user="alice")
    await h.click(lobby, label="Start", user="alice")
    board = lobby.message
    head = board.component(custom_id="hydra-head:1")["options"][0]["value"]
    for who in NOT_SEATED:
        reply, changed = await attempt(h, lambda w=who: h.select(board, "hydra-head:1", [head], user=w))
        assert privately(reply, NOT_A_CHALLENGER) and changed == set(), who
    reply, changed = await attempt(h, lambda: other.select(copy_into(other, board), "hydra-head:1", [head]))
    assert NO_TABLE in reply.text and changed == set()
    assert "hydra-more:1" in selects(board)  # the less common effects: the same rule
    for who in NOT_SEATED:
        reply, changed = await attempt(h, lambda w=who: h.select(board, "hydra-more:1", ["sweep"], user=w))
        assert privately(reply, NOT_A_CHALLENGER) and changed == set(), who
    more = forged_select(other, "hydra-more:1", ["sweep"])  # and by a hand-made id from another server
    reply, changed = await attempt(h, lambda: other.select(more, "hydra-more:1", ["sweep"]))
    assert NO_TABLE in reply.text and changed == set()
    reply, changed = await attempt(h, lambda: h.select(board, "hydra-head:1", [head], user="alice"))
    assert reply.message is None or not reply.ephemeral
    assert not reply.followups and changed == set()  # remembered for alice's next button, nothing stored


# -- the deck overwrite confirmation -------------------------------------------------------------------

DECK = "1 Sol Ring\n1 Atraxa, Praetors' Voice"
NEW_DECK = "1 Arcane Signet\n1 Atraxa, Praetors' Voice"


async def test_a_deck_overwrite_is_confirmed_by_its_asker_alone(world) -> None:
    h, other = world
    await h.slash("deck register", name="mine", decklist=DECK, user="alice")
    asked = await h.slash("deck register", name="mine", decklist=NEW_DECK, user="alice")
    replace = asked.message.component(label="Replace")
    assert replace["custom_id"].startswith("deck:overwrite:")
    for who in ("bob", *NOT_SEATED):  # nobody confirms alice's overwrite, not even a manager or the owner
        reply, changed = await attempt(
            h, lambda w=who: h.click(asked, custom_id=replace["custom_id"], user=w)
        )
        assert privately(reply, NOT_YOURS) and changed == set(), who
    reply, changed = await attempt(
        h, lambda: other.click(copy_into(other, asked), custom_id=replace["custom_id"])
    )
    assert NOT_YOURS in reply.text and changed == set()
    cancel = asked.message.component(label="Cancel")
    reply, changed = await attempt(h, lambda: h.click(asked, custom_id=cancel["custom_id"], user="bob"))
    assert NOT_YOURS in reply.text and changed == set() and asked.message.component(label="Replace")
    reply, changed = await attempt(h, lambda: h.click(asked, custom_id=replace["custom_id"], user="alice"))
    assert "decks" in changed and "Replaced" in reply.text


# -- resuming a paused Hydra table ---------------------------------------------------------------------


async def paused_table(h: DiscordHarness) -> None:
    """alice's Hydra table, paused after its idle time (30 minutes on the bot's clock)."""
    lobby = await h.slash("hydra start", heads=3, window=0, user="alice")
    await h.click(lobby, label="Start", user="alice")
    await h.advance(minutes=31)
    assert "paused" in str([m.content for m in h.messages()])


async def test_only_a_seated_challenger_resumes_a_paused_hydra_table(world) -> None:
    h, other = world
    await paused_table(h)
    for who in NOT_SEATED:
        reply, changed = await attempt(h, lambda w=who: h.slash("hydra resume", user=w))
        assert reply.ephemeral and reply.content == NOT_A_CHALLENGER and changed == set(), who
    reply, changed = await attempt(h, lambda: other.slash("hydra resume"))  # nothing paused over there
    assert reply.ephemeral and reply.content == NOT_IDLE and changed == set()
    reply, changed = await attempt(h, lambda: h.slash("hydra resume", user="alice"))
    assert "challenge_tables" in changed and any(b["label"] == "End our turn" for b in reply.message.buttons)


FORMS = ("exile_named", "attack", "damage", "loselife", "life", "hit", "command")


@pytest.mark.parametrize(("deck", "prefix"), [("hydra", "hydra"), ("horde", "chal")])
async def test_someone_not_seated_is_refused_before_a_tables_form_opens(world, deck, prefix) -> None:
    """The buttons that open a form (attack, damage, a typed command...) refuse someone not seated at
    once: no form to fill in only to be refused on sending it."""
    h, _ = world
    if deck == "hydra":
        lobby = await h.slash("hydra start", heads=3, window=0, user="alice")
    else:
        lobby = await h.slash("challenge start", deck=deck, window=0, user="alice")
    await h.click(lobby, label="Start", user="alice")
    board = lobby.message
    forms = [b for b in board.buttons if b["custom_id"].split(":")[2] in FORMS]
    assert forms, [b["custom_id"] for b in board.buttons]
    for button in forms:
        reply, changed = await attempt(
            h, lambda b=button: h.click(board, custom_id=b["custom_id"], user="carol")
        )
        assert reply.modal is None and privately(reply, NOT_A_CHALLENGER), button["custom_id"]
        assert changed == set()
    opened = await h.click(board, custom_id=forms[0]["custom_id"], user="alice")
    assert opened.modal is not None  # the challenger gets the form
