"""A QR code drawn in text, for a phone or tablet to open an address off the screen.

``segno`` makes the code: a small, well-kept library with no dependencies of its own that
follows ISO/IEC 18004 (docs/app.md says why it was chosen). Each text cell draws two
modules, one above the other, with the upper half block.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

DARK, LIGHT = "black", "white"
#: The light margin round the code, in modules (readers want some on a dark screen).
MARGIN = 2


def qr_text(data: str) -> Text:
    """``data`` (an address) as a QR code, two modules a line, dark on light."""
    import segno  # (loaded only when a code is drawn)

    code = segno.make(data, error="m", boost_error=False)
    rows = [list(row) for row in code.matrix_iter(scale=1, border=MARGIN)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    text = Text(no_wrap=True, overflow="crop")
    for number, (upper, lower) in enumerate(zip(rows[::2], rows[1::2], strict=True)):
        if number:
            text.append("\n")
        for top, bottom in zip(upper, lower, strict=True):
            text.append("▀", style=f"{DARK if top else LIGHT} on {DARK if bottom else LIGHT}")
    return text


class QrCode(Static):
    """A QR code of an address (nothing while there is none)."""

    DEFAULT_CSS = "QrCode { width: auto; height: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.data = ""

    def show(self, data: str) -> None:
        if data != self.data:
            self.data = data
            self.update(qr_text(data) if data else "")
        self.display = bool(data)
