"""Ask for a table's PIN."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ..widgets.small import SmallNotice


class PinScreen(ModalScreen[str | None]):
    """The table needs a PIN: the player types it (Escape gives up)."""

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("This table needs a PIN. Ask its host for it.")
            yield Input(placeholder="PIN", password=True, max_length=64, id="pin")
            yield Static("", id="pin-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Back", id="back")
                yield Button("Join", id="join", variant="primary")
        yield SmallNotice()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._take(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "back":
            self.action_cancel()
        else:
            self._take(self.query_one("#pin", Input).value)

    def _take(self, given: str) -> None:
        pin = given.strip()
        if not pin or not pin.isprintable():
            self.query_one("#pin-error", Static).update("Type the PIN, then Join.")
            return
        self.dismiss(pin)

    def action_cancel(self) -> None:
        self.dismiss(None)
