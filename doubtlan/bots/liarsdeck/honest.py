"""``honest`` for Liar's Deck: the truth when it can, a call only on the impossible."""

from __future__ import annotations

from ...rules.liarsdeck import Card, TableView
from .base import LiarBot, held, truthful


class HonestLiarBot(LiarBot):
    """Puts down every true card it holds (up to 3), or one card when it holds none; calls
    only a claim its own hand says cannot be true: the straight player a good liar beats."""

    name = "honest"
    about = "tells the truth when it can, calls only the impossible"

    def calls(self, view: TableView) -> bool:
        return held(view, view.hand, view.count) == 0

    def put(self, view: TableView) -> list[Card]:
        return truthful(view.hand, view)[:3] or [view.hand[0]]
