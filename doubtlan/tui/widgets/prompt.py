"""The base of every game's prompt: what the table asks of you now, in a few lines, the
answers as clickable words, and (when the decision is yours, on the clock) a countdown bar.

One widget drawn line by line: a tick of the countdown redraws one line of it alone. A game's
prompt is this with its answers (:data:`Answer`: the words drawn, the key a click presses,
and a look, ``"prompt--loud"`` or ``"prompt--quiet"``)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text

from .buttons import button_lines
from .countdown import Countdown
from .small import big

#: An answer as drawn, the key a click presses, and its look.
Answer = tuple[str, str, str]


class TablePrompt(Countdown):
    DEFAULT_CSS = """
    TablePrompt { height: 7; width: 1fr; border: round $secondary; padding: 0 1; }
    TablePrompt.ask { border: heavy $warning; }
    TablePrompt > .prompt--left { color: $warning; }
    TablePrompt > .prompt--gone { color: $text-disabled; }
    TablePrompt > .prompt--loud { background: $error; color: $text; text-style: bold; }
    TablePrompt > .prompt--quiet { background: $primary; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"prompt--left", "prompt--gone", "prompt--loud", "prompt--quiet"}
    #: Whether the text gives way to the bar and the answers, so that they always show.
    FIT: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self._text = Text()
        self.answers: tuple[Answer, ...] = ()
        self._ask = False
        self._left = 1.0  # the share of the window still to run

    def say(self, text: Text | str, answers: tuple[Answer, ...] = (), *,
            ask: bool = False) -> None:
        """Show ``text`` and the ``answers`` (buttons); ``ask``: the decision is yours, on
        the clock (a countdown bar)."""
        text = text if isinstance(text, Text) else Text(text)
        if (text, answers, ask) == (self._text, self.answers, self._ask):
            return
        if ask and not self._ask:
            self._left = 1.0  # a new window: its bar starts full
        self._text, self.answers, self._ask = text, answers, ask
        self.set_class(ask, "ask")
        self.redraw()

    @property
    def asking(self) -> bool:
        """Whether the decision is yours, on the clock."""
        return self._ask

    def build(self, width: int) -> list[Text]:
        style = self.get_component_rich_style
        large = big(self)  # (then the prompt is as tall as what it says)
        lines = list(self._text.wrap(self.app.console, max(1, width)))
        answers = button_lines([(label.strip(), f"app.simulate_key('{key}')", style(look))
                                for label, key, look in self.answers], width, big=large)
        if self.FIT and not large:
            del lines[max(1, self.size.height - int(self._ask) - len(answers)):]
        if self._ask:
            lines.append(self.bar(width, "prompt--left", "prompt--gone"))
        return lines + answers
