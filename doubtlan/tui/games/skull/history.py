"""Every settled bid of a Skull game: who bid how many, the discs turned, and whether it was
made, or whose Skull it found."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ....rules.skull import Settled
from ...widgets.history import History
from .discs import faces


class SkullHistory(History):
    """The bids, one line each, newest at the bottom."""

    columns = "bid turned: result"
    title = "bids"

    def line(self, record: Any, names: dict[int, str]) -> Text:
        assert isinstance(record, Settled)
        line = Text(" " + names.get(record.seat, "?").ljust(self.name_width + 1))
        line.append(str(record.count).ljust(4))
        line.append_text(faces(disc for stack in record.turned for disc in stack))
        if record.made:
            line.append(" made", style="bold green")
            return line
        owner = self.names_in(7, line.cell_len).get(record.skull or 0, "?")
        line.append(" Skull: ", style="bold red")
        line.append("own" if record.skull == record.seat else owner)
        return line
