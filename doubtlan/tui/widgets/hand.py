"""The base of every game's hand: a title, the cards in rows, a cursor moved by keys or the
mouse, and whatever lines the game draws under the cards (what is laid, a declaration).

The whole hand is one widget drawn line by line, the cursor a styled card: moving the
cursor redraws the lines of two cards, and a change of the hand repaints this widget alone
(no widget per card, no new layout), which keeps a key press quick to show. A game's hand
says how a card looks (:meth:`CardHand.face`) and what goes under the cards, and sets its
cards with :meth:`CardHand.hold`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from .lines import Lines, clickable
from .small import big, compact


class CardHand(Lines):
    """The cards in your hand, in the order given; ``cursor`` is the card the game's enter
    plays."""

    DEFAULT_CSS = """
    CardHand { height: 1fr; padding: 0 1; margin-top: 1; }
    CardHand:focus { background: $boost; }
    CardHand > .hand--cursor { background: $accent; color: $text; text-style: bold; }
    CardHand > .hand--title { text-style: bold; }
    CardHand > .hand--muted { color: $text-muted; }
    CardHand > .hand--button { background: $success; color: $text; text-style: bold; }
    CardHand > .hand--marked { background: $warning 40%; text-style: bold underline; }
    """
    COMPONENT_CLASSES = {"hand--cursor", "hand--title", "hand--muted", "hand--button",
                         "hand--marked"}

    #: A card's width on screen with the space after it; None: the widest card's, plus one.
    CARD_WIDTH: ClassVar[int | None] = None
    #: Whether a hand of more rows than fit shows those around the cursor (and says which);
    #: otherwise the rows below the widget's bottom are cut.
    SCROLL: ClassVar[bool] = True
    #: What the hand holds, one and many (a game of discs says so).
    HOLDS: ClassVar[tuple[str, str]] = ("card", "cards")

    can_focus = True
    cursor: reactive[int] = reactive(0, repaint=False)

    def __init__(self, ascii: bool = False, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self.cards: tuple[Any, ...] = ()
        #: False for a spectator, who is shown no cards.
        self.seated = True
        self._faces: tuple[Text, ...] = ()
        self._card_width = self.CARD_WIDTH or 3

    # -- what a game's hand says ---------------------------------------------------------

    def face(self, card: Any) -> Text:
        """How ``card`` looks in the hand."""
        raise NotImplementedError

    def note(self) -> str:
        """Said after the title, muted (the card under the cursor, say): empty for none."""
        return ""

    def footer(self) -> list[Text]:
        """The lines under the cards."""
        return []

    def moved(self) -> None:
        """The cursor is on another card (or the hand changed under it)."""

    def picked(self, index: int) -> None:
        """A click picked the card at ``index`` (the cursor is on it now)."""

    def marked(self, index: int) -> bool:
        """Whether the card at ``index`` is marked (chosen, in a game where a turn plays
        several cards): drawn so, under the cursor too."""
        return False

    # -- the cards -------------------------------------------------------------------------

    def deal(self) -> None:
        """A new game's hand is coming: the cursor starts on its first card (not where it
        was in the last game's hand)."""
        self.cards, self._faces = (), ()
        self.cursor = 0

    def hold(self, cards: Sequence[Any], seated: bool) -> None:
        """Hold ``cards`` now: the cursor stays on the card it was on, or the one that took
        its place (the caller redraws)."""
        cards = tuple(cards)
        old = self.card
        if cards != self.cards:
            faces = [self.face(card) for card in cards]
            width = self.CARD_WIDTH or max((face.cell_len for face in faces), default=2) + 1
            for face in faces:
                face.pad_right(width - 1 - face.cell_len)
            self._faces, self._card_width = tuple(faces), width
        self.cards, self.seated = cards, seated
        cursor = self.cursor
        if old is not None and old in cards:
            cursor = cards.index(old)
        self.cursor = max(0, min(cursor, len(cards) - 1))

    @property
    def card(self) -> Any | None:
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
        columns = max(1, self.content_size.width // self._card_width)
        if self.cards:
            self.cursor = max(0, min(self.cursor + rows * columns, len(self.cards) - 1))

    def watch_cursor(self) -> None:
        self.moved()
        self.redraw()

    def build(self, width: int) -> list[Text]:
        style = self.get_component_rich_style
        if not self.seated:
            return [Text(f"Watching: nobody's {self.HOLDS[1]} are shown to you.",
                         style=style("hand--muted"))]
        held = len(self.cards)
        title = Text(f"Your hand: {held} {self.HOLDS[held != 1]}", style=style("hand--title"))
        if note := self.note():
            title.append(note, style=style("hand--muted"))
        large = big(self)  # (cards three lines tall, for a thumb; the hand as tall as it is)
        columns = max(1, width // (self._big_width() if large else self._card_width))
        rows = self._big_rows(columns) if large else self._rows(columns)
        if not self.cards:
            rows.append([Text(f"(no {self.HOLDS[1]})", style=style("hand--muted"))])
        footer = self.footer()
        # The lines under the cards always show; a big hand shows the rows of cards that
        # fit, the cursor's among them (left and right reach the others). In the compact
        # layout the hand is as tall as its rows.
        tall = 3 if large else 1
        room = max(1, (self.size.height - 1 - len(footer)) // tall) if self.size.height \
            and not compact(self) else len(rows)
        if (self.SCROLL or large) and len(rows) > room:
            first = min(max(0, self.cursor // columns - room + 1), len(rows) - room)
            rows = rows[first:first + room]
            title.append(f" · {first * columns + 1} to "
                         f"{min(len(self.cards), (first + room) * columns)} shown",
                         style=style("hand--muted"))
        return [title, *(line for row in rows for line in row), *footer]

    def _rows(self, columns: int) -> list[list[Text]]:
        """The cards a line a row of ``columns``, each card clickable."""
        style = self.get_component_rich_style
        rows: list[list[Text]] = []
        cursor, marked = style("hand--cursor"), style("hand--marked")
        for index, face in enumerate(self._faces):
            if index % columns == 0:
                rows.append([Text()])
            else:
                rows[-1][0].append(" ")
            line = rows[-1][0]
            # A click on a card picks it; the cell between cards is not the card's.
            click = clickable(f"pick({index}, {self.cards[index].code!r})")
            if index == self.cursor:
                line.append(face.plain, style=(marked if self.marked(index) else Style())
                            + cursor + click)
            else:
                line.append_text(face)
                start = len(line) - len(face)
                if self.marked(index):
                    line.stylize(marked, start)
                line.stylize(click, start)
        return rows

    def _big_width(self) -> int:
        """A big card's width: its face in a frame, three cells inside at the least."""
        return max(3, self._card_width - 1) + 2

    def _big_rows(self, columns: int) -> list[list[Text]]:
        """The cards in frames three lines tall, ``columns`` to a row, each card (its
        frame too) clickable: a tap picks it."""
        style = self.get_component_rich_style
        cursor, marked = style("hand--cursor"), style("hand--marked")
        inside = self._big_width() - 2
        rows: list[list[Text]] = []
        for index, face in enumerate(self._faces):
            if index % columns == 0:
                rows.append([Text(), Text(), Text()])
            top, middle, bottom = rows[-1]
            look = (marked if self.marked(index) else Style()) \
                + (cursor if index == self.cursor else Style())
            click = clickable(f"pick({index}, {self.cards[index].code!r})")
            shown = face.copy()
            shown.rstrip()
            left = (inside - shown.cell_len) // 2
            top.append("╭" + "─" * inside + "╮", style=look + click)
            middle.append("│" + " " * left, style=look + click)
            start = len(middle)
            middle.append_text(shown)
            middle.stylize(look + click, start)
            middle.append(" " * (inside - left - shown.cell_len) + "│", style=look + click)
            bottom.append("╰" + "─" * inside + "╯", style=look + click)
        return rows

    def action_pick(self, index: int, code: str) -> None:
        """A click on the card ``code`` at ``index``: move the cursor there (the card
        clicked among cards alike; if the hand changed under the mouse, the first card
        ``code``; none if it is gone)."""
        cards = self.cards
        if not (0 <= index < len(cards) and cards[index].code == code):
            index = next((i for i, card in enumerate(cards) if card.code == code), -1)
        if index >= 0:
            self.cursor = index
            self.picked(index)
