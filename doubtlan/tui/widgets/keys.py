"""The line of keys at the foot of the table screen: the keys that do something now, each
clickable. In the compact layout (a phone's), the keys other than the table's moves (whose
buttons the table draws) are buttons three lines tall, a thumb's size.

Textual's Footer rebuilds its widgets whenever the bindings are refreshed, which on this
screen (bindings that change with every turn) costs more than the rest of a frame; this line
redraws its text only when the keys change.
"""

from __future__ import annotations

from rich.text import Text

from .buttons import button_lines
from .lines import Lines, clickable
from .small import big


class KeyLine(Lines):
    DEFAULT_CSS = """
    KeyLine { dock: bottom; height: 1; background: $footer-background; color: $footer-foreground; }
    KeyLine > .keyline--key { color: $footer-key-foreground; text-style: bold; }
    KeyLine > .keyline--button { background: $primary; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"keyline--key", "keyline--button"}

    def __init__(self) -> None:
        super().__init__()
        self.keys: tuple[tuple[str, str, str], ...] = ()
        self.moves = 0

    def show(self, keys: tuple[tuple[str, str, str], ...], moves: int = 0) -> None:
        """Draw ``keys``: (key as drawn, what it does, the key a click presses) each; the
        first ``moves`` are the table's moves."""
        if (keys, moves) != (self.keys, self.moves):
            self.keys, self.moves = keys, moves
            self.redraw()

    def build(self, width: int) -> list[Text]:
        if big(self):
            look = self.get_component_rich_style("keyline--button")
            return button_lines([(description, f"app.simulate_key({key!r})", look)
                                 for _, description, key in self.keys[self.moves:]],
                                width, big=True)
        text = Text()
        key_style = self.get_component_rich_style("keyline--key")
        for shown, description, key in self.keys:
            click = clickable(f"app.simulate_key({key!r})")
            text.append(f" {shown}", style=key_style + click)
            text.append(f" {description} ", style=click)
        return [text]
