"""The end of a game: the winner, the match tally, each player's figures, and a sparkline
of each hand over the game."""

from __future__ import annotations

from typing import Any, ClassVar

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


class GameResults(Lines):
    """The end of a game, one widget drawn line by line, as the table is: showing the
    results after the last move costs one new layout of a widget, not of a table of
    widgets. Each game's results say what goes in the rows (:meth:`set`)."""

    DEFAULT_CSS = """
    GameResults { padding: 0 1; }
    GameResults > .results--heading { text-style: bold; }
    GameResults > .results--hint { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"results--heading", "results--hint"}
    #: The figures' columns after the player's name: heading and width.
    columns: ClassVar[tuple[tuple[str, int], ...]] = COLUMNS
    #: Who deals the next game, as the host's hint says.
    next_game = "the next seat opens"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.title = Text()
        #: The figures, a row of texts per player (name, won, claims, bluffs, caught,
        #: doubts right, doubts wrong, the hand's sparkline).
        self.rows: list[tuple[Text, ...]] = []
        self.deal = Text()
        self.hint = ""

    @staticmethod
    def title_of(view: Any, info: TableInfo, names: dict[int, str], why: str = "") -> Text:
        """Who won (and ``why``), and which game of the match it was."""
        winner = view.winner
        title = Text()
        if winner is None:
            title.append("The game ended without a winner.", style="bold")
        elif winner == view.seat:
            title.append("You win!", style="bold green")
        else:
            title.append(f"{names.get(winner)} wins.", style="bold")
        if why:
            title.append(f"\n{why}")
        title.append(f"\nGame {info.game_number}" + (f" of {info.games}" if info.games else ""),
                     style="dim")
        return title

    @staticmethod
    def player(seat: int, view: Any, info: TableInfo, names: dict[int, str]) -> tuple[Text, Text]:
        """A row's first cells: the player's name (bold for the winner), games won."""
        name = Text(names.get(seat, "?"), style="bold" if seat == view.winner else "")
        if seat == view.seat:
            name.append(" (you)", style="dim")
        tally = info.tally[seat] if seat < len(info.tally) else 0
        return name, Text(str(tally))

    def set(self, title: Text, rows: list[tuple[Text, ...]], verdict: Verdict | None, *,
            is_host: bool, over: bool) -> None:
        """Show ``title``, the figures' ``rows``, the deal's check and what comes next."""
        if over:
            hint = "The match is over. q leaves."
        elif is_host:
            hint = f"n deals the next game ({self.next_game}). q ends the table."
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
        for title, size in self.columns:
            heading.append(title.ljust(size))
        lines.append(heading)
        for row in self.rows:
            line = row[0].copy()
            line.truncate(name_width, overflow="ellipsis", pad=True)
            line.append("  ")
            for cell, (_, size) in zip(row[1:], self.columns, strict=True):
                line.append_text(cell)
                line.append(" " * max(1, size - cell.cell_len))
            line.truncate(width, overflow="ellipsis")
            lines.append(line)
        lines.append(Text())
        lines.extend(self.deal.wrap(self.app.console, max(1, width)))
        lines.append(Text())
        lines.append(Text(self.hint, style=self.get_component_rich_style("results--hint")))
        return lines


class Results(GameResults):
    """I Doubt It's results: each player's claims, bluffs, doubts, and hand over the game."""

    def show(self, view: TableView, info: TableInfo, won: Won | None, *, is_host: bool,
             over: bool, verdict: Verdict | None = None) -> None:
        names = {s.seat: s.name or f"seat {s.seat}" for s in info.seats}
        title = self.title_of(view, info, names)
        stats = figures(view.players, view.claims, won.bluffs if won else None)
        series = hand_sizes(view.players, view.options, view.opener, view.claims)
        top = max(max(sizes) for sizes in series)  # one scale for every hand
        rows = []
        for seat in range(view.players):
            f = stats[seat]
            rows.append((*self.player(seat, view, info, names), *map(Text, (
                str(f.claims), "?" if f.bluffs is None else str(f.bluffs),
                str(f.caught), str(f.doubts_right), str(f.doubts_wrong),
                sparkline([sizes[seat] for sizes in series], top=top)))))
        self.set(title, rows, verdict, is_host=is_host, over=over)


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
