"""Buttons drawn as text in a widget drawn line by line (:class:`~.lines.Lines`): a few words
on one line in the wide layout, and in the compact one a block three lines tall, a thumb's
size on a phone (about 45 CSS pixels), filling the width. Each runs its action when clicked
or tapped (the ``@click`` of its cells, as in markup)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from .lines import clickable

#: A button: its label, the action a click runs (``"app.simulate_key('a')"``), its look.
Button = tuple[str, str, Style]
#: The lines a big button takes.
TALL = 3


def button_lines(buttons: Sequence[Button], width: int, *, big: bool) -> list[Text]:
    """``buttons`` in a line (``big``: in rows of blocks :data:`TALL` lines tall, as many
    to a row as fit in ``width``, sharing the row's width); none: no lines."""
    if not buttons:
        return []
    if not big:
        line = Text()
        for index, (label, action, look) in enumerate(buttons):
            if index:
                line.append(" ")
            line.append(f" {label} ", style=look + clickable(action))
        return [line]
    lines: list[Text] = []
    for row in _rows(buttons, max(1, width)):
        # Each its label's width and a cell each side, and what is left of the row shared.
        naturals = [cell_len(label) + 2 for label, _, _ in row]
        left_over = max(0, width - (len(row) - 1) - sum(naturals))
        parts = [Text(), Text(), Text()]
        for index, ((label, action, look), natural) in enumerate(zip(row, naturals,
                                                                     strict=True)):
            size = natural + left_over // len(row) + (index < left_over % len(row))
            size = min(size, width)
            style = look + clickable(action)
            shown = label if cell_len(label) <= size - 2 else _cut(label, size - 2)
            for line, text in zip(parts, ("", shown, ""), strict=True):
                if index:
                    line.append(" ")
                left = (size - cell_len(text)) // 2
                line.append(" " * left + text + " " * (size - left - cell_len(text)),
                            style=style)
        lines += parts
    return lines


def _rows(buttons: Sequence[Button], width: int) -> list[list[Button]]:
    """The buttons in rows, as many to a row as fit at their labels' widths (plus two cells
    of room each side, and one between)."""
    rows: list[list[Button]] = [[]]
    used = 0
    for button in buttons:
        size = cell_len(button[0]) + 4
        if rows[-1] and used + 1 + size > width:
            rows.append([])
            used = 0
        used += size + (1 if rows[-1] else 0)
        rows[-1].append(button)
    return rows


def _cut(label: str, size: int) -> str:
    text = Text(label)
    text.truncate(max(1, size), overflow="ellipsis")
    return text.plain
