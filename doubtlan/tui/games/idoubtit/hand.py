"""Your hand at an I Doubt It table (:class:`~doubtlan.tui.widgets.hand.CardHand`): the
cards, sorted by rank, and under them the cards laid so far, and on your turn the buttons
that lay the card under the cursor and announce. A click (a tap) on a card picks it: a card
laid cannot be taken back, so only the Lay button (or enter) lays it."""

from __future__ import annotations

from rich.text import Text

from ....rules import Card
from ...widgets.buttons import Button, button_lines
from ...widgets.hand import CardHand
from ...widgets.small import big
from .cards import card_text, cards_text


class Hand(CardHand):
    """The cards in your hand, sorted by rank; ``cursor`` is the card Enter lays."""

    CARD_WIDTH = 4  # "10♥" and a space
    SCROLL = False  # (a hand of I Doubt It's is cut at the bottom, as it always was)

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(ascii, id=id)
        self.laid: tuple[Card, ...] = ()
        #: Whether a card may be laid now, and the claim announced (the buttons show).
        self.laying = self.announcing = False

    def show(self, cards: tuple[Card, ...], laid: tuple[Card, ...] = (), *,
             seated: bool = True, laying: bool = False, announcing: bool = False) -> None:
        """Draw ``cards`` (and ``laid``: the cards laid this turn, not yet announced);
        ``laying``, ``announcing``: the moves that may be made now, as buttons."""
        if (cards, laid, seated, laying, announcing) == (self.cards, self.laid, self.seated,
                                                         self.laying, self.announcing):
            return
        self.laid, self.laying, self.announcing = laid, laying, announcing
        self.hold(cards, seated)
        self.redraw()

    def moved(self) -> None:
        if self.laying:
            self.redraw()  # (the Lay button names the card under the cursor)

    def face(self, card: Card) -> Text:
        return card_text(card, self.ascii)

    def footer(self) -> list[Text]:
        look = self.get_component_rich_style("hand--button")
        buttons: list[Button] = []
        card = self.card
        if self.laying and card is not None:
            buttons.append((f"Lay {card.label(self.ascii)} (enter)",
                            "app.simulate_key('enter')", look))
        if self.announcing:
            buttons.append(("Announce (a)", "app.simulate_key('a')", look))
        laid = Text("Laid: ")
        laid.append_text(cards_text(self.laid, self.ascii))
        # (Under the cards laid, the buttons: three lines tall in the compact layout.)
        return ([laid] if self.laid else []) + button_lines(
            buttons, self.content_size.width, big=big(self))
