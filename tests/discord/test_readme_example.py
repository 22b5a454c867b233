"""The example of bot/testing/README.md, verbatim: the documentation cannot drift from the harness."""

from bot.testing import DiscordHarness


async def test_readme_example(tmp_path):
    # Card data: 60 well-known cards by default; pass cards_path="tests/data/<feature>_cards.jsonl" for yours.
    async with DiscordHarness.start(tmp_path) as h:
        reply = await h.slash("config ruleset", user="admin", ruleset="edh-2010")  # subcommand: "group sub"
        assert reply.ephemeral and "edh-2010" in reply.content
        assert (await h.bot.guild_settings.get(h.guild.id)).ruleset == "edh-2010"  # the real SQLite file

        refused = await h.slash("config ruleset", user="alice", locale="ja", ruleset="commander")
        assert refused.ephemeral and "サーバー管理" in refused.content

        alice, bob = h.user("alice"), h.user("bob")
        board = await h.slash(
            "pod start", players=f"{alice.mention} {bob.mention}"
        )  # a text option with mentions
        await h.slash("pod life", player=bob, amount=-5)  # member options: a FakeMember or a name ("bob")
        await h.select(
            board.message, label="Player", values=[str(bob.id)]
        )  # select by custom_id or placeholder
        await h.click(board, label="+5", user="bob")  # or custom_id="pod:1:life:5"
        opened = await h.click(board, label="± …")  # a button that opens a modal
        await h.submit_modal(opened, {"amount": "-3"})
        await h.settle()  # let coalesced board edits land
        assert "2 bob (37)" in str(board.components)  # 40 - 5 + 5 - 3, on the live message

        await h.restart()  # new bot, same database file and world
        await h.click(board, label="+5")  # old message, persistent view still routes

        choices = await h.autocomplete("deck check", "commander", "Atra")  # [{"name": ..., "value": ...}]
        assert choices[0]["name"] == "Atraxa, Praetors' Voice"  # the value is a short card id
