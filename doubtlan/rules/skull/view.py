"""The one place that decides what a seat of Skull may see: its view (the game's
``public_facts`` and ``own``) and the events as shown to it (:data:`redact`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..base import Action, Event, View, redactor
from ..view import PerSeat, Seats
from .cards import Disc
from .events import BidMade, Lost, Passed, Placed, Round, Settled, Turned, Won
from .options import Options
from .state import Phase


@dataclass(slots=True)
class TableView(View):
    """A Skull table as one seat (or a spectator, ``seat`` None) sees it now: every stack's
    height and the discs turned, never a disc face down but its own."""

    game = "skull"

    # View's fields come first: ``seat``, then ``players`` to ``decision`` (discs laid and bids
    # made), which every seat sees alike, as it sees these:
    options: Options
    phase: Phase
    #: The round (from 1), the seat that laid first in it, and the seat on turn.
    round: int
    first: int
    active: int
    #: Each seat's stack (discs face down, and turned), discs in all, and made bids.
    stacks: PerSeat
    discs: PerSeat
    points: PerSeat
    #: The highest bid and its bidder, and the seats that passed.
    bid: int
    bidder: int | None
    passed: Seats
    #: The discs turned this round, each seat's in the order they were turned.
    turned: tuple[tuple[Disc, ...], ...]
    winner: int | None
    #: Every settled bid of this game (:class:`Settled`), and the seat the game waits for.
    record: tuple[Event, ...]
    awaiting: Seats
    #: What only this seat sees, and a spectator in their place: the discs in this seat's
    #: hand, its stack (bottom first), what it may do.
    unseen = {"hand": (), "stack": (), "legal": ()}
    hand: tuple[Disc, ...]
    stack: tuple[Disc, ...]
    legal: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move now."""
        return self.seat is not None and self.seat == self.active and self.phase is not \
            Phase.OVER

    def face_down(self, seat: int) -> int:
        """How many discs of ``seat``'s stack are still face down."""
        return self.stacks[seat] - len(self.turned[seat])

    @property
    def on_table(self) -> int:
        """Discs on every stack: the most a bid may be."""
        return sum(self.stacks)


#: ``event`` as ``seat`` may see it (None: a spectator): a disc laid, and a disc lost, are
#: their player's alone.
redact = redactor(
    public=(Round, BidMade, Passed, Turned, Settled, Won),
    mine={Placed: lambda event: Placed(event.seat, None, event.seal),
          Lost: lambda event: Lost(event.seat, None, event.left)},
)
