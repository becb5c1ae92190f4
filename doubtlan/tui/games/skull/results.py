"""The end of a Skull game: who won (two bids made, or the last player with discs), the
table's tally, and each player's discs, bids made and failed; then the check of the deal."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.fairness import Verdict
from ....rules.skull import TableView
from ...client_state import ClientState
from ...widgets.results import GameResults
from ...words import seat_names

COLUMNS = (("won", 5), ("discs", 7), ("bids", 6), ("made", 6), ("failed", 8))


class SkullResults(GameResults):
    """The results of Skull, drawn as the other games' are."""

    columns = COLUMNS

    def show(self, view: TableView, info: TableInfo, seen: ClientState, *, is_host: bool,
             over: bool, verdict: Verdict | None = None) -> None:
        names = seat_names(info)
        tally = self.tally(view, info.game)
        rows = [(*self.player(seat, view, info, names), *map(Text, (
            str(view.discs[seat]), str(tally[seat].claims),
            str(tally[seat].claims - tally[seat].bluffs), str(tally[seat].bluffs))))
            for seat in range(view.players)]
        winner = view.winner
        why = "" if winner is None else "Two bids made." if view.points[winner] >= \
            view.options.points else "The last player with discs."
        if winner is not None and view.options.points != 2 and view.points[winner] >= \
                view.options.points:
            why = f"{view.options.points} bids made."
        self.set(self.title_of(view, info, names, why), rows, verdict, is_host=is_host,
                 over=over)
