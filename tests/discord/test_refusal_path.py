"""The one error path of the cogs (``cogs._errors``): a domain refusal is told once, privately,
in the member's language, however many handlers see it; anything else is left to the other handlers."""

from types import SimpleNamespace

import pytest
from discord import app_commands

from bot.domain.hydra_events import EventError
from bot.i18n import t
from cogs._errors import answer_refusal, refusal_of, telling_refusals


class Replies:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str, *, ephemeral: bool) -> None:
        self.sent.append((content, ephemeral))


def interaction(language: str = "ja") -> SimpleNamespace:
    async def language_for(_: object) -> str:
        return language

    replies = Replies()
    return SimpleNamespace(
        extras={}, id=1, response=replies, followup=replies, client=SimpleNamespace(language_for=language_for)
    )


async def test_a_refusal_wrapped_by_discord_is_told_once_in_the_members_language() -> None:
    it = interaction("ja")
    error = EventError("hydra_events.error.group_too_big", max=4)
    wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    wrapped.original = error
    assert refusal_of(wrapped) is error
    assert await answer_refusal(it, wrapped) is True  # the cog's handler
    assert await answer_refusal(it, error) is True  # the tree's handler sees it again: not told twice
    assert it.response.sent == [(t("hydra_events.error.group_too_big", "ja", max=4), True)]
    assert "4" in it.response.sent[0][0]


async def test_other_errors_are_not_answered_here() -> None:
    it = interaction()
    assert await answer_refusal(it, RuntimeError("boom")) is False
    assert it.response.sent == [] and it.extras == {}


async def test_a_button_callback_refusal_is_told_and_other_errors_go_on() -> None:
    it = interaction("en")
    async with telling_refusals(it):
        raise EventError("hydra_events.error.not_open")
    assert it.response.sent == [(t("hydra_events.error.not_open", "en"), True)]
    with pytest.raises(RuntimeError, match="^boom$"):
        async with telling_refusals(interaction()):
            raise RuntimeError("boom")
