"""Ask the host's player for the name to sit down under."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ...net.last_name import LONGEST, valid
from ..widgets.small import SmallNotice


class NameScreen(ModalScreen[str]):
    """Your name at the table, prefilled (the last one used, or the login name): Enter
    takes it, or the button (a tap: a phone's keyboard may have no Enter to hand)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name_given = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Your name at the table (the others see it):")
            yield Input(value=self.name_given, max_length=LONGEST, id="name")
            yield Static("", id="name-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Sit down", id="sit", variant="primary")
        yield SmallNotice()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._take(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self._take(self.query_one("#name", Input).value)

    def _take(self, given: str) -> None:
        name = given.strip()
        if not valid(name):
            self.query_one("#name-error", Static).update(
                Text(f"A name is 1 to {LONGEST} letters, digits or signs."))
            return
        self.dismiss(name)
