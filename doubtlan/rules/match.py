"""A match: several games at one table, the opening seat moving one seat on each game."""

from __future__ import annotations

from .idoubtit import IDoubtIt, Options
from .seeds import Seed, derive, seed_bytes


class Match:
    """Games at one table. Game 1 is opened by seat 0, game 2 by seat 1, and so on round.

    Each game's deal is drawn from the match's seed, so a seeded match replays exactly.

    >>> match = Match(3, seed=7)
    >>> [match.new_game().opener for _ in range(4)]
    [0, 1, 2, 0]
    """

    def __init__(self, players: int, options: Options | None = None, *, seed: Seed | None = None):
        self.options = options or Options()
        self.options.check_players(players)
        self.players = players
        self.seed = seed_bytes(seed)
        #: Games started so far.
        self.games = 0
        #: Games won by each seat.
        self.tally = [0] * players
        self.game: IDoubtIt | None = None

    def new_game(self) -> IDoubtIt:
        """Deal the next game. The previous one is counted in :attr:`tally` if it was won."""
        self._count(self.game)
        game = IDoubtIt(
            self.players,
            self.options,
            seed=derive(self.seed, f"game {self.games + 1}"),
            opener=self.games % self.players,
        )
        self.games += 1
        self.game = game
        return game

    def _count(self, game: IDoubtIt | None) -> None:
        if game is not None and game.winner is not None:
            self.tally[game.winner] += 1
