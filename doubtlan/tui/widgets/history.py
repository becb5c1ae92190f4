"""The base of each game's claims list: every settled claim of the game, one line each, and
the names in it cut short but told apart."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.events import MouseScrollDown, MouseScrollUp, Resize

from ...net.messages import Said
from .lines import Lines
from .talk import talk_line

#: The width of a name in the list, at the least and at the most.
SHORT, LONGEST = 6, 16


def short_names(names: dict[int, str], width: int | Mapping[int, int] = SHORT,
                ellipsis: bool = False) -> dict[int, str]:
    """Each seat's name cut to ``width`` characters (a number, or one for each seat), told
    apart: of names that would read the same, those that end in a number keep it ("counter
    bot", "counter bot (2)": "counte", "cou(2)"); any still alike end in their seat number.
    With ``ellipsis``, a name cut otherwise ends in "…"."""
    def room(seat: int) -> int:
        return width if isinstance(width, int) else width[seat]

    def alike(short: dict[int, str]) -> set[int]:
        counts = Counter(short.values())
        return {seat for seat, text in short.items() if counts[text] > 1}

    short = {}
    for seat, name in names.items():
        number = _NUMBERED.search(name)
        end = number[0] if number else "\u2026" if ellipsis else ""
        short[seat] = name if len(name) <= room(seat) else \
            name[:room(seat) - len(end)].strip() + end  # a name cut keeps its number
    for seat in alike(short):
        mark = str(seat + 1)
        short[seat] = f"{names[seat][:room(seat) - len(mark)].strip()}{mark}"
    return short


_NUMBERED = re.compile(r"\(\d+\)$")


class History(Lines):
    """The claims, one line each, newest at the bottom; the mouse wheel scrolls back (each
    game's list says how a claim reads: :meth:`line`).

    It draws only the lines that fit, so a new claim redraws this widget alone and never
    asks for a new layout of the screen.
    """

    DEFAULT_CSS = """
    History { border: round $primary; background: $surface; }
    """

    def __init__(self, *, id: str | None = None, called: str = "") -> None:
        super().__init__(id=id)
        #: What the list is called (its border's title): its own :attr:`title`, or else
        #: ``called``, the game's word for what is said (its Words' ``claims``).
        self.called = self.title or called
        self.lines: list[Text] = []
        self._game = 0
        #: The claims and the names the lines were made from, and how wide a name is drawn
        #: (wider as the list is: its lines are made again when that changes).
        self._claims: tuple[Any, ...] = ()
        self._names: dict[int, str] = {}
        self.name_width = SHORT
        #: How many lines the view is scrolled back from the newest.
        self.back = 0
        #: The claims in which the host played for this seat (marked with a star).
        self.marks: frozenset[int] = frozenset()
        #: The table talk of the game shown, each line after the claims settled before it
        #: was said; and the claims' lines and the talk's together (made when either changes).
        self.talk: tuple[Said, ...] = ()
        self._rows: list[Text] | None = None

    def on_mount(self) -> None:
        self.border_title = self.called

    #: What the list's first line says after "who" (each game's list says its columns), and
    #: what the list calls itself, if not what the table calls it (``called``).
    columns: ClassVar[str]
    title: ClassVar[str] = ""

    @property
    def header(self) -> Text:
        return Text(" " + "who".ljust(self.name_width + 1) + self.columns, style="bold")

    def line(self, record: Any, names: dict[int, str]) -> Text:
        """One claim's line (each game's list says how its claims read)."""
        raise NotImplementedError

    def names_in(self, cells: int, used: int) -> dict[int, str]:
        """The names cut to fit what is left of a line after ``used`` cells, in ``cells``
        more words around them (an outcome's "bluff, NAME+5"), still told apart; the
        list's own short names while the width is not known."""
        width = self.content_size.width
        if not width:
            return short_names(self._names, self.name_width)
        return short_names(self._names, max(3, min(self.name_width,
                                                   width - used - cells)))

    def show(self, game: int, claims: tuple[Any, ...], names: dict[int, str],
             marks: frozenset[int] = frozenset(), talk: tuple[Said, ...] = ()) -> None:
        """``marks``: the claims in which the host played for this seat (its stand-in, the
        turn timer, the window's clock), starred. ``talk``: the table's talk (the lines of
        this game are shown where they were said)."""
        talk = tuple(said for said in talk if said.game == game)
        if game != self._game or len(claims) < len(self.lines):
            self.lines, self._game, self._rows = [], game, None
            self._scroll(-self.back)  # a new list starts at its newest
        elif len(claims) == len(self.lines) and marks == self.marks and talk == self.talk:
            return
        made = len(self.rows())
        if talk != self.talk:
            self.talk, self._rows = talk, None
        if marks != self.marks:
            self.marks, self.lines, self._rows = marks, [], None  # (made again, with stars)
            self._subtitle()
        new = claims[len(self.lines):]
        self._claims, self._names = claims, names
        short = short_names(names, self.name_width)
        self.lines.extend(self._marked(len(self.lines) + i, self.line(record, short))
                          for i, record in enumerate(new))
        self._rows = None
        if self.back:  # a reader scrolled back stays on the same lines (stars or not)
            self._scroll(len(self.rows()) - made)
        self.redraw()

    def rows(self) -> list[Text]:
        """The claims' lines, each line of talk after the claims settled when it was said."""
        if not self.talk:
            return self.lines
        if self._rows is None:
            rows, lines = [], self.lines
            done = 0
            for said in self.talk:
                upto = min(said.claims, len(lines))
                rows += lines[done:upto]
                done = max(done, upto)
                rows.append(Text("  ") + talk_line(said))
            self._rows = rows + lines[done:]
        return self._rows

    def _marked(self, index: int, line: Text) -> Text:
        """The claim's line, starred in its first cell when the host played for this seat."""
        if index not in self.marks:
            return line
        starred = Text("*", style="bold yellow")
        starred.append_text(line[1:])
        return starred

    def _subtitle(self) -> None:
        below = f"{self.back} newer below" if self.back else ""
        mine = "* played for you" if self.marks else ""
        self.border_subtitle = " · ".join(part for part in (below, mine) if part)

    @property
    def room(self) -> int:
        """How many claims fit under the header."""
        return max(0, self.size.height - 1)

    def _scroll(self, lines: int) -> None:
        back = max(0, min(self.back + lines, len(self.rows()) - self.room))
        if back != self.back:
            self.back = back
            self._subtitle()
            self.redraw()

    def on_resize(self, event: Resize) -> None:
        # Names as wide as the list allows (6 to 16 cells: the border, the claim and its
        # outcome take about 24); the lines are made again for a new width.
        width = max(SHORT, min(LONGEST, event.size.width - 24))
        if width != self.name_width:
            self.name_width = width
            short = short_names(self._names, width)
            self.lines = [self._marked(index, self.line(record, short))
                          for index, record in enumerate(self._claims)]
            self._rows = None
        self._scroll(0)  # more room may show lines that were scrolled past (Lines redraws)

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self._scroll(1)

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self._scroll(-1)

    def build(self, width: int) -> list[Text]:
        rows = self.rows()
        end = len(rows) - self.back
        return [self.header, *rows[max(0, end - self.room):end]]
