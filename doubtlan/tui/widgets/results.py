"""The end of a game: the winner, the match tally, each player's figures, and a sparkline
of each hand over the game."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from ...net.messages import TableInfo
from ...rules.fairness import Verdict
from ...rules.idoubtit import TableView, Won, figures, hand_sizes
from ..cards import sentence

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


class Results(Vertical):
    DEFAULT_CSS = """
    Results { padding: 0 1; }
    Results #winner { height: auto; text-align: center; margin: 1 0; }
    Results #figures { height: auto; }
    Results #deal { height: auto; margin-top: 1; }
    Results #results-hint { margin-top: 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="winner")
        yield DataTable(id="figures", show_cursor=False)
        yield Static(id="deal")
        yield Static(id="results-hint")

    def on_mount(self) -> None:
        self.query_one("#figures", DataTable).add_columns(
            "player", "won", "claims", "bluffs", "caught", "doubts ok", "wrong",
            "hand, game long",
        )

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
        self.query_one("#winner", Static).update(title)
        stats = figures(view.players, view.claims, won.bluffs if won else None)
        series = hand_sizes(view.players, view.options, view.opener, view.claims)
        top = max(max(sizes) for sizes in series)  # one scale for every hand
        table = self.query_one("#figures", DataTable)
        table.clear()
        for seat in range(view.players):
            f = stats[seat]
            name = Text(names.get(seat, "?"), style="bold" if seat == winner else "")
            if seat == view.seat:
                name.append(" (you)", style="dim")
            tally = info.tally[seat] if seat < len(info.tally) else 0
            table.add_row(
                name, str(tally), str(f.claims), "?" if f.bluffs is None else str(f.bluffs),
                str(f.caught), str(f.doubts_right), str(f.doubts_wrong),
                sparkline([sizes[seat] for sizes in series], top=top),
            )
        self.query_one("#deal", Static).update(deal_text(verdict))
        if over:
            hint = "The match is over. q leaves."
        elif is_host:
            hint = "n deals the next game (the next seat opens). q ends the table."
        else:
            hint = "Waiting for the host to deal the next game."
        self.query_one("#results-hint", Static).update(hint)


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
