"""How I Doubt It's cards and ranks are drawn."""

from __future__ import annotations

from rich.text import Text

from ....rules import Card, Rank

#: A three-line block figure for each rank, for the required rank shown large.
_BIG: dict[str, tuple[str, str, str]] = {
    "A": ("▄▀▄", "█▀█", "▀ ▀"),
    "2": ("▀▀▄", "▄▀ ", "▀▀▀"),
    "3": ("▀▀█", " ▀█", "▀▀▀"),
    "4": ("█ █", "▀▀█", "  ▀"),
    "5": ("█▀▀", "▀▀▄", "▀▀ "),
    "6": ("▄▀▀", "█▀▄", " ▀ "),
    "7": ("▀▀█", " █ ", " ▀ "),
    "8": ("▄▀▄", "▄▀▄", " ▀ "),
    "9": ("▄▀▄", " ▀█", " ▀ "),
    "10": ("█ ▄▀▄", "█ █ █", "▀  ▀ "),
    "J": ("  █", "▄ █", " ▀ "),
    "Q": ("▄▀▄", "█ █", " ▀▀▄"),
    "K": ("█ ▄▀", "██  ", "▀ ▀▄"),
}


def big_rank(rank: Rank) -> str:
    """``rank`` as three lines of block characters."""
    return "\n".join(_BIG[rank.symbol])


def card_text(card: Card, ascii: bool = False) -> Text:
    """A card such as ``7♥``, red for hearts and diamonds (``7H`` with ``ascii``)."""
    return Text(card.label(ascii), style="bold red" if card.suit.red else "bold")


def cards_text(cards: tuple[Card, ...] | list[Card], ascii: bool = False) -> Text:
    return Text(" ").join(card_text(card, ascii) for card in cards)
