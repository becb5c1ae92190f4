"""``?``: the rules of the table's game in brief, and every key (each game's table,
``GameTable.rules``, holds its own)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HOST_KEYS = """
| key | the host, in the lobby and between games |
|---|---|
| b | seat a bot |
| x | remove the selected bot |
| o | rule options |
| s | start the match (3 or more seated) |
| n | next game |
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, rules: str, is_host: bool = False) -> None:
        super().__init__()
        self.rules, self.is_host = rules, is_host

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Markdown(self.rules + (HOST_KEYS if self.is_host else ""))

    def action_close(self) -> None:
        self.dismiss(None)
