"""``random`` for I Know You Don't: legal random play."""

from __future__ import annotations

from ...rules import Action
from ...rules.iknowyoudont import Play, TableView
from .base import KnowBot


class RandomKnowBot(KnowBot):
    """Lays a random card with a random declaration; challenges and intercepts now and then."""

    name = "random"
    about = "plays and challenges at random"
    challenge_chance = 0.2
    intercept_chance = 0.1

    def turn(self, view: TableView) -> list[Action]:
        plays = [action for action in view.legal if isinstance(action, Play)]
        return [self.rng.choice(plays)]

    def challenges(self, view: TableView) -> bool:
        return self.rng.random() < self.challenge_chance

    def intercepts(self, view: TableView) -> bool:
        return self.rng.random() < self.intercept_chance

    def wild(self, view: TableView) -> bool:
        return self.rng.random() < 0.5
