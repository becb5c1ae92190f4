"""The other players round the table: cards held, who plays, who is away."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ...net.messages import TableInfo
from ...rules import Phase
from ...rules.idoubtit import TableView


class Players(Static):
    DEFAULT_CSS = """
    Players { height: auto; border: round $primary; padding: 0 1; }
    """

    def show(self, view: TableView | None, info: TableInfo | None) -> None:
        if view is None or info is None:
            return
        key = (info.seats, view.seat, view.players, view.turn, view.phase, view.laid,
               view.hand_sizes, view.claim, view.claimer, view.winner)
        if key == getattr(self, "_shown", None):
            return  # nothing it draws has changed
        self._shown = key
        rows = Table.grid(padding=(0, 1), expand=True)
        rows.add_column(width=1)
        rows.add_column(no_wrap=True, max_width=24, overflow="ellipsis")
        rows.add_column(justify="right", no_wrap=True)
        rows.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        for number in _round_from(view.seat, view.players):
            seat = info.seats[number] if number < len(info.seats) else None
            name = (seat.name if seat else None) or f"seat {number}"
            to_play = view.turn == number and view.phase is not Phase.OVER
            mark = Text("▶", style="bold yellow") if to_play else Text("")
            who = Text(name, style="bold" if to_play else "")
            if seat is not None and seat.bot and "bot" not in name.casefold():
                who.append(" (bot)", style="dim")
            status = Text()
            if view.phase is Phase.LAYING and view.turn == number:
                status.append(f"laying {view.laid}", style="yellow")
            if view.claimer == number and view.claim is not None:
                status.append(f"claims {view.claim.describe()}", style="bold")
            if view.winner == number:
                status.append("won", style="bold green")
            if seat is not None and seat.away:
                status.append("  away, bot plays" if status else "away, bot plays",
                              style="italic red")
            rows.add_row(mark, who, f"{view.hand_sizes[number]} cards", status)
        # Its height is one row a player: a new layout only when that changes.
        self.update(rows, layout=rows.row_count != getattr(self, "_rows", None))
        self._rows = rows.row_count
        self.border_title = "players" if view.seat is None else "the others"


def _round_from(seat: int | None, players: int) -> list[int]:
    """The seats in playing order, starting after ``seat`` (all of them for a spectator)."""
    if seat is None:
        return list(range(players))
    return [(seat + i) % players for i in range(1, players)]
