"""Ask for a table's PIN."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..widgets.small import SmallNotice


class PinScreen(ModalScreen[str | None]):
    """The table needs a PIN: the player types it (Escape gives up)."""

    BINDINGS = [Binding("escape", "cancel", "Back")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("This table needs a PIN. Ask its host for it.")
            yield Input(placeholder="PIN", password=True, max_length=64, id="pin")
            yield Static("", id="pin-error", classes="error")
        yield SmallNotice()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        pin = event.value.strip()
        if not pin or not pin.isprintable():
            self.query_one("#pin-error", Static).update("Type the PIN, then Enter.")
            return
        self.dismiss(pin)

    def action_cancel(self) -> None:
        self.dismiss(None)
