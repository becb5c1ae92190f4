"""Every claim of the game and how it ended."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.events import MouseScrollDown, MouseScrollUp, Resize

from ...rules.idoubtit import Resolved
from .lines import Lines

HEADER = Text(" who    said outcome", style="bold")


def outcome(record: Resolved, names: dict[int, str]) -> Text:
    """How a claim ended, in a few words."""
    if record.doubter is None:
        return Text("stood", style="dim")
    taker = names.get(record.taker, "?")[:6].strip() if record.taker is not None else "?"
    if record.honest:
        return Text(f"true, {taker}+{record.taken}", style="yellow")
    return Text(f"bluff, {taker}+{record.taken}", style="bold red")


class History(Lines):
    """The claims, one line each, newest at the bottom; the mouse wheel scrolls back.

    It draws only the lines that fit, so a new claim redraws this widget alone and never
    asks for a new layout of the screen.
    """

    DEFAULT_CSS = """
    History { border: round $primary; background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []
        self._game = 0
        #: How many lines the view is scrolled back from the newest.
        self.back = 0

    def on_mount(self) -> None:
        self.border_title = "claims"

    #: The list's first line.
    header = HEADER

    def line(self, record: Any, names: dict[int, str]) -> Text:
        """One claim's line (each game's list says how its claims read)."""
        line = Text(" " + names.get(record.seat, "?")[:6].ljust(7))
        line.append(f"{record.claim.count} {record.claim.rank.symbol}".ljust(5))
        line.append_text(outcome(record, names))
        return line

    def show(self, game: int, claims: tuple[Any, ...], names: dict[int, str]) -> None:
        if game != self._game or len(claims) < len(self.lines):
            self.lines, self._game = [], game
            self._scroll(-self.back)  # a new list starts at its newest
        elif len(claims) == len(self.lines):
            return
        new = claims[len(self.lines):]
        self.lines.extend(self.line(record, names) for record in new)
        if self.back:
            self._scroll(len(new))  # a reader scrolled back stays on the same lines
        self.redraw()

    @property
    def room(self) -> int:
        """How many claims fit under the header."""
        return max(0, self.size.height - 1)

    def _scroll(self, lines: int) -> None:
        back = max(0, min(self.back + lines, len(self.lines) - self.room))
        if back != self.back:
            self.back = back
            self.border_subtitle = f"{back} newer below" if back else ""
            self.redraw()

    def on_resize(self, event: Resize) -> None:
        self._scroll(0)  # more room may show lines that were scrolled past (Lines redraws)

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self._scroll(1)

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self._scroll(-1)

    def build(self, width: int) -> list[Text]:
        end = len(self.lines) - self.back
        return [self.header, *self.lines[max(0, end - self.room):end]]
