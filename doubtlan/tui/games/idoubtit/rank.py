"""The required rank, large, and the pile's size."""

from __future__ import annotations

from rich.text import Text

from ....rules import Rank
from ...widgets.lines import Lines
from ...widgets.small import compact
from .cards import big_rank


class RankBanner(Lines):
    DEFAULT_CSS = """
    RankBanner { width: 14; height: 7; border: round $accent; }
    """

    def __init__(self, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self._shown: tuple[Rank, int] | None = None

    def on_mount(self) -> None:
        self.border_title = "to play"

    def show(self, rank: Rank, pile: int) -> None:
        if (rank, pile) != self._shown:
            self._shown = (rank, pile)
            self.redraw()

    def build(self, width: int) -> list[Text]:
        if self._shown is None:
            return []
        rank, pile = self._shown
        if compact(self):  # (a line, over the prompt)
            line = Text("to play: ", style="dim")
            line.append(rank.plural(), style="bold")
            line.append(f" · pile {pile}", style="dim")
            return [line]
        lines = [Text(line, style="bold") for line in big_rank(rank).splitlines()]
        lines += [Text(rank.plural(), style="bold"), Text(f"pile {pile}", style="dim")]
        for line in lines:
            line.align("center", width)
        return lines
