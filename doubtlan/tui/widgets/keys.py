"""The line of keys at the foot of the table screen: the keys that do something now, each
clickable.

Textual's Footer rebuilds its widgets whenever the bindings are refreshed, which on this
screen (bindings that change with every turn) costs more than the rest of a frame; this line
redraws its text only when the keys change.
"""

from __future__ import annotations

from rich.text import Text

from .lines import Lines, clickable


class KeyLine(Lines):
    DEFAULT_CSS = """
    KeyLine { dock: bottom; height: 1; background: $footer-background; color: $footer-foreground; }
    KeyLine > .keyline--key { color: $footer-key-foreground; text-style: bold; }
    """
    COMPONENT_CLASSES = {"keyline--key"}

    def __init__(self) -> None:
        super().__init__()
        self.keys: tuple[tuple[str, str, str], ...] = ()

    def show(self, keys: tuple[tuple[str, str, str], ...]) -> None:
        """Draw ``keys``: (key as drawn, what it does, the key a click presses) each."""
        if keys != self.keys:
            self.keys = keys
            self.redraw()

    def build(self, width: int) -> list[Text]:
        text = Text()
        key_style = self.get_component_rich_style("keyline--key")
        for shown, description, key in self.keys:
            click = clickable(f"app.simulate_key({key!r})")
            text.append(f" {shown}", style=key_style + click)
            text.append(f" {description} ", style=click)
        return [text]
