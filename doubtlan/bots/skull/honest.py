"""``honest`` for Skull: never lays its Skull while it holds a Flower, and bids only what
its own stack makes sure of."""

from __future__ import annotations

from ...rules import Action
from ...rules.skull import FLOWER, Bid, Disc, TableView
from .base import SkullBot, clean, holds, lay


class HonestSkullBot(SkullBot):
    """Lays Flowers; bids the discs of its own clean stack and never more, so it bluffs
    nobody; turns the stack with the most discs face down."""

    name, about = "honest", "lays Flowers and bids no more than its own stack"

    def opening(self, view: TableView) -> Disc:
        return FLOWER

    def lay_or_bid(self, view: TableView) -> Action:
        if holds(view, FLOWER) and (not clean(view) or self.rng.random() < 0.5):
            return lay(view, FLOWER)
        if clean(view) and view.stack:
            return Bid(len(view.stack))
        return lay(view, FLOWER) if view.hand else Bid(1)

    def raise_to(self, view: TableView) -> int | None:
        return view.bid + 1 if clean(view) and view.bid < len(view.stack) else None

    def turn(self, view: TableView, stacks: list[int]) -> int:
        return max(stacks, key=lambda seat: (view.face_down(seat), -seat))
