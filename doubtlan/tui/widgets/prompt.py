"""What the table asks of you now: your turn, a claim to doubt or let stand (with a
countdown), or what a doubt turned over.

One widget that draws itself as text: the countdown is a line of bar characters and the
answers are clickable words, so a tick of the countdown or a new sentence repaints this
widget alone.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

#: The answers, as drawn, and the key each click presses.
DOUBT, STAND = (" Doubt (d) ", "d"), (" Let it stand (p) ", "p")


class Prompt(Widget):
    DEFAULT_CSS = """
    Prompt { height: 7; border: round $secondary; padding: 0 1; }
    Prompt.ask { border: heavy $warning; }
    Prompt > .prompt--left { color: $warning; }
    Prompt > .prompt--gone { color: $text-disabled; }
    Prompt > .prompt--doubt { background: $error; color: $text; text-style: bold; }
    Prompt > .prompt--stand { background: $primary; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"prompt--left", "prompt--gone", "prompt--doubt", "prompt--stand"}

    def __init__(self) -> None:
        super().__init__()
        self._text: Text | str = ""
        self._ask = self._call = False
        self._left = 1.0  # the share of the window still to run

    def say(self, text: Text | str, *, ask: bool = False, call: bool = False) -> None:
        """Show ``text``; ``ask``: a window for you (countdown, both answers); ``call``: a
        claim you may call in the open mode."""
        call = call and not ask
        if (text, ask, call) == (self._text, self._ask, self._call):
            return
        self._text, self._ask, self._call = text, ask, call
        self.set_class(ask, "ask")
        self.refresh()

    def countdown(self, left: float, total: float) -> None:
        share = max(0.0, min(1.0, left / total)) if total > 0 else 0.0
        width = max(1, self.size.width)
        if round(share * width) != round(self._left * width):
            self.refresh()
        self._left = share

    @property
    def answers(self) -> tuple[str, ...]:
        """The answers drawn now."""
        return (DOUBT[0], STAND[0]) if self._ask else (DOUBT[0],) if self._call else ()

    def render(self) -> Text:
        style = self.get_component_rich_style
        text = Text()
        text.append_text(self._text if isinstance(self._text, Text) else Text(self._text))
        if self._ask:
            width = max(1, self.size.width)
            done = round(self._left * width)
            text.append("\n" + "━" * done, style=style("prompt--left"))
            text.append("━" * (width - done), style=style("prompt--gone"))
        if self.answers:
            text.append("\n")
            for (label, key), part in ((DOUBT, "prompt--doubt"), (STAND, "prompt--stand")):
                if label in self.answers:
                    click = Style.from_meta({"@click": f"app.simulate_key('{key}')"})
                    text.append(label, style=style(part) + click)
                    text.append(" ")
        return text
