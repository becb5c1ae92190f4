"""The whole state of an I Know You Don't game, secrets included. Only the table's owner
holds it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..state import GameState
from .cards import Card, Declaration
from .options import Options


class Phase(enum.Enum):
    #: The active player lays a card and declares it.
    PLAYING = "playing"
    #: Priority goes round: pass, accept or challenge (and others may intercept).
    PRIORITY = "priority"
    #: The active player, intercepted with a card that does not match, may play a Wildcard.
    DECIDING = "deciding"
    #: The game has ended.
    OVER = "over"


PLAYING, PRIORITY, DECIDING, OVER = Phase.PLAYING, Phase.PRIORITY, Phase.DECIDING, Phase.OVER

#: Cards a hand is filled up to, tokens each player starts the match with, victory points
#: that win it.
HAND, TOKENS, TARGET = 5, 3, 15
#: A round lasts this many claims at least: whole turns round the table (rule 10).
ROUND_CLAIMS = 32
#: The victory points a round gives for the most round points, the second most, the third.
AWARDS = (5, 3, 1)
#: Rounds played past the last while the most victory points are shared (rule 10).
OVERTIME = 3


@dataclass(slots=True)
class State(GameState):
    """Every fact of one game. Every card is in exactly one of ``hands``, ``draw``,
    ``vault``, ``piles`` and ``card``; every token in ``tokens`` or ``pot``. Hands are kept
    sorted; the draw pile's top is its last card."""

    options: Options
    hands: list[list[Card]]
    draw: list[Card]
    active: int
    phase: Phase = Phase.PLAYING
    vault: list[Card] = field(default_factory=list)
    piles: list[list[Card]] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    pot: int = 0
    #: The card face down and what it was declared to be, while the claim waits.
    card: Card | None = None
    declaration: Declaration | None = None
    #: The seat with priority, and those who have passed this claim.
    priority: int | None = None
    passed: list[int] = field(default_factory=list)
    #: Who challenged the claim, and whether through an Interception (while deciding).
    challenger: int | None = None
    intercept: bool = False
    reason: str | None = None
    #: How many times the vault was shuffled into a new draw pile, over the whole match.
    reshuffles: int = 0
    #: The round being played (from 1), and the claims made in it.
    round: int = 1
    round_claims: int = 0
    #: Each seat's round points in this round (rule 6).
    score: list[int] = field(default_factory=list)
    #: The scorepad: for each round played, each seat's round points and victory points.
    pad: list[tuple[int, ...]] = field(default_factory=list)
    awards: list[tuple[int, ...]] = field(default_factory=list)
    #: Whether the winner was decided by a tie-break (rule 8), once the game has ended.
    tiebreak: bool = False

    def __post_init__(self) -> None:
        if not self.piles:
            self.piles = [[] for _ in range(self.players)]
        if not self.tokens:
            self.tokens = [TOKENS] * self.players
        if not self.score:
            self.score = [0] * self.players

    def cards(self) -> list[Card]:
        """Every card of the game, wherever it is."""
        every = [card for hand in self.hands for card in hand]
        every += self.draw + self.vault + [card for pile in self.piles for card in pile]
        return every + ([self.card] if self.card is not None else [])

    @property
    def victory(self) -> tuple[int, ...]:
        """Each seat's victory points: the scorepad's total."""
        return tuple(sum(awards[seat] for awards in self.awards)
                     for seat in range(self.players))

    @property
    def match_points(self) -> tuple[int, ...]:
        """Each seat's round points over the whole match, this round's included."""
        return tuple(self.score[seat] + sum(points[seat] for points in self.pad)
                     for seat in range(self.players))
