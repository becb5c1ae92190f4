"""Small modal screens: a message to read, and a yes-or-no question."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class MessageScreen(ModalScreen[None]):
    """A plain sentence for the player (an error, or why the table ended); ``loud`` for a
    warning that must not be missed (a table's key that changed)."""

    BINDINGS = [Binding("enter,escape,space", "close", "OK")]

    def __init__(self, text: str, *, then_quit: bool = False, loud: bool = False) -> None:
        super().__init__()
        self.text, self.then_quit, self.loud = text, then_quit, loud

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog loud" if self.loud else "dialog"):
            yield Static(self.text, id="message", markup=False)  # (names from the network)
            with Horizontal(classes="buttons"):
                yield Button("Quit" if self.then_quit else "OK", id="ok", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_close()

    def action_close(self) -> None:
        if self.then_quit:
            self.app.exit(1, return_code=1, message=self.text)
        else:
            self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """Ask before something that cannot be undone (quitting)."""

    BINDINGS = [
        Binding("y", "yes", "Yes"),
        Binding("n,escape", "no", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, id="question")
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
