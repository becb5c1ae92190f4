"""What an I Know You Don't table asks of you now: your turn, your priority (pass, accept,
challenge) with a countdown, an interception you may make, or whether to play your
Wildcard; else who is to move and how the last claim went.

One widget drawn line by line, as I Doubt It's prompt is: the answers are clickable words,
and a tick of the countdown redraws one line."""

from __future__ import annotations

from rich.text import Text

from ...widgets.countdown import Countdown
from ...widgets.lines import clickable

#: Each answer as drawn, the key a click presses, and its look.
PASS = (" Pass (p) ", "p", "knowprompt--quiet")
ACCEPT = (" Accept (a) ", "a", "knowprompt--quiet")
CHALLENGE = (" Challenge (c) ", "c", "knowprompt--loud")
INTERCEPT = (" Intercept (i) ", "i", "knowprompt--loud")
WILD = (" Wildcard (w) ", "w", "knowprompt--loud")
KEEP = (" Keep (k) ", "k", "knowprompt--quiet")

Answer = tuple[str, str, str]


class KnowPrompt(Countdown):
    DEFAULT_CSS = """
    KnowPrompt { height: 7; width: 1fr; border: round $secondary; padding: 0 1; }
    KnowPrompt.ask { border: heavy $warning; }
    KnowPrompt > .knowprompt--left { color: $warning; }
    KnowPrompt > .knowprompt--gone { color: $text-disabled; }
    KnowPrompt > .knowprompt--loud { background: $error; color: $text; text-style: bold; }
    KnowPrompt > .knowprompt--quiet { background: $primary; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"knowprompt--left", "knowprompt--gone", "knowprompt--loud",
                         "knowprompt--quiet"}

    def __init__(self) -> None:
        super().__init__()
        self._text = Text()
        self.answers: tuple[Answer, ...] = ()
        self._ask = False
        self._left = 1.0  # the share of the window still to run

    def say(self, text: Text, answers: tuple[Answer, ...] = (), *, ask: bool = False) -> None:
        """Show ``text`` and the ``answers`` (buttons); ``ask``: the decision is yours, on
        the clock (a countdown bar)."""
        if (text, answers, ask) == (self._text, self.answers, self._ask):
            return
        if ask and not self._ask:
            self._left = 1.0  # a new window: its bar starts full
        self._text, self.answers, self._ask = text, answers, ask
        self.set_class(ask, "ask")
        self.redraw()

    @property
    def asking(self) -> bool:
        return self._ask

    def build(self, width: int) -> list[Text]:
        style = self.get_component_rich_style
        lines = list(self._text.wrap(self.app.console, max(1, width)))
        # The bar and the answers are always drawn: the text gives way.
        extras = int(self._ask) + int(bool(self.answers))
        del lines[max(1, self.size.height - extras):]
        if self._ask:
            lines.append(self.bar(width, "knowprompt--left", "knowprompt--gone"))
        if self.answers:
            buttons = Text()
            for label, key, look in self.answers:
                buttons.append(label, style=style(look) + clickable(f"app.simulate_key('{key}')"))
                buttons.append(" ")
            lines.append(buttons)
        return lines
