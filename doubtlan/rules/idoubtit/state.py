"""The whole state of an I Doubt It game, secrets included. Only the table's owner holds it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..cards import Card, Rank
from ..state import GameState
from .actions import Claim
from .options import Options


class Phase(enum.Enum):
    #: The seat whose turn it is lays cards (in the open mode, others may call meanwhile).
    LAYING = "laying"
    #: A claim waits for the other seats to doubt it or let it stand.
    WINDOW = "window"
    #: Somebody has won.
    OVER = "over"


# Module constants: reading an enum member through its class is slow in Python 3.11, and
# the engine reads these on every action.
LAYING, WINDOW, OVER = Phase.LAYING, Phase.WINDOW, Phase.OVER

#: Rounds of claims (a claim per player each) in which no hand becomes smaller than the
#: smallest any hand has held, after which the game ends and the fewest cards win (rule 8).
STALE_ROUNDS = 40


@dataclass(slots=True)
class State(GameState):
    """Every fact of one game. Every card is in exactly one of ``hands``, ``pile``, ``laid``
    and ``claim_cards``; :meth:`cards` lists them all. Each hand is kept sorted."""

    options: Options
    hands: list[list[Card]]
    rank: Rank
    #: Seat laying now; during a window, the claimer.
    turn: int
    phase: Phase = Phase.LAYING
    #: Cards settled face down in the middle.
    pile: list[Card] = field(default_factory=list)
    #: Which of the pile's cards each seat put there (each seat knows its own).
    pile_by_seat: list[list[Card]] = field(default_factory=list)
    #: Cards laid so far this turn, face down, not yet claimed.
    laid: list[Card] = field(default_factory=list)
    #: The claim waiting to be settled, its seat and its cards.
    claim: Claim | None = None
    claimer: int | None = None
    claim_cards: list[Card] = field(default_factory=list)
    #: The seats answering the window, clockwise from the claimer, and their answers so far.
    window: tuple[int, ...] = ()
    answers: dict[int, bool] = field(default_factory=dict)
    #: (``records``, GameState's, holds every settled claim, a :class:`Resolved`, in order.)
    #: How many of each seat's claims were bluffs (told to everyone when the game is won).
    bluffs: list[int] = field(default_factory=list)
    #: The fewest cards any hand has held when a claim was settled, and how many claims
    #: have been settled since that last fell (rule 8); when each seat's hand last changed
    #: size (the ``version`` that change made; 0: never).
    low: int = 1 << 30
    stale: int = 0
    changed: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.pile_by_seat:
            self.pile_by_seat = [[] for _ in range(self.players)]
        if not self.bluffs:
            self.bluffs = [0] * self.players
        if not self.changed:
            self.changed = [0] * self.players

    def cards(self) -> list[Card]:
        """Every card of the game, wherever it is."""
        every = [card for hand in self.hands for card in hand]
        return every + self.pile + self.laid + self.claim_cards

    @property
    def open_claim(self) -> bool:
        """True while an open-mode claim can still be called (nothing laid since)."""
        return self.claim is not None and self.phase is LAYING

    @property
    def required_rank(self) -> Rank:
        """The rank the seat to lay must claim."""
        return self.rank.next() if self.open_claim else self.rank
