"""The other players round the table (:class:`~doubtlan.tui.widgets.players.PlayersPanel`):
cards held, who plays, who is away."""

from __future__ import annotations

from rich.text import Text

from ....rules import Phase
from ....rules.idoubtit import TableView
from ...widgets.players import NONE, TURN, PlayersPanel, Seat


class Players(PlayersPanel):
    COLUMNS = (("", 0),)  # the cards held, as wide as the widest
    HEADING = False
    LEAD, GAP = " ", " "

    def seats(self, view: TableView) -> list[int]:
        """The seats in playing order, starting after the viewer's (all of them for a
        spectator)."""
        if view.seat is None:
            return list(range(view.players))
        return [(view.seat + i) % view.players for i in range(1, view.players)]

    def title(self, view: TableView) -> str:
        return "players" if view.seat is None else "the others"

    def drawn_from(self, view: TableView) -> tuple[object, ...]:
        return (view.turn, view.phase, view.laid, view.hand_sizes, view.claim, view.claimer,
                view.winner)

    def seat(self, view: TableView, number: int) -> Seat:
        to_play = view.turn == number and view.phase is not Phase.OVER
        doing = Text()
        if view.phase is Phase.LAYING and view.turn == number:
            # ("laying 4" beside a rank to play reads as "laying 4s")
            doing.append(f"{view.laid} down so far", style="yellow")
        if view.claimer == number and view.claim is not None:
            doing.append(f"claims {view.claim.describe()}", style="bold")
        if view.winner == number:
            doing.append("won", style="bold green")
        held = view.hand_sizes[number]
        return Seat(TURN if to_play else NONE, to_play,
                    (f"{held} card{'' if held == 1 else 's'}",), doing)

    def fit(self, width: int, figures: int, said: int) -> tuple[int, bool]:
        # (This panel's own fitting, as it always drew: the names as long as the longest,
        # the levels said only when the whole line fits.)
        full = min(self.NAME_WIDTH, max((row.width + len(row.level)
                                         for row in self.rows), default=0))
        if 2 + full + figures + said <= width:
            return full, True
        return min(self.NAME_WIDTH, max((row.width for row in self.rows),
                                        default=0)), False
