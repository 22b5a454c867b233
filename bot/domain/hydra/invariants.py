"""Invariants of a Hydra game, checked after every step by the tests and the fuzz run."""

from __future__ import annotations

from collections import Counter

from bot.domain.challenge import hydra_cards as C
from bot.domain.challenge.hydra import DamageStep, HydraGame


def check_invariants(game: HydraGame) -> None:
    """Raise AssertionError naming the broken invariant.

    - the 60 Hydra cards are all accounted for, each exactly once (library, battlefield, graveyard,
      the spell being cast) and the deck is the H1 deck;
    - only Heads are on the battlefield; no negative damage;
    - every player's life is exactly starting life + Hero's Reward gains + the players' own
      changes − damage − life loss (no life from nowhere), and no ledger entry is negative;
    - the outcome agrees with the board (won ⇒ no heads; lost ⇒ no challenger left);
    - every damage step dealt what the heads untapped at that moment add up to (1 per Hydra Head,
      2 per elite Head), or nothing when the players prevented it.
    """
    ids = (
        game.library
        + [h.card_id for h in game.battlefield if not h.token]
        + game.graveyard
        + game.stack
        + game.exile
    )
    assert sorted(ids) == list(range(C.DECK_SIZE)), f"cards not all accounted for: {Counter(ids)}"
    assert Counter(game.card_names) == Counter({c.name: c.count for c in C.CARDS.values()}), "not the H1 deck"
    for head in game.battlefield:
        assert head.card.is_head, f"{head.name} on the battlefield is not a Head"
        assert head.damage >= 0, f"negative damage on {head.name}"
        assert head.token or game.name_of(head.card_id) == head.name
    for player in game.players:
        assert min(player.reward_gain, player.damage_taken, player.life_lost) >= 0, (
            f"negative ledger {player}"
        )
        expected = (
            player.starting_life
            + player.reward_gain
            + player.adjusted
            - player.damage_taken
            - player.life_lost
        )
        assert player.life == expected, f"life from nowhere: {player}"
        assert player.lost or player.life > 0, f"{player.name} at {player.life} life has not lost"
    if game.outcome == "won":
        assert not game.battlefield, "won with heads on the battlefield"
    if game.outcome == "lost":
        assert not game.alive(), "lost with a challenger standing"
    if game.over:
        assert game.pending is None
    for step in game.damage_steps:
        check_damage_step(step)


def check_damage_step(step: DamageStep) -> None:
    """Damage dealt = the untapped heads at that moment (elites count 2), or 0 if prevented."""
    expected = sum(2 if C.CARDS[name].elite else (1 if name == C.HYDRA_HEAD else 0) for name in step.untapped)
    expected -= step.tokens  # a token copy of a Hydra Head is no card named Hydra Head
    assert step.untapped_output == expected, f"damage step miscounted: {step}"
    assert step.dealt in (0, expected), f"damage step dealt a stale amount: {step}"
