"""``random``: legal random play, and a doubt now and then."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Action, Announce, Doubt, Lay, LetStand, Phase, TableView
from .base import Bot

_ANNOUNCE, _DOUBT, _STAND = Announce(), Doubt(), LetStand()
_WINDOW = Phase.WINDOW


class RandomBot(Bot):
    """Lays random cards, from one to the most a claim may hold; doubts with a fixed chance."""

    name = "random"
    #: The chance of doubting any one claim.
    doubt_chance = 0.1

    def act(self, view: TableView) -> Sequence[Action]:
        if not view.legal:
            return ()
        random = self.rng.random
        if view.phase is _WINDOW:
            return (_DOUBT,) if random() < self.doubt_chance else (_STAND,)
        if view.claim is not None and view.can(Doubt) and random() < self.doubt_chance:
            return (_DOUBT,)
        if not view.my_turn:
            return ()
        hand = list(view.hand)
        least = 0 if view.laid else 1
        most = min(view.options.max_claim - view.laid, len(hand))
        count = least + int(random() * (most - least + 1))
        turn: list[Action] = [Lay(hand.pop(int(random() * len(hand)))) for _ in range(count)]
        turn.append(_ANNOUNCE)
        return turn
