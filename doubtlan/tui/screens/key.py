"""The question asked when a table comes back with another key (net/known.py): as SSH
does, the answer that costs nothing is the default."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...net.identity import words


class ChangedKeyScreen(ModalScreen[bool]):
    """"Don't join" (the default) or "Join anyway" a table named ``name`` whose key is
    ``now``, where it was ``then`` when this player last joined it. True: join anyway."""

    BINDINGS = [Binding("escape,n", "answer(False)", "Don't join")]

    def __init__(self, name: str, then: bytes, now: bytes) -> None:
        super().__init__()
        self.table, self.then, self.now = name, then, now

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog loud key"):
            yield Static(f"The table {self.table!r} has another key", id="message",
                         markup=False)  # (a name from the network)
            with Horizontal(classes="keys"):
                yield Static(f"When you last joined\n{words(self.then)}", id="then",
                             markup=False)
                yield Static(f"Now\n{words(self.now)}", id="now", markup=False)
            yield Static("It may be another machine using the table's name, or a relay in "
                         "the middle reading everything. Ask the host which words their "
                         "screen shows: join only if they are the new ones.", id="why")
            with Horizontal(classes="buttons"):
                yield Button("Join anyway", id="join", variant="error")
                yield Button("Don't join", id="leave", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#leave", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "join")

    def action_answer(self, join: bool) -> None:
        self.dismiss(join)
