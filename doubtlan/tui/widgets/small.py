"""The notice a screen shows over itself when the terminal is smaller than its layout needs
(then panels are cut off and buttons lose their keys, with nothing else to say why)."""

from __future__ import annotations

from textual.widget import Widget

#: The smallest terminal, in columns and lines, that the screens are made for.
LEAST = (80, 24)


class SmallNotice(Widget):
    """Hidden until the app has the ``-too-small`` class (``DoubtApp`` sets it on resize);
    then it covers the screen and says how large the terminal must be."""

    DEFAULT_CSS = """
    SmallNotice {
        display: none; dock: top; layer: notice; width: 100%; height: 100%;
        content-align: center middle; text-align: center;
        background: $error-muted; color: $text; text-style: bold; padding: 1 2;
    }
    """

    def render(self) -> str:
        width, height = self.app.size
        return (f"This terminal is {width}x{height}; doubtlan needs {LEAST[0]}x{LEAST[1]} or "
                "more.\nMake the window larger (ctrl+c quits).")
