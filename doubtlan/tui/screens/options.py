"""``o`` in the lobby: the host sets the rules and the clocks before the match starts (the
game's own rule options, ``options_type.fields``: I Doubt It's decks and challenges, I Know
You Don't's deck)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from ...net.table import LEAST_WINDOW, Refused, TableConfig
from ...rules import game_named
from ...rules.options import option_values
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

    def __init__(self, config: TableConfig, configure: Configure, *, web: bool | None = None,
                 serve_web: Callable[[bool], object] | None = None) -> None:
        """``web``: whether browser seats are served now (None: the table cannot offer
        them, as ``doubtlan play``'s); ``serve_web`` turns them on or off."""
        super().__init__()
        self.config, self.configure = config, configure
        self.web, self.serve_web = web, serve_web
        self.game = game_named(config.game)

    def compose(self) -> ComposeResult:
        config, game = self.config, self.game
        values = option_values(config.options)
        with Vertical(classes="dialog options"):
            yield Static("Rules for this table", classes="title")
            with Grid(id="option-fields"):
                for field in game.options_type.fields:
                    yield Label(field.label)
                    yield Select([(choice.words, choice.value) for choice in field.choices],
                                 value=values.get(field.name, field.default),
                                 allow_blank=False, id=field.name)
                yield Label("Seats")
                yield Input(str(config.players), id="players", type="integer", max_length=2)
                if game.window_label is not None:  # (a game without a window clock: none)
                    yield Label(game.window_label.capitalize())
                    yield Input(f"{config.window:g}", id="window", type="number", max_length=6)
                yield Label("Seconds a turn (0: none)")
                yield Input(f"{config.turn_timeout:g}", id="turn-timeout", type="number",
                            max_length=6)
                if self.web is not None:
                    yield Label("Seats from a browser")
                    yield Select([("off", False), ("on (HTTPS)", True)], value=self.web,
                                 allow_blank=False, id="web")
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
        game = self.game
        try:
            chosen = ",".join(f"{field.name}={self.query_one(f'#{field.name}', Select).value}"
                              for field in game.options_type.fields)
            options = game.options_type.parse(chosen)
            players = _number(self.query_one("#players", Input).value, "seats",
                              options.min_players, options.max_players)
            window = self.config.window if game.window_label is None else _number(
                self.query_one("#window", Input).value, game.window_label, LEAST_WINDOW, 3600)
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
        if self.web is not None and self.serve_web is not None:
            web = self.query_one("#web", Select).value
            if web != self.web:
                self.serve_web(bool(web))
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
