"""The cards of Liar's Deck: Queens, Kings and Aces, and the Jokers that stand for any of
them. Each kind of card is one object (a deck holds six Queens, all ``Card.parse("Q")``),
so that cards compare by identity, and a card prints and parses as its code.

>>> Card.parse("q"), str(Card.parse("J")), Card.parse("J").matches(Rank.KING)
(Card.parse('Q'), 'J', True)
"""

from __future__ import annotations

import enum
from typing import ClassVar

from ..errors import MalformedAction


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


class Card:
    """One card: a Queen, a King, an Ace (``rank``), or a Joker (``rank`` None)."""

    __slots__ = ("rank", "code", "order")
    _made: ClassVar[dict[str, Card]] = {}

    rank: Rank | None
    #: Its text on the wire and in actions (``"Q"``, ``"K"``, ``"A"``, ``"J"``), and its place
    #: in a hand (Jokers last).
    code: str
    order: int

    def __new__(cls, code: str) -> Card:
        return cls.parse(code)

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"Q"``, ``"k"``, ``"A"``, ``"J"`` (a Joker)."""
        card = cls._made.get(text.strip().upper()) if isinstance(text, str) else None
        if card is None:
            raise MalformedAction(f"not a card of Liar's Deck: {text!r} (Q, K, A or J)")
        return card

    @classmethod
    def _made_of(cls, code: str, rank: Rank | None, order: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "code", code)
        object.__setattr__(card, "order", order)
        cls._made[code] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def matches(self, rank: Rank) -> bool:
        """Whether this card is a true one at a table of ``rank``."""
        return self.rank is None or self.rank is rank

    def describe(self) -> str:
        return "a Joker" if self.rank is None else f"{'an' if self.rank is Rank.ACE else 'a'} " \
            f"{self.rank.title}"

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code


QUEEN, KING, ACE = (Card._made_of(rank.value, rank, n) for n, rank in enumerate(Rank))
JOKER = Card._made_of("J", None, 3)
#: Each deck: six of each rank and two Jokers.
ONE_DECK = (QUEEN,) * 6 + (KING,) * 6 + (ACE,) * 6 + (JOKER,) * 2


def deck(decks: int) -> list[Card]:
    """The cards of ``decks`` decks, in a fixed order."""
    return list(ONE_DECK * decks)


def in_order(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """``cards`` as a hand shows them, and a play names them: by rank, Jokers last."""
    return tuple(sorted(cards, key=lambda card: card.order))
