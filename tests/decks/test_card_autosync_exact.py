"""The card sync schedule's exact state and words, on a real database and a local card server (a closed port
for "offline"), time from the injected FakeClock: a failure after a success keeps the success and retries
an hour later, the state stores whole-second stamps and the error, the log lines say what happened word
for word, and a bot with automatic sync off never syncs however overdue."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from bot.clock import FakeClock
from bot.services.card_autosync import CardAutoSync
from bot.storage.deck_changes import SyncState

from .deck_sites import closed_port
from .test_card_autosync import cards, config, scryfall  # noqa: F401  (fixtures)

START = datetime(2026, 1, 1, 12, 0, 0, 250_000, tzinfo=UTC)  # a fraction of a second the stamps drop
STAMPED = START.replace(microsecond=0)
OFFLINE = "cannot reach 127.0.0.1:"  # the sync's words for a refused connection


def messages(caplog) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "bot.services.card_autosync"]


async def test_a_failure_after_a_success_keeps_it_and_retries_an_hour_later(
    tmp_path,
    db,
    cards,  # noqa: F811
    scryfall,  # noqa: F811
) -> None:
    """Synced, then offline when the week is up: the stored success stays (the next week counts from it
    once back online) and the retry is an hour after the failure, not at once again and again."""
    clock = FakeClock(START)
    autosync = CardAutoSync(cards, db, config(tmp_path, scryfall.base), clock=clock.now)
    assert not await autosync.ever_synced()
    assert await autosync.run_if_due() is not None
    assert await autosync.ever_synced()
    assert await autosync.state.get() == SyncState("2026-01-01T12:00:00+00:00", "2026-01-01T12:00:00+00:00")
    assert await autosync.next_due() == STAMPED + timedelta(days=7)  # from the stored stamp

    await clock.advance(days=7)
    autosync.config = config(tmp_path, f"http://127.0.0.1:{closed_port()}")
    assert await autosync.run_if_due() is None
    state = await autosync.state.get()
    assert (state.last_attempt, state.last_success, state.failures) == (
        "2026-01-08T12:00:00+00:00",
        "2026-01-01T12:00:00+00:00",
        1,
    )
    assert state.last_error is not None and state.last_error.startswith(OFFLINE)
    assert await autosync.next_due() == STAMPED + timedelta(days=7, hours=1)
    assert await autosync.ever_synced()


async def test_the_log_says_the_first_failure_then_quietly_counts_then_the_recovery(
    tmp_path,
    db,
    cards,  # noqa: F811
    scryfall,  # noqa: F811
    caplog,
) -> None:
    """A warning once, debug lines with the count after, and the success that ends the run says how many
    attempts failed and how many cards came from where."""
    clock = FakeClock(START)
    autosync = CardAutoSync(cards, db, config(tmp_path, f"http://127.0.0.1:{closed_port()}"), clock=clock.now)
    caplog.set_level(logging.DEBUG, logger="bot.services.card_autosync")
    for hours in (1, 2):  # each retry when it falls due
        assert await autosync.run_if_due() is None
        await clock.advance(hours=hours)
    autosync.config = config(tmp_path, scryfall.base)
    result = await autosync.run_if_due()
    assert result is not None
    logged = messages(caplog)
    assert [(level, text.split(": ", 1)[0]) for level, text in logged[:2]] == [
        (logging.WARNING, "automatic card sync failed, retrying later"),
        (logging.DEBUG, "automatic card sync failed again (2 times)"),
    ]
    assert all(text.split(": ", 1)[1].startswith(OFFLINE) for _, text in logged[:2])
    assert logged[2:] == [
        (logging.INFO, "automatic card sync succeeded after 2 failed attempts"),
        (logging.INFO, f"card data synced: {result.card_count} cards from {scryfall.base}/oracle-cards.json"),
    ]
    assert (await autosync.state.get()).failures == 0


async def test_a_long_error_is_stored_cut_to_500_characters(
    tmp_path,
    db,
    cards,  # noqa: F811
    scryfall,  # noqa: F811
) -> None:
    """The error is kept for ``podkeeper cards status``: a refusal naming a long URL is cut to the column's
    500 characters, from its start (the URL and then the status)."""
    clock = FakeClock(START)
    base = f"{scryfall.base}/{'x' * 600}"
    autosync = CardAutoSync(cards, db, config(tmp_path, base), clock=clock.now)
    assert await autosync.run_if_due() is None
    error = (await autosync.state.get()).last_error
    assert error == f"{base}/bulk-data answered HTTP 404 Not Found"[:500]


async def test_automatic_sync_off_never_syncs_however_overdue(
    tmp_path,
    db,
    cards,  # noqa: F811
    scryfall,  # noqa: F811
) -> None:
    """Never synced is due at once, yet with ``auto_sync`` off nothing is fetched and nothing is stored."""
    clock = FakeClock(START)
    autosync = CardAutoSync(
        cards, db, config(tmp_path, scryfall.base, cards__auto_sync=False), clock=clock.now
    )
    assert not autosync.enabled and await autosync.next_due() == START
    await clock.advance(days=30)
    assert await autosync.run_if_due() is None
    assert scryfall.requests == [] and await autosync.state.get() == SyncState()


async def test_the_shortest_interval_is_one_day(
    tmp_path,
    db,
    cards,  # noqa: F811
    scryfall,  # noqa: F811
) -> None:
    """``sync_interval_days = 1`` (the least the config takes) syncs again one day after a success."""
    clock = FakeClock(START)
    autosync = CardAutoSync(
        cards, db, config(tmp_path, scryfall.base, cards__sync_interval_days=1), clock=clock.now
    )
    assert await autosync.run_if_due() is not None
    assert await autosync.next_due() == STAMPED + timedelta(days=1)
