"""Every claim of the game and how it ended."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from ...rules.idoubtit import Resolved


def outcome(record: Resolved, names: dict[int, str]) -> Text:
    """How a claim ended, in a few words."""
    if record.doubter is None:
        return Text("stood", style="dim")
    taker = names.get(record.taker, "?")[:6].strip() if record.taker is not None else "?"
    if record.honest:
        return Text(f"true, {taker}+{record.taken}", style="yellow")
    return Text(f"bluff, {taker}+{record.taken}", style="bold red")


class History(DataTable[object]):
    DEFAULT_CSS = """
    History { border: round $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        # No padding between cells (the text pads itself): the column must fit 80x24.
        super().__init__(show_cursor=False, zebra_stripes=True, cell_padding=0, id=id)
        self.can_focus = False  # Enter belongs to the hand
        self._shown = 0
        self._game = 0

    def on_mount(self) -> None:
        self.add_columns(" who   ", "claim", " outcome")
        self.border_title = "claims"

    def show(self, game: int, claims: tuple[Resolved, ...], names: dict[int, str]) -> None:
        if game != self._game or len(claims) < self._shown:
            self.clear()
            self._game, self._shown = game, 0
        for record in claims[self._shown:]:
            claim = f"{record.claim.count} {record.claim.rank.symbol}".ljust(4)
            who = " " + names.get(record.seat, "?")[:6].ljust(7)
            self.add_row(who, claim, Text(" ").append_text(outcome(record, names)))
        if len(claims) != self._shown:
            self._shown = len(claims)
            self.scroll_end(animate=False)
