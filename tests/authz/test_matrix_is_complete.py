"""The authorisation matrix covers every command and component the bot has, so a new one cannot slip in
without its row.

The bot's real command tree and its registered persistent components are walked. A command is in the
matrix when a test module of ``tests/authz`` names its path (as ``h.slash`` takes it); a component when
a row below names the matrix tests that press it. Everything else must be listed as reading only, with
the reason it changes no record, so "forgot the row" and "changes nothing" can no longer look alike.
"""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import discord
import pytest

from bot.testing import DiscordHarness

AUTHZ = Path(__file__).parent

# Commands that change no record of anyone but the caller's own language (stored by every command).
READS_ONLY = {
    "card": "looks a card up",
    "config show": "shows the server's settings",
    "deck check": "checks a pasted list, storing nothing",
    "deck export": "sends the caller a file",
    "deck list": "lists decks",
    "deck show": "shows a deck",
    "help": "shows help pages",
    "hydra profile": "shows a member's Hydra record",
    "mulligan odds": "computes odds",
    "odds": "computes odds",
    "ping": "answers pong",
    "pod history": "shows a game's log",
    "pod list": "lists games",
    "pod show": "posts the board again (a message, no record)",
    "privacy export": "sends the caller their own data",
    "season export": "sends a season's table as a file",
    "season standings": "shows standings",
    "stats commander": "shows statistics",
    "stats me": "shows statistics",
    "stats member": "shows statistics",
    "stats server": "shows statistics",
    "tournament log": "shows the audit log",
    "tournament prizes": "shows prize leaders",
    "tournament standings": "shows standings",
}

# Each persistent component (its class, as registered) -> the matrix tests that press it as the wrong
# person, or why it changes no record.
COMPONENTS = {
    "HelpPageSelect": "reads only: turns a help page",
    "PageButton": "reads only: turns a deck's page",
    "TableButton": "test_a_challenge_table_copied_into_another_server_is_no_table_there "
    "test_a_hydra_lobby_copied_into_another_server_is_no_table_there "
    "test_someone_not_seated_is_refused_before_a_tables_form_opens",
    "TableSelect": "test_only_a_seated_player_answers_a_challenge_question_picker "
    "test_only_a_seated_challenger_answers_a_hydra_head_picker "
    "test_only_a_seated_challenger_picks_the_head_the_buttons_act_on",
    "MoreSelect": "test_only_a_seated_challenger_picks_the_head_the_buttons_act_on",
    "HeroSelect": "test_only_a_seated_player_picks_their_own_hero_cards_in_a_challenge_lobby "
    "test_a_challenge_lobby_copied_into_another_server_sets_no_heroes_here_even_for_its_player",
    "ConfirmButton": "test_a_deck_overwrite_is_confirmed_by_its_asker_alone "
    "test_a_members_delete_confirmation_is_theirs_alone "
    "test_only_a_player_at_the_table_answers_its_posted_result",
    "EventButton": "test_another_servers_manager_cannot_reach_an_event_by_number_or_by_its_buttons "
    "test_another_servers_manager_cannot_reach_a_challenge_event "
    "test_only_organisers_create_and_run_a_challenge_event",
    "AcceptButton": "test_only_the_invited_friend_answers_an_event_invitation "
    "test_an_invitation_copied_into_another_server_is_answered_only_where_it_was_asked",
    "DeclineButton": "test_only_the_invited_friend_answers_an_event_invitation",
    "PracticeButton": "test_a_practice_hand_and_hero_cards_are_their_owners_alone",
    "PracticeSelect": "test_a_practice_hand_and_hero_cards_are_their_owners_alone",
    "PodButton": "test_the_board_buttons_refuse_an_outsider test_a_copy_of_the_board_in_another_server_cannot_change_the_game",
    "PlayerSelect": "test_the_player_picker_on_the_board_refuses_an_outsider "
    "test_a_copy_of_the_board_in_another_server_cannot_change_the_game",
    "MulliganChoice": "test_a_mulligan_line_copied_into_another_server_names_no_game "
    "test_each_mulligan_decision_is_its_own_players_alone",
    "MatchButton": "test_only_a_player_of_the_match_swaps_and_only_their_own_deck",
    "DeleteButton": "test_a_members_delete_confirmation_is_theirs_alone",
    "DisputeButton": "test_only_a_player_at_the_table_answers_its_posted_result",
    "VoteButton": "test_only_the_players_of_a_table_vote_there_and_never_for_themselves_or_strangers",
    "BallotSelect": "test_only_the_players_of_a_table_vote_there_and_never_for_themselves_or_strangers",
    "ManaConfirmButton": "test_a_mana_report_is_the_reporters_own_and_only_another_player_at_the_table_confirms",
    "EndConfirmButton": "test_a_member_drops_only_themselves_and_the_end_confirmation_is_for_organisers",
}


@pytest.fixture(scope="module")
def bot_surface(tmp_path_factory) -> tuple[set[str], set[str]]:
    """The command paths and the persistent component classes of a real bot, as it registers them."""

    async def read() -> tuple[set[str], set[str]]:
        async with DiscordHarness.start(tmp_path_factory.mktemp("surface")) as h:
            paths: set[str] = set()

            def walk(command: discord.app_commands.Command | discord.app_commands.Group, prefix: str) -> None:
                path = f"{prefix} {command.name}".strip()
                if isinstance(command, discord.app_commands.Group):
                    for sub in command.commands:
                        walk(sub, path)
                else:
                    paths.add(path)

            for command in h.bot.tree.get_commands():
                walk(command, "")
            components = {item.__name__ for item in h.bot._connection._view_store._dynamic_items.values()}
            return paths, components

    return asyncio.run(read())


def matrix_strings() -> set[str]:
    """Every string the matrix's test modules hold (the command paths they call among them)."""
    found: set[str] = set()
    for module in AUTHZ.glob("test_*.py"):
        if module.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    return found


def matrix_tests() -> set[str]:
    """The names of the matrix's test functions."""
    names: set[str] = set()
    for module in AUTHZ.glob("test_*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        names |= {n.name for n in tree.body if isinstance(n, ast.AsyncFunctionDef | ast.FunctionDef)}
    return names


def test_every_command_that_changes_state_has_a_row(bot_surface) -> None:
    commands, _ = bot_surface
    called = matrix_strings()
    missing = sorted(c for c in commands if c not in called and c not in READS_ONLY)
    assert not missing, f"commands with no row in the authorisation matrix: {missing}"


def test_a_command_listed_as_reading_only_exists_and_has_no_row_too(bot_surface) -> None:
    commands, _ = bot_surface
    assert set(READS_ONLY) <= commands, sorted(set(READS_ONLY) - commands)
    # ("card" is also a plain word in the matrix's messages, so it is not asked here.)
    with_rows = (set(READS_ONLY) - {"card"}) & matrix_strings()
    assert not with_rows, f"commands with a row are not reading only: {sorted(with_rows)}"


def test_every_persistent_component_has_its_rows(bot_surface) -> None:
    _, components = bot_surface
    assert components == set(COMPONENTS), (
        sorted(components - set(COMPONENTS)),
        sorted(set(COMPONENTS) - components),
    )
    known = matrix_tests()
    for component, rows in COMPONENTS.items():
        if rows.startswith("reads only:"):
            continue
        unknown = [name for name in rows.split() if name not in known]
        assert not unknown, (component, unknown)
