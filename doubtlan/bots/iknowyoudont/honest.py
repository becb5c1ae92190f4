"""``honest`` for I Know You Don't: always the truth, never a challenge."""

from __future__ import annotations

from ...rules import Action
from ...rules.iknowyoudont import Declaration, Kind, Play, TableView, true_declaration
from .base import KnowBot


class HonestKnowBot(KnowBot):
    """Declares its best card truly (a Wildcard at the highest level, which it matches; an
    Interception, which no declaration matches, only from a hand of nothing else) and never
    challenges or intercepts: the passive player rule 6's scoring is meant to beat."""

    name = "honest"
    about = "tells the truth, never challenges"

    def turn(self, view: TableView) -> list[Action]:
        plain = [card for card in view.hand if card.level is not None]
        wildcards = [card for card in view.hand if card.kind is Kind.WILDCARD]
        top = view.options.max_level
        best = max(plain, key=lambda card: card.level or 0) if plain else None
        if wildcards and (best is None or (best.level or 0) < top):
            card = wildcards[0]
            return [Play(card, Declaration(top, Kind.TRUTH))]
        card = best or view.hand[0]
        return [Play(card, true_declaration(card))]

    def challenges(self, view: TableView) -> bool:
        return False
