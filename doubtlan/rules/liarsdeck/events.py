"""What happens at a Liar's Deck table. The game stores every event whole; a seat sees them
through :data:`~doubtlan.rules.liarsdeck.view.redact`. The kinds are Liar's Deck's own, so
that the wire tells them from the other games' events."""

from __future__ import annotations

from ..base import Event, record
from .cards import Card, Rank


@record
class Deal(Event):
    """Round ``round`` dealt: the table's ``rank``, the ``first`` player, and each seat's
    hand (None where the viewer may not see it; empty for a player who is out)."""

    kind = "deal"
    round: int
    rank: Rank
    first: int
    hands: tuple[tuple[Card, ...] | None, ...]
    sizes: tuple[int, ...]


@record
class Down(Event):
    """``seat`` put ``count`` cards face down (``cards`` None for everyone else); each card's
    seal, which everyone sees, binds it (:func:`~doubtlan.rules.seeds.seal`)."""

    kind = "down"
    seat: int
    count: int
    cards: tuple[Card, ...] | None
    seals: tuple[str, ...]


@record
class Believed(Event):
    """A settled claim: ``seat``'s ``count`` cards, said to be ``rank``s, stood (the next
    player, ``by``, put cards on them)."""

    kind = "believed"
    seat: int
    count: int
    rank: Rank
    by: int


@record
class Called(Event):
    """A settled claim: ``caller`` called ``seat``'s ``count`` cards a lie, and they were
    shown: ``lie`` (a card of them neither ``rank`` nor a Joker); ``loser`` lost the call."""

    kind = "called"
    seat: int
    count: int
    rank: Rank
    caller: int
    shown: tuple[Card, ...]
    lie: bool
    loser: int


@record
class Lost(Event):
    """``seat`` paid for a lost call: ``lives`` left, ``pulled`` triggers of its revolver
    (the roulette: zero otherwise), and whether it is ``out``."""

    kind = "lost"
    seat: int
    lives: int
    pulled: int
    out: bool


@record
class Standing(Event):
    """The game is over: ``seat`` is the last player standing."""

    kind = "standing"
    seat: int


#: A settled claim, as :attr:`TableView.record` holds them.
Settled = Believed | Called
