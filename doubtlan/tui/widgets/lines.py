"""A widget drawn line by line, the fast way to draw text that changes often.

Textual turns a widget's ``render()`` into lines anew on every repaint, which for the
table's widgets cost more than the rest of a frame. A ``Lines`` widget builds its lines
(rich Text) when told that something changed (``redraw``) or when its size changes,
repaints only the lines whose text is new, and turns each line into terminal cells once:
moving the hand's cursor repaints two lines, and a claims list that moves up a line reuses
every line it already drew. Styles with ``@click`` meta make words clickable, as in markup.
"""

from __future__ import annotations

from functools import cache

from rich.style import Style
from rich.text import Text
from textual.events import Resize
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


@cache
def clickable(action: str) -> Style:
    """A style that runs ``action`` when clicked (one object per action: making it is dear)."""
    return Style.from_meta({"@click": action})


class Lines(Widget):
    """Subclasses say what to draw in ``build``, and call ``redraw`` when it changes."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        #: The lines drawn, and the cells of those drawn since they last changed.
        self.texts: list[Text] = []
        self._strips: dict[int, Strip] = {}
        self._width = -1
        self._style: Style | None = None

    def build(self, width: int) -> list[Text]:
        """The lines to draw in a content area ``width`` cells wide."""
        raise NotImplementedError

    def redraw(self) -> None:
        """What ``build`` returns may have changed: repaint the lines that did."""
        width = self.size.width
        new = self.build(width)
        old, strips = self.texts, self._strips
        self.texts = new
        if len(new) != len(old) and self.styles.height is not None \
                and self.styles.height.is_auto:
            self.refresh(layout=True)  # (as tall as its lines: the compact layout's parts)
        if width != self._width:
            self._width, self._strips = width, {}
            self.refresh()
            return
        # A line that only moved (the claims list, scrolling) keeps its cells.
        moved = {id(text): strips[y] for y, text in enumerate(old) if y in strips}
        self._strips = {}
        dirty = []
        for y in range(max(len(old), len(new))):
            if y < len(new):
                text = new[y]
                # (Text's == leaves out the base style: compare it too.)
                if y < len(old) and (text is old[y] or text == old[y]
                                     and text.style == old[y].style):
                    new[y] = old[y]
                    if y in strips:
                        self._strips[y] = strips[y]
                    continue
                if id(text) in moved:  # the same object as an old line: the same cells
                    self._strips[y] = moved[id(text)]
            dirty.append(Region(0, y, width, 1))
        if dirty:
            self.refresh(*dirty)

    def on_resize(self, event: Resize) -> None:
        self.redraw()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """As tall as its lines (where its height is ``auto``), built for ``width``."""
        return len(self.texts if width == self._width else self.build(width))

    def render(self) -> Text:
        """The lines as one text (what a test reads; the screen is drawn by lines)."""
        return Text("\n").join(self.texts)

    def render_line(self, y: int) -> Strip:
        style = self.rich_style
        if style != self._style:  # focus, a theme: the lines carry styles, build them again
            self._style, self._strips = style, {}
            self.texts = self.build(self.size.width)
        strip = self._strips.get(y)
        if strip is None:
            width = self.size.width
            if y < len(self.texts):
                # The widget's style under the line's own (its base style and spans), as
                # spans: Text.render draws no base style.
                text = Text(no_wrap=True, end="")
                text.append_text(self.texts[y])
                text.stylize_before(style)
                strip = Strip(text.render(self.app.console)).crop_extend(0, width, style)
            else:
                strip = Strip.blank(width, style)
            self._strips[y] = strip
        return strip
