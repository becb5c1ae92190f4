"""The end of a Liar's Deck game: the last player standing, the table's tally, and each
player's place, lives, claims, lies caught and calls; then the check of the deal."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.fairness import Verdict
from ....rules.liarsdeck import Believed, Called, Lives, TableView
from ...client_state import ClientState
from ...widgets.results import GameResults
from ...words import seat_names
from .cards import lives_text

#: The figures' columns: heading and width (the player's name takes what it needs); in the
#: roulette, the triggers pulled of six in place of the lives.
COLUMNS = (("won", 5), ("place", 7), ("lives", 7), ("claims", 8), ("caught", 8),
           ("calls: right", 14), ("wrong", 6))
SHOTS = (*COLUMNS[:2], ("shots", 7), *COLUMNS[3:])


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``."""
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number, 'th')}"


def places(view: TableView) -> dict[int, int]:
    """Each seat's place: the winner first, then those out, the last out first."""
    order = [*([] if view.winner is None else [view.winner]), *reversed(view.out)]
    return {seat: place for place, seat in enumerate(order, 1)}


class LiarResults(GameResults):
    """The results of Liar's Deck, drawn as the other games' are."""

    columns = COLUMNS

    def show(self, view: TableView, info: TableInfo, seen: ClientState, *, is_host: bool,
             over: bool, verdict: Verdict | None = None) -> None:
        names = seat_names(info)
        claims, caught, right, wrong = ([0] * view.players for _ in range(4))
        for record in view.record:
            assert isinstance(record, Believed | Called)
            claims[record.seat] += 1
            if isinstance(record, Called):
                caught[record.seat] += record.lie
                (right if record.lie else wrong)[record.caller] += 1
        place = places(view)
        rows = [(*self.player(seat, view, info, names), *map(Text, (
            ordinal(place[seat]) if seat in place else "", lives_text(view, seat),
            str(claims[seat]), str(caught[seat]), str(right[seat]), str(wrong[seat]))))
            for seat in range(view.players)]
        rounds = view.round
        why = f"The last player standing after {rounds} round{'s' if rounds != 1 else ''}."
        self.set(self.title_of(view, info, names, why), rows, verdict, is_host=is_host,
                 over=over, columns=SHOTS if view.options.lives is Lives.ROULETTE else None)
