"""What the table asks of you now: your turn, a claim to doubt or let stand (with a
countdown), or what a doubt turned over."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button, ProgressBar, Static


class Prompt(Widget):
    DEFAULT_CSS = """
    Prompt { height: 7; border: round $secondary; padding: 0 1; }
    Prompt.ask { border: heavy $warning; }
    Prompt #say { height: auto; }
    Prompt ProgressBar { display: none; }
    Prompt.ask ProgressBar { display: block; }
    Prompt #answers { height: 1; display: none; }
    Prompt.ask #answers, Prompt.call #answers { display: block; }
    Prompt.call #stand { display: none; }
    Prompt Button { min-width: 0; width: auto; height: 1; border: none; margin-right: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="say")
        yield ProgressBar(show_percentage=False, show_eta=False, id="countdown")
        with Horizontal(id="answers"):
            yield Button("Doubt (d)", id="doubt", variant="error", compact=True)
            yield Button("Let it stand (p)", id="stand", variant="primary", compact=True)

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False

    def say(self, text: Text | str, *, ask: bool = False, call: bool = False) -> None:
        """Show ``text``; ``ask``: a window for you (countdown, both answers); ``call``: a
        claim you may call in the open mode."""
        if text != getattr(self, "_said", None):
            self._said = text
            self.query_one("#say", Static).update(text)
        self.set_class(ask, "ask")
        self.set_class(call and not ask, "call")

    def countdown(self, left: float, total: float) -> None:
        bar = self.query_one(ProgressBar)
        bar.update(total=max(total, 0.001), progress=max(0.0, left))
