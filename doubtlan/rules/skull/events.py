"""What happens at a Skull table. The game stores every event whole; a seat sees them
through :data:`~doubtlan.rules.skull.view.redact`."""

from __future__ import annotations

from ..base import Event, record
from .cards import Disc


@record
class Round(Event):
    """Round ``round`` begins: every disc back in its player's hand, ``first`` to lay;
    ``discs``: how many each seat still has."""

    kind = "round"
    round: int
    first: int
    discs: tuple[int, ...]


@record
class Placed(Event):
    """``seat`` laid a disc face down on its stack. Only ``seat`` is told which (``disc``
    is None for everyone else); everyone is told its seal, which binds it
    (:func:`~doubtlan.rules.seeds.seal`), so that the host cannot change it once it is
    laid."""

    kind = "placed"
    seat: int
    disc: Disc | None
    seal: str


@record
class BidMade(Event):
    """``seat`` bid to turn ``count`` Flowers."""

    kind = "bid"
    seat: int
    count: int


@record
class Passed(Event):
    """``seat`` dropped out of the bidding."""

    kind = "passed"
    seat: int


@record
class Turned(Event):
    """The bidder, ``seat``, turned the top face-down disc of ``owner``'s stack: ``disc``."""

    kind = "turned"
    seat: int
    owner: int
    disc: Disc


@record
class Settled(Event):
    """A settled bid: ``seat`` bid ``count`` and turned ``turned`` (each seat's discs turned,
    in order); ``made``: all Flowers; otherwise ``skull``, the Skull's owner."""

    kind = "settled"
    seat: int
    count: int
    turned: tuple[tuple[Disc, ...], ...]
    made: bool
    skull: int | None
    #: The bidder's points after it.
    points: int


@record
class Lost(Event):
    """``seat`` lost a disc drawn at random from its own, for a failed bid: ``disc``, which
    only it sees (None for everyone else); ``left``: its discs now (none: it is out)."""

    kind = "lost"
    seat: int
    disc: Disc | None
    left: int


@record
class Won(Event):
    """The game is over: ``seat`` won (``points``: its made bids; fewer than the game asks
    when it won as the last player with discs)."""

    kind = "won"
    seat: int
    points: int
