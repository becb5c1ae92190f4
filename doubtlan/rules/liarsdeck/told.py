"""Liar's Deck's claims told from its events (``Game.tell``, rules/story.py): the cards put
down come from their ``down`` event (face down in a spectator's) or the call that showed
them; a claim the next player played on was believed."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Event
from ..told import Told
from .cards import Card, Rank
from .events import Believed, Called, Down


def _said(count: int, rank: Rank) -> str:
    return f"{count} {rank.title if count == 1 else rank.plural()}"


def tell(events: Sequence[Event]) -> tuple[Told, ...]:
    told: list[Told] = []
    down: dict[int, tuple[Card, ...] | None] = {}
    begun: dict[int, int] = {}
    for index, event in enumerate(events):
        kind = type(event)
        if kind is Down:
            assert isinstance(event, Down)
            down[event.seat], begun[event.seat] = event.cards, index
        elif kind is Believed:
            assert isinstance(event, Believed)
            cards = down.pop(event.seat, None)
            held = None if cards is None else all(card.matches(event.rank) for card in cards)
            told.append(Told(event.seat, _said(event.count, event.rank), cards, held, None,
                             None, begun.pop(event.seat, index), index))
        elif kind is Called:
            assert isinstance(event, Called)
            down.pop(event.seat, None)
            told.append(Told(event.seat, _said(event.count, event.rank), event.shown,
                             not event.lie, event.caller,
                             event.caller if event.lie else event.seat,
                             begun.pop(event.seat, index), index))
    return tuple(told)
