"""A match: several games at one table, the opening seat moving one seat on each game."""

from __future__ import annotations

from typing import Any

from .base import Game
from .idoubtit import IDoubtIt
from .seeds import Seed, derive, seed_bytes


class Match:
    """Games at one table. Game 1 is opened by seat 0, game 2 by seat 1, and so on round.

    Each game's deal is drawn from the match's seed, so a seeded match replays exactly.

    >>> match = Match(3, seed=7)
    >>> [match.new_game().opener for _ in range(4)]
    [0, 1, 2, 0]
    """

    def __init__(self, players: int, options: Any = None, *, seed: Seed | None = None,
                 game: type[Game[Any, Any]] = IDoubtIt) -> None:
        #: The game played (each game of the match is a new one of this class).
        self.kind = game
        self.options = options or game.options_type()
        self.options.check_players(players)
        self.players = players
        self.seed = seed_bytes(seed)
        #: Games started so far.
        self.games = 0
        #: The game being played (or the last one).
        self.game: Game[Any, Any] | None = None
        self._won = [0] * players  # by the games before this one

    @property
    def tally(self) -> list[int]:
        """Games won by each seat so far, the current game included once it is won."""
        tally = list(self._won)
        if self.game is not None and self.game.winner is not None:
            tally[self.game.winner] += 1
        return tally

    @property
    def next_opener(self) -> int:
        """The seat that opens the next game."""
        return self.games % self.players

    def new_game(self, seed: bytes | None = None) -> Game[Any, Any]:
        """Deal the next game, opened by the seat after the last game's opener: shuffled
        with ``seed``, or by default with a seed drawn from the match's."""
        self._won = self.tally
        game = self.kind(
            self.players,
            self.options,
            seed=derive(self.seed, f"game {self.games + 1}") if seed is None else seed,
            opener=self.next_opener,
        )
        self.games += 1
        self.game = game
        return game
