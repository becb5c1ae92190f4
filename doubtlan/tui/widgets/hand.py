"""Your hand: cards in a row (wrapping), a cursor moved by keys or the mouse."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Grid
from textual.events import Click, Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ...rules import Card
from ..cards import card_text

CARD_WIDTH = 4  # "10♥" and a space


class CardFace(Static):
    """One card of the hand; a click lays it (as Enter does on the cursor)."""

    def __init__(self, card: Card, index: int, ascii: bool) -> None:
        super().__init__(card_text(card, ascii), classes="card")
        self.card, self.index, self.ascii = card, index, ascii

    def show(self, card: Card) -> None:
        if card is not self.card:
            self.card = card
            self.update(card_text(card, self.ascii))

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(Hand.Chosen(self.index, lay=True))


class Hand(Widget):
    """The cards in your hand, sorted by rank; ``cursor`` is the card Enter lays."""

    DEFAULT_CSS = """
    Hand { height: auto; }
    Hand:focus { background: $boost; }
    Hand Grid { grid-gutter: 0 0; height: auto; grid-rows: 1; grid-columns: 4; }
    Hand .card { width: 4; height: 1; }
    Hand .card.cursor { background: $accent; color: $text; text-style: bold; }
    Hand .empty { color: $text-muted; }
    """

    can_focus = True
    cursor: reactive[int] = reactive(0)

    class Chosen(Message):
        """The player picked card ``index`` (with the mouse: ``lay`` it at once)."""

        def __init__(self, index: int, lay: bool = False) -> None:
            super().__init__()
            self.index, self.lay = index, lay

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self.cards: tuple[Card, ...] = ()
        self._faces: list[CardFace] = []

    def compose(self) -> ComposeResult:
        yield Grid()

    def on_resize(self, event: Resize) -> None:
        self._fit()

    def _fit(self) -> None:
        grid = self.query_one(Grid)
        columns = max(1, self.size.width // CARD_WIDTH)
        grid.styles.grid_size_columns = columns
        rows = max(1, -(-len(self.cards) // columns))
        grid.styles.height = rows

    def show(self, cards: tuple[Card, ...]) -> None:
        if cards == self.cards:
            return
        old = self.cards[self.cursor] if self.cards and self.cursor < len(self.cards) else None
        self.cards = cards
        grid = self.query_one(Grid)
        # Change the faces in place, adding or removing only the difference: a new widget
        # costs far more to draw than new text in an old one.
        faces = self._faces  # our own list: a face being removed is no longer in it
        for face, card in zip(faces, cards, strict=False):
            face.show(card)
        if len(faces) > len(cards):
            for face in faces[len(cards):]:
                face.remove()
            del faces[len(cards):]
        elif len(cards) > len(faces):
            new = [CardFace(card, i, self.ascii) for i, card in enumerate(cards)
                   if i >= len(faces)]
            faces.extend(new)
            grid.mount_all(new)
        for empty in grid.query(".empty"):
            empty.remove()
        if not cards:
            grid.mount(Static("(no cards)", classes="empty"))
        # Keep the cursor on the same card, or the one that took its place.
        cursor = self.cursor
        if old is not None and old in cards:
            cursor = cards.index(old)
        self.cursor = max(0, min(cursor, len(cards) - 1))
        self._mark()
        self._fit()

    @property
    def card(self) -> Card | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def watch_cursor(self) -> None:
        self._mark()

    def _mark(self) -> None:
        for face in self._faces:
            face.set_class(face.index == self.cursor, "cursor")
