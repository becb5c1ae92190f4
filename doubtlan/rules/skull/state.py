"""The whole state of a Skull game, secrets included. Only the table's owner holds it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..state import GameState
from .cards import Disc
from .options import Options


class Phase(enum.Enum):
    #: Each player, in turn from the round's first, lays their first disc.
    OPENING = "opening"
    #: The player on turn lays another disc, or opens the bidding.
    LAYING = "laying"
    #: The player on turn raises the bid, or passes.
    BIDDING = "bidding"
    #: The highest bidder turns discs over, one at a time.
    TURNING = "turning"
    #: One player has won.
    OVER = "over"


OPENING, LAYING, BIDDING, TURNING, OVER = Phase


@dataclass(slots=True)
class State(GameState):
    """Every fact of one game. Each seat's discs are in exactly one of ``hands`` and
    ``stacks`` (bottom first), and ``lost`` counts those it has lost for good."""

    options: Options
    hands: list[list[Disc]]
    stacks: list[list[Disc]]
    lost: list[int]
    #: Each seat's made bids.
    points: list[int]
    round: int = 0
    phase: Phase = OPENING
    #: The seat that lays first this round, and the seat on turn.
    first: int = 0
    active: int = 0
    #: The highest bid and its bidder (0 and None before the bidding), the seats that passed.
    bid: int = 0
    bidder: int | None = None
    passed: list[int] = field(default_factory=list)
    #: The discs turned this round, each seat's in the order they were turned.
    turned: list[list[Disc]] = field(default_factory=list)

    def discs(self, seat: int) -> int:
        """How many discs ``seat`` still has."""
        return len(self.hands[seat]) + len(self.stacks[seat])

    def in_game(self) -> list[int]:
        """The seats that still have discs."""
        return [seat for seat in range(self.players) if self.discs(seat)]

    def on_table(self) -> int:
        """Discs face down on every stack: the most a bid may be."""
        return sum(map(len, self.stacks))
