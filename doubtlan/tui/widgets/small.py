"""The layouts the screens are made for, chosen by the app's size, and the notice a screen
shows over itself when the screen is smaller than both (then panels would be cut off and
buttons lose their keys, with nothing else to say why).

Two layouts: the wide one, from 80 columns by 24 lines (a terminal window), and the compact
one, from 40 columns by 30 lines (a phone held upright, a narrow terminal split), where the
table's parts are stacked, cards and buttons are three lines tall for a thumb, and the keys
are buttons too. The app carries the class ``-compact`` in the compact layout; widgets ask
:func:`compact`. On a touch screen (a tablet's page in the wide layout) cards and buttons are
three lines tall too: :func:`big`."""

from __future__ import annotations

from textual.dom import DOMNode
from textual.widget import Widget

#: The smallest screen, in columns and lines, of the wide layout and of the compact one.
WIDE, COMPACT = (80, 24), (40, 30)
#: The app's classes: the compact layout, a screen too small for either, and a touch screen
#: (a browser seat's page on a phone or a tablet, ``join --touch``).
COMPACT_CLASS, TOO_SMALL_CLASS, TOUCH_CLASS = "-compact", "-too-small", "-touch"


def layout_for(width: int, height: int) -> str | None:
    """``"wide"``, ``"compact"``, or None for a screen too small for either."""
    if width >= WIDE[0] and height >= WIDE[1]:
        return "wide"
    if width >= COMPACT[0] and height >= COMPACT[1]:
        return "compact"
    return None


def compact(node: DOMNode) -> bool:
    """Whether ``node``'s app is drawn in the compact layout."""
    try:
        return node.app.has_class(COMPACT_CLASS)
    except Exception:  # (not mounted in an app yet: the wide layout)
        return False


def big(node: DOMNode) -> bool:
    """Whether ``node``'s app draws cards and buttons three lines tall, for a thumb: in the
    compact layout, and on a touch screen in either layout."""
    try:
        return node.app.has_class(COMPACT_CLASS) or node.app.has_class(TOUCH_CLASS)
    except Exception:  # (not mounted in an app yet)
        return False


def too_small(width: int, height: int, *, web: bool) -> str:
    """What the notice says of a screen of ``width`` x ``height`` cells; ``web``: a page in a
    browser (a phone has no window to make larger, and no ctrl+c)."""
    if web and width > height and width >= WIDE[0]:
        return "Turn your phone upright:\nthe table needs a taller screen."
    if web:
        return ("This screen is too small for the table.\nTurn your phone upright, or open "
                "the page on a larger screen.")
    return (f"This terminal is {width}x{height}; doubtlan needs {WIDE[0]}x{WIDE[1]}, or "
            f"{COMPACT[0]}x{COMPACT[1]} for its narrow layout.\n"
            "Make the window larger (ctrl+c quits).")


class SmallNotice(Widget):
    """Hidden until the app has the ``-too-small`` class (``DoubtApp`` sets it on resize);
    then it covers the screen and says what to do."""

    DEFAULT_CSS = """
    SmallNotice {
        display: none; dock: top; layer: notice; width: 100%; height: 100%;
        content-align: center middle; text-align: center;
        background: $error-muted; color: $text; text-style: bold; padding: 1 2;
    }
    """

    def render(self) -> str:
        width, height = self.app.size
        return too_small(width, height, web=self.app.is_web)
