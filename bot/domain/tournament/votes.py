"""The democratic vote (T3): at the end of a game each player votes for one OTHER player at that table.

Rules enforced here, shared by the CLI and the bot:
* the voter and the votee both played that game (players eliminated during the game still vote);
* nobody votes for themselves;
* one vote per player: voting again replaces the earlier vote, until the vote closes;
* the vote closes when every player has voted (or at the deadline, which the service keeps).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.domain.tournament.errors import TournamentError
from bot.domain.tournament.scoring import Player


def validate_vote(
    game: object, players: Iterable[Player], voter: Player, votee: Player, known: Iterable[Player] = ()
) -> None:
    """Refuse a vote that T3 does not allow. ``game`` labels the game in the message.

    ``known`` (when given) lists every player of the tournament, so a name that appears nowhere is
    reported as unknown (a typo) rather than as someone from another table.
    """
    at_table = set(players)
    everyone = at_table | set(known)
    for who in (voter, votee):
        if known and who not in everyone:
            raise TournamentError("vote_unknown_player", game=game, voter=voter, votee=votee, player=who)
    if voter not in at_table:
        raise TournamentError("vote_voter_not_at_table", game=game, voter=voter, votee=votee)
    if votee not in at_table:
        raise TournamentError("vote_votee_not_at_table", game=game, voter=voter, votee=votee)
    if voter == votee:
        raise TournamentError("vote_for_self", game=game, voter=voter, votee=votee)


@dataclass
class Ballot:
    """The open vote of one game: who voted for whom so far."""

    game: object
    players: tuple[Player, ...]
    votes: dict[Player, Player] = field(default_factory=dict)
    closed: bool = False

    def cast(self, voter: Player, votee: Player) -> None:
        """Record or change ``voter``'s vote; refused once the vote has closed."""
        if self.closed:
            raise TournamentError("vote_closed", game=self.game)
        validate_vote(self.game, self.players, voter, votee)
        self.votes[voter] = votee

    @property
    def cast_count(self) -> int:
        """How many players have voted: the only figure shown while the vote is secret."""
        return len(self.votes)

    @property
    def everyone_voted(self) -> bool:
        return all(player in self.votes for player in self.players)

    def received(self) -> Counter[Player]:
        """Votes received per player (all players present, zero included)."""
        counts: Counter[Player] = Counter({player: 0 for player in self.players})
        counts.update(self.votes.values())
        return counts


def validate_votes(
    game: object, players: Iterable[Player], votes: Mapping[Player, Player], known: Iterable[Player] = ()
) -> None:
    """Check every vote of a finished game (used when a whole game arrives at once, e.g. the CLI)."""
    players = tuple(players)
    known = tuple(known)
    for voter, votee in votes.items():
        validate_vote(game, players, voter, votee, known)
