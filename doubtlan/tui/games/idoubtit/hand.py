"""Your hand at an I Doubt It table (:class:`~doubtlan.tui.widgets.hand.CardHand`): the
cards, sorted by rank, and under them the cards laid so far with the Announce button. A
click on a card lays it."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message

from ....rules import Card
from ...widgets.hand import CardHand
from ...widgets.lines import clickable
from .cards import card_text, cards_text


class Hand(CardHand):
    """The cards in your hand, sorted by rank; ``cursor`` is the card Enter lays."""

    CARD_WIDTH = 4  # "10♥" and a space
    SCROLL = False  # (a hand of I Doubt It's is cut at the bottom, as it always was)

    class Chosen(Message):
        """The player picked card ``index`` (with the mouse: ``lay`` it at once)."""

        def __init__(self, index: int, lay: bool = False) -> None:
            super().__init__()
            self.index, self.lay = index, lay

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(ascii, id=id)
        self.laid: tuple[Card, ...] = ()

    def show(self, cards: tuple[Card, ...], laid: tuple[Card, ...] = (), *,
             seated: bool = True) -> None:
        """Draw ``cards`` (and ``laid``: the cards laid this turn, not yet announced)."""
        if (cards, laid, seated) == (self.cards, self.laid, self.seated):
            return
        self.laid = laid
        self.hold(cards, seated)
        self.redraw()

    def face(self, card: Card) -> Text:
        return card_text(card, self.ascii)

    def footer(self) -> list[Text]:
        if not self.laid:
            return []
        laid = Text("Laid: ")
        laid.append_text(cards_text(self.laid, self.ascii))
        laid.append("  ")
        laid.append(" Announce (a) ", style=self.get_component_rich_style("hand--button")
                    + clickable("app.simulate_key('a')"))
        return [laid]

    def picked(self, index: int) -> None:
        self.post_message(self.Chosen(index, lay=True))  # (a click lays the card)
