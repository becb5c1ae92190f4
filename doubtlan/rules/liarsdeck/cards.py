"""The cards of Liar's Deck: Queens, Kings and Aces, and the Jokers that stand for any of
them. Each kind of card is one object (a deck holds six Queens, all ``Card.parse("Q")``),
so that cards compare by identity, and a card prints and parses as its code.

>>> Card.parse("q"), str(Card.parse("J")), Card.parse("J").matches(Rank.KING)
(Card.parse('Q'), 'J', True)
"""

from __future__ import annotations

import enum

from ..interned import Interned


class Rank(enum.Enum):
    """What the table asks for in a round; a card of it (or a Joker) is a true card."""

    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    def plural(self) -> str:
        return f"{self.title}s"

    @property
    def title(self) -> str:
        return self.name.title()


class Card(Interned):
    """One card: a Queen, a King, an Ace (``rank``), or a Joker (``rank`` None)."""

    __slots__ = ("rank", "order")
    called = "a card of Liar's Deck"

    rank: Rank | None
    #: Its place in a hand (Jokers last). (Its ``code``, its text on the wire and in
    #: actions, is ``"Q"``, ``"K"``, ``"A"`` or ``"J"``.)
    order: int

    @classmethod
    def refusal(cls, text: object) -> str:
        return f"not {cls.called}: {text!r} (Q, K, A or J)"

    def matches(self, rank: Rank) -> bool:
        """Whether this card is a true one at a table of ``rank``."""
        return self.rank is None or self.rank is rank

    def describe(self) -> str:
        return "a Joker" if self.rank is None else f"{'an' if self.rank is Rank.ACE else 'a'} " \
            f"{self.rank.title}"


QUEEN, KING, ACE = (Card.made(rank.value, rank=rank, order=n) for n, rank in enumerate(Rank))
JOKER = Card.made("J", rank=None, order=3)
#: Each deck: six of each rank and two Jokers.
ONE_DECK = (QUEEN,) * 6 + (KING,) * 6 + (ACE,) * 6 + (JOKER,) * 2


def deck(decks: int) -> list[Card]:
    """The cards of ``decks`` decks, in a fixed order."""
    return list(ONE_DECK * decks)


def in_order(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """``cards`` as a hand shows them, and a play names them: by rank, Jokers last."""
    return tuple(sorted(cards, key=lambda card: card.order))
