"""What happens at an I Know You Don't table.

The game stores every event whole. A seat sees them through
:func:`~doubtlan.rules.iknowyoudont.view.redact`, the one place that hides what it may not see.
Event kinds differ from I Doubt It's, so that the wire can tell every event apart.
"""

from __future__ import annotations

from ..base import Event, record
from .cards import Card, Declaration
from .state import TARGET


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
    everyone but ``seat``; ``seal``, which everyone sees, binds the card
    (:func:`~doubtlan.rules.seeds.seal`)."""

    kind = "played"
    seat: int
    declaration: Declaration
    card: Card | None
    seal: str


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
class RoundEnded(Event):
    """Round ``round`` is over: each seat's round ``points`` in it, the victory points it
    gave (``awards``) and each seat's total so far (``victory``). The next round's deal, if
    any, follows as :class:`Started`."""

    kind = "round"
    round: int
    points: tuple[int, ...]
    awards: tuple[int, ...]
    victory: tuple[int, ...]


@record
class Ended(Event):
    """The match is over: ``winner`` won, by ``reason``: ``"points"`` (15 victory points),
    ``"tokens"`` (a player lost their last token) or ``"rounds"`` (the last round was
    played); ``points``: each seat's victory points; ``tiebreak``: the most victory points
    were shared, and rule 8's tie-break chose among them."""

    kind = "ended"
    winner: int
    reason: str
    points: tuple[int, ...]
    tokens: tuple[int, ...]
    tiebreak: bool


#: A settled claim: one of these is added to the game's record for every claim.
Settled = Stood | Showdown


#: How each ending of a match is told (``Ended.reason``).
ENDINGS = {
    "points": f"with {TARGET} victory points",
    "tokens": "when a player lost their last token",
    "rounds": "on victory points after the last round",
}


def narrate(event: Event, names: dict[int, str | None]) -> str:
    """``event`` in a sentence, for a log (empty for the events a log leaves out)."""

    def who(seat: int) -> str:
        return names.get(seat) or f"seat {seat + 1}"

    if isinstance(event, Stood):
        return f"{who(event.seat)} declared {event.declaration.describe()}: it stood"
    if isinstance(event, Showdown):
        how = "intercepted" if event.intercept else "challenged"
        verdict = "a lie" if event.lie else "made true by a Wildcard" if event.wild else "true"
        return (f"{who(event.seat)} declared {event.declaration.describe()}; "
                f"{who(event.challenger)} {how}: {event.card.describe()}, {verdict}")
    if isinstance(event, RoundEnded):
        best = max(event.points)
        leaders = " and ".join(who(s) for s, p in enumerate(event.points) if p == best)
        return f"round {event.round} ends: {leaders} scored most ({best} round points)"
    if isinstance(event, Ended):
        line = f"{who(event.winner)} wins {ENDINGS.get(event.reason, '')}".rstrip()
        return line + (" (on the tie-break)" if event.tiebreak else "")
    return ""
