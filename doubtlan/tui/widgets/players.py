"""The base of every game's players panel: a line a player, the turn's mark, the name (with
"(you)", or the bot's level where there is room), the game's figures in columns, and what
the player is doing, with "away" for a player who left.

A game's panel says which seats it lists, each one's mark, figures and doing (a
:class:`Seat` line's parts), and what they are drawn from (redrawn only when that changes);
the names, the bots' levels, the away players, the fitting of it all in the width and the
lines themselves are the same for every game."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual.message import Message

from ...net.messages import TableInfo
from ...rules import View
from ..words import away, bot_mark
from .history import short_names
from .lines import Lines, clickable

#: The turn's mark (the game's own marks beside it: I Know You Don't's priority).
TURN, NONE = Text("▶", style="bold yellow"), Text(" ")


@dataclass
class Seat:
    """What a game says of one seat in its panel."""

    #: The mark before the name, and whether the name is bold (it is the seat's move).
    mark: Text
    bold: bool
    #: The figures in the panel's columns, in order.
    figures: tuple[str, ...]
    #: What the player is doing ("claims two 7s"), and what follows it, after two spaces
    #: ("scored T4 T6").
    doing: Text
    after: Text = field(default_factory=Text)


@dataclass
class _Row:
    seat: int
    mark: Text
    #: The player's name (bold on their move), and what follows it: " (you)", or nothing.
    name: str
    bold: bool
    you: str
    level: str
    figures: tuple[str, ...]
    doing: Text
    after: Text

    @property
    def width(self) -> int:
        """The cells of the name and what follows it."""
        return Text(self.name).cell_len + len(self.you)


class PlayersPanel(Lines):
    DEFAULT_CSS = """
    PlayersPanel { height: auto; border: round $primary; padding: 0 1; }
    """

    #: The widest a name is drawn, and the narrowest (where a bot's level gives way first).
    NAME_WIDTH: ClassVar[int] = 24
    FEWEST: ClassVar[int] = 6
    #: The figures' columns: each one's heading and width (0: as wide as its widest figure).
    COLUMNS: ClassVar[tuple[tuple[str, int], ...]] = ()
    #: Whether the columns have a line of headings above the players.
    HEADING: ClassVar[bool] = True
    #: Said before the figures, and between them and what the player is doing.
    LEAD: ClassVar[str] = ""
    GAP: ClassVar[str] = "  "
    #: Whether a click on a player's line picks that seat (:class:`Picked`): a game whose
    #: moves take a seat (Skull's stacks turned) says so.
    PICK: ClassVar[bool] = False

    class Picked(Message):
        """A click on the line of the player at ``seat``."""

        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, ascii: bool = False) -> None:
        super().__init__()
        self.ascii = ascii
        self.rows: list[_Row] = []
        self._columns = self.COLUMNS
        self._shown: object = None

    # -- what a game's panel says ----------------------------------------------------------

    def seats(self, view: Any) -> Iterable[int]:
        """The seats listed, in order (every one, by default)."""
        return range(view.players)

    def title(self, view: Any) -> str:
        return "players"

    def columns(self, view: Any) -> tuple[tuple[str, int], ...]:
        """The figures' columns for this table (:attr:`COLUMNS`, unless the game's options
        change them)."""
        return self.COLUMNS

    def drawn_from(self, view: Any) -> tuple[object, ...]:
        """What the game's parts of the lines are drawn from: they are drawn again when it
        changes (besides the seats, the viewer and who stood in)."""
        raise NotImplementedError

    def seat(self, view: Any, number: int) -> Seat:
        """What the panel says of seat ``number``."""
        raise NotImplementedError

    def fit(self, width: int, figures: int, said: int) -> tuple[int, bool]:
        """How wide the names are drawn, and whether the bots' levels are said, when the
        line has ``width`` cells, the figures and the gaps round them ``figures`` and the
        longest doing ``said``: the names get what the rest leaves, up to
        :attr:`NAME_WIDTH`, and the bots' levels, which say least, go first where it is
        short."""
        least = self.FEWEST
        room = max(least, min(self.NAME_WIDTH, width - 2 - figures - said))
        full = max([least, *(row.width + len(row.level) for row in self.rows)])
        if full <= room:
            return min(room, full), True
        return min(room, max([least, *(row.width for row in self.rows)])), False

    # -- the panel -------------------------------------------------------------------------

    def show(self, view: View | None, info: TableInfo | None,
             stood_in: frozenset[int] = frozenset()) -> None:
        """``stood_in``: the seats a bot has played for this game (their player away)."""
        if view is None or info is None:
            return
        columns = self.columns(view)
        key = (info.seats, view.seat, view.players, stood_in, columns, self.drawn_from(view))
        if key == self._shown:
            return  # nothing it draws has changed
        self._shown = key
        rows = []
        for number in self.seats(view):
            seat = info.seats[number] if number < len(info.seats) else None
            name = (seat.name if seat else None) or f"seat {number + 1}"
            said = self.seat(view, number)
            you = " (you)" if number == view.seat else ""
            level = bot_mark(info.game, seat.strategy, name) \
                if not you and seat is not None and seat.bot else ""
            doing = said.doing
            if seat is not None and seat.away:
                doing.append(away(seat.open, bool(doing), bot_playing=number in stood_in),
                             style="italic red")
            if seat is not None and seat.muted:
                doing.append(", muted" if doing else "muted", style="dim")
            rows.append(_Row(number, said.mark, name, said.bold, you, level, said.figures,
                             doing, said.after))
        self.border_title = self.title(view)
        if len(rows) != len(self.rows):
            self.refresh(layout=True)  # one line a player: the height changes
        self.rows, self._columns = rows, columns
        self.redraw()

    def build(self, width: int) -> list[Text]:
        rows = self.rows
        columns = self._columns
        widths = [size or max((len(row.figures[column]) for row in rows), default=0)
                  for column, (_, size) in enumerate(columns)]
        said = max([0, *(row.doing.cell_len + (2 + row.after.cell_len if row.after else 0)
                         for row in rows)])
        names, levels = self.fit(width, len(self.LEAD) + sum(widths) + len(self.GAP), said)
        lines = []
        if self.HEADING:
            heading = Text("  " + "player".ljust(names), style="dim")
            for (title, _), size in zip(columns, widths, strict=True):
                heading.append(title.rjust(size))
            lines.append(heading)
        # Names cut to fit, still told apart; "(you)" said only where it fits whole.
        you = {n: row.you if row.width <= names else "" for n, row in enumerate(rows)}
        short = short_names({n: row.name for n, row in enumerate(rows)},
                            {n: names - len(you[n]) for n in you}, ellipsis=True)
        for n, row in enumerate(rows):
            line = Text()
            line.append_text(row.mark)
            line.append(" ")
            who = Text(short[n], style="bold" if row.bold else "")
            who.append(you[n], style="dim")
            if levels and row.level:
                who.append(row.level, style="dim")
            who.truncate(names, overflow="ellipsis", pad=True)
            line.append_text(who)
            line.append(self.LEAD + "".join(figure.rjust(size) for figure, size
                                            in zip(row.figures, widths, strict=True))
                        + self.GAP)
            rest = row.doing.copy()
            if row.after:
                if rest:
                    rest.append("  ")
                rest.append_text(row.after)
            rest.truncate(max(0, width - line.cell_len), overflow="ellipsis")
            line.append_text(rest)
            if self.PICK:
                line.stylize(clickable(f"pick({row.seat})"))
            lines.append(line)
        return lines

    def action_pick(self, seat: int) -> None:
        self.post_message(self.Picked(seat))

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.rows) + self.HEADING
