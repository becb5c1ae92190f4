"""Every player at a Skull table (:class:`~doubtlan.tui.widgets.players.PlayersPanel`):
their stack (discs face down, and those turned), the discs they still have, their made
bids, and what they are doing; a click on a player's line turns their stack, while you are
the bidder turning."""

from __future__ import annotations

from rich.text import Text

from ....rules.skull import Phase, TableView
from ...widgets.players import NONE, TURN, PlayersPanel, Seat
from .discs import stack

#: The figures: discs still held in all, and bids made.
COLUMNS = (("discs", 6), ("won", 4))


def doing(view: TableView, seat: int, ascii: bool) -> Text:
    """What ``seat`` is doing in this moment of the game, and its stack."""
    text = stack(view.face_down(seat), view.turned[seat], ascii)
    if text.cell_len:
        text.append(" ")
    if view.winner == seat:
        text.append("won", style="bold green")
    elif not view.discs[seat]:
        text.append("out", style="dim red")
    elif view.phase is Phase.TURNING and seat == view.bidder:
        text.append(f"turns {view.bid}", style="bold yellow")
    elif seat == view.bidder:
        text.append(f"bid {view.bid}", style="bold")
    elif seat in view.passed:
        text.append("passed", style="dim")
    elif seat == view.active and view.phase is not Phase.OVER:
        text.append("to bid" if view.phase is Phase.BIDDING else "to lay", style="bold yellow")
    return text


class SkullPlayers(PlayersPanel):
    COLUMNS = COLUMNS
    PICK = True

    def drawn_from(self, view: TableView) -> tuple[object, ...]:
        return (view.phase, view.active, view.stacks, view.discs, view.points, view.bid,
                view.bidder, view.passed, view.turned, view.winner)

    def seat(self, view: TableView, number: int) -> Seat:
        active = number == view.active and view.phase is not Phase.OVER
        return Seat(TURN if active else NONE, active,
                    (str(view.discs[number]), str(view.points[number])),
                    doing(view, number, self.ascii))
