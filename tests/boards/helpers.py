"""What the live-board tests share: a harness with games in several channels, and reading a board."""

from __future__ import annotations

from bot.testing import DiscordHarness
from tests.conftest import TEST_DATA

CARDS = TEST_DATA / "pods_cards.jsonl"
MEMBERS = ("alice", "bob", "carol", "dave")


def pods(h):
    return h.bot.get_cog("Pods")


def mention(h, *names: str) -> str:
    return " ".join(f"<@{h.user(name).id}>" for name in names)


async def start_pod(h, channel: str = "general", *names: str):
    """A pod game in ``channel`` (default players alice and bob); returns the reply holding its board."""
    return await h.slash("pod start", channel=channel, players=mention(h, *(names or ("alice", "bob"))))


def life_on_board(message) -> list[str]:
    """The player picker's labels: "1 alice (40)" for each living player, as the live message shows."""
    return [option["label"] for option in message.selects[0]["options"]]


async def fast_harness(tmp_path, **options):
    """A harness whose pod boards are edited without the coalescing pause (tests wait with settle)."""
    harness = DiscordHarness.start(tmp_path, cards_path=CARDS, members=MEMBERS, **options)
    return harness


async def press_refused(h, board, *, code: int, label: str = "-1", user: str = "bob"):
    """Press ``board`` knowing Discord will refuse what the press leads to (``code``), in the board's edit
    that follows the press. The channel's lane is held during the click so that edit runs after it,
    where the test declares the refusal it expects (the harness otherwise fails on any refusal)."""
    refusals = len(h.fake.refusals)
    async with pods(h).updater.lanes.lane(board.channel_id):
        reply = await h.click(board, label=label, user=user)
    h._expect_refusal = code  # the harness's own expectation, for background work
    try:
        await pods(h).updater.flush()
        await h.settle()
    finally:
        h._expect_refusal = None
    assert len(h.fake.refusals) > refusals, f"Discord was expected to refuse ({code})"
    return reply
