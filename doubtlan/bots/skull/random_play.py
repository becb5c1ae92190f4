"""``random`` for Skull: legal random play."""

from __future__ import annotations

from collections.abc import Sequence

from ...rules import Action
from ...rules.skull import Disc, TableView
from .base import SkullBot


class RandomSkullBot(SkullBot):
    """Chooses among its legal moves at random, every one alike."""

    name, about = "random", "lays, bids and turns at random"

    def act(self, view: TableView) -> Sequence[Action]:
        return (self.rng.choice(view.legal),) if view.legal else ()

    # (Never asked: act chooses among the legal moves itself.)
    def opening(self, view: TableView) -> Disc:
        raise NotImplementedError

    def lay_or_bid(self, view: TableView) -> Action:
        raise NotImplementedError

    def raise_to(self, view: TableView) -> int | None:
        raise NotImplementedError

    def turn(self, view: TableView, stacks: list[int]) -> int:
        raise NotImplementedError
