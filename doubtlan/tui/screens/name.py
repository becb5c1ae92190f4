"""Ask the host's player for the name to sit down under."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...net.last_name import LONGEST, valid
from ..widgets.small import SmallNotice


class NameScreen(ModalScreen[str]):
    """Your name at the table, prefilled (the last one used, or the login name): Enter
    takes it."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name_given = name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Your name at the table (the others see it), then Enter:")
            yield Input(value=self.name_given, max_length=LONGEST, id="name")
            yield Static("", id="name-error", classes="error")
        yield SmallNotice()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if not valid(name):
            self.query_one("#name-error", Static).update(
                Text(f"A name is 1 to {LONGEST} letters, digits or signs."))
            return
        self.dismiss(name)
