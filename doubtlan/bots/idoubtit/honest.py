"""``honest``: the truth whenever it can; one card when it must bluff."""

from __future__ import annotations

from ...rules import Card, TableView
from .base import TruthTeller


class HonestBot(TruthTeller):
    """Lays every card of the required rank it holds (up to the most a claim may hold); with
    none, bluffs with one random card. Doubts only claims its own hand makes impossible."""

    name = "honest"
    about = "tells the truth when it can"

    def doubts(self, view: TableView) -> bool:
        claim = view.claim
        assert claim is not None
        held = sum(1 for card in view.hand if card.rank is claim.rank)
        return claim.count > 4 * view.options.decks - held

    def bluff(self, view: TableView) -> Card:
        return self.rng.choice(view.hand)
