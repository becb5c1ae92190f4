"""``o`` in the lobby: the host sets the rules and the clocks before the match starts (each
game's own rule options: I Doubt It's decks and challenges, I Know You Don't's deck)."""

from __future__ import annotations

from typing import Any, Protocol

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ...net.table import Refused, TableConfig
from ...rules import Challenge, Options
from ...rules.iknowyoudont import Deck
from ...rules.iknowyoudont import Options as KnowOptions
from ..words import sentence


class Configure(Protocol):
    """Changes the table's rules, clocks and seats (``Host.configure``); ``Refused`` says
    why it cannot."""

    def __call__(self, options: Any = None, *, window: float | None = None,
                 turn_timeout: float | None = None, players: int | None = None) -> None: ...


class OptionsScreen(ModalScreen[bool]):
    """The rules dialog over ``config``; Save hands the new settings to ``configure`` and
    closes (True), unless they are refused (the reason shows under the fields)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, config: TableConfig, configure: Configure) -> None:
        super().__init__()
        self.config, self.configure = config, configure

    def compose(self) -> ComposeResult:
        config = self.config
        know = config.game == "iknowyoudont"
        with Vertical(classes="dialog options"):
            yield Static("Rules for this table", classes="title")
            with Grid(id="option-fields"):
                if know:
                    yield Label("Deck")
                    yield Select([("own: levels 1 to 6", "own"),
                                  ("standard: 1 to 10", "standard")],
                                 value=config.options.deck.value, allow_blank=False, id="deck")
                else:
                    yield Label("Decks")
                    yield Select([("one deck: 3 to 8", 1), ("two decks: 3 to 10", 2)],
                                 value=config.options.decks, allow_blank=False, id="decks")
                    yield Label("Challenges")
                    yield Select([("a window per claim", "window"),
                                  ("open calls (Cheat)", "open")],
                                 value=config.options.challenge.value, allow_blank=False,
                                 id="challenge")
                yield Label("Seats")
                yield Input(str(config.players), id="players", type="integer", max_length=2)
                yield Label("Seconds with priority" if know else "Seconds to doubt")
                yield Input(f"{config.window:g}", id="window", type="number", max_length=6)
                yield Label("Seconds a turn (0: none)")
                yield Input(f"{config.turn_timeout:g}", id="turn-timeout", type="number",
                            max_length=6)
            yield Static("", id="options-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.save()
        else:
            self.dismiss(False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.save()

    def save(self) -> None:
        error = self.query_one("#options-error", Static)
        know = self.config.game == "iknowyoudont"
        options: object
        try:
            if know:
                options = KnowOptions(Deck(self.query_one("#deck", Select).value))
            else:
                decks = int(self.query_one("#decks", Select).value)  # type: ignore[arg-type]
                options = Options(decks, Challenge(self.query_one("#challenge", Select).value))
            players = _number(self.query_one("#players", Input).value, "seats", 3,
                              6 if know else 10)
            window = _number(self.query_one("#window", Input).value,
                             "seconds with priority" if know else "seconds to doubt",
                             1, 3600)  # at least twice the half second a doubt is held
            turn = _number(self.query_one("#turn-timeout", Input).value, "seconds a turn",
                           0, 3600)
        except ValueError as problem:
            error.update(str(problem))
            return
        try:
            self.configure(options, window=window, turn_timeout=turn, players=int(players))
        except Refused as problem:
            error.update(sentence(str(problem)))
            return
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


def _number(text: str, what: str, low: float, high: float) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what.capitalize()}: type a number.") from None
    if not low <= value <= high:
        raise ValueError(f"{what.capitalize()}: {low:g} to {high:g}.")
    return value
