"""Your hand: a title, the cards in rows, a cursor moved by keys or the mouse, and the cards
laid so far with the Announce button.

The whole hand is one widget drawn line by line, the cursor a styled card: moving the
cursor redraws the lines of two cards, and laying a card repaints this widget alone (no
widget per card, no new layout), which keeps a key press quick to show.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive

from ....rules import Card
from ...widgets.lines import Lines, clickable
from .cards import card_text, cards_text

CARD_WIDTH = 4  # "10♥" and a space


class Hand(Lines):
    """The cards in your hand, sorted by rank; ``cursor`` is the card Enter lays."""

    DEFAULT_CSS = """
    Hand { height: 1fr; padding: 0 1; margin-top: 1; }
    Hand:focus { background: $boost; }
    Hand > .hand--cursor { background: $accent; color: $text; text-style: bold; }
    Hand > .hand--title { text-style: bold; }
    Hand > .hand--muted { color: $text-muted; }
    Hand > .hand--announce { background: $success; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"hand--cursor", "hand--title", "hand--muted", "hand--announce"}

    can_focus = True
    cursor: reactive[int] = reactive(0, repaint=False)

    class Chosen(Message):
        """The player picked card ``index`` (with the mouse: ``lay`` it at once)."""

        def __init__(self, index: int, lay: bool = False) -> None:
            super().__init__()
            self.index, self.lay = index, lay

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self.cards: tuple[Card, ...] = ()
        self.laid: tuple[Card, ...] = ()
        #: False for a spectator, who is shown no cards.
        self.seated = True
        self._faces: tuple[Text, ...] = ()

    def deal(self) -> None:
        """A new game's hand is coming: the cursor starts on its first card (not where it
        was in the last game's hand)."""
        self.cards, self._faces = (), ()
        self.cursor = 0

    def show(self, cards: tuple[Card, ...], laid: tuple[Card, ...] = (), *,
             seated: bool = True) -> None:
        """Draw ``cards`` (and ``laid``: the cards laid this turn, not yet announced)."""
        if (cards, laid, seated) == (self.cards, self.laid, self.seated):
            return
        old = self.card
        if cards != self.cards:
            self._faces = tuple(_face(card, self.ascii) for card in cards)
        self.cards, self.laid, self.seated = cards, laid, seated
        # Keep the cursor on the same card, or the one that took its place.
        cursor = self.cursor
        if old is not None and old in cards:
            cursor = cards.index(old)
        self.cursor = max(0, min(cursor, len(cards) - 1))
        self.redraw()

    @property
    def card(self) -> Card | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def move_to(self, index: int) -> None:
        """To the card at ``index`` (-1: the last), as Home and End do."""
        if self.cards:
            self.cursor = index % len(self.cards)

    def move_row(self, rows: int) -> None:
        """Up or down a row of cards, as they are drawn (staying in the hand)."""
        columns = max(1, self.content_size.width // CARD_WIDTH)
        if self.cards:
            self.cursor = max(0, min(self.cursor + rows * columns, len(self.cards) - 1))

    def watch_cursor(self) -> None:
        self.redraw()

    def build(self, width: int) -> list[Text]:
        style = self.get_component_rich_style
        if not self.seated:
            return [Text("Watching: nobody's cards are shown to you.", style=style("hand--muted"))]
        held = len(self.cards)
        lines = [Text(f"Your hand: {held} card{'' if held == 1 else 's'}",
                      style=style("hand--title"))]
        if not self.cards:
            lines.append(Text("(no cards)", style=style("hand--muted")))
        columns = max(1, width // CARD_WIDTH)
        cursor = style("hand--cursor")
        for index, face in enumerate(self._faces):
            if index % columns == 0:
                lines.append(Text())
            else:
                lines[-1].append(" ")
            # A click on a card picks and lays it; the cell between cards is not the card's.
            click = clickable(f"pick({self.cards[index].code!r})")
            if index == self.cursor:
                lines[-1].append(face.plain, style=cursor + click)
            else:
                lines[-1].append_text(face)
                lines[-1].stylize(click, len(lines[-1]) - len(face))
        if self.laid:
            laid = Text("Laid: ")
            laid.append_text(cards_text(self.laid, self.ascii))
            laid.append("  ")
            laid.append(" Announce (a) ", style=style("hand--announce")
                        + clickable("app.simulate_key('a')"))
            lines.append(laid)
        return lines

    def action_pick(self, code: str) -> None:
        """A click on the card ``code``: move the cursor there and lay it (the card
        clicked, even if the hand changed under the mouse; none if it is gone)."""
        index = next((i for i, card in enumerate(self.cards) if card.code == code), None)
        if index is not None:
            self.cursor = index
            self.post_message(self.Chosen(index, lay=True))


def _face(card: Card, ascii: bool) -> Text:
    face = card_text(card, ascii)
    face.pad_right(CARD_WIDTH - 1 - len(face))
    return face
