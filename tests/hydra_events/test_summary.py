"""One summary of an event's state (``EventSummary``), rendered the same way in every message: each
contradiction playgroups saw has a test here, at the domain and at the Discord layer."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.domain.hydra_events import (
    ENDED_UNFINISHED,
    HYDRA_WON_ALL,
    LOST,
    NO_TABLES,
    ONGOING,
    UNFINISHED,
    WINNERS,
    WON,
    PlayerLine,
    TableLine,
    build_leaderboard,
    summarize,
)
from bot.i18n import Translate
from bot.render.leaderboard import results_text, summary_text, tables_text
from bot.storage.hydra_events import FINISHED
from bot.testing import DiscordHarness
from tests.hydra_events.test_cog import begun, booted, cog, create, finished, play

EN = Translate("en")


def table(no: int, outcome: str, standing: int, seated: int, turns: int = 4) -> TableLine:
    players = tuple(PlayerLine(no * 10 + i, f"p{no}-{i}", no, 1, i < standing) for i in range(seated))
    return TableLine(no, outcome, turns, seated, 1, players)


def test_players_standing_counts_the_winners_of_won_tables_too() -> None:
    """Was: "players standing 0" beside "Table 1: won … 2/2 standing"."""
    summary = summarize(build_leaderboard([table(1, WON, 2, 2)]), over=False)
    assert "players standing 2" in summary_text(summary, EN)
    assert "2/2 standing" in tables_text(summary, EN)


def test_an_event_ended_while_tables_play_says_so_and_not_that_the_hydra_won() -> None:
    """Was: "The Hydra won every table" with "won 0 · lost 0 · still playing 2" after /hydra event end."""
    summary = summarize(build_leaderboard([table(1, ONGOING, 2, 2), table(2, ONGOING, 1, 2)]), over=True)
    assert summary.result == ENDED_UNFINISHED and summary.unfinished == 2 and summary.playing == 0
    text = results_text(summary, EN, "Hydra night", winners="")
    assert "2 tables still playing" in text and "won every table" not in text
    assert "unfinished 2" in summary_text(summary, EN) and "still playing" not in summary_text(summary, EN)
    assert all("unfinished" in line for line in tables_text(summary, EN).splitlines())


def test_results_name_the_hydra_only_when_it_won_every_table() -> None:
    lost = summarize(build_leaderboard([table(1, LOST, 0, 2), table(2, LOST, 0, 3)]), over=True)
    assert lost.result == HYDRA_WON_ALL
    assert "The Hydra won every table" in results_text(lost, EN, "Hydra night", winners="")
    won = summarize(build_leaderboard([table(1, LOST, 0, 2), table(2, WON, 1, 2)]), over=True)
    assert won.result == WINNERS and [p.user_id for p in won.winners] == [20]
    assert summarize(build_leaderboard([]), over=True).result == NO_TABLES


_OUTCOMES = st.sampled_from([WON, LOST, ONGOING])


@given(st.lists(st.tuples(_OUTCOMES, st.integers(1, 4), st.integers(0, 4)), max_size=8), st.booleans())
def test_every_number_in_the_summary_is_the_sum_of_the_table_lines(tables, over) -> None:
    lines = []
    for no, (outcome, seated, standing) in enumerate(tables, start=1):
        standing = (
            0
            if outcome == LOST
            else max(1, min(standing, seated))
            if outcome == WON
            else min(standing, seated)
        )
        lines.append(table(no, outcome, standing, seated))
    summary = summarize(build_leaderboard(lines), over=over)
    shown = tables_text(summary, EN, limit=100).splitlines() if lines else []
    pairs = [
        tuple(map(int, m.groups())) for line in shown for m in [re.search(r"(\d+)/(\d+) standing", line)]
    ]
    assert summary.standing == sum(standing for standing, _ in pairs)
    assert summary.won + summary.lost + summary.playing + summary.unfinished == len(lines)
    assert (summary.playing == 0) if over else (summary.unfinished == 0)
    counted = {
        outcome: sum(f": {EN(f'hydra_events.outcome.{outcome}')} ·" in line for line in shown)
        for outcome in (WON, LOST, ONGOING, UNFINISHED)
    }
    assert (counted[WON], counted[LOST]) == (summary.won, summary.lost)
    assert counted[ONGOING] + counted[UNFINISHED] == summary.playing + summary.unfinished
    numbers = [int(n) for n in re.findall(r"\d+", summary_text(summary, EN).splitlines()[0])]
    assert numbers == [
        summary.won,
        summary.lost,
        summary.unfinished if over else summary.playing,
        summary.standing,
    ]


# -- at the Discord layer -----------------------------------------------------------------------------


async def test_a_drop_that_ends_the_table_says_the_table_lost(tmp_path) -> None:
    """Was: "did not show up and were dropped; the table goes on" when the drop had ended the table."""
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement, thread = await begun(h, grace=1, table_size=2)
        await h.advance(minutes=1)  # nobody shows up within the grace period
        said = [m.content for m in h.messages(thread) if "did not show up" in m.content]
        assert said and "table 1 has lost to the Hydra" in said[-1] and "goes on" not in said[-1]


async def test_status_after_the_event_ended_shows_it_without_naming_it(tmp_path) -> None:
    """Was: "There is no such Hydra event" after the end unless ``event:`` was given."""
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement, thread = await begun(h)
        await play(h, thread, "alice")
        assert (await finished(h)).status == FINISHED
        status = await h.slash("hydra event status", user="carol")
        assert status.ephemeral and "Hydra night" in status.text and "finished" in status.text
        assert "no such" not in status.text
        await create(h, name="Second night")  # a newer event, still open, elsewhere in the server
        in_thread = await h.slash("hydra event status", user="alice", channel=thread)
        assert "Hydra night" in in_thread.text, "in a table's thread: that table's event"
        assert "Second night" in (await h.slash("hydra event status", user="alice")).text


async def test_ending_an_event_early_posts_results_that_agree_with_the_board(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        announcement = await create(h)
        for name in ("alice", "bob", "carol", "admin"):
            await h.click(announcement, label="Join", user=name)
        await h.slash("hydra event begin", user="admin")
        asked = await h.slash("hydra event end", user="admin")
        await h.click(asked, label="Yes, end it now", user="admin")
        event = await finished(h)
        results = h.fake.messages[event.results_message_id]
        assert "2 tables still playing" in results.content and "won every table" not in results.content
        assert "unfinished 2" in results.embeds[0]["description"]


async def test_joining_again_with_a_friend_says_how_to_sit_together(tmp_path) -> None:
    """Was: "Already in this event: alice. Nobody was added." and nothing about what to do."""
    async with DiscordHarness.start(tmp_path, on_boot=booted()) as h:
        await create(h, table_size=4)
        await h.slash("hydra event join", user="alice")
        again = await h.slash("hydra event join", user="alice", friend1="bob")
        assert "Already in this event: alice. Nobody was added." in again.content
        assert "/hydra event leave" in again.content and "friend1" in again.content
        entrants = await cog(h).events.repo.entrants(1)
        assert [e.name for e in entrants] == ["alice"], "nothing changed"
