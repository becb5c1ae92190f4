"""How Liar's Deck's cards and the table's rank are drawn."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from ....rules.liarsdeck import CHAMBERS, Card, Lives, Rank, TableView

#: How each card is coloured: the three ranks, and the Joker that stands for any.
_STYLES = {"Q": "bold magenta", "K": "bold cyan", "A": "bold yellow", "J": "bold green"}


def face(card: Card) -> Text:
    """A card as a hand shows it: ``Q``, ``K``, ``A``, or ``Jo`` (the Joker)."""
    return Text("Jo" if card.rank is None else card.code, style=_STYLES[card.code])


def faces(cards: Iterable[Card]) -> Text:
    """Cards side by side: ``Q K Jo``."""
    return Text(" ").join(face(card) for card in cards)


def rank_text(rank: Rank) -> Text:
    """The table's rank, in its card's colour: ``Kings``."""
    return Text(rank.plural(), style=_STYLES[rank.value])


def lives_text(view: TableView, seat: int) -> str:
    """What ``seat`` may still lose, as its column says it: lives left (``2``), or in the
    roulette the triggers pulled of the revolver's six (``2/6``)."""
    if view.options.lives is Lives.ROULETTE:
        return f"{view.pulled[seat]}/{CHAMBERS}"
    return str(view.lives[seat])
