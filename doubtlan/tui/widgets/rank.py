"""The required rank, large, and the pile's size."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...rules import Rank
from ..cards import big_rank


class RankBanner(Static):
    DEFAULT_CSS = """
    RankBanner { width: 14; height: 7; border: round $accent; content-align: center middle;
                 text-align: center; }
    """

    def show(self, rank: Rank, pile: int) -> None:
        if (rank, pile) == getattr(self, "_shown", None):
            return
        self._shown = (rank, pile)
        text = Text(big_rank(rank) + "\n", style="bold")
        text.append(rank.plural(), style="bold")
        text.append(f"\npile {pile}", style="dim")
        self.update(text, layout=False)  # its size is fixed
        self.border_title = "to play"
