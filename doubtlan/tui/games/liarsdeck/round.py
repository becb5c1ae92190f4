"""The round beside the prompt: its number, the rank the table asks for (and the cards that
pass for it), and how many cards are down."""

from __future__ import annotations

from rich.text import Text

from ....rules.liarsdeck import JOKER, TableView
from ...widgets.lines import Lines
from ...widgets.small import compact
from .cards import face, rank_text


class RoundBox(Lines):
    DEFAULT_CSS = """
    RoundBox { width: 14; height: 7; border: round $accent; }
    """

    def __init__(self, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self._lines: list[Text] = []

    def on_mount(self) -> None:
        self.border_title = "round"

    def show(self, view: TableView) -> None:
        number = Text("round ", style="dim")
        number.append(str(view.round), style="bold")
        # The true cards, as the rules call them: the rank's ("Kings", over this line) and
        # the Jokers (a "true:" here read as a call's outcome).
        true = Text("and ", style="dim")
        true.append("Jokers", style=face(JOKER).style)
        down = Text(f"{view.down} down", style="dim")
        lines = [number, rank_text(view.rank), true, down]
        if lines != self._lines:
            self._lines = lines
            self.redraw()

    def build(self, width: int) -> list[Text]:
        if compact(self):  # (a line or two, over the prompt)
            line = Text(" · ", style="dim").join(self._lines)
            return list(line.wrap(self.app.console, max(1, width)))
        lines = [line.copy() for line in self._lines]
        for line in lines:
            line.align("center", width)
        return lines
