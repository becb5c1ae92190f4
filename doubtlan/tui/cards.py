"""How cards, ranks and messages are written on screen."""

from __future__ import annotations

from rich.text import Text

from ..rules import Card, Rank
from ..rules.iknowyoudont import Card as KnowCard
from ..rules.iknowyoudont import Declaration

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


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, one full stop last."""
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else text


#: How I Know You Don't's cards are coloured, by kind.
_KIND_STYLES = {"T": "bold green", "B": "bold red", "I": "bold cyan", "W": "bold magenta"}


def know_card_text(card: KnowCard, ascii: bool = False, *, short: bool = False) -> Text:
    """An I Know You Don't card: ``T3`` (a level 3 Truth), ``B5``, ``I``, ``W``; a standard
    deck's card adds its face (``T7 7♥``) unless ``short``. Coloured by kind."""
    label = f"{card.kind.value}{card.level or ''}" if short else card.label(ascii)
    return Text(label, style=_KIND_STYLES[card.kind.value])


def declaration_text(declaration: Declaration) -> Text:
    """``level 4 Truth``, coloured as the cards of that kind are."""
    return Text(declaration.describe(), style=_KIND_STYLES[declaration.kind.value])


def cap(name: str) -> str:
    """``name`` to begin a sentence: "You" for "you"; players' names as they are."""
    return "You" if name == "you" else name
