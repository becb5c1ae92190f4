"""Your discs at a Skull table (:class:`~doubtlan.tui.widgets.hand.CardHand`): those in your
hand, to lay (enter, or a click), and your stack as it stands, bottom first."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message

from ....rules.skull import Disc
from ...widgets.hand import CardHand
from .discs import face, faces


class DiscHand(CardHand):
    """The discs in your hand, and your stack under them."""

    class Laid(Message):
        """The player clicked a disc to lay it."""

    def __init__(self, ascii: bool = False) -> None:
        super().__init__(ascii)
        #: Your stack, bottom first; whether you may lay a disc now.
        self.stack: tuple[Disc, ...] = ()
        self.laying = False

    def show(self, hand: tuple[Disc, ...], stack: tuple[Disc, ...], *, seated: bool,
             laying: bool) -> None:
        if (hand, stack, seated, laying) == (self.cards, self.stack, self.seated, self.laying):
            return
        self.stack, self.laying = stack, laying
        self.hold(hand, seated)
        self.redraw()

    def face(self, card: Disc) -> Text:
        return face(card, self.ascii)

    def note(self) -> str:
        return " (enter lays the disc under the cursor)" if self.laying else ""

    def picked(self, index: int) -> None:
        if self.laying:
            self.post_message(self.Laid())

    def footer(self) -> list[Text]:
        if not self.seated:
            return []
        line = Text("Your stack: ", style="bold")
        line.append_text(faces(self.stack, self.ascii) if self.stack else Text("none"))
        if self.stack:
            line.append("  (bottom first)", style="dim")
        return [line]
