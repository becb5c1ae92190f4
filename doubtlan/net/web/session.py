"""One browser seat: a ``doubtlan join`` app on the host's machine, drawn in one tab.

The app speaks textual-serve's stream (a byte for the kind, four for the length, then the
payload: ``D`` the screen's bytes, ``M`` JSON meta): textual's web driver on its side, this
on ours. It runs on a thread of the seats' process, or as a process of its own
(net/web/starter.py). What the tab sends is checked here first; anything malformed is
dropped. When the tab goes, the app is asked to quit (its seat is then "away", kept for
it); when the app ends, the tab is told why and closed. An app that does not end when asked
is ended: none outlives its session. An app that fails to start is told to the host
(``failure``) and to the tab, in a sentence.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path

from .starter import SeatApp, Starter

log = logging.getLogger(__name__)

#: What the app's process exits with when it ended itself after ``--idle-end`` seconds
#: with nobody playing (tui/app.py uses it too).
IDLE_ENDED = 75
#: Seconds the app has to quit when asked before it is ended, and to start (send its first
#: packet) before the tab is told it could not.
QUIT_WITHIN, START_WITHIN = 3.0, 30.0
#: The sizes of screen a tab may ask for, in cells.
WIDTHS, HEIGHTS = range(10, 501), range(5, 201)

Send = Callable[[bytes], Awaitable[None]]
SendText = Callable[[str], Awaitable[None]]


class Session:
    """The app ``doubtlan ARGS`` (with ``env``, and its data in ``home``) for one tab of
    ``width`` x ``height`` cells, started by ``starter``."""

    def __init__(self, args: Sequence[str], home: Path, env: Mapping[str, str], width: int,
                 height: int, starter: Starter | None = None) -> None:
        self.args, self.home, self.env = list(args), home, dict(env)
        self.width, self.height = _within(width, WIDTHS, 80), _within(height, HEIGHTS, 24)
        self.starter = starter or Starter()
        self.app: SeatApp | None = None
        #: Why the tab is closed (shown on the page), once the app has ended; its exit
        #: status; what went wrong, for the host's screen (None: nothing did).
        self.ended_why = "The table app ended."
        self.code: int | None = None
        self.failure: str | None = None
        #: Set once the session is being ended from this side (the tab went, the host stops).
        self.stopping = False

    @property
    def started(self) -> bool:
        """Whether the app has begun."""
        return self.app is not None and self.app.started

    async def start(self) -> None:
        """Start the app (OSError if it cannot be)."""
        self.app = await self.starter.run(self.args, self.home, self.env, self.width,
                                          self.height)

    async def pump_out(self, send_bytes: Send, send_text: SendText | None = None) -> None:
        """Copy the app's screen to the tab until the app ends (how: ``ended_why``); and
        what the page acts on of what the app says (``send_text``: the phone's keyboard
        opens for a text field, ``["keyboard", true]``)."""
        app = self.app
        assert app is not None
        late = False
        try:
            async with asyncio.timeout(START_WITHIN) as within:
                async for kind, payload in app.packets():
                    within.reschedule(None)  # (it has started)
                    if kind == b"D":
                        await send_bytes(payload)
                    elif kind == b"M" and (said := _meta(payload)).get("type") == "exit":
                        break
                    elif kind == b"M" and said.get("type") == "keyboard" and send_text:
                        await send_text(json.dumps(["keyboard", said.get("open") is True]))
        except TimeoutError:
            late = True
        except (ConnectionError, ValueError):
            pass  # (the tab went, or the app spoke otherwise: told by its end)
        finally:
            if late or not app.started and not self.stopping:
                await app.kill()
            self.code = code = await self._ended()
        self._told(code, late)

    def _told(self, code: int | None, late: bool) -> None:
        """What the tab and the host are told of the app's end."""
        app = self.app
        assert app is not None
        if not app.started and not self.stopping:
            error = f"none within {START_WITHIN:g} s" if late \
                else app.error() or f"it ended with status {code}"
            self.failure = f"A browser seat's app could not start: {error}"
            self.ended_why = ("The table app could not start on the host's machine "
                              f"({error[:60]}). The host's screen says more.")
        elif code == IDLE_ENDED:
            self.ended_why = ("The page was left in the lobby for too long, so it closed. "
                              "Open it again to sit down.")
        elif code == 1:  # (the table ended, or could not be joined: the app said why)
            self.ended_why = "The table app has ended. Open the page again to sit down."
        elif code not in (0, None) and not self.stopping:
            self.failure = f"A browser seat's app stopped (status {code}): {app.error()}"
            self.ended_why = "The table app stopped on the host's machine. Open the page again."

    async def _ended(self) -> int | None:
        app = self.app
        if app is None:
            return None
        try:
            async with asyncio.timeout(QUIT_WITHIN):
                return await app.wait()
        except TimeoutError:
            await app.kill()
            return None

    async def feed(self, text: str) -> bool:
        """One message from the tab (textual-serve's JSON envelope): passed to the app if it
        is well formed; False when it is not (it is dropped)."""
        try:
            envelope = json.loads(text)
        except ValueError:
            return False
        if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
            return False
        kind, rest = envelope[0], envelope[1:]
        if kind == "stdin" and len(rest) == 1 and isinstance(rest[0], str):
            return await self._send(b"D", rest[0].encode("utf-8", "replace"))
        if kind == "resize" and len(rest) == 1 and isinstance(rest[0], dict):
            width, height = rest[0].get("width"), rest[0].get("height")
            if type(width) is int and type(height) is int and width in WIDTHS \
                    and height in HEIGHTS:
                return await self._meta({"type": "resize", "width": width, "height": height})
            return False
        if kind in ("focus", "blur") and not rest:
            return await self._meta({"type": kind})
        return False

    async def _meta(self, meta: dict[str, object]) -> bool:
        return await self._send(b"M", json.dumps(meta).encode("utf-8"))

    async def _send(self, kind: bytes, payload: bytes) -> bool:
        return self.app is not None and await self.app.send(kind, payload)

    async def stop(self) -> None:
        """Ask the app to quit (its seat, if any, is then kept as "away"); end it if it
        does not within :data:`QUIT_WITHIN` seconds."""
        self.stopping = True
        if self.app is None:
            return
        await self._meta({"type": "quit"})
        await self._ended()

    async def kill(self) -> None:
        self.stopping = True
        if self.app is not None:
            await self.app.kill()


def _meta(payload: bytes) -> dict[str, object]:
    try:
        meta = json.loads(payload)
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}


def _within(value: int, allowed: range, default: int) -> int:
    return value if value in allowed else default
