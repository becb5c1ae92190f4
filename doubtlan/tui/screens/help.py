"""``?``: the rules of the table's game in brief, every key (each game's table,
``GameTable.rules``, holds its own), and the table's key in words."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown, Static

from ...net.client import Client
from ...rules import game_named
from ...rules.words import Words
from ..widgets.lobby import fewest

#: The help's first line: how to read it and how to leave it.
HOW = "↑↓, Page Up and Page Down scroll this help (or a finger); Escape, ? or q closes it."

#: The app's own keys at every table: the help adds them to the game's table of keys.
APP_KEYS = """\
| t | say something to the table (a seated player; up to 80 characters) |
| f, g, h, j | say at once: "Sure you do.", "Honest!", "Nice one", "Hurry up" |
| ? | this help |
| q, ctrl+c | leave, once you say yes (the host: end the table for everyone) |
"""

HOST_KEYS = """
| key | the host, in the lobby and between {games} |
|---|---|
| b | seat a bot |
| x | remove the selected bot |
| o | rule options |
| s | deal the first {game}{seated} |
| n | deal the next {game} |
| m | mute a player's talk, or hear it again (any time) |
"""

TABLE_KEY = """

**The table's key:** {words}. Every screen at this table shows the same words (in its
lobby and here): compare them aloud. A screen that shows others is talking to another
machine.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, rules: str, is_host: bool = False, key: str = "",
                 client: Client | None = None) -> None:
        super().__init__()
        #: ``key``: the words of the key the host presented to this client; the fewest
        #: players the table's rules need, once the ``client``'s table has said.
        self.rules, self.is_host, self.key = rules, is_host, key
        table = client.mirror.table if client is not None else None
        self.fewest = None if table is None else fewest(table)
        #: The game's words ("deal the next match"): the table's game's, once it has said.
        self.words = Words() if table is None else game_named(table.game).words

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            with VerticalScroll(id="help-text"):
                yield Static(HOW, classes="help-how")
                yield Markdown(self.text())
            with Horizontal(classes="buttons"):
                yield Button("Close", id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_close()

    def text(self) -> str:
        """The help, in markdown: the game's rules and keys (the app's own added to its
        table of keys), the host's keys, the table's key in words."""
        seated = "" if self.fewest is None else f" ({self.fewest} or more seated)"
        return (self.rules.rstrip("\n") + "\n" + APP_KEYS
                + (HOST_KEYS.format(seated=seated, game=self.words.game,
                                    games=self.words.games) if self.is_host else "")
                + (TABLE_KEY.format(words=self.key) if self.key else ""))

    def action_close(self) -> None:
        self.dismiss(None)
