"""Cards, ranks and suits: small value types that print, parse and round-trip.

A card's code is its rank then its suit, ``"QS"`` for the queen of spades and ``"TS"``
(or ``"10S"``) for the ten. Cards are interned: there is one object per card, so two decks
hold the same 52 objects twice, and equality is identity.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterator
from typing import ClassVar

from .errors import MalformedAction


class Rank(enum.IntEnum):
    """A card's rank. Claims climb A, 2, ..., 10, J, Q, K and then start again at A."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    def next(self) -> Rank:
        """The rank after this one in the claim sequence (K is followed by A)."""
        return _RANKS[self % 13]  # as an int: reading .value is slow on an enum

    @property
    def symbol(self) -> str:
        """``"A"``, ``"2"``, ..., ``"10"``, ``"J"``, ``"Q"``, ``"K"``."""
        return _RANK_SYMBOLS[self.value]

    @property
    def code(self) -> str:
        """One character: ``"A"``, ``"2"``, ..., ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``."""
        return _RANK_CODES[self.value]

    def plural(self) -> str:
        """The rank named for a claim of several: ``"aces"``, ``"7s"``, ``"kings"``."""
        return _RANK_PLURALS.get(self.value, f"{self.symbol}s")

    def singular(self) -> str:
        """The rank named for a claim of one: ``"ace"``, ``"7"``, ``"king"``."""
        return _RANK_SINGULARS.get(self.value, self.symbol)

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read ``"A"``, ``"10"``, ``"T"``, ``"q"``...; raise :class:`MalformedAction` otherwise."""
        rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise MalformedAction(f"not a rank: {text!r}")
        return rank

    def __str__(self) -> str:
        return self.symbol


_RANKS = tuple(Rank)
_RANK_CODES = {r.value: c for r, c in zip(Rank, "A23456789TJQK", strict=True)}
_RANK_SYMBOLS = {**_RANK_CODES, 10: "10"}
_RANK_BY_TEXT = {**{c: r for r, c in zip(Rank, "A23456789TJQK", strict=True)}, "10": Rank.TEN}
_RANK_SINGULARS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
_RANK_PLURALS = {1: "aces", 11: "jacks", 12: "queens", 13: "kings"}


class Suit(enum.Enum):
    """A card's suit, with its code letter as value."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit's symbol, such as ``"♠"``."""
        return _SUIT_SYMBOLS[self]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.value


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Card:
    """One playing card. ``Card(Rank.QUEEN, Suit.SPADES) is Card.parse("QS")``.

    Cards sort by rank, then by suit (clubs, diamonds, hearts, spades), with
    ``key=sort_key``. A card defines no comparison of its own, so that looking for one in a
    hand (``card in hand``, ``hand.remove(card)``) compares identities in C: with ``__lt__``
    defined, every comparison went through Python and cost seven times as much.
    """

    __slots__ = ("rank", "suit", "code", "_order")
    _interned: ClassVar[dict[tuple[Rank, Suit], Card]] = {}
    _by_code: ClassVar[dict[str, Card]] = {}

    rank: Rank
    suit: Suit
    code: str
    _order: int

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        card = cls._interned.get((rank, suit))
        if card is None:
            raise MalformedAction(f"not a card: {rank!r} of {suit!r}")
        return card

    @classmethod
    def _make(cls, rank: Rank, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "code", rank.code + suit.value)
        object.__setattr__(card, "_order", rank.value * 4 + list(Suit).index(suit))
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code such as ``"QS"``, ``"TS"`` or ``"10s"``.

        Raises :class:`MalformedAction` for anything else."""
        if not isinstance(text, str):
            raise MalformedAction(f"not a card: {text!r}")
        card = cls._by_code.get(text.strip().upper().replace("10", "T", 1))
        if card is None:
            raise MalformedAction(f"not a card: {text!r}")
        return card

    def label(self, ascii: bool = False) -> str:
        """How a player reads the card: ``"Q♠"``, or ``"QS"`` with ``ascii``."""
        return self.rank.symbol + (self.suit.value if ascii else self.suit.symbol)

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code


for _rank in Rank:
    for _suit in Suit:
        _card = Card._make(_rank, _suit)
        Card._interned[(_rank, _suit)] = _card
        Card._by_code[_card.code] = _card

#: Sorts cards by rank, then suit: ``sorted(cards, key=sort_key)``.
sort_key = operator.attrgetter("_order")

#: One 52-card deck in a fixed order (by rank, then suit).
DECK: tuple[Card, ...] = tuple(sorted(Card._interned.values(), key=sort_key))


def deck(decks: int = 1) -> list[Card]:
    """A fresh, unshuffled pile of ``decks`` standard decks (no jokers)."""
    return list(DECK) * decks


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas: ``"AS AH 10D"``."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


def iter_ranks(start: Rank) -> Iterator[Rank]:
    """The claim sequence from ``start`` on, forever."""
    rank = start
    while True:
        yield rank
        rank = rank.next()
