"""The end of an I Doubt It game: the winner, the match tally, each player's figures, and a
sparkline of each hand over the game."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.fairness import Verdict
from ....rules.idoubtit import Resolved, TableView, Won, figures, hand_sizes
from ....rules.idoubtit.state import STALE_ROUNDS
from ...client_state import ClientState
from ...widgets.results import GameResults
from ...words import seat_names

BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[int], width: int = 12, top: int | None = None) -> str:
    """``values`` as block characters (``top`` is the full block), at most ``width`` of
    them, sampled evenly with the first and the last kept."""
    if not values:
        return ""
    if len(values) > width:  # sample evenly, always keeping the first and the last
        step = (len(values) - 1) / (width - 1)
        values = [values[round(i * step)] for i in range(width)]
    top = top or max(values) or 1
    return "".join(BARS[min(len(BARS) - 1, v * (len(BARS) - 1) // top)] for v in values)


#: The figures' columns: heading and width (the player's name takes what it needs).
COLUMNS = (("won", 4), ("claims", 7), ("bluffs", 7), ("caught", 7), ("doubts: right", 15),
           ("wrong", 6), ("cards held", 12))


#: Why a game ended without an empty hand (docs/rules.md, rule 8).
STALEMATE = (f"The game went nowhere for {STALE_ROUNDS} rounds of claims: "
             "the fewest cards win.")


@dataclass
class DoubtNotes:
    """What I Doubt It's table keeps of a game's events (``ClientState.notes``): the last
    claim that was doubted (shown as the reveal), and the win (its bluff counts)."""

    reveal: Resolved | None = None
    won: Won | None = None


def notes_of(seen: ClientState) -> DoubtNotes:
    """This game's notes in ``seen``, made when there are none yet."""
    if not isinstance(seen.notes, DoubtNotes):
        seen.notes = DoubtNotes()
    return seen.notes


class DoubtResults(GameResults):
    """I Doubt It's results: each player's claims, bluffs, doubts, and hand over the game."""

    columns = COLUMNS

    def show(self, view: TableView, info: TableInfo, seen: ClientState, *, is_host: bool,
             over: bool, verdict: Verdict | None = None) -> None:
        won = notes_of(seen).won
        names = seat_names(info)
        why = STALEMATE if won is not None and won.stalemate else ""
        title = self.title_of(view, info, names, why)
        stats = figures(view.players, view.record, won.bluffs if won else None)
        series = hand_sizes(view.players, view.options, view.opener, view.record)
        top = max(max(sizes) for sizes in series)  # one scale for every hand
        rows = []
        for seat in range(view.players):
            f = stats[seat]
            rows.append((*self.player(seat, view, info, names), *map(Text, (
                str(f.claims), "?" if f.bluffs is None else str(f.bluffs),
                str(f.caught), str(f.doubts_right), str(f.doubts_wrong),
                sparkline([sizes[seat] for sizes in series], top=top)))))
        self.set(title, rows, verdict, is_host=is_host, over=over)
