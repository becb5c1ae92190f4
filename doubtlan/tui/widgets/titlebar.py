"""The line at the top of the table screen: the table, who you are, the game; and on the
right, for a few seconds, a notice such as "Your turn".

The notice is drawn into this line rather than shown as one of Textual's toasts: a toast
is a widget mounted and removed, and each costs the screen a new layout, just when the
player is about to press a key.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from .lines import Lines


class TitleBar(Lines):
    DEFAULT_CSS = """
    TitleBar { dock: top; height: 1; background: $primary-background; color: $text; }
    TitleBar > .titlebar--notice { background: $warning; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"titlebar--notice"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.title = Text(" doubtlan")
        self.notice = ""

    def show(self, title: Text) -> None:
        if title != self.title:
            self.title = title
            self.redraw()

    def tell(self, notice: str) -> None:
        """Show ``notice`` on the right (until ``tell("")``)."""
        if notice != self.notice:
            self.notice = notice
            self.redraw()

    def build(self, width: int) -> list[Text]:
        line = self.title.copy()
        if self.notice:
            notice = f" {self.notice} "
            room = max(0, width - cell_len(notice) - 1)
            line.truncate(room, overflow="ellipsis")
            line.pad_right(max(0, width - line.cell_len - cell_len(notice)))
            line.append(notice, style=self.get_component_rich_style("titlebar--notice"))
        return [line]
