"""``counter`` for Skull: counts the discs face down and the Skulls each player has shown,
and bids what they make likely."""

from __future__ import annotations

from ...rules import Action
from ...rules.skull import FLOWER, SKULL, Bid, Disc, TableView
from .base import SkullBot, clean, face_down, holds, lay, safe_own, skulls_shown


class CounterSkullBot(SkullBot):
    """Opens with its Skull now and then; bids when its own stack is clean, its own discs
    and a share of the others' face down; turns first the stacks of players who have shown
    the fewest Skulls, the tallest first."""

    name, about = "counter", "bids its clean stack and a share of the others' discs"
    #: How often it opens with its Skull, and the share of the others' discs it counts on.
    skull_chance, share = 0.5, 0.35

    def opening(self, view: TableView) -> Disc:
        return SKULL if holds(view, SKULL) and self.rng.random() < self.skull_chance \
            else FLOWER

    def _reach(self, view: TableView) -> int:
        """The most it would bid: its clean stack and a share of the others' discs; with its
        Skull laid, the Flowers on top of it."""
        if not clean(view):
            return safe_own(view)
        return len(view.stack) + int(self.share * sum(face_down(view).values()))

    def lay_or_bid(self, view: TableView) -> Action:
        reach = min(self._reach(view), view.on_table)
        if reach and (not view.hand or self.rng.random() < 0.6):
            return Bid(reach)
        if not view.hand:
            return Bid(1)
        if holds(view, SKULL) and not holds(view, FLOWER):
            return lay(view, SKULL)
        return lay(view, SKULL if self.rng.random() < 0.2 else FLOWER)

    def raise_to(self, view: TableView) -> int | None:
        return view.bid + 1 if view.bid < min(self._reach(view), view.on_table) else None

    def turn(self, view: TableView, stacks: list[int]) -> int:
        shown = skulls_shown(view)
        return min(stacks, key=lambda seat: (shown[seat], -view.face_down(seat), seat))
