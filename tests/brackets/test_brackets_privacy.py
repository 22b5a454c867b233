"""Privacy as everywhere else: a declared bracket is in the member's ``/privacy export`` (the game's events
come whole), and ``/privacy delete`` leaves their id nowhere, the game keeping a "deleted member" who
declared that bracket. Run on both engines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.domain import pod
from bot.services.privacy import PrivacyService
from bot.testing import DiscordHarness
from tests.core.test_privacy_everywhere import mentions_of

pytestmark = pytest.mark.both_engines


async def test_a_declared_bracket_is_exported_and_deleted_with_the_member(tmp_path: Path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "olga")) as h:
        olga = h.user("olga").id
        await h.slash("pod start", user="alice", players=f"<@{h.user('alice').id}> <@{olga}>")
        await h.slash("pod bracket", user="olga", level=4)
        await h.settle()
        db = h.bot.db
        exported = json.loads(await PrivacyService(db).export(olga))
        events = [e for game in exported["pod_games"] for e in game["events"] if e["kind"] == pod.BRACKET]
        assert [(e["data"]["player"], e["data"]["level"]) for e in events] == [(olga, 4)]

        asked = await h.slash("privacy delete", user="olga")
        await h.click(asked, label="Yes, delete my data", user="olga")
        assert await mentions_of(db, olga) == []
        pods = h.bot.get_cog("Pods").service
        pods.forget_all()
        state = (await pods.get(1)).state
        assert [(p.name, p.bracket) for p in state.players] == [("alice", None), ("deleted member", 4)]
