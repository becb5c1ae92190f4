"""What happens at an I Know You Don't table.

The game stores every event whole. A seat sees them through
:func:`~doubtlan.rules.iknowyoudont.view.redact`, the one place that hides what it may not see.
Event kinds differ from I Doubt It's, so that the wire can tell every event apart.
"""

from __future__ import annotations

from ..base import Event, record
from .cards import Card, Declaration


@record
class Started(Event):
    """The deal. ``hands[s]`` is seat ``s``'s hand, or None where the viewer may not see it."""

    kind = "started"
    active: int
    hands: tuple[tuple[Card, ...] | None, ...]
    sizes: tuple[int, ...]
    draw: int
    tokens: tuple[int, ...]


@record
class Played(Event):
    """``seat`` laid a card face down and declared ``declaration``. ``card`` is None for
    everyone but ``seat``."""

    kind = "played"
    seat: int
    declaration: Declaration
    card: Card | None


@record
class Passed(Event):
    """``seat`` had priority and passed."""

    kind = "passed"
    seat: int


@record
class Challenged(Event):
    """``seat`` challenged the claim; ``intercept``: through an Interception card."""

    kind = "challenged"
    seat: int
    intercept: bool


@record
class Revealed(Event):
    """The challenged card, shown to everyone; ``matches``: it bears the declaration out."""

    kind = "revealed"
    seat: int
    card: Card
    matches: bool


@record
class Stood(Event):
    """A settled claim that stood (accepted by ``by``, or passed by everyone: ``by`` None).
    Its card went to the vault unseen."""

    kind = "stood"
    seat: int
    declaration: Declaration
    by: int | None

    def describe(self) -> str:
        return f"{self.declaration.describe()}: stood"


@record
class Showdown(Event):
    """A settled claim that was challenged: ``card`` was shown; ``wild``: the active player
    discarded a Wildcard to make it count as matching; ``winner`` and ``loser`` are the
    showdown's (a token passed from the loser to the winner, through the pot)."""

    kind = "showdown"
    seat: int
    declaration: Declaration
    card: Card
    challenger: int
    intercept: bool
    wild: bool
    winner: int
    loser: int

    @property
    def lie(self) -> bool:
        """Whether the claim was judged a lie (the challenger won)."""
        return self.winner == self.challenger

    def describe(self) -> str:
        how = "intercepted" if self.intercept else "challenged"
        verdict = "a lie" if self.lie else "a Wildcard made it true" if self.wild else "true"
        return (f"{self.declaration.describe()}: {self.card.describe()}, {how} by seat "
                f"{self.challenger + 1}: {verdict}")


@record
class Drew(Event):
    """``seat`` drew ``count`` cards; ``cards`` is None for everyone but ``seat``."""

    kind = "drew"
    seat: int
    count: int
    cards: tuple[Card, ...] | None


@record
class Reshuffled(Event):
    """The draw pile ran out: the vault's ``count`` cards were shuffled into a new one."""

    kind = "reshuffled"
    count: int


@record
class Ended(Event):
    """The game is over: ``winner`` won, by ``reason``: ``"points"`` (15 victory points),
    ``"tokens"`` (a player lost their last token), ``"cards"`` (nobody held a card) or
    ``"deck"`` (the vault was shuffled in for the third time)."""

    kind = "ended"
    winner: int
    reason: str
    points: tuple[int, ...]
    tokens: tuple[int, ...]


#: A settled claim: one of these is added to the game's record for every claim.
Settled = Stood | Showdown
