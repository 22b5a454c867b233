"""Invariants of a Horde or God game, checked after every step by the tests, the fuzz run and the
benchmark (the Hydra's are in ``bot.domain.hydra.invariants``)."""

from __future__ import annotations

from collections import Counter

from bot.domain.challenge.creatures import CreatureDeckGame
from bot.domain.challenge.decks import CURRENT_RULES
from bot.domain.challenge.god import XENAGOS, GodGame


def check_invariants(game: CreatureDeckGame) -> None:
    """Raise AssertionError naming the broken invariant.

    - the 60 cards are all accounted for, each once (library, battlefield, graveyard, exile, the
      cards revealed and the spell being cast) and the deck is the printed deck;
    - only permanents are on the battlefield, no negative damage;
    - the players' life is exactly 20 + gains + their own changes − damage − life loss;
    - every combat dealt what its unblocked attackers' power added up to when it was dealt, or 0;
    - the outcome agrees with the board (won ⇒ the deck's win condition; lost ⇒ no life left or a
      concession), and the God's Xenagos never left while a Reveler remained, nor stays with lethal
      damage once none is left.
    """
    ids = (
        game.library
        + [p.card_id for p in game.battlefield]
        + game.graveyard
        + game.exile
        + game.stack
        + game.revealed
    )
    assert sorted(ids) == list(range(60)), f"cards not all accounted for: {Counter(ids)}"
    assert Counter(game.card_names) == Counter({c.name: c.count for c in game.cards.values()}), "not the deck"
    for permanent in game.battlefield:
        assert permanent.card.is_permanent, f"{permanent.name} on the battlefield is not a permanent"
        assert permanent.damage >= 0, f"negative damage on {permanent.name}"
        assert game.name_of(permanent.card_id) == permanent.name
    assert min(game.ledger["gained"], game.ledger["damage"], game.ledger["lost"]) >= 0, game.ledger
    expected = (
        game.starting_life
        + game.ledger["gained"]
        + game.ledger["adjusted"]
        - game.ledger["damage"]
        - game.ledger["lost"]
    )
    assert game.life == expected, f"life from nowhere: {game.life} != {expected} {game.ledger}"
    for step in game.combat_steps:
        assert step.dealt in (0, sum(power for _, power in step.attackers)), f"stale combat damage: {step}"
    if game.outcome == "won":
        assert game.players_won(), "won without the deck's win condition"
    if game.outcome == "lost":
        assert game.life <= 0 or any(e.key == "challenge.log.conceded" for e in game.events), (
            "lost with life left"
        )
    if game.over:
        assert game.pending is None
    else:
        assert game.life > 0, "no life left and not lost"
    if isinstance(game, GodGame) and game.outcome != "won":
        assert any(p.name == XENAGOS for p in game.battlefield), "Xenagos left while the game goes on"
    if isinstance(game, GodGame) and not game.over and game.rules >= CURRENT_RULES and not game.revelers():
        assert not any(p.name == XENAGOS and p.damage >= p.toughness for p in game.battlefield), (
            "Xenagos has lethal damage, no Revelers hold him, and the game goes on"
        )
