"""The end of a game: the winner, the match tally, each player's figures, and a sparkline
of each hand over the game."""

from __future__ import annotations

from rich.text import Text

from ...net.messages import TableInfo
from ...rules.fairness import Verdict
from ...rules.idoubtit import TableView, Won, figures, hand_sizes
from ..cards import sentence
from .lines import Lines

BARS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[int], width: int = 16, top: int | None = None) -> str:
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
COLUMNS = (("won", 4), ("claims", 7), ("bluffs", 7), ("caught", 7), ("doubts ok", 10),
           ("wrong", 6), ("hand, game long", 16))


class Results(Lines):
    """One widget drawn line by line, as the table is: showing the results after the
    last move costs one new layout of a widget, not of a table of widgets."""

    DEFAULT_CSS = """
    Results { padding: 0 1; }
    Results > .results--heading { text-style: bold; }
    Results > .results--hint { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"results--heading", "results--hint"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.title = Text()
        #: The figures, a row of texts per player (name, won, claims, bluffs, caught,
        #: doubts right, doubts wrong, the hand's sparkline).
        self.rows: list[tuple[Text, ...]] = []
        self.deal = Text()
        self.hint = ""

    def show(self, view: TableView, info: TableInfo, won: Won | None, *, is_host: bool,
             over: bool, verdict: Verdict | None = None) -> None:
        names = {s.seat: s.name or f"seat {s.seat}" for s in info.seats}
        winner = view.winner
        title = Text()
        if winner is None:
            title.append("The game ended without a winner.", style="bold")
        elif winner == view.seat:
            title.append("You win!", style="bold green")
        else:
            title.append(f"{names.get(winner)} wins.", style="bold")
        title.append(f"\nGame {info.game_number}" + (f" of {info.games}" if info.games else ""),
                     style="dim")
        stats = figures(view.players, view.claims, won.bluffs if won else None)
        series = hand_sizes(view.players, view.options, view.opener, view.claims)
        top = max(max(sizes) for sizes in series)  # one scale for every hand
        rows = []
        for seat in range(view.players):
            f = stats[seat]
            name = Text(names.get(seat, "?"), style="bold" if seat == winner else "")
            if seat == view.seat:
                name.append(" (you)", style="dim")
            tally = info.tally[seat] if seat < len(info.tally) else 0
            rows.append((name, *map(Text, (
                str(tally), str(f.claims), "?" if f.bluffs is None else str(f.bluffs),
                str(f.caught), str(f.doubts_right), str(f.doubts_wrong),
                sparkline([sizes[seat] for sizes in series], top=top)))))
        if over:
            hint = "The match is over. q leaves."
        elif is_host:
            hint = "n deals the next game (the next seat opens). q ends the table."
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
                       style=self.get_component_rich_style("results--heading"))
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
            lines.append(line)
        lines.append(Text())
        lines.extend(self.deal.wrap(self.app.console, max(1, width)))
        lines.append(Text())
        lines.append(Text(self.hint, style=self.get_component_rich_style("results--hint")))
        return lines


def deal_text(verdict: Verdict | None) -> Text:
    """What the check of the game's deal found (docs/fairness.md), in a sentence or two."""
    if verdict is None:
        return Text("Checking the deal...", style="dim")
    if not verdict.ok:
        text = Text("The deal did not check out: ", style="bold red")
        text.append(sentence(verdict.problems[0]), style="red")
        return text
    text = Text("Deal verified", style="bold green")
    text.append(": the cards were dealt as promised and every card shown was the one laid.",
                style="green")
    for note in verdict.notes:
        text.append(f"\n{sentence(note)}", style="dim")
    return text
