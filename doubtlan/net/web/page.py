"""The page a browser seat is drawn in, and every file it loads: all from the host.

textual-serve's stock page links a web font on the internet; this page is doubtlan's own
(``page.html``, ``static/``), with textual-serve's script, terminal style and Roboto Mono font
served from the host, so a LAN with no internet loses nothing and no third party hears
that anyone is playing. The script is served with xterm.js's screen-reader mode on: the
screen is also a list of text rows, for a player who listens to it (and for the tests),
brought up to date four times a second.
"""

from __future__ import annotations

import html
import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
#: The headers of every answer: nothing may frame the page, load from elsewhere or learn
#: where the player came from.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; script-src 'self'; font-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
}
#: The text size the page starts from (page.js picks one for the device unless the address
#: asks: ``?fontsize=20``), and the sizes it may ask for.
FONT_SIZE, FONT_SIZES = 16, range(8, 41)
#: textual.js's options for its terminal, and the same with the screen-reader mode on; and
#: how often its rows for a screen reader are brought up to date (xterm.js's own is once a
#: second; a quarter of one here, so that what a reader reads is the screen of the moment).
_OPTIONS = "scrollback:0,"
_READABLE = "scrollback:0,screenReaderMode:!0,"
_ROWS = "TimeBasedDebouncer(this._renderRows.bind(this))"
_ROWS_SOONER = "TimeBasedDebouncer(this._renderRows.bind(this),250)"
#: Where textual.js makes its terminal: kept for page.js, which draws it at another text size
#: when the page turns (a phone held sideways, then upright).
_MADE = "const t=new w(e,{ping:r});"
_MADE_KEPT = "const t=new w(e,{ping:r});window.doubtlanTerminal=t;"


@dataclass(frozen=True)
class Asset:
    body: bytes
    content_type: str


def index(title: str, websocket: str, font_size: int | None) -> bytes:
    """The page: ``title`` on its start screen, the app's websocket at ``websocket``; its
    text ``font_size`` pixels (None: page.js picks it from the device's screen)."""
    template = Template((HERE / "page.html").read_text(encoding="utf-8"))
    return template.substitute(
        title=html.escape(title), websocket=html.escape(websocket),
        font_size=str(font_size or FONT_SIZE), asked="1" if font_size else "",
    ).encode("utf-8")


def reload(url: str) -> str:
    """A page that at once loads ``url`` (on this site) in its place."""
    return (f'<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url='
            f'{html.escape(url)}"></head><body></body></html>')


def font_size(text: str | None) -> int | None:
    """The text size asked for in the address, if it is one the page can draw (None: the
    page picks one for the device)."""
    try:
        size = int(text or 0)
    except ValueError:
        return None
    return size if size in FONT_SIZES else None


def assets() -> dict[str, Asset]:
    """Every file under ``/static/`` the page loads, by its path there (read once)."""
    served = resources.files("textual_serve") / "static"
    found = {
        "page.css": Asset((HERE / "static" / "page.css").read_bytes(), "text/css"),
        "page.js": Asset((HERE / "static" / "page.js").read_bytes(), "text/javascript"),
        "css/xterm.css": Asset((served / "css" / "xterm.css").read_bytes(), "text/css"),
        "js/textual.js": Asset(_readable((served / "js" / "textual.js").read_bytes()),
                               "text/javascript"),
    }
    for font in (served / "fonts").iterdir():
        if font.name.endswith(".ttf"):
            found[f"fonts/{font.name}"] = Asset(font.read_bytes(), "font/ttf")
    return found


def _readable(script: bytes) -> bytes:
    """textual.js with its terminal's screen-reader mode on (as it came, if this textual-serve
    writes its options otherwise: the page still plays, unread)."""
    text = script.decode("utf-8")
    if text.count(_OPTIONS) != 1 or text.count(_ROWS) != 1 or text.count(_MADE) != 1:
        log.warning("textual-serve's script is not the one expected: screen-reader mode off, "
                    "and the text size stays as the page opened")
        return script
    return text.replace(_OPTIONS, _READABLE).replace(_ROWS, _ROWS_SOONER) \
        .replace(_MADE, _MADE_KEPT).encode("utf-8")
