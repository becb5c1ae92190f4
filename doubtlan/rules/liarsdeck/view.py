"""The one place that decides what a seat of Liar's Deck may see: its view
(:func:`make_view`) and the events as shown to it (:data:`redact`)."""

from __future__ import annotations

from dataclasses import dataclass

from ..base import Action, Event, View, redactor
from ..view import PerSeat, Seats
from .cards import Card, Rank
from .events import Believed, Called, Deal, Down, Lost, Standing
from .options import Options
from .state import PLAYING, Phase, State


@dataclass(slots=True)
class TableView(View):
    """What one seat (``seat``) or a spectator (``seat`` None) may see at one moment."""

    game = "liarsdeck"

    # View's fields come first: ``seat``, then ``players`` to ``decision``,
    # which every seat sees alike, as it sees these:
    options: Options
    phase: Phase
    #: The round (from 1), the rank the table asks for in it, and the seat on turn.
    round: int
    rank: Rank
    active: int
    #: The claim waiting, if any: who put down how many cards.
    claimer: int | None
    count: int
    #: Cards put down this round, and each seat's hand, lives and triggers pulled.
    down: int
    hand_sizes: PerSeat
    lives: PerSeat
    pulled: PerSeat
    #: The seats out of the game, in the order they went out, and the last one standing.
    out: Seats
    winner: int | None
    #: Every settled claim of this game (:class:`Believed` and :class:`Called` records), and
    #: the seat the game waits for (none once it is over).
    record: tuple[Event, ...]
    awaiting: Seats
    # What only this seat sees (empty for a spectator):
    hand: tuple[Card, ...]
    #: The cards this seat put down in the claim waiting, if it is its own.
    my_claim: tuple[Card, ...]
    legal: tuple[Action, ...]

    unseen = {"hand": (), "my_claim": (), "legal": ()}

    @property
    def my_turn(self) -> bool:
        """True when this seat is to move now."""
        return self.seat is not None and self.seat == self.active and self.phase is PLAYING


def public_facts(state: State, claims: tuple[Event, ...]) -> dict[str, object]:
    """What every seat sees alike, by :class:`TableView`'s field names (made once a version,
    shared by every seat's view)."""
    last = state.last
    return dict(
        phase=state.phase, round=state.round, rank=state.rank,
        active=state.active, claimer=None if last is None else last[0],
        count=0 if last is None else len(last[1]), down=len(state.down),
        hand_sizes=tuple(map(len, state.hands)), lives=tuple(state.lives),
        pulled=tuple(state.pulled), out=tuple(state.out), winner=state.winner, record=claims,
        awaiting=(state.active,) if state.phase is PLAYING else ())


def own_facts(state: State, seat: int, legal: tuple[Action, ...]) -> tuple[object, ...]:
    """What ``seat`` alone sees: its hand, its cards in the claim waiting, what it may do."""
    last = state.last
    return tuple(state.hands[seat]), last[1] if last is not None and last[0] == seat else (), \
        legal


def _dealt(event: Deal, seat: int | None) -> Deal:
    hands = tuple(hand if number == seat else None for number, hand in enumerate(event.hands))
    return Deal(event.round, event.rank, event.first, hands, event.sizes)


#: ``event`` as ``seat`` may see it (None: a spectator): the cards put down are their
#: player's, each seat sees its own hand of a deal, and a call shows the cards to everyone.
redact = redactor(
    public=(Believed, Called, Lost, Standing),
    mine={Down: lambda event: Down(event.seat, event.count, None, event.seals)},
    each={Deal: _dealt},
)
