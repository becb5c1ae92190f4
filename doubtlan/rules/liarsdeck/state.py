"""The whole state of a Liar's Deck game, secrets included. Only the table's owner holds
it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..state import GameState
from .cards import Card, Rank
from .options import Options


class Phase(enum.Enum):
    #: The player on turn puts cards down, or calls.
    PLAYING = "playing"
    #: One player is left standing.
    OVER = "over"


PLAYING, OVER = Phase.PLAYING, Phase.OVER

#: The cards each player in the game is dealt a round, and the chambers of a revolver.
HAND, CHAMBERS = 5, 6


@dataclass(slots=True)
class State(GameState):
    """Every fact of one game. Each card of the deck is in exactly one of ``hands``,
    ``down`` (put down this round) and ``rest`` (not dealt this round)."""

    options: Options
    #: Each seat's lives left (the roulette: 1 until its bullet comes), the triggers it has
    #: pulled, and (secret) the chamber its bullet is in.
    lives: list[int]
    pulled: list[int]
    bullets: list[int]
    hands: list[list[Card]] = field(default_factory=list)
    down: list[Card] = field(default_factory=list)
    rest: list[Card] = field(default_factory=list)
    round: int = 0
    rank: Rank = Rank.QUEEN
    #: The seat on turn, and the claim waiting: who put which cards (None at a round's start).
    active: int = 0
    last: tuple[int, tuple[Card, ...]] | None = None
    phase: Phase = PLAYING
    #: The seats out of the game, in the order they went out.
    out: list[int] = field(default_factory=list)
    #: Times a seat was asked for a new move. (``turns`` counts the claims made, and
    #: ``records`` holds the settled ones: :class:`~.events.Believed` and
    #: :class:`~.events.Called`.)
    decision: int = 0

    def cards(self) -> list[Card]:
        """Every card of the deck, wherever it is."""
        return [card for hand in self.hands for card in hand] + self.down + self.rest

    def standing(self) -> list[int]:
        """The seats still in the game."""
        return [seat for seat in range(self.players) if self.lives[seat] > 0]
