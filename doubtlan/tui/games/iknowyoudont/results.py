"""The end of an I Know You Don't game: the winner and why, the match tally, and each
player's victory points, tokens and scoring pile; then the check of the deal."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.fairness import Verdict
from ....rules.iknowyoudont import TARGET, TableView
from ...widgets.results import GameResults
from .cards import know_card_text

#: The figures' columns: heading and width (the player's name takes what it needs).
COLUMNS = (("won", 5), ("points", 8), ("tokens", 8), ("scoring pile", 0))


def reason_text(view: TableView, names: dict[int, str]) -> str:
    """Why the game ended, in a sentence."""
    if view.reason == "points":
        return f"{TARGET} victory points."
    if view.reason == "tokens":
        broke = [names.get(s, "?") for s, tokens in enumerate(view.tokens) if tokens == 0]
        who = " and ".join(broke) or "A player"
        return f"{who} lost the last token; the most victory points win."
    if view.reason == "cards":
        return "Nobody holds a card; the most victory points win."
    if view.reason == "deck":
        return "The vault was shuffled in a third time; the most victory points win."
    return ""


class KnowResults(GameResults):
    """The results of I Know You Don't, drawn as I Doubt It's are."""

    columns = COLUMNS
    next_game = "the next seat is active first"

    def show(self, view: TableView, info: TableInfo, *, is_host: bool, over: bool,
             verdict: Verdict | None = None, ascii: bool = False) -> None:
        names = {s.seat: s.name or f"seat {s.seat}" for s in info.seats}
        rows: list[tuple[Text, ...]] = []
        for seat in range(view.players):
            pile = Text(" ").join(know_card_text(card, ascii, short=True)
                                  for card in view.piles[seat])
            rows.append((*self.player(seat, view, info, names),
                         Text(str(len(view.piles[seat]))), Text(str(view.tokens[seat])), pile))
        self.set(self.title_of(view, info, names, reason_text(view, names)), rows, verdict,
                 is_host=is_host, over=over)
