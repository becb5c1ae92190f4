"""The base of the prompts that run a countdown: a bar of the window's time still to run,
drawn as one line of bar characters, so that a tick redraws one line of the prompt alone."""

from __future__ import annotations

from rich.text import Text

from .lines import Lines


class Countdown(Lines):
    """A prompt with a countdown bar: ``_left`` is the share of the window still to run."""

    _left = 1.0

    def countdown(self, left: float, total: float) -> None:
        share = max(0.0, min(1.0, left / total)) if total > 0 else 0.0
        width = max(1, self.size.width)
        drawn = round(self._left * width)
        self._left = share
        if round(share * width) != drawn:
            self.redraw()

    def bar(self, width: int, left: str, gone: str) -> Text:
        """The countdown as a line of ``width`` bar characters, in the component styles
        ``left`` (still to run) and ``gone``."""
        done = round(self._left * width)
        bar = Text()
        bar.append("━" * done, style=self.get_component_rich_style(left))
        bar.append("━" * (width - done), style=self.get_component_rich_style(gone))
        return bar
