"""What happens at an I Doubt It table.

The game stores every event whole. A seat sees them through
:func:`~doubtlan.rules.idoubtit.view.redact`, the one place that hides what it may not see.
"""

from __future__ import annotations

from ..base import Event, record
from ..cards import Card, Rank
from .actions import Claim


@record
class Dealt(Event):
    """The deal. ``hands[s]`` is seat ``s``'s hand, or None where the viewer may not see it."""

    kind = "dealt"
    opener: int
    rank: Rank
    sizes: tuple[int, ...]
    hands: tuple[tuple[Card, ...] | None, ...]


@record
class Laid(Event):
    """``seat`` laid a card face down; ``count`` cards are laid so far this turn.

    ``card`` is None for everyone but the seat that laid it; ``seal``, which everyone sees,
    binds the card (:func:`~doubtlan.rules.seeds.seal`).
    """

    kind = "laid"
    seat: int
    count: int
    card: Card | None
    seal: str


@record
class Announced(Event):
    """``seat`` claims ``claim``. ``window`` is True when a challenge window opens for it."""

    kind = "announced"
    seat: int
    claim: Claim
    window: bool


@record
class Answered(Event):
    """``seat`` answered the claim in the window. ``doubt`` is hidden (None) from others."""

    kind = "answered"
    seat: int
    doubt: bool | None


@record
class Resolved(Event):
    """A claim was settled. Everyone sees all of it.

    When nobody doubted, the laid cards joined the pile unseen and ``doubter``, ``shown``,
    ``honest`` and ``taker`` are None. When someone doubted, ``shown`` are the laid cards,
    ``honest`` says whether every one was of the claimed rank, and ``taker`` took the
    ``taken`` cards (the shown cards and the pile). ``next_rank`` is the rank required next.
    """

    kind = "resolved"
    seat: int
    claim: Claim
    shown: tuple[Card, ...] | None
    doubter: int | None
    honest: bool | None
    taker: int | None
    taken: int
    next_rank: Rank


@record
class Won(Event):
    """``seat`` won: a claim of theirs was settled with their hand empty; or, with
    ``stalemate``, the game went nowhere for :data:`~.state.STALE_ROUNDS` rounds of claims
    and ``seat`` held the fewest cards (docs/rules.md, rule 8).

    ``bluffs[s]`` is how many of seat ``s``'s claims in this game were bluffs: the count is
    told to everyone at the end, the cards of claims that stood never are.
    """

    kind = "won"
    seat: int
    bluffs: tuple[int, ...]
    stalemate: bool
