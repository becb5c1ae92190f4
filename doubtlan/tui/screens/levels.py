"""The host's choice of a bot's level when seating one (``b`` in the lobby)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option


class LevelScreen(ModalScreen[str | None]):
    """Pick a level (easy, medium, hard: the game's own, docs/bots.md); returns the
    strategy that plays it, or None when the host changes its mind (Escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, levels: dict[str, str], abouts: dict[str, str],
                 chosen: str | None = None) -> None:
        super().__init__()
        #: Level: strategy, easiest first; each strategy's way of playing, in a few words;
        #: the level the cursor starts on.
        self.levels, self.abouts, self.chosen = levels, abouts, chosen

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog levels"):
            yield Static("Seat a bot. How strong? (Enter seats it, Escape does not.)",
                         id="level-question")
            yield OptionList(*(Option(f"{level:<7}{strategy}: {self.abouts.get(strategy, '')}",
                                      id=level) for level, strategy in self.levels.items()),
                             id="levels")

    def on_mount(self) -> None:
        options = self.query_one("#levels", OptionList)
        names = list(self.levels)
        options.highlighted = names.index(self.chosen) if self.chosen in names else 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.levels.get(event.option.id or ""))

    def action_cancel(self) -> None:
        self.dismiss(None)
