"""Every settled claim of a Liar's Deck game: who put how many cards down as which rank, and
whether the next player put cards on them or called them, and what the call turned over."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ....rules.liarsdeck import Believed, Called
from ...widgets.history import History
from .cards import faces


class LiarHistory(History):
    """The claims, one line each, newest at the bottom: a call ends its round."""

    columns = "said shown: caller"

    def line(self, record: Any, names: dict[int, str]) -> Text:
        assert isinstance(record, Believed | Called)
        line = Text(" " + names.get(record.seat, "?").ljust(self.name_width + 1))
        line.append(f"{record.count} {record.rank.value}".ljust(5))
        if isinstance(record, Believed):
            line.append("stood", style="dim")
            return line
        line.append_text(faces(record.shown))
        line.append(" lie" if record.lie else " true",
                    style="bold red" if record.lie else "yellow")
        caller = self.names_in(2, line.cell_len).get(record.caller, "?")  # (after ": ")
        line.append(f": {caller}")
        return line
