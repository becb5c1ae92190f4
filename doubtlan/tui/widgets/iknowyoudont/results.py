"""The end of an I Know You Don't game: the winner and why, the match tally, and each
player's victory points, tokens and scoring pile; then the check of the deal."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.fairness import Verdict
from ....rules.iknowyoudont import TARGET, TableView
from ...cards import know_card_text
from ..lines import Lines
from ..results import deal_text

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


class KnowResults(Lines):
    """One widget drawn line by line, as I Doubt It's results are."""

    DEFAULT_CSS = """
    KnowResults { padding: 0 1; }
    KnowResults > .knowresults--heading { text-style: bold; }
    KnowResults > .knowresults--hint { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"knowresults--heading", "knowresults--hint"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.title = Text()
        #: A row of texts per player: name, games won, points, tokens, scoring pile.
        self.rows: list[tuple[Text, ...]] = []
        self.deal = Text()
        self.hint = ""

    def show(self, view: TableView, info: TableInfo, *, is_host: bool, over: bool,
             verdict: Verdict | None = None, ascii: bool = False) -> None:
        names = {s.seat: s.name or f"seat {s.seat}" for s in info.seats}
        winner = view.winner
        title = Text()
        if winner is None:
            title.append("The game ended without a winner.", style="bold")
        elif winner == view.seat:
            title.append("You win!", style="bold green")
        else:
            title.append(f"{names.get(winner)} wins.", style="bold")
        if reason_text(view, names):
            title.append(f"\n{reason_text(view, names)}")
        title.append(f"\nGame {info.game_number}" + (f" of {info.games}" if info.games else ""),
                     style="dim")
        rows: list[tuple[Text, ...]] = []
        for seat in range(view.players):
            name = Text(names.get(seat, "?"), style="bold" if seat == winner else "")
            if seat == view.seat:
                name.append(" (you)", style="dim")
            tally = info.tally[seat] if seat < len(info.tally) else 0
            pile = Text(" ").join(know_card_text(card, ascii, short=True)
                                  for card in view.piles[seat])
            rows.append((name, Text(str(tally)), Text(str(len(view.piles[seat]))),
                         Text(str(view.tokens[seat])), pile))
        if over:
            hint = "The match is over. q leaves."
        elif is_host:
            hint = "n deals the next game (the next seat is active first). q ends the table."
        else:
            hint = "Waiting for the host to deal the next game."
        self.title, self.rows, self.deal, self.hint = title, rows, deal_text(verdict), hint
        self.redraw()

    def build(self, width: int) -> list[Text]:
        lines = [Text()]
        for line in self.title.split("\n"):
            line.align("center", width)
            lines.append(line)
        lines.append(Text())
        name_width = min(24, max([6, *(row[0].cell_len for row in self.rows)]))
        heading = Text("player".ljust(name_width + 2),
                       style=self.get_component_rich_style("knowresults--heading"))
        for title, size in COLUMNS:
            heading.append(title.ljust(size))
        lines.append(heading)
        for row in self.rows:
            line = row[0].copy()
            line.truncate(name_width, overflow="ellipsis", pad=True)
            line.append("  ")
            for cell, (_, size) in zip(row[1:], COLUMNS, strict=True):
                line.append_text(cell)
                line.append(" " * max(1, size - cell.cell_len))
            line.truncate(width, overflow="ellipsis")
            lines.append(line)
        lines.append(Text())
        lines.extend(self.deal.wrap(self.app.console, max(1, width)))
        lines.append(Text())
        lines.append(Text(self.hint, style=self.get_component_rich_style("knowresults--hint")))
        return lines
