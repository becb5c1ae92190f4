"""Skull's bids told from its events (``Game.tell``, rules/story.py): each settled bid, the
discs the bidder turned, and whether it was made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..base import Event
from ..told import Told, who
from .events import BidMade, Settled


def verdict(told: Told, names: Mapping[int, str]) -> tuple[str, str]:
    """A bid made ("made", "all Flowers: a point") or failed ("failed", "Cal's Skull: a
    disc lost")."""
    if told.held:
        return "made", "all Flowers: a point"
    owner = "their own" if told.right == told.seat else f"{who(told.right, names)}'s"
    return "failed", f"{owner} Skull: a disc lost"


def tell(events: Sequence[Event]) -> tuple[Told, ...]:
    told: list[Told] = []
    begun: int | None = None
    for index, event in enumerate(events):
        if type(event) is BidMade and begun is None:
            begun = index
        elif type(event) is Settled:
            assert isinstance(event, Settled)
            turned = tuple(disc for stack in event.turned for disc in stack)
            # (nobody tests a bid but its bidder; the one proved right is the bidder, or the
            # Skull's owner)
            told.append(Told(event.seat, str(event.count), turned, event.made, None,
                             event.seat if event.made else event.skull,
                             index if begun is None else begun, index))
            begun = None
    return tuple(told)
