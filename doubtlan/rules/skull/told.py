"""Skull's bids told from its events (``Game.tell``, rules/story.py): each settled bid, the
discs the bidder turned, and whether it was made."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Event
from ..told import Told
from .events import BidMade, Settled


def tell(events: Sequence[Event]) -> tuple[Told, ...]:
    told: list[Told] = []
    begun: int | None = None
    for index, event in enumerate(events):
        if type(event) is BidMade and begun is None:
            begun = index
        elif type(event) is Settled:
            assert isinstance(event, Settled)
            turned = tuple(disc for stack in event.turned for disc in stack)
            told.append(Told(event.seat, f"{event.count} Flowers", turned, not event.made,
                             None, None, index if begun is None else begun, index))
            begun = None
    return tuple(told)
