"""The scorepad of an I Know You Don't match (rule 10): the round being played, each round's
victory points for each player, and their totals."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.iknowyoudont import TableView
from ...widgets.history import short_names
from ...widgets.lines import Lines

#: The narrowest a name is drawn, and a round's column.
NAME, COLUMN = 7, 3


class KnowScorepad(Lines):
    """One line a player: the victory points each round gave them (``·`` for none) and
    their total (``vp``); the border says which round is being played."""

    DEFAULT_CSS = """
    KnowScorepad { height: auto; border: round $secondary; padding: 0 1; }
    """

    def __init__(self, *, classes: str | None = None) -> None:
        # (Not in the compact layout: the players panel has each one's victory points.)
        super().__init__(classes=f"{classes or ''} wide-only")
        self._shown: object = None
        self._rows: list[tuple[str, tuple[int, ...], int, bool]] = []
        self._rounds = 0

    def on_mount(self) -> None:
        self.border_title = "scorepad"

    def show(self, view: TableView, info: TableInfo) -> None:
        key = (view.awards, view.round, view.phase, view.seat, info.seats, view.options)
        if key == self._shown:
            return
        self._shown = key
        rounds = view.options.rounds
        over = view.winner is not None
        self.border_title = "scorepad" if over else f"scorepad · round {view.round} of " \
            f"{max(rounds, view.round)}"
        victory = view.victory
        rows = []
        for number in range(view.players):
            seat = info.seats[number] if number < len(info.seats) else None
            name = (seat.name if seat else None) or f"seat {number + 1}"
            rows.append((name, tuple(awards[number] for awards in view.awards),
                         victory[number], number == view.seat))
        if len(rows) != len(self._rows):
            self.refresh(layout=True)
        self._rows, self._rounds = rows, max(rounds, len(view.awards))
        self.redraw()

    def build(self, width: int) -> list[Text]:
        # As many rounds as fit, the latest kept when they do not all.
        column = COLUMN + (self._rounds >= 10)  # ("r10" needs its own gap)
        fits = max(1, (width - NAME - 4) // column)
        first = max(0, self._rounds - fits)
        shown = self._rounds - first
        names = max(NAME, width - 4 - shown * column)  # what the rounds leave to the names
        heading = Text("".ljust(names), style="dim")
        for number in range(first + 1, self._rounds + 1):
            heading.append(f"r{number}".rjust(column))
        heading.append("  vp")
        lines = [heading]
        # Cut to fit, but told apart ("counter bot", "counter bot (2)": "count", "cou(2)").
        short = short_names(dict(enumerate(name for name, *_ in self._rows)), names - 1)
        for index, (_, awards, total, mine) in enumerate(self._rows):
            line = Text(short[index].ljust(names), style="bold" if mine else "")
            for number in range(first, self._rounds):
                figure = (str(awards[number]) if awards[number] else "·") \
                    if number < len(awards) else ""
                line.append(figure.rjust(column), style="" if number < len(awards) else "dim")
            line.append(str(total).rjust(4), style="bold")
            lines.append(line)
        return lines

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._rows) + 1
