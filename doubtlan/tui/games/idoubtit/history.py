"""Every claim of an I Doubt It game and how it ended."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ....rules.idoubtit import Resolved
from ...widgets.history import History


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
        line.append_text(outcome(record, names))
        return line
