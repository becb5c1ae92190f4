"""``honest``: the truth whenever it can; one card when it must bluff."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Action, Announce, Doubt, Lay, LetStand, TableView
from .base import Bot

_ANNOUNCE, _DOUBT, _STAND = Announce(), Doubt(), LetStand()


class HonestBot(Bot):
    """Lays every card of the required rank it holds (up to the most a claim may hold); with
    none, bluffs with one random card. Doubts only claims its own hand makes impossible."""

    name = "honest"

    def act(self, view: TableView) -> Sequence[Action]:
        if not view.legal:
            return ()
        if view.can(Doubt) and self._impossible(view):
            return (_DOUBT,)
        if view.can(LetStand):
            return (_STAND,)
        if not view.my_turn:
            return ()
        room = view.options.max_claim - view.laid
        turn: list[Action] = [Lay(card) for card in view.hand if card.rank is view.rank][:room]
        if not turn and not view.laid:
            turn.append(Lay(self.rng.choice(view.hand)))
        turn.append(_ANNOUNCE)
        return turn

    @staticmethod
    def _impossible(view: TableView) -> bool:
        claim = view.claim
        if claim is None:
            return False
        held = sum(1 for card in view.hand if card.rank is claim.rank)
        return claim.count > 4 * view.options.decks - held
