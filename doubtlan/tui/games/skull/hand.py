"""Your discs at a Skull table (:class:`~doubtlan.tui.widgets.hand.CardHand`): those in your
hand, to lay (a click or a tap picks one; enter, or the button, lays it), and your stack as
it stands, bottom first."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message

from ....rules.skull import FLOWER, Disc
from ...widgets.buttons import button_lines
from ...widgets.hand import CardHand
from ...widgets.small import big, compact
from .discs import face, faces


class DiscHand(CardHand):
    """The discs in your hand, and your stack under them."""

    HOLDS = ("disc", "discs")

    class Laid(Message):
        """The player clicked the button that lays the disc under the cursor."""

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

    def footer(self) -> list[Text]:
        if not self.seated:
            return []
        line = Text("Your stack: ", style="bold")
        line.append_text(faces(self.stack, self.ascii) if self.stack else Text("none"))
        if self.stack:
            line.append("  (bottom first)", style="dim")
        disc = self.card
        if not self.laying or disc is None:
            return [line]
        name = "a Flower" if disc is FLOWER else "your Skull"
        button = (f"Lay {name} (enter)", "lay", self.get_component_rich_style("hand--button"))
        return [line, *button_lines([button], self.content_size.width, big=self._room_for_big())]

    def _room_for_big(self) -> bool:
        """Whether the button may be three lines tall: where buttons are big, and the hand has
        room for its title, a row of discs (three lines), the stack and the button (a phone
        held sideways may give it less; its button is one line then, whole)."""
        height = self.size.height
        return big(self) and (compact(self) or not height or height >= 1 + 3 + 1 + 3)

    def action_lay(self) -> None:
        self.post_message(self.Laid())
