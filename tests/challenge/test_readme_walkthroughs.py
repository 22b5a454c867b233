"""The README's worked examples of a Horde table and a God table in Discord ("Battle the Horde and
Defeat a God" → "At the table"), played press by press through the real bot: what the README says the
bot shows is what it shows. (The Hydra's worked example is tests/hydra/test_cog.py's whole game.)"""

from __future__ import annotations

from bot.testing import DiscordHarness


def now(board) -> str:
    return {f["name"]: f["value"] for f in board.embeds[0]["fields"]}["Now"]


def latest(board) -> str:
    return {f["name"]: f["value"] for f in board.embeds[0]["fields"]}["Latest"]


def labels(board) -> list[str]:
    return [b["label"] for b in board.buttons]


async def test_the_readme_horde_table(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice",)) as h:
        h.bot.get_cog("Challenge").fixed_seed = 4
        lobby = await h.slash("challenge start", deck="horde", window=0)
        assert lobby.embed["title"] == "Battle the Horde #1"
        assert "Press Join to sit down (up to 1), then Start. Seated: alice" in lobby.embed["description"]
        await h.click(lobby, label="Start")
        board = lobby.message
        assert (
            "Library: 60" in board.embeds[0]["description"]
            and "The players: 20 life" in board.embeds[0]["description"]
        )

        hit = await h.click(board, label="Hit the Horde…")
        await h.submit_modal(hit, {"text": "5"})
        assert (
            "5 cards go from the library to the graveyard: Minotaur Younghorn, Minotaur Younghorn, "
            "Minotaur Goreseeker, Descend on the Prey, Mogis's Chosen."
        ) in latest(board)
        refused = await h.click(board, label="Undo")
        assert refused.ephemeral and "can't be undone (undo never un-reveals hidden cards)" in refused.content
        for _ in range(3):
            await h.click(board, label="End our turn")
        assert "Turn 4: the Horde's turn." in latest(board)
        assert "Revealed: Phoberos Reaver, Minotaur Goreseeker." in latest(board)
        assert now(board).startswith("Phoberos Reaver is cast. Counter it?")
        assert labels(board)[:2] == ["Let it resolve", "Counter it"]

        await h.click(board, label="Let it resolve")
        assert "Phoberos Reaver enters the battlefield." in latest(board)
        await h.click(board, label="Counter it")  # Minotaur Goreseeker
        assert "The players counter Minotaur Goreseeker; it goes to the graveyard." in latest(board)
        assert "Attacking: 1. Phoberos Reaver (2/3). Declare your blockers." in latest(board)
        assert now(board).startswith("Which attackers do you block?") and "None" in labels(board)

        await h.select(board, "chal-pick:1:blocks", ["1"])
        assert "Phoberos Reaver is blocked." in latest(board)
        assert now(board).startswith("Combat damage is about to be dealt. Prevent it")
        blocker = await h.click(board, label="Damage…")  # in the window: your blocker's 3 damage
        await h.submit_modal(blocker, {"text": "3"})
        assert "Phoberos Reaver is dealt 3 damage.\nPhoberos Reaver dies." in latest(board)
        assert labels(board)[:2] == ["Take the damage", "Prevent the damage"]  # the same words as the Hydra's
        await h.click(board, label="Take the damage")
        assert (
            "Turn 5: the players' turn." in latest(board)
            and "The players: 20 life" in board.embeds[0]["description"]
        )

        await h.click(board, label="Concede")
        assert "The players concede.\nThe players lose the challenge." in latest(board)
        assert now(board) == "The players lost: alice" and board.buttons == []


async def test_the_readme_god_table(tmp_path) -> None:
    async with DiscordHarness.start(tmp_path, members=("alice", "bob")) as h:
        h.bot.get_cog("Challenge").fixed_seed = 4
        lobby = await h.slash("challenge start", deck="god", window=0)
        await h.click(lobby, label="Join", user="bob")
        await h.click(lobby, label="Start", user="bob")
        board = lobby.message
        text = board.embeds[0]["description"]
        assert "1. Xenagos Ascended 6/5" in text and text.count("Rollicking Throng 1/3") == 3  # 2, +1 for bob

        await h.select(board, "chal-pick:1:perm", ["2"])
        await h.click(board, label="Destroy")
        assert "Rollicking Throng is destroyed." in latest(board)
        await h.click(board, label="Undo")
        assert board.embeds[0]["description"].count("Rollicking Throng") == 3  # back
        burn = await h.click(board, label="Damage…")
        await h.submit_modal(burn, {"text": "3"})
        assert "Rollicking Throng is dealt 3 damage.\nRollicking Throng dies." in latest(board)

        await h.click(board, label="End our turn", user="bob")
        assert "Turn 2: Xenagos's turn.\nRevealed: Ecstatic Piper, Maddened Oread." in latest(board)
        await h.click(board, label="Let it resolve")
        assert "Ecstatic Piper: Xenagos Ascended attacks this turn if able." in latest(board)
        await h.click(board, label="Let it resolve")  # Maddened Oread
        assert "Attacking: 1. Xenagos Ascended (6/5). Declare your blockers." in latest(board)
        await h.click(board, label="None")
        assert now(board).startswith("Combat damage is about to be dealt.")
        await h.click(board, label="Take the damage")
        assert "The unblocked attackers deal 6 combat damage: 14 life left." in latest(board)
        assert "Turn 3: the players' turn." in latest(board)

        sweep = await h.click(board, label="Command…")
        await h.submit_modal(sweep, {"text": "destroy 3 4 5 6"})
        assert "Hero's Reward from Maddened Oread: the players gain 6 life (24)." in latest(board)
        await h.select(board, "chal-pick:1:perm", ["1"], user="bob")
        await h.click(board, label="Destroy", user="bob")
        assert "Xenagos Ascended leaves the battlefield: each player wins the game." in latest(board)
        assert now(board) == "The players won: alice, bob" and board.buttons == []
