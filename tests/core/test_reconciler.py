"""The reconciler on its own: every registered pass runs once in registration order, a failing pass is
logged and marked -1 while the others still run, a re-registered pass replaces the old one, and a bot
without a reconciler is left alone."""

from __future__ import annotations

import logging

import pytest

from bot.services.reconcile import Reconciler, register_reconcile


async def test_every_pass_runs_and_a_failing_one_does_not_stop_the_others(caplog) -> None:
    reconciler = Reconciler()
    ran: list[str] = []

    def counting(name: str, result: int):
        async def run() -> int:
            ran.append(name)
            return result

        return run

    async def failing() -> int:
        ran.append("votes")
        raise RuntimeError("Discord was down")

    reconciler.register("boards", counting("boards", 2))
    reconciler.register("votes", failing)
    reconciler.register("hydra", counting("hydra", 0))
    with caplog.at_level(logging.INFO, logger="bot.services.reconcile"):
        done = await reconciler.run()
    assert done == {"boards": 2, "votes": -1, "hydra": 0} and ran == ["boards", "votes", "hydra"]
    failed = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(failed) == 1 and failed[0].exc_info
    assert failed[0].getMessage() == "reconcile pass votes failed; the other passes still run"
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.INFO] == [
        "brought up to date after start: {'boards': 2, 'votes': -1, 'hydra': 0}"
    ]


async def test_nothing_to_bring_up_to_date_logs_nothing(caplog) -> None:
    reconciler = Reconciler()

    async def idle() -> int:
        return 0

    reconciler.register("boards", idle)
    with caplog.at_level(logging.INFO, logger="bot.services.reconcile"):
        assert await reconciler.run() == {"boards": 0}
    assert caplog.records == []


async def test_a_reloaded_cog_replaces_its_pass_and_an_unloaded_one_removes_it() -> None:
    reconciler = Reconciler()

    async def old() -> int:
        return 1

    async def new() -> int:
        return 5

    reconciler.register("boards", old)
    reconciler.register("votes", old)
    reconciler.register("boards", new)
    assert reconciler.names == ["boards", "votes"]
    assert await reconciler.run() == {"boards": 5, "votes": 1}
    reconciler.unregister("votes")
    reconciler.unregister("never registered")
    assert reconciler.names == ["boards"]


@pytest.mark.parametrize("has_reconciler", [True, False])
async def test_register_reconcile_reaches_the_bots_reconciler_if_it_has_one(has_reconciler: bool) -> None:
    class Bot:
        pass

    bot = Bot()
    if has_reconciler:
        bot.reconciler = Reconciler()  # type: ignore[attr-defined]

    async def run() -> int:
        return 0

    register_reconcile(bot, "boards", run)
    if has_reconciler:
        assert bot.reconciler.names == ["boards"]  # type: ignore[attr-defined]
        assert await bot.reconciler.run() == {"boards": 0}  # type: ignore[attr-defined]
