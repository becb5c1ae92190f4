"""I Know You Don't's claims told from its events (``Game.tell``, rules/story.py): the card
played comes from its ``played`` event (face down in a spectator's) or the showdown that
showed it; a claim that stood was doubted by nobody."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Event
from ..told import Told
from .cards import Card
from .events import Played, Showdown, Stood


def tell(events: Sequence[Event]) -> tuple[Told, ...]:
    told: list[Told] = []
    card: Card | None = None
    begun = 0
    for index, event in enumerate(events):
        kind = type(event)
        if kind is Played:
            assert isinstance(event, Played)
            card, begun = event.card, index
        elif kind is Stood:
            assert isinstance(event, Stood)
            held = None if card is None else card.matches(event.declaration)
            told.append(Told(event.seat, event.declaration.describe(),
                             None if card is None else (card,), held, None, None, begun, index))
            card = None
        elif kind is Showdown:
            assert isinstance(event, Showdown)
            told.append(Told(event.seat, event.declaration.describe(), (event.card,),
                             event.card.matches(event.declaration), event.challenger,
                             event.winner, begun, index))
            card = None
    return tuple(told)
