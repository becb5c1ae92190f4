"""Table talk on the screen (docs/talk.md): the quick words, each on one key, and the strip
at the foot of the play screen that shows the newest line for a few seconds."""

from __future__ import annotations

from rich.text import Text

from ...net.messages import Said
from .lines import Lines

#: The quick words: key, what is said (the keys are the play screen's, free in every game).
QUICK: tuple[tuple[str, str], ...] = (
    ("f", "Sure you do."),
    ("g", "Honest!"),
    ("h", "Nice one"),
    ("j", "Hurry up"),
)
#: Seconds a line stays on the strip.
SHOWN = 8.0
#: The longest line a player may type (the protocol's ``say.line``).
LONGEST = 80


def talk_line(said: Said, width: int | None = None) -> Text:
    """``said`` as the strip and the claims list show it: the name (a bot's marked), then
    the line."""
    text = Text()
    text.append(said.name, style="bold")
    if said.bot:
        text.append(" (bot)", style="dim")
    text.append(": ")
    text.append(said.line, style="italic")
    if width is not None:
        text.truncate(width, overflow="ellipsis")
    return text


class TalkStrip(Lines):
    """The newest line said at the table, for :data:`SHOWN` seconds after it came (with how
    many more came with it), over the screen's last line but the keys; hidden otherwise, so
    that it moves nothing on the screen."""

    DEFAULT_CSS = """
    TalkStrip {
        dock: bottom; offset-y: -1; layer: notice; height: 1; padding: 0 1;
        background: $boost; display: none;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="talk")
        self.said: Said | None = None
        self.more = 0
        self.until = 0.0

    def heard(self, said: Said, now: float) -> None:
        """A line just said (``said.fresh``): shown from ``now`` on."""
        self.more = self.more + 1 if self.said is not None and now < self.until else 0
        self.said, self.until = said, now + SHOWN
        self.display = True
        self.redraw()

    def tick(self, now: float) -> None:
        """Clear the line once its time is up."""
        if self.said is not None and now >= self.until:
            self.said, self.more = None, 0
            self.display = False

    def build(self, width: int) -> list[Text]:
        said = self.said
        if said is None:
            return [Text("")]
        more = f"  (+{self.more})" if self.more else ""
        line = talk_line(said, max(1, width - len(more)))
        line.append(more, style="dim")
        return [line]
