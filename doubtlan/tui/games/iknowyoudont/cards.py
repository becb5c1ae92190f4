"""How I Know You Don't's cards and declarations are drawn."""

from __future__ import annotations

from rich.text import Text

from ....rules.iknowyoudont import Card, Declaration

#: How the cards are coloured, by kind.
_KIND_STYLES = {"T": "bold green", "B": "bold red", "I": "bold cyan", "W": "bold magenta"}


def know_card_text(card: Card, ascii: bool = False, *, short: bool = False) -> Text:
    """An I Know You Don't card: ``T3`` (a level 3 Truth), ``B5``, ``I``, ``W``; a standard
    deck's card adds its face (``T7 7♥``) unless ``short``. Coloured by kind."""
    label = f"{card.kind.value}{card.level or ''}" if short else card.label(ascii)
    return Text(label, style=_KIND_STYLES[card.kind.value])


def declaration_text(declaration: Declaration) -> Text:
    """``level 4 Truth``, coloured as the cards of that kind are."""
    return Text(declaration.describe(), style=_KIND_STYLES[declaration.kind.value])
