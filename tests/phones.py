"""Phones and tablets in a real headless Chromium (tests/browser.py), played by taps.

A :class:`Phone` is a browser context of a device's size (CSS pixels), device pixel ratio 3
and touch: it opens the table's page, reads its screen as a screen reader does, and taps a
word where the page draws it, as a thumb would (a touch on the middle of the word's cells).
Chromium draws the page without WebGL: headless, its software WebGL draws a screen of a
device pixel ratio above 1 wrongly (only its top-left part), which a device's own GPU does
not (docs/app.md, "Browser seats").

Each game's tapper (:data:`TAPPERS`, or a game's own given to :func:`play`) reads a phone's
screen and makes the move it asks for, by taps alone: a card tapped picks it (or marks it), a
labelled button makes the move.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser import STEP, open_page, screen
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

#: The devices: CSS pixels, upright or sideways, and a laptop's window (with touch too).
DEVICES: dict[str, dict[str, Any]] = {
    "390x844": {"viewport": {"width": 390, "height": 844}, "is_mobile": True},
    "412x915": {"viewport": {"width": 412, "height": 915}, "is_mobile": True},
    "844x390": {"viewport": {"width": 844, "height": 390}, "is_mobile": True},
    "768x1024": {"viewport": {"width": 768, "height": 1024}, "is_mobile": True},
    "1000x560": {"viewport": {"width": 1000, "height": 560}, "is_mobile": False},
}
#: Chromium's flag for drawing the page without WebGL (see above).
NO_WEBGL = "--disable-webgl"
#: The rows of the page's terminal, from its buffer (page.js keeps the terminal in
#: ``window.doubtlanTerminal``); null before it is made.
BUFFER = """() => {
  const made = window.doubtlanTerminal;
  if (!made || !made.terminal) { return null; }
  const terminal = made.terminal, buffer = terminal.buffer.active, rows = [];
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    rows.push(line ? line.translateToString(false) : "");
  }
  return rows;
}"""
#: What the results say, whoever won.
OVER = re.compile(r"\bwins\.|You win!")


class Phone:
    """One device's page at the table, and the name its player sits down under."""

    def __init__(self, browser: Browser, device: str, name: str, folder: Path,
                 scale: int = 3) -> None:
        self.device, self.name, self.folder = device, name, folder
        self.context = browser.new_context(ignore_https_errors=True, device_scale_factor=scale,
                                           has_touch=True, **DEVICES[device])
        self.page = self.context.new_page()
        self.taps = 0
        #: The words tapped, in order.
        self.tapped: list[str] = []
        #: When this phone was first seen asked about the claim it is asked about now.
        self.asked: dict[str, float] = {}

    # -- reading -------------------------------------------------------------------------

    def text(self) -> str:
        """The screen, a line per row, read from the terminal's own buffer (as soon as it is
        drawn: the screen reader's rows follow it a quarter of a second later); before the
        terminal is made, as the screen reader reads it."""
        try:
            rows = self.page.evaluate(BUFFER)
        except PlaywrightError as error:  # (the page is loading itself again)
            if "context was destroyed" not in str(error):
                raise
            return ""
        return screen(self.page) if rows is None else "\n".join(rows)

    def wait(self, what: str, ready: Callable[[str], object], timeout: float = STEP) -> str:
        """The screen once ``ready`` says so (AssertionError, showing it, at the deadline)."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if ready(text):
                return text
            if time.monotonic() > deadline:
                self.shot("gave-up")
                raise AssertionError(f"{self.name} ({self.device}): waited {timeout:g} s for "
                                     f"{what}; the screen:\n{text}")
            self.page.wait_for_timeout(50)

    def soon(self, ready: Callable[[str], object], timeout: float = 3.0) -> bool:
        """Whether the screen comes to be as ``ready`` says within ``timeout`` (the screen
        a tapper read may be a moment old: it looks again rather than fail)."""
        deadline = time.monotonic() + timeout
        while not ready(self.text()):
            if time.monotonic() > deadline:
                return False
            self.page.wait_for_timeout(40)
        return True

    def cells(self) -> tuple[float, float, float, float, int, int]:
        """The screen's box (x, y, width, height) and its size in cells."""
        rows = self.text().split("\n")
        box = self.page.locator(".xterm-screen").bounding_box()
        assert box is not None
        return box["x"], box["y"], box["width"], box["height"], max(map(len, rows)), len(rows)

    def size(self) -> tuple[int, int]:
        """The app's screen in cells (columns, rows)."""
        *_, columns, rows = self.cells()
        return columns, rows

    # -- tapping -------------------------------------------------------------------------

    def tap_cell(self, column: float, row: float) -> None:
        x, y, width, height, columns, rows = self.cells()
        self.page.touchscreen.tap(x + (column + 0.5) * width / columns,
                                  y + (row + 0.5) * height / rows)
        self.taps += 1

    def find(self, text: str, below: str | None = None) -> tuple[int, int] | None:
        """Where ``text`` is drawn (its first cell: column, row), the last place if it is
        drawn more than once; with ``below``, only under the line that says that."""
        rows = self.text().split("\n")
        start = next((i for i, row in enumerate(rows) if below in row), None) \
            if below else 0
        if start is None:
            return None
        found = None
        for number, row in enumerate(rows[start:], start):
            at = row.find(text)
            if at >= 0:
                found = (at, number)
        return found

    def tap(self, text: str, below: str | None = None) -> bool:
        """Tap the middle of ``text`` where the page draws it; False if it is not drawn."""
        found = self.find(text, below)
        if found is None:
            return False
        column, row = found
        self.tap_cell(column + len(text) / 2 - 0.5, row)
        self.tapped.append(text)
        return True

    def tap_card(self, card: re.Pattern[str]) -> str | None:
        """Tap the first card of the hand (the first text ``card`` matches under "Your
        hand"); the card tapped, or None."""
        rows = self.text().split("\n")
        start = next((i for i, row in enumerate(rows) if "Your hand" in row), None)
        if start is None:
            return None
        for number, row in enumerate(rows[start + 1:], start + 1):
            found = card.search(row)
            if found:
                self.tap_cell(found.start() + len(found[0]) / 2 - 0.5, number)
                return found[0]
        return None

    def hand(self, card: re.Pattern[str]) -> list[str]:
        """The cards of the hand shown (the rows under "Your hand", up to what is beside
        them in the wide layout: the claims list's box, whose edge cuts the title row)."""
        rows = self.wait("a hand", lambda s: "Your hand" in s).split("\n")
        start = next(i for i, row in enumerate(rows) if "Your hand" in row)
        edge = rows[start].find("│", rows[start].find("Your hand"))
        found: list[str] = []
        for row in rows[start + 1:]:
            row = row[:edge] if edge >= 0 else row
            if "Laid" in row or "(enter)" in row or "Put down" in row:
                break  # (the cards laid, and the buttons, under the hand)
            cards = card.findall(row)
            if not cards and found:
                break
            found += cards
        return sorted(found)

    def changed(self, before: str, timeout: float = 3.0) -> bool:
        """Whether the screen shows something other than ``before`` within ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.text() != before:
                return True
            self.page.wait_for_timeout(40)
        return False

    # -- the page ------------------------------------------------------------------------

    def keyboard(self) -> str | None:
        """The keyboard the page offers its typing field (page.js): "text" opens the
        phone's own, "none" keeps it closed."""
        mode: str | None = self.page.evaluate(
            "document.querySelector('.xterm-helper-textarea').getAttribute('inputmode')")
        return mode

    def typing_focused(self) -> bool:
        return bool(self.page.evaluate(
            "document.activeElement === document.querySelector('.xterm-helper-textarea')"))

    def sit_down(self, url: str, *, again: bool = False) -> None:
        """Open the page and sit down: a tap on the name's field, the name typed on the
        keyboard the page opens for it (kept from before, ``again``), a tap on Sit down."""
        open_page(self.page, url)
        self.wait("the name asked", lambda s: "Your name at the table" in s)
        self.wait("the keyboard offered for the name", lambda s: self.keyboard() == "text")
        self.shot("name")
        found = self.find("Your name at the table")
        assert found is not None
        self.tap_cell(found[0] + 2, found[1])  # (the page takes the focus: its keyboard)
        assert self.typing_focused()
        if again:
            self.wait("the name kept", lambda s: self.name in s)
        else:
            self.page.keyboard.type(self.name)
            self.wait("the name typed", lambda s: self.name in s)
        assert self.tap("Sit down")
        self.wait("a seat", lambda s: "Your name at the table" not in s and (
            "seated" in s or "Your hand" in s))

    def shot(self, what: str) -> Path:
        path = self.folder / f"{self.name.lower()}-{self.device}-{what}.png"
        self.page.screenshot(path=str(path))
        return path

    def over(self) -> bool:
        return OVER.search(self.text()) is not None

    def close(self) -> None:
        self.context.close()


# -- each game's moves, by taps ----------------------------------------------------------

#: Seconds after a claim (or priority) reaches the screen in which an answer is not taken
#: (the app's half second counts from when it drew the claim, a moment earlier; an answer
#: it ignores is tapped again).
GUARD = 0.5


def answer(phone: Phone, text: str, label: str) -> bool:
    """Tap the answer ``label`` once the claim has been on the screen past the guard."""
    key = next((row for row in text.split("\n") if "claim" in row or "declared" in row), "")
    first = phone.asked.setdefault(key, time.monotonic())
    if time.monotonic() - first < GUARD:
        return False
    return phone.tap(label)


def doubt_tapper(phone: Phone, text: str) -> bool:
    """I Doubt It: on your turn, tap a card (it is picked) and Lay, up to four cards, then
    Announce; asked about a claim, Let it stand."""
    if "Let it stand (p)" in text:
        return answer(phone, text, "Let it stand (p)")
    laid = next((row for row in text.split("\n") if "Laid:" in row), "")
    if LAY.search(text) and len(DOUBT_CARD.findall(laid)) < 4:
        card = phone.tap_card(DOUBT_CARD)
        if card is None:
            return False
        button = f"Lay {card} (enter)"
        return phone.soon(lambda s: button in s) and phone.tap(button)
    return "Laid:" in text and phone.tap("Announce (a)")


def know_tapper(phone: Phone, text: str) -> bool:
    """I Know You Don't: on your turn, tap a card, then Play (as it is declared: its truth);
    with priority, Accept (the claim stands at once: nobody after you is asked); intercepted
    with a Wildcard, Keep."""
    for label in ("Accept (a)", "Keep (k)"):
        if label in text:
            return answer(phone, text, label)
    if "Play " in text and "Your turn" in text:
        phone.tap_card(KNOW_CARD)  # (picked, or not yet when Play comes: either is a move)
        return phone.tap("Play ")
    return False


def liar_tapper(phone: Phone, text: str) -> bool:
    """Liar's Deck: on your turn, call the cards waiting a lie; else tap a card (which marks
    it) and Put it down."""
    if "Liar! (l)" in text:
        return phone.tap("Liar! (l)")
    if "Put 1 card down" in text and "Your turn" in text:
        if phone.tap_card(LIAR_CARD) is None:
            return False
        phone.page.wait_for_timeout(300)
        return phone.tap(" down (enter)")
    return False


LAY = re.compile(r"Lay (?:10|[2-9JQKA])[♣♦♥♠] \(enter\)")
DOUBT_CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
KNOW_CARD = re.compile(r"(?<![A-Za-z])(?:[TB]\d+|I|W)(?![A-Za-z])")
LIAR_CARD = re.compile(r"(?<![A-Za-z])(?:Q|K|A|Jo)(?![A-Za-z])")

#: A tapper: makes the move a phone's screen (its text, just read) asks for; whether it tapped.
Tapper = Callable[[Phone, str], bool]

TAPPERS: dict[str, Tapper] = {
    "idoubtit": doubt_tapper, "iknowyoudont": know_tapper, "liarsdeck": liar_tapper,
}


def play(phones: list[Phone], game: str | Tapper, until: Callable[[], bool],
         timeout: float = 240.0) -> None:
    """Each phone makes the move its screen asks for, by taps, until ``until()``: ``game``
    names a game of :data:`TAPPERS`, or is a tapper of its own (a game's own tests keep it)."""
    tapper = TAPPERS[game] if isinstance(game, str) else game
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            for phone in phones:
                phone.shot("gave-up")
            shown = "\n".join(f"--- {p.name} ({p.device}):\n{p.text()}" for p in phones)
            named = game if isinstance(game, str) else type(game).__name__
            raise AssertionError(f"the {named} game did not end within {timeout:g} s:\n{shown}")
        # Every phone reads its screen before any taps: each sees a claim as soon as the
        # others do, and all answer it once the guard is past, as players at a table would.
        screens = [(phone, phone.text()) for phone in phones]
        tapped = [(phone, text) for phone, text in screens
                  if not OVER.search(text) and tapper(phone, text)]
        for phone, text in tapped:
            phone.changed(text)
        if not tapped:
            phones[0].page.wait_for_timeout(80)


def right_edge(phone: Phone) -> set[tuple[int, ...]]:
    """The colours of the page right of the app's last column (a strip a few pixels wide
    where the cells do not fill the page), read from a screenshot of it."""
    x, _, width, _, _, _ = phone.cells()
    viewport = phone.page.viewport_size
    assert viewport is not None
    left = x + width
    if viewport["width"] - left < 1:
        return set()
    shot = phone.page.screenshot(clip={"x": left, "y": 0, "width": viewport["width"] - left,
                                       "height": viewport["height"]})
    return set(_pixels(shot))


def colours_at(phone: Phone, text: str) -> set[tuple[int, ...]]:
    """The colours the page shows in the middle of the cells where ``text`` is drawn, read
    from a screenshot of them (the screen's text says what the app drew; the pixels, what
    the browser shows of it)."""
    found = phone.find(text)
    assert found is not None, (text, phone.text())
    x, y, width, height, columns, rows = phone.cells()
    cell_width, cell_height = width / columns, height / rows
    shot = phone.page.screenshot(clip={
        "x": x + (found[0] + len(text) / 2) * cell_width - 2,
        "y": y + (found[1] + 0.5) * cell_height - 2, "width": 4, "height": 4})
    return set(_pixels(shot))


def _pixels(png: bytes) -> list[tuple[int, ...]]:
    """The pixels of a PNG as Chromium writes its screenshots (8 bits a channel, RGB or
    RGBA, not interlaced)."""
    import struct
    import zlib

    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, data, width, height, channels = 8, b"", 0, 0, 0
    while at < len(png):
        size, kind = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + size]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            data += body
        at += 12 + size
    raw, stride = zlib.decompress(data), width * channels
    pixels: list[tuple[int, ...]] = []
    previous = bytearray(stride)
    for row in range(height):
        line = raw[row * (stride + 1):(row + 1) * (stride + 1)]
        kind, current = line[0], bytearray(line[1:])
        for i in range(stride):
            a = current[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                current[i] = (current[i] + a) & 0xFF
            elif kind == 2:
                current[i] = (current[i] + b) & 0xFF
            elif kind == 3:
                current[i] = (current[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                near = a if pa <= pb and pa <= pc else b if pb <= pc else c
                current[i] = (current[i] + near) & 0xFF
        pixels += [tuple(current[i:i + 3]) for i in range(0, stride, channels)]
        previous = current
    return pixels
