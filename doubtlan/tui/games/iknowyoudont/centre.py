"""The middle of an I Know You Don't table: the pot, the draw pile, the vault, the
declaration waiting (and the card shown while a Wildcard is decided on), and whose move
it is."""

from __future__ import annotations

from rich.text import Text

from ....rules.iknowyoudont import ROUND_CLAIMS, Phase, TableView
from ...widgets.lines import Lines
from ...widgets.small import compact
from ...words import cap
from .cards import declaration_text


class Centre(Lines):
    DEFAULT_CSS = """
    Centre { height: 6; border: round $accent; padding: 0 1; }
    """

    def __init__(self, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self._lines: list[Text] = []
        self._waiting = False

    def on_mount(self) -> None:
        self.border_title = "table"

    def show(self, view: TableView, names: dict[int, str]) -> None:
        counts = Text()
        for label, value in (("pot", view.pot), ("draw", view.draw), ("vault", view.vault)):
            if counts:
                counts.append("  ")
            counts.append(f"{label} ", style="dim")
            counts.append(str(value), style="bold")
        said = Text()
        if view.declaration is not None and view.phase is not Phase.PLAYING:
            said.append("declared ", style="dim")
            said.append_text(declaration_text(view.declaration))
        else:
            said.append("no claim waiting", style="dim")
        self._waiting = view.declaration is not None and view.phase is not Phase.PLAYING

        def name(seat: int | None) -> str:
            return "you" if seat == view.seat else names.get(seat or 0, "?")

        move = Text()
        if view.phase is Phase.PLAYING:
            move.append(f"{cap(name(view.active))} to play")
        elif view.phase is Phase.PRIORITY:
            move.append("priority: ", style="dim")
            move.append(name(view.priority), style="bold cyan")
        elif view.phase is Phase.DECIDING and view.shown is not None:
            move.append("shown: ", style="dim")
            move.append(view.shown.describe(), style="bold")
        elif view.winner is not None:
            move.append(f"{cap(name(view.winner))} won", style="bold green")
        claims = -(-ROUND_CLAIMS // view.players) * view.players
        round_ = Text("round ", style="dim")
        round_.append(str(view.round), style="bold")
        round_.append(f" of {max(view.options.rounds, view.round)}, claim ", style="dim")
        round_.append(str(min(claims, view.round_claims + (view.phase is Phase.PLAYING))),
                      style="bold")
        round_.append(f"/{claims}", style="dim")  # (at most 27 cells: "round 12 of 12, ...")
        lines = [round_, counts, said, move]
        if lines != self._lines:
            self._lines = lines
            self.redraw()

    def build(self, width: int) -> list[Text]:
        if compact(self):  # (as few lines as its parts fit in)
            round_, counts, said, move = self._lines
            parts = [round_, counts, said, move] if self._waiting else [round_, counts, move]
            line = Text(" · ", style="dim").join(parts)
            return list(line.wrap(self.app.console, max(1, width)))
        return list(self._lines)
