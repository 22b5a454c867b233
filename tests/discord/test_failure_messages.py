"""An error on our side says "nothing was changed" only when that is true: an error before the
change is stored keeps the old message, an error after it was committed says the change was saved and asks
to check the board, for slash commands and for persistent buttons alike, in the member's language. Driven
through the real bot and the strict stand-in; the failures are planted where a real one would happen (the
database read before a change, the reply after it)."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, t
from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA

CARDS = TEST_DATA / "pods_cards.jsonl"


@pytest.fixture
async def h(tmp_path):
    async with DiscordHarness.start(tmp_path, cards_path=CARDS, members=("alice", "bob")) as harness:
        harness.bot.get_cog("Pods").updater.delay = 0
        yield harness


async def start(h):
    return await h.slash("pod start", players=f"<@{h.user('alice').id}> <@{h.user('bob').id}>")


async def life_events(h) -> int:
    return int(await h.bot.db.scalar("SELECT COUNT(*) FROM pod_events WHERE kind = 'life'"))


def broken(*_: object, **__: object):
    raise RuntimeError("planted failure")


async def fail_after_commit(*_: object, **__: object) -> None:
    broken()


async def fail_before_commit(*_: object, **__: object) -> None:
    broken()


async def test_a_command_that_failed_before_storing_says_nothing_was_changed(h, monkeypatch) -> None:
    await start(h)
    monkeypatch.setattr(h.bot.get_cog("Pods").service, "change", fail_before_commit)
    for language, locale in zip(LANGUAGES, ("en-US", "ja", "zh-CN", "zh-TW"), strict=True):
        reply = await h.slash("pod life", player="bob", amount=-3, locale=locale, expect_error=True)
        assert reply.ephemeral and reply.text == t("core.error.generic", language)
    assert await life_events(h) == 0


async def test_a_command_that_failed_after_storing_says_it_was_saved(h, monkeypatch) -> None:
    await start(h)
    monkeypatch.setattr(h.bot.get_cog("Pods"), "_acknowledge", fail_after_commit)
    for language, locale in zip(LANGUAGES, ("en-US", "ja", "zh-CN", "zh-TW"), strict=True):
        reply = await h.slash("pod life", player="bob", amount=-3, locale=locale, expect_error=True)
        assert reply.ephemeral and reply.text == t("core.error.after_change", language)
        assert "nothing was changed" not in reply.text
    assert await life_events(h) == 4  # every one was stored: pressing again would have doubled it


async def test_a_board_button_that_failed_tells_which_happened(h, monkeypatch) -> None:
    board = await start(h)
    cog = h.bot.get_cog("Pods")
    with monkeypatch.context() as patch:
        patch.setattr(cog.service, "change", fail_before_commit)
        pressed = await h.click(board, label="+1", user="bob", expect_error=True)
        assert [m.content for m in pressed.followups] == [t("core.error.generic", "en")]
        assert await life_events(h) == 0
    with monkeypatch.context() as patch:
        patch.setattr(cog, "_acknowledge", fail_after_commit)
        pressed = await h.click(board, label="+1", user="bob", expect_error=True)
        assert [m.content for m in pressed.followups] == [t("core.error.after_change", "en")]
        assert all(m.ephemeral for m in pressed.followups)
        assert await life_events(h) == 1


async def test_the_wording_never_claims_nothing_changed_after_a_change() -> None:
    for language in LANGUAGES:
        generic, after = t("core.error.generic", language), t("core.error.after_change", language)
        assert generic != after
    assert "nothing was changed" in t("core.error.generic", "en")
    assert "saved" in t("core.error.after_change", "en") and "nothing" not in t(
        "core.error.after_change", "en"
    )
