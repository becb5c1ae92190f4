"""``random``: legal random play, and a doubt now and then."""

from __future__ import annotations

from ...rules import Action, TableView
from ...rules.idoubtit import ANNOUNCE, lay
from .base import Bot


class RandomBot(Bot):
    """Lays random cards, from one to the most a claim may hold; doubts with a fixed chance."""

    name = "random"
    about = "random cards; doubts one claim in ten"
    #: The chance of doubting any one claim.
    doubt_chance = 0.1

    def doubts(self, view: TableView) -> bool:
        return self.rng.random() < self.doubt_chance

    def turn(self, view: TableView) -> list[Action]:
        random = self.rng.random
        hand = list(view.hand)
        laid = view.laid
        least = 0 if laid else 1
        most = view.options.max_claim - laid
        if most > len(hand):
            most = len(hand)
        count = least + int(random() * (most - least + 1))
        turn: list[Action] = []
        for _ in range(count):
            turn.append(lay(hand.pop(int(random() * len(hand)))))
        turn.append(ANNOUNCE)
        return turn
