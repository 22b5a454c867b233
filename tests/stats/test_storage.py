"""The statistics in SQL (bot/storage/stats.py), on SQLite and PostgreSQL: random games are played through
the real pod service (so each summary is written by the finishing transaction), then every figure the
SQL gives is compared with the same figure counted in Python from the games' records. Games finished
before the statistics existed are summarised by the backfill, once however often it runs."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta

from bot.domain.pod import PodGameRecord
from bot.domain.stats.figures import MIN_GAMES_TO_RANK, streaks
from bot.domain.stats.summary import combined_identity, summarise
from bot.services.pods import PodService
from bot.services.stats import StatsService
from bot.storage.db import Database
from tests.stats.games import IDENTITIES, START, random_game

GUILD = 10
DEFAULT_GAMES, FULL_GAMES = 30, 300


async def add_cards(db: Database) -> None:
    """The commanders' card rows, so the finish can read their colour identities."""
    for name, identity in IDENTITIES.items():
        await db.execute(
            "INSERT INTO cards (name, layout, type_line, color_identity, commander_legality, data) "
            "VALUES (?, 'normal', 'Legendary Creature', ?, 'legal', '{}')",
            (name, identity),
        )


async def play_through_service(db: Database, seeds: range, guild_id: int = GUILD) -> list[PodGameRecord]:
    """Each seeded game replayed change by change through PodService, at the times its events carry."""
    now = [""]
    service = PodService(db, clock=lambda: now[0])
    records = []
    for seed in seeds:
        record, events = random_game(seed, start=START + timedelta(days=seed))
        now[0] = events[0].at
        first = events[0].data
        loaded = await service.start_game(
            guild_id=guild_id,
            channel_id=None,
            created_by=events[0].actor,
            players=[(p["user_id"], p["name"]) for p in first["players"]],
            ruleset="commander",
        )
        for event in events[1:]:
            now[0] = event.at
            loaded = await service.change(loaded.game_id, event.actor, event.kind, manager=True, **event.data)
        assert loaded.record is not None
        records.append(loaded.record)
    return records


def expected_figures(records: list[PodGameRecord]) -> dict:
    summaries = [summarise(r, started_at=None, identities=IDENTITIES) for r in records if r.turns > 0]
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    results: dict[int, list[bool]] = defaultdict(list)
    meetings: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    commanders: Counter[str] = Counter()
    for summary in sorted(summaries, key=lambda s: (s.ended_at, s.game_id)):
        for player in summary.players:
            games[player.user_id] += 1
            wins[player.user_id] += player.won
            results[player.user_id].append(player.won)
            commanders.update(n for n in (player.commander, player.partner) if n)
            for other in summary.players:
                if other.user_id != player.user_id:
                    tally = meetings[player.user_id, other.user_id]
                    tally[0] += 1
                    tally[1] += player.won
                    tally[2] += other.won
    return {
        "summaries": summaries,
        "games": games,
        "wins": wins,
        "results": results,
        "meetings": meetings,
        "commanders": commanders,
    }


async def check_figures(service: StatsService, records: list[PodGameRecord]) -> None:
    expected = expected_figures(records)
    server = await service.server(GUILD)
    assert server.games == len(expected["summaries"])
    assert server.players == len(expected["games"])
    assert sum(t.games for t in server.per_month) == server.games
    for user, games in expected["games"].items():
        member = await service.member(GUILD, user)
        assert (member.games, member.wins) == (games, expected["wins"][user])
        assert 0.0 <= member.rate <= 1.0
        assert member.streaks == streaks(expected["results"][user])
        assert sum(t.games for t in member.per_month) == games
        assert sum(t.wins for t in member.by_commander) <= member.wins
        for line in member.head_to_head:
            assert [line.games, line.wins, line.losses] == expected["meetings"][user, line.opponent]
    top = server.commanders[0]
    assert top.games == max(expected["commanders"].values())
    assert (await service.commander(GUILD, top.label)).games == expected["commanders"][top.label]
    ranked = sorted(
        (u for u, g in expected["games"].items() if g >= MIN_GAMES_TO_RANK),
        key=lambda u: (-expected["wins"][u] / expected["games"][u], -expected["wins"][u], u),
    )
    assert [line.user_id for line in server.leaderboard] == ranked[:10]
    rates = [line.rate for line in server.leaderboard]
    assert rates == sorted(rates, reverse=True)
    best = max((streaks(r).best for r in expected["results"].values()), default=0)
    assert (server.streaks[0].streak if server.streaks else 0) == best


async def test_figures_in_sql_match_the_games_counted_in_python(db: Database, full_run: bool) -> None:
    await add_cards(db)
    records = await play_through_service(db, range(FULL_GAMES if full_run else DEFAULT_GAMES))
    await check_figures(StatsService(db), records)
    stored = {r[0] for r in await db.fetchall("SELECT colour_identity FROM stats_players")}
    known = list(IDENTITIES.values())
    assert stored - {None} <= {combined_identity([a, b]) for a in known for b in known}, stored
    assert stored - {None}, "the finish read the commanders' colour identities from the card rows"


async def test_the_backfill_summarises_older_games_once(db: Database) -> None:
    await add_cards(db)
    records = await play_through_service(db, range(12))
    before = await db.fetchall("SELECT * FROM stats_players ORDER BY game_id, user_id")
    await db.execute("DELETE FROM stats_players")
    await db.execute("DELETE FROM stats_games")  # as if the games had finished before migration 0050
    service = StatsService(db)
    assert await service.backfill() == 12
    assert await service.backfill() == 0
    after = await db.fetchall("SELECT * FROM stats_players ORDER BY game_id, user_id")
    assert [dict(r) for r in after] == [dict(r) for r in before]
    await check_figures(service, records)


async def test_one_servers_games_stay_out_of_anothers_figures(db: Database) -> None:
    await play_through_service(db, range(4), guild_id=GUILD)
    await play_through_service(db, range(4, 8), guild_id=GUILD + 1)
    service = StatsService(db)
    assert (await service.server(GUILD)).games + (await service.server(GUILD + 1)).games == int(
        await db.scalar("SELECT COUNT(*) FROM stats_games WHERE counted = 1")
    )
    assert (await service.server(999)).games == 0
    assert (await service.member(999, 1)).games == 0
