"""What the table asks of you now: your turn, a claim to doubt or let stand (with a
countdown), or what a doubt turned over.

One widget drawn line by line: the countdown is a line of bar characters and the answers
are clickable words, so a tick of the countdown redraws one line of this widget alone.
"""

from __future__ import annotations

from rich.text import Text

from ...widgets.countdown import Countdown
from ...widgets.lines import clickable

#: The answers, as drawn, and the key each click presses.
DOUBT, STAND = (" Doubt (d) ", "d"), (" Let it stand (p) ", "p")


class Prompt(Countdown):
    DEFAULT_CSS = """
    Prompt { height: 7; width: 1fr; border: round $secondary; padding: 0 1; }
    Prompt.ask { border: heavy $warning; }
    Prompt > .prompt--left { color: $warning; }
    Prompt > .prompt--gone { color: $text-disabled; }
    Prompt > .prompt--doubt { background: $error; color: $text; text-style: bold; }
    Prompt > .prompt--stand { background: $primary; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"prompt--left", "prompt--gone", "prompt--doubt", "prompt--stand"}

    def __init__(self) -> None:
        super().__init__()
        self._text = Text()
        self._ask = self._call = False
        self._left = 1.0  # the share of the window still to run

    def say(self, text: Text | str, *, ask: bool = False, call: bool = False) -> None:
        """Show ``text``; ``ask``: a window for you (countdown, both answers); ``call``: a
        claim you may call in the open mode."""
        text = text if isinstance(text, Text) else Text(text)
        call = call and not ask
        if (text, ask, call) == (self._text, self._ask, self._call):
            return
        if ask and not self._ask:
            self._left = 1.0  # a new window: its bar starts full
        self._text, self._ask, self._call = text, ask, call
        self.set_class(ask, "ask")
        self.redraw()

    @property
    def answers(self) -> tuple[str, ...]:
        """The answers drawn now."""
        return (DOUBT[0], STAND[0]) if self._ask else (DOUBT[0],) if self._call else ()

    def build(self, width: int) -> list[Text]:
        style = self.get_component_rich_style
        lines = self._text.wrap(self.app.console, max(1, width))
        if self._ask:
            lines.append(self.bar(width, "prompt--left", "prompt--gone"))
        if self.answers:
            buttons = Text()
            for (label, key), part in ((DOUBT, "prompt--doubt"), (STAND, "prompt--stand")):
                if label in self.answers:
                    click = clickable(f"app.simulate_key('{key}')")
                    buttons.append(label, style=style(part) + click)
                    buttons.append(" ")
            lines.append(buttons)
        return list(lines)
