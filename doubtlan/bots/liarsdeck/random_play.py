"""``random`` for Liar's Deck: legal random play."""

from __future__ import annotations

from ...rules.liarsdeck import Card, TableView
from .base import LiarBot


class RandomLiarBot(LiarBot):
    """Puts down 1 to 3 cards of its hand at random; calls now and then."""

    name, about = "random", "puts cards and calls at random"
    #: The chance that it calls the cards waiting (when it need not).
    call_chance = 0.3

    def calls(self, view: TableView) -> bool:
        return self.rng.random() < self.call_chance

    def put(self, view: TableView) -> list[Card]:
        return self.rng.sample(view.hand, self.rng.randint(1, min(3, len(view.hand))))
