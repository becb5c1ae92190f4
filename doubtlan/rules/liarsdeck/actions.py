"""What a seat can do in Liar's Deck: put cards down, or call the last ones a lie."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Action, record, word
from ..errors import MalformedAction
from .cards import Card, in_order

#: The most cards one turn puts down.
MOST = 3


@record
class Put(Action):
    """Put 1 to 3 cards face down, saying every one is of the table's rank: ``"put Q J"``.
    The cards are kept in a hand's order (:func:`Put.of` makes them so), so that the same
    cards are the same action."""

    kind = "put"
    cards: tuple[Card, ...]

    def malformed(self) -> str | None:
        return None if all(type(card) is Card for card in self.cards) else f"not cards: {self!r}"

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Put:
        return cls(in_order(tuple(cards)))

    def args(self) -> tuple[str, ...]:
        return tuple(card.code for card in self.cards)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Put:
        if not 1 <= len(args) <= MOST:
            raise MalformedAction(f"'put' takes 1 to {MOST} cards, such as 'put Q J'")
        return cls.of([Card.parse(arg) for arg in args])

    def __repr__(self) -> str:
        return f"Put.of({list(self.cards)!r})"


Liar = word("Liar", "liar", "Call the cards the last player put down a lie: they are turned over.")


#: Every action of Liar's Deck, by its name.
ACTIONS: dict[str, type[Action]] = {Put.kind: Put, Liar.kind: Liar}
#: The call, as the game's legal lists hold it.
LIAR = Liar()
