"""I Doubt It's claims told from its events (``Game.tell``, rules/story.py): the cards laid
come from each ``laid`` event (face down in a spectator's), the rest from the claim's
``resolved`` record."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Event
from ..cards import Card
from ..told import Told
from .events import Laid, Resolved


def tell(events: Sequence[Event]) -> tuple[Told, ...]:
    told: list[Told] = []
    laying: dict[int, list[Card | None]] = {}
    begun: dict[int, int] = {}
    for index, event in enumerate(events):
        if type(event) is Laid:
            if event.count == 1:
                laying[event.seat], begun[event.seat] = [], index
            laying.setdefault(event.seat, []).append(event.card)
        elif type(event) is Resolved:
            laid = laying.pop(event.seat, [])
            cards = None if None in laid or len(laid) != event.claim.count else tuple(
                card for card in laid if card is not None)
            if event.shown is not None:
                cards = event.shown
            if event.honest is not None and event.doubter is not None:
                lie: bool | None = not event.honest
            elif cards is not None:
                lie = any(card.rank is not event.claim.rank for card in cards)
            else:
                lie = None
            right = None if event.doubter is None or lie is None else (
                event.doubter if lie else event.seat)
            held = None if lie is None else not lie
            told.append(Told(event.seat, event.claim.describe(), cards, held, event.doubter,
                             right, begun.pop(event.seat, index), index))
    return tuple(told)
