"""The other players round the table: cards held, who plays, who is away."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules import Phase
from ....rules.idoubtit import TableView
from ...widgets.lines import Lines
from ...words import away, bot_mark

#: The widest a name is drawn.
NAME_WIDTH = 24


class Players(Lines):
    DEFAULT_CSS = """
    Players { height: auto; border: round $primary; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        #: Each player's line: the turn's mark, the name, the bot's mark (its level), the
        #: cards held, and what the player is doing.
        self._rows: list[tuple[Text, Text, str, str, Text]] = []
        self._shown: object = None

    def show(self, view: TableView | None, info: TableInfo | None,
             stood_in: frozenset[int] = frozenset()) -> None:
        """``stood_in``: the seats a bot has played for this game (their player away)."""
        if view is None or info is None:
            return
        key = (info.seats, view.seat, view.players, view.turn, view.phase, view.laid,
               view.hand_sizes, view.claim, view.claimer, view.winner, stood_in)
        if key == self._shown:
            return  # nothing it draws has changed
        self._shown = key
        rows = []
        for number in _round_from(view.seat, view.players):
            seat = info.seats[number] if number < len(info.seats) else None
            name = (seat.name if seat else None) or f"seat {number + 1}"
            to_play = view.turn == number and view.phase is not Phase.OVER
            mark = Text("▶", style="bold yellow") if to_play else Text(" ")
            who = Text(name, style="bold" if to_play else "")
            level = bot_mark(info.game, seat.strategy, name) if seat is not None and seat.bot \
                else ""
            status = Text()
            if view.phase is Phase.LAYING and view.turn == number:
                # ("laying 4" beside a rank to play reads as "laying 4s")
                status.append(f"{view.laid} down so far", style="yellow")
            if view.claimer == number and view.claim is not None:
                status.append(f"claims {view.claim.describe()}", style="bold")
            if view.winner == number:
                status.append("won", style="bold green")
            if seat is not None and seat.away:
                status.append(away(seat.open, bool(status), bot_playing=number in stood_in),
                              style="italic red")
            held = view.hand_sizes[number]
            rows.append((mark, who, level, f"{held} card{'' if held == 1 else 's'}", status))
        self.border_title = "players" if view.seat is None else "the others"
        if len(rows) != len(self._rows):
            self.refresh(layout=True)  # one line a player: the height changes
        self._rows = rows
        self.redraw()

    def build(self, width: int) -> list[Text]:
        rows = self._rows
        cards = max((len(held) for _, _, _, held, _ in rows), default=0)
        said = max((status.cell_len for *_, status in rows), default=0)
        # The bots' levels say least: where the line is short, they go first, so that the
        # names (which tell the seats apart) and what each player does stay whole.
        full = min(NAME_WIDTH, max((who.cell_len + len(level) for _, who, level, _, _ in rows),
                                   default=0))
        levels = 2 + full + 1 + cards + 1 + said <= width
        names = full if levels else \
            min(NAME_WIDTH, max((who.cell_len for _, who, _, _, _ in rows), default=0))
        lines = []
        for mark, who, level, held, status in rows:
            line = Text()
            line.append_text(mark)
            line.append(" ")
            who = who.copy()
            if levels and level:
                who.append(level, style="dim")
            who.truncate(names, overflow="ellipsis", pad=True)
            line.append_text(who)
            line.append(" " + held.rjust(cards) + " ")
            status = status.copy()
            status.truncate(max(0, width - line.cell_len), overflow="ellipsis")
            line.append_text(status)
            lines.append(line)
        return lines

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._rows)


def _round_from(seat: int | None, players: int) -> list[int]:
    """The seats in playing order, starting after ``seat`` (all of them for a spectator)."""
    if seat is None:
        return list(range(players))
    return [(seat + i) % players for i in range(1, players)]
