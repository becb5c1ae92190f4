"""The end of an I Know You Don't match: the winner and why, the table's tally, and each
player's victory points, round points, tokens and scorepad; then the check of the deal."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.fairness import Verdict
from ....rules.iknowyoudont import TARGET, TableView
from ...client_state import ClientState
from ...widgets.results import GameResults
from ...words import seat_names

#: The figures' columns: heading and width (the player's name takes what it needs).
COLUMNS = (("won", 5), ("vp", 5), ("points", 8), ("tokens", 8), ("vp by round", 0))


def reason_text(view: TableView, names: dict[int, str]) -> str:
    """Why the match ended, in a sentence."""
    tiebreak = " Tied on victory points: the tie-break chose (round points over the match," \
        " then tokens, then the latest round)." if view.tiebreak else ""
    if view.reason == "points":
        return f"{TARGET} victory points.{tiebreak}"
    if view.reason == "tokens":
        broke = [names.get(s, "?") for s, tokens in enumerate(view.tokens) if tokens == 0]
        who = " and ".join(broke) or "A player"
        return f"{who} lost the last token; the most victory points win.{tiebreak}"
    if view.reason == "rounds":
        return f"The most victory points after round {len(view.awards)}.{tiebreak}"
    return ""


class KnowResults(GameResults):
    """The results of I Know You Don't, drawn as I Doubt It's are."""

    columns = COLUMNS
    next_game = "the next seat is active first"

    def show(self, view: TableView, info: TableInfo, seen: ClientState, *, is_host: bool,
             over: bool, verdict: Verdict | None = None) -> None:
        names = seat_names(info)
        rows: list[tuple[Text, ...]] = []
        for seat in range(view.players):
            points = view.points[seat] + sum(round_[seat] for round_ in view.pad)
            rounds = Text(" ".join((str(a[seat]) if a[seat] else "·").rjust(2)
                                   for a in view.awards), style="dim")
            rows.append((*self.player(seat, view, info, names), Text(str(view.victory[seat])),
                         Text(str(points)), Text(str(view.tokens[seat])), rounds))
        self.set(self.title_of(view, info, names, reason_text(view, names)), rows, verdict,
                 is_host=is_host, over=over)
