"""Every settled claim of an I Know You Don't game: what was declared, and whether it
stood or what the showdown showed and who won it."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ....rules import Event
from ....rules.iknowyoudont import Showdown, Stood
from ...widgets.history import History
from .cards import know_card_text


def outcome(record: Event, names: dict[int, str]) -> Text:
    """How a claim ended, in a few words: ``stood``, ``accepted``, or the card shown, the
    verdict and the showdown's winner (``i``: through an Interception)."""
    if isinstance(record, Stood):
        return Text("stood" if record.by is None else f"accepted ({names.get(record.by, '?')})",
                    style="dim")
    assert isinstance(record, Showdown)
    text = know_card_text(record.card, short=True)
    verdict = "lie" if record.lie else "wild" if record.wild else "true"
    text.append(f" {verdict}: ", style="bold red" if record.lie else "yellow")
    text.append(names.get(record.winner, "?"))
    if record.intercept:
        text.append(" i", style="dim")
    return text


class KnowHistory(History):
    """The claims, one line each, newest at the bottom; the mouse wheel scrolls back (as
    I Doubt It's list does)."""

    columns = "said shown, who won"

    def line(self, record: Any, names: dict[int, str]) -> Text:
        assert isinstance(record, Stood | Showdown)
        line = Text(" " + names.get(record.seat, "?").ljust(self.name_width + 1))
        line.append(record.declaration.code.ljust(5))
        line.append_text(outcome(record, names))
        return line
