"""Your hand at a Liar's Deck table (:class:`~doubtlan.tui.widgets.hand.CardHand`): mark 1
to 3 cards (space, or a click), then put them down (enter, or the button); enter with none
marked puts down the card under the cursor."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message

from ....rules.liarsdeck import Card
from ...widgets.buttons import button_lines
from ...widgets.hand import CardHand
from ...widgets.small import big
from .cards import face, faces

#: The most cards a turn puts down.
MOST = 3


class LiarHand(CardHand):
    """The cards you hold, the ones marked to put down, and (on your turn) the button."""

    class Put(Message):
        """The player clicked the button that puts the marked cards down."""

    def __init__(self, ascii: bool = False) -> None:
        super().__init__(ascii)
        #: The cards marked, by their place in the hand; ``playing``: your turn to put down;
        #: ``dealt``: the round the cards were dealt in.
        self.chosen: list[int] = []
        self.playing = False
        self.dealt: object = None

    def show(self, cards: tuple[Card, ...], *, seated: bool, playing: bool,
             dealt: object) -> None:
        """``dealt``: which round's hand this is (a new round's may be the same cards)."""
        if (cards, seated, playing, dealt) == (self.cards, self.seated, self.playing,
                                               self.dealt):
            return
        if cards != self.cards or dealt != self.dealt:
            self.chosen = []  # (a new hand, or cards put down: nothing stays marked)
        self.playing, self.dealt = playing, dealt
        self.hold(cards, seated)
        self.redraw()

    def deal(self) -> None:
        super().deal()
        self.chosen = []

    @property
    def putting(self) -> tuple[Card, ...]:
        """What enter puts down: the cards marked, or the one under the cursor."""
        if self.chosen:
            return tuple(self.cards[index] for index in sorted(self.chosen))
        return (self.card,) if self.card is not None else ()

    def mark(self) -> None:
        """Mark the card under the cursor, or unmark it (3 at most are marked)."""
        if self.card is None:
            return
        if self.cursor in self.chosen:
            self.chosen.remove(self.cursor)
        elif len(self.chosen) < MOST:
            self.chosen.append(self.cursor)
        self.redraw()

    def marked(self, index: int) -> bool:
        return index in self.chosen

    def face(self, card: Card) -> Text:
        return face(card)

    def picked(self, index: int) -> None:
        self.mark()  # (a click marks the card clicked, or unmarks it)

    def footer(self) -> list[Text]:
        putting = self.putting
        if not self.playing or not putting:
            return [Text("space marks up to 3 cards", style=self.get_component_rich_style(
                "hand--muted"))] if self.seated and self.cards else []
        line = Text("Put down ", style="bold")
        line.append_text(faces(putting))
        line.append("  ")
        count = len(putting)
        button = (f"Put {count} card{'s' if count > 1 else ''} down (enter)", "put",
                  self.get_component_rich_style("hand--button"))
        if big(self):  # (the cards, then the button under them, three lines tall)
            return [line] + button_lines([button], self.content_size.width, big=True)
        return [line + button_lines([button], self.content_size.width, big=False)[0]]

    def action_put(self) -> None:
        self.post_message(self.Put())
