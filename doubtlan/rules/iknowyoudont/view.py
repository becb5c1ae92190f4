"""The one place that decides what a seat of I Know You Don't may see.

:func:`make_view` builds a seat's view and :func:`redact` hides what a seat may not see in an
event. Everything a seat or a spectator is shown, now or later, passes through here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base import Action, Event, View, redactor
from .cards import Card, Declaration
from .events import (
    Challenged,
    Drew,
    Ended,
    Passed,
    Played,
    Reshuffled,
    Revealed,
    RoundEnded,
    Showdown,
    Started,
    Stood,
)
from .options import Options
from .state import DECIDING, PLAYING, PRIORITY, Phase, State


@dataclass(slots=True)
class TableView(View):
    """What one seat (``seat``) or a spectator (``seat`` None) may see at one moment. A copy
    made for its reader."""

    game = "iknowyoudont"

    # View's fields come first: ``seat``, then ``players`` to ``decision`` (the cards played),
    # which every seat sees alike, as it sees these:
    options: Options
    phase: Phase
    #: The active player.
    active: int
    #: The claim waiting: what the face-down card was declared to be.
    declaration: Declaration | None
    #: The seat with priority; who has passed this claim.
    priority: int | None
    passed: tuple[int, ...]
    #: Who challenged the waiting claim, and how (while the active player decides).
    challenger: int | None
    intercept: bool
    #: The challenged card, shown, while the active player decides on a Wildcard.
    shown: Card | None
    hand_sizes: tuple[int, ...]
    tokens: tuple[int, ...]
    pot: int
    #: Each seat's scoring pile this round: the cards it won in showdowns, face up.
    piles: tuple[tuple[Card, ...], ...]
    #: The round (from 1) and the claims made in it; each seat's round points in it.
    round: int
    round_claims: int
    points: tuple[int, ...]
    #: The scorepad: for each round played, each seat's round points and victory points.
    pad: tuple[tuple[int, ...], ...]
    awards: tuple[tuple[int, ...], ...]
    #: Cards in the draw pile and in the vault.
    draw: int
    vault: int
    awaiting: tuple[int, ...]
    #: Every settled claim of this game: :class:`Stood` and :class:`Showdown` records.
    record: tuple[Event, ...]
    winner: int | None
    #: Why the match ended (``"points"``, ``"tokens"``, ``"rounds"``), once it has, and
    #: whether the tie-break chose the winner among equal victory points (rule 8).
    reason: str | None
    tiebreak: bool
    # What only this seat sees (empty for a spectator):
    hand: tuple[Card, ...]
    #: The card this seat laid, while its claim waits.
    my_card: Card | None
    legal: tuple[Action, ...]

    unseen = {"hand": (), "my_card": None, "legal": ()}

    @property
    def victory(self) -> tuple[int, ...]:
        """Each seat's victory points: the scorepad's total."""
        return tuple(sum(awards[seat] for awards in self.awards)
                     for seat in range(self.players))

    @property
    def my_turn(self) -> bool:
        """True when this seat is to lay a card now."""
        return self.seat is not None and self.seat == self.active and self.phase is PLAYING

    @property
    def moment(self) -> tuple[object, ...]:
        return (self.decision, self.phase, self.priority)

    @property
    def window_key(self) -> tuple[object, ...] | None:
        return window_key(self.phase, self.decision, self.priority)


def window_key(phase: Phase, turns: int, priority: int | None) -> tuple[object, ...] | None:
    """The key of the wait the window clock times: each player holding priority has their own
    wait (a new claim, or priority moving on, starts it again), and so has the Wildcard
    question."""
    if phase is PRIORITY:
        return ("priority", turns, priority)
    if phase is DECIDING:
        return ("deciding", turns)
    return None


def public_facts(state: State, claims: tuple[Event, ...],
                 awaiting: tuple[int, ...]) -> dict[str, object]:
    """What every seat sees alike, by :class:`TableView`'s field names. The game builds it
    once per version and shares it."""
    return dict(
        phase=state.phase, active=state.active, declaration=state.declaration,
        priority=state.priority, passed=tuple(state.passed), challenger=state.challenger,
        intercept=state.intercept,
        shown=state.card if state.phase is Phase.DECIDING else None,
        hand_sizes=tuple(map(len, state.hands)), tokens=tuple(state.tokens), pot=state.pot,
        piles=tuple(map(tuple, state.piles)), round=state.round,
        round_claims=state.round_claims, points=tuple(state.score), pad=tuple(state.pad),
        awards=tuple(state.awards), draw=len(state.draw), vault=len(state.vault),
        awaiting=awaiting, record=claims, winner=state.winner, reason=state.reason,
        tiebreak=state.tiebreak)


def own_facts(state: State, seat: int, legal: tuple[Action, ...]) -> tuple[object, ...]:
    """What ``seat`` alone sees: its hand, its card face down while its claim waits, what
    it may do."""
    return tuple(state.hands[seat]), state.card if seat == state.active else None, legal


def _started(event: Started, seat: int | None) -> Started:
    hands = tuple(hand if i == seat else None for i, hand in enumerate(event.hands))
    return Started(event.active, hands, event.sizes, event.draw, event.tokens)


#: ``event`` as ``seat`` may see it (``None``: a spectator): a card played and the cards
#: drawn are the seat's own; each seat sees its own hand of a deal.
redact = redactor(
    public=(Passed, Challenged, Revealed, Stood, Showdown, Reshuffled, RoundEnded, Ended),
    mine={Played: lambda event: Played(event.seat, event.declaration, None, event.seal),
          Drew: lambda event: Drew(event.seat, event.count, None)},
    each={Started: _started},
)
