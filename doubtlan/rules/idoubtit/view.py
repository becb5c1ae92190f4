"""The one place that decides what a seat of I Doubt It may see.

:func:`make_view` builds a seat's view and :func:`redact` hides what a seat may not see in an
event. Everything a seat or a spectator is shown, now or later, passes through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base import Action, View, redactor
from ..cards import Card, Rank
from .actions import Claim
from .events import Announced, Answered, Dealt, Laid, Resolved, Won
from .options import Options
from .state import LAYING, Phase, State


@dataclass(slots=True)
class TableView(View):
    """What one seat (``seat``) or a spectator (``seat`` None) may see at one moment.

    A view is a copy made for its reader: changing it changes nothing at the table. (It is
    not frozen because a frozen dataclass of this size costs ten times as much to build, and
    views are built for every decision of every bot.)
    """

    game = "idoubtit"

    # View's fields come first: ``seat``, then ``players`` to ``decision`` (the claims announced),
    # which every seat sees alike, as it sees these:
    options: Options
    phase: Phase
    #: The seat laying now; during a window, the claimer.
    turn: int
    #: The rank the seat laying now must claim.
    rank: Rank
    #: How many cards the seat laying now has laid so far (face down).
    laid: int
    hand_sizes: tuple[int, ...]
    pile: int
    #: The claim waiting to be settled, and who made it.
    claim: Claim | None
    claimer: int | None
    #: The seats the game waits for; who has answered the window so far.
    awaiting: tuple[int, ...]
    answered: tuple[int, ...]
    #: Every settled claim of this game (they are public).
    record: tuple[Resolved, ...]
    winner: int | None
    # What only this seat sees (empty for a spectator):
    #: This seat's hand, sorted.
    hand: tuple[Card, ...]
    #: The cards this seat has laid this turn: while laying, and while its claim waits.
    my_laid: tuple[Card, ...]
    #: The cards in the pile that this seat put there.
    my_pile: tuple[Card, ...]
    #: This seat's own answer to the open window (True for a doubt), if it gave one.
    my_answer: bool | None
    #: What this seat may do now.
    legal: tuple[Action, ...]

    unseen = {"hand": (), "my_laid": (), "my_pile": (), "my_answer": None, "legal": ()}

    @property
    def my_turn(self) -> bool:
        """True when this seat is the one laying cards now."""
        return self.seat is not None and self.seat == self.turn and self.phase is LAYING

    @property
    def moment(self) -> tuple[object, ...]:
        return (self.decision, self.phase, self.claim is not None)

    @property
    def window_key(self) -> tuple[object, ...] | None:
        # Whenever a claim may be doubted: in a window, and in the open mode until the next
        # card is laid.
        return window_key(self.decision) if self.claim is not None else None


def window_key(turns: int) -> tuple[object, ...]:
    """The key of the wait on claim number ``turns`` (a new claim starts it again)."""
    return ("window", turns)


def public_facts(
    state: State, claims: tuple[Resolved, ...], awaiting: tuple[int, ...]
) -> tuple[object, ...]:
    """What every seat sees alike: :class:`TableView`'s fields from ``players`` to
    ``winner``, in order. The game builds it once per version and shares it."""
    answers = state.answers
    return (
        state.players,
        state.options,
        state.opener,
        state.version,
        state.turns,
        state.phase,
        state.turn,
        state.rank.next() if state.claim is not None and state.phase is LAYING else state.rank,
        len(state.laid),
        tuple(map(len, state.hands)),
        len(state.pile),
        state.claim,
        state.claimer,
        awaiting,
        tuple([s for s in state.window if s in answers]) if answers else (),
        claims,
        state.winner,
    )


def make_view(
    state: State,
    seat: int | None,
    hand: tuple[Card, ...],
    legal: tuple[Action, ...],
    public: tuple[Any, ...],
) -> TableView:
    """Build ``seat``'s view of ``state``: the ``public`` facts from :func:`public_facts`
    and the seat's own. ``hand`` is its sorted hand, ``legal`` what it may do."""
    # The fields are set one by one, not through ``TableView(...)``: a call with 23
    # arguments costs half as much again, and a view is built for every decision.
    # (check_views in tests/test_properties.py checks that every field is set.)
    view = _new(TableView)
    view.seat = seat
    (view.players, view.options, view.opener, view.version, view.decision, view.phase,
     view.turn, view.rank, view.laid, view.hand_sizes, view.pile, view.claim, view.claimer,
     view.awaiting, view.answered, view.record, view.winner) = public
    if seat is None:
        view.hand = view.my_laid = view.my_pile = view.legal = ()
        view.my_answer = None
        return view
    view.hand = hand
    view.my_laid = (
        tuple(state.claim_cards) if seat == state.claimer  # its claim waits
        else tuple(state.laid) if seat == state.turn
        else ()
    )
    view.my_pile = tuple(state.pile_by_seat[seat])
    view.my_answer = state.answers.get(seat)
    view.legal = legal
    return view


_new = object.__new__


def _dealt(event: Dealt, seat: int | None) -> Dealt:
    hands = tuple(hand if i == seat else None for i, hand in enumerate(event.hands))
    return Dealt(event.opener, event.rank, event.sizes, hands)


#: ``event`` as ``seat`` may see it (``None``: a spectator): a card laid and an answer are
#: the laying or answering seat's; each seat sees its own hand of the deal.
redact = redactor(
    public=(Announced, Resolved, Won),
    mine={Laid: lambda event: Laid(event.seat, event.count, None, event.seal),
          Answered: lambda event: Answered(event.seat, None)},
    each={Dealt: _dealt},
)
