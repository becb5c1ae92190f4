"""Every claim of an I Doubt It game and how it ended."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ....rules.idoubtit import Resolved
from ...widgets.history import History

#: The cells an outcome takes besides the taker's name ("bluff, " and "+52").
OUTCOME_CELLS = 10


def outcome(record: Resolved, names: dict[int, str]) -> Text:
    """How a claim ended, in a few words."""
    if record.doubter is None:
        return Text("stood", style="dim")
    taker = names.get(record.taker, "?") if record.taker is not None else "?"
    if record.honest:
        return Text(f"true, {taker}+{record.taken}", style="yellow")
    return Text(f"bluff, {taker}+{record.taken}", style="bold red")


class DoubtHistory(History):
    """The claims of I Doubt It: who, what was claimed, and how it ended."""

    columns = "said outcome"

    def line(self, record: Any, names: dict[int, str]) -> Text:
        assert isinstance(record, Resolved)
        line = Text(" " + names.get(record.seat, "?").ljust(self.name_width + 1))
        line.append(f"{record.claim.count} {record.claim.rank.symbol}".ljust(5))
        # The outcome names who took the pile, cut to what the line has left (whole
        # outcomes: "true, root (2)+5" was cut at 80 and 100 columns).
        line.append_text(outcome(record, self.names_in(OUTCOME_CELLS, line.cell_len)))
        return line
