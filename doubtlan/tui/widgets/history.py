"""Every claim of the game and how it ended."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from ...rules.idoubtit import Resolved


def outcome(record: Resolved, names: dict[int, str]) -> Text:
    """How a claim ended, in a few words."""
    if record.doubter is None:
        return Text("stood", style="dim")
    taker = names.get(record.taker, "?")[:6].strip() if record.taker is not None else "?"
    if record.honest:
        return Text(f"true, {taker}+{record.taken}", style="yellow")
    return Text(f"bluff, {taker}+{record.taken}", style="bold red")


class History(RichLog):
    """The claims, one line each, newest at the bottom (each line is drawn once)."""

    DEFAULT_CSS = """
    History { border: round $primary; background: $surface; scrollbar-size-horizontal: 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(wrap=False, markup=False, auto_scroll=True, id=id)
        self.can_focus = False  # Enter belongs to the hand
        self._shown = 0
        self._game = 0

    def on_mount(self) -> None:
        self.border_title = "claims"
        self.write(Text(" who    said outcome", style="bold"))

    def show(self, game: int, claims: tuple[Resolved, ...], names: dict[int, str]) -> None:
        if game != self._game or len(claims) < self._shown:
            self.clear()
            self.write(Text(" who    said outcome", style="bold"))
            self._game, self._shown = game, 0
        for record in claims[self._shown:]:
            line = Text(" " + names.get(record.seat, "?")[:6].ljust(7))
            line.append(f"{record.claim.count} {record.claim.rank.symbol}".ljust(5))
            line.append_text(outcome(record, names))
            self.write(line)
        self._shown = len(claims)
