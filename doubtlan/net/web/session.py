"""One browser seat: a ``doubtlan join`` process on the host's machine, drawn in one tab.

The process speaks textual-serve's stream on its standard input and output (a byte for the
kind, four for the length, then the payload: ``D`` the screen's bytes, ``M`` JSON meta):
textual's web driver on its side, this on ours. What the tab sends is checked here first;
anything malformed is dropped. When the tab goes, the app is asked to quit (its seat is then
"away", kept for it); when the process ends, the tab is told why and closed. A process
that does not end when asked is killed: none outlives its session.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence

log = logging.getLogger(__name__)

#: What the app's process exits with when it ended itself after ``--idle-end`` seconds
#: with nobody playing (tui/app.py uses it too).
IDLE_ENDED = 75
#: Seconds the app has to quit when asked before it is killed, and to start (write its
#: first line) before the tab is told it could not.
QUIT_WITHIN, START_WITHIN = 3.0, 30.0
#: The sizes of screen a tab may ask for, in cells.
WIDTHS, HEIGHTS = range(10, 501), range(5, 201)
#: The last bytes of the process's error output kept, for the host's log; and the largest
#: frame of the screen taken from it (a whole 500x200 screen in colour is well under).
STDERR_KEPT = 8 * 1024
LARGEST_FRAME = 16 * 1024 * 1024

Send = Callable[[bytes], Awaitable[None]]


class Session:
    """The app process ``argv`` (with ``env``) for one tab of ``width`` x ``height`` cells."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], width: int,
                 height: int) -> None:
        self.argv, self.env = list(argv), dict(env)
        self.env["COLUMNS"], self.env["ROWS"] = str(_within(width, WIDTHS, 80)), \
            str(_within(height, HEIGHTS, 24))
        self.process: asyncio.subprocess.Process | None = None
        self.stderr = b""
        #: Why the tab is closed (shown on the page), once the process has ended.
        self.ended_why = "The table app ended."

    async def start(self) -> None:
        """Start the app's process (OSError if it cannot be)."""
        self.process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=self.env)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    async def pump_out(self, send_bytes: Send) -> None:
        """Copy the app's screen to the tab until the process ends (its exit: ``ended_why``)."""
        process = self.process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stdout = process.stdout
        errors = asyncio.create_task(self._keep_stderr(process.stderr))
        try:
            async with asyncio.timeout(START_WITHIN):
                for _ in range(10):  # textual's web driver says this first
                    line = await stdout.readline()
                    if not line or line == b"__GANGLION__\n":
                        break
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                if size > LARGEST_FRAME:
                    await self.kill()  # (not textual's stream: nothing more is read)
                    break
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await send_bytes(payload)
                elif kind == b"M" and _meta_type(payload) == "exit":
                    break
        except (asyncio.IncompleteReadError, ConnectionError, TimeoutError, ValueError):
            pass  # the process ended, never started, or spoke otherwise: told by its exit
        finally:
            code = await self._ended()
            errors.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await errors
        if code == IDLE_ENDED:
            self.ended_why = ("The page was left in the lobby for too long, so it closed. "
                              "Open it again to sit down.")
        elif code == 1:  # (the table ended, or could not be joined: the app said why)
            self.ended_why = "The table app has ended. Open the page again to sit down."
        elif code not in (0, None):
            log.warning("a browser seat's app ended with %s: %s", code,
                        self.stderr.decode("utf-8", "replace")[-2000:])
            self.ended_why = "The table app stopped on the host's machine. Open the page again."

    async def _keep_stderr(self, stderr: asyncio.StreamReader) -> None:
        while data := await stderr.read(4096):
            self.stderr = (self.stderr + data)[-STDERR_KEPT:]

    async def _ended(self) -> int | None:
        process = self.process
        if process is None:
            return None
        try:
            async with asyncio.timeout(QUIT_WITHIN):
                return await process.wait()
        except TimeoutError:
            await self.kill()
            return process.returncode

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
            return await self._write(b"D", rest[0].encode("utf-8", "replace"))
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
        return await self._write(b"M", json.dumps(meta).encode("utf-8"))

    async def _write(self, kind: bytes, payload: bytes) -> bool:
        process = self.process
        if process is None or process.stdin is None or process.returncode is not None:
            return False
        try:
            process.stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
            await process.stdin.drain()
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def stop(self) -> None:
        """Ask the app to quit (its seat, if any, is then kept as "away"); kill it if it does
        not within :data:`QUIT_WITHIN` seconds."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        await self._meta({"type": "quit"})
        await self._ended()

    async def kill(self) -> None:
        process = self.process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


def _meta_type(payload: bytes) -> object:
    try:
        meta = json.loads(payload)
    except ValueError:
        return None
    return meta.get("type") if isinstance(meta, dict) else None


def _within(value: int, allowed: range, default: int) -> int:
    return value if value in allowed else default
