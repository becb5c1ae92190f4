"""How a browser seat's app is started: on a thread of the seats' process, or as a process of
its own when that process cannot be had.

Either way the app is ``doubtlan join`` with the seat's arguments, its browser's data folder
and the screen's size, importing the installed doubtlan whatever folder the host was started
from (``python -P``: the working folder is not put on the module path, so a folder named
``doubtlan`` there cannot stand in for the package). What a session holds of it is a
:class:`SeatApp`: the packets of textual's web stream it sends (``D`` the screen, ``M`` what
else it says), a way to send it packets, its exit status, and a way to end it.

The seats' process (cli_seats.py) runs every seat's app in one process that imported
doubtlan and Textual once: a seat costs the host's machine a megabyte or two and a tenth of
a second, where a process of its own costs some 40 MiB and more than a second (bench/web.py).
It listens on loopback; only a connection that knows the secret this server gave it on its
standard input gets an app.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from ..folder import HOME

log = logging.getLogger(__name__)

#: The command that runs doubtlan in a new process: this interpreter, with nothing from the
#: working folder on its module path.
PYTHON = [sys.executable, "-P"]
#: Seconds the seats' process has to import everything and say it is ready.
READY_WITHIN = 60.0
#: The last bytes of error output kept (a process's), for the host's log; the largest
#: packet taken from an app (a whole 500x200 screen in colour is well under).
STDERR_KEPT = 8 * 1024
LARGEST_PACKET = 16 * 1024 * 1024
#: Packets read ahead of the tab (then the app waits for the tab, as it would on a pipe).
AHEAD = 64

Packet = tuple[bytes, bytes]


class SeatApp(Protocol):
    """What a session holds of its app."""

    #: Whether the app has begun (sent its first packet, or said it began).
    started: bool

    @property
    def ended(self) -> bool:
        """Whether the app has ended (its thread returned, or its process exited)."""
        ...

    def packets(self) -> AsyncIterator[Packet]:
        """The app's packets until it ends (ValueError for a stream that is not its)."""
        ...

    async def send(self, kind: bytes, payload: bytes) -> bool:
        """A packet to the app; False when it has ended."""
        ...

    async def wait(self) -> int | None:
        """The app's exit status once it has ended (None: unknown, it was cut off)."""
        ...

    async def kill(self) -> None:
        """End the app now."""
        ...

    def error(self) -> str:
        """What the app said of its error (the last of it), if anything."""
        ...


class Starter:
    """Each app a process of its own: ``python -P -m doubtlan ARGS``."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.command = list(command or [*PYTHON, "-m", "doubtlan"])

    async def start(self) -> None:
        """Ready the starter (nothing to do for this one)."""

    async def run(self, args: Sequence[str], home: Path, env: Mapping[str, str], width: int,
                  height: int) -> SeatApp:
        """The app ``doubtlan ARGS`` with its data in ``home``, started (OSError if it
        cannot be)."""
        env = {**env, HOME: str(home), "COLUMNS": str(width), "ROWS": str(height)}
        process = await asyncio.create_subprocess_exec(
            *self.command, *args, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)
        return ProcessApp(process)

    async def close(self) -> None:
        """Stop starting apps (those running are the sessions' to end)."""


class ProcessApp:
    """A seat's app that is a process of its own, speaking on its standard streams."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.started = False
        self._stderr = b""
        assert process.stderr is not None
        self._errors = asyncio.create_task(self._keep_stderr(process.stderr))

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def ended(self) -> bool:
        return self.process.returncode is not None

    async def packets(self) -> AsyncIterator[Packet]:
        stdout = self.process.stdout
        assert stdout is not None
        for _ in range(10):  # textual's web driver says this first
            line = await stdout.readline()
            if not line:
                return
            if line == b"__GANGLION__\n":
                self.started = True
                break
        else:
            return
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                yield await _packet(stdout)

    async def send(self, kind: bytes, payload: bytes) -> bool:
        stdin = self.process.stdin
        if stdin is None or self.process.returncode is not None:
            return False
        try:
            stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
            await stdin.drain()
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def wait(self) -> int | None:
        code = await self.process.wait()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self._errors, 1.0)  # (what it said as it ended)
        return code

    async def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
        await self.process.wait()

    def error(self) -> str:
        return _last_line(self._stderr)

    async def _keep_stderr(self, stderr: asyncio.StreamReader) -> None:
        while data := await stderr.read(4096):
            self._stderr = (self._stderr + data)[-STDERR_KEPT:]


class SeatsStarter(Starter):
    """Each app on a thread of the seats' process (cli_seats.py); a process of its own
    for each app while that process cannot be had (said in the host's log)."""

    def __init__(self, env: Mapping[str, str], command: Sequence[str] | None = None) -> None:
        super().__init__(command)
        #: The environment the seats' process runs in (textual reads some of it once, as
        #: it is imported: the driver's colours, its frames a second).
        self.env = dict(env)
        self._secret = secrets.token_hex(32)
        self._process: asyncio.subprocess.Process | None = None
        self._starting: asyncio.Task[None] | None = None
        self._said: asyncio.Task[bytes] | None = None
        self.port: int | None = None

    @property
    def pid(self) -> int | None:
        """The seats' process, while it runs."""
        return self._process.pid if self._process is not None else None

    async def start(self) -> None:
        """Start the seats' process (a seat asked for meanwhile waits until it is ready)."""
        if self._starting is None:
            self._starting = asyncio.create_task(self._start())

    async def _start(self) -> None:
        try:
            process = self._process = await asyncio.create_subprocess_exec(
                *PYTHON, "-m", "doubtlan.cli_seats", env=self.env,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
        except OSError as error:
            log.warning("browser seats start slower: the seats' process cannot be started "
                        "(%s)", error)
            return
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        self._said = asyncio.create_task(_tail(process.stderr))
        process.stdin.write(self._secret.encode() + b"\n")
        line = b""
        with contextlib.suppress(TimeoutError, ConnectionError):
            await process.stdin.drain()
            line = await asyncio.wait_for(process.stdout.readline(), READY_WITHIN)
        try:
            port = json.loads(line)["port"]
            if type(port) is not int:
                raise TypeError(port)
        except (ValueError, KeyError, TypeError):
            said = await self._end_process()
            log.warning("browser seats start slower: the seats' process did not start:\n%s",
                        said.decode("utf-8", "replace")[-2000:])
            return
        self.port = port

    async def run(self, args: Sequence[str], home: Path, env: Mapping[str, str], width: int,
                  height: int) -> SeatApp:
        if self._starting is not None and not self._starting.done():
            await asyncio.shield(self._starting)
        process = self._process
        if self.port is None or process is None or process.returncode is not None:
            return await super().run(args, home, env, width, height)
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        request = {"secret": self._secret, "args": list(args), "home": str(home),
                   "width": width, "height": height}
        writer.write(json.dumps(request).encode() + b"\n")
        return ServedApp(reader, writer)

    async def close(self) -> None:
        """End the seats' process, and every app still on it."""
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._starting
        await self._end_process()
        self.port = None

    async def _end_process(self) -> bytes:
        """End the seats' process (killed: every seat that plays on it has been asked to
        end by now, and nothing of it is left if the wait is cut short); what it said."""
        process, self._process = self._process, None
        if process is not None:
            if process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
            await process.wait()
        said, self._said = self._said, None
        if said is None:
            return b""
        with contextlib.suppress(Exception):
            return await asyncio.wait_for(said, 3.0)
        return b""


class ServedApp:
    """A seat's app on a thread of the seats' process: its connection there. One task reads
    the connection (a few packets ahead of the tab), so that the app's end is heard however
    far the tab has read."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.started = False
        self._reader, self._writer = reader, writer
        self._queue: asyncio.Queue[Packet | None] = asyncio.Queue(AHEAD)
        self._ended = asyncio.Event()
        self._code: int | None = None
        self._error = ""
        self._draining = False
        self._reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                kind, payload = await _packet(self._reader)
                if kind == b"E":
                    ended = json.loads(payload)
                    self._code, self._error = int(ended["code"]), str(ended["error"])
                    return
                if not self._draining:
                    await self._queue.put((kind, payload))
        except (asyncio.IncompleteReadError, ConnectionError, ValueError, KeyError,
                TypeError):
            pass  # (cut off, or not the seats' process's stream: its end is unknown)
        finally:
            self._ended.set()
            self._writer.close()  # (whoever was waiting for the end may have been cut off)
            while self._queue.full():  # (the end gets through to whoever reads)
                self._queue.get_nowait()
            self._queue.put_nowait(None)

    @property
    def ended(self) -> bool:
        return self._ended.is_set()

    async def packets(self) -> AsyncIterator[Packet]:
        while (packet := await self._queue.get()) is not None:
            self.started = True
            yield packet

    async def send(self, kind: bytes, payload: bytes) -> bool:
        if self._ended.is_set() or self._writer.is_closing():
            return False
        try:
            self._writer.write(kind + len(payload).to_bytes(4, "big") + payload)
            await self._writer.drain()
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def wait(self) -> int | None:
        self._draining = True  # (nobody reads the screen now: only its end)
        while not self._queue.empty():
            self._queue.get_nowait()
        await self._ended.wait()
        await self._close()
        return self._code

    async def kill(self) -> None:
        # The app's thread sees its input end and quits (SeatDriver): nothing more is read.
        self._draining = True
        self._reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading
        await self._close()

    async def _close(self) -> None:
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.wait_closed()

    def error(self) -> str:
        return _last_line(self._error.encode())


async def _packet(stream: asyncio.StreamReader) -> Packet:
    """One packet of textual's web stream: a byte of kind, four of length, the payload."""
    kind = await stream.readexactly(1)
    size = int.from_bytes(await stream.readexactly(4), "big")
    if size > LARGEST_PACKET:
        raise ValueError(f"a packet of {size} bytes")
    return kind, await stream.readexactly(size)


async def _tail(stream: asyncio.StreamReader) -> bytes:
    """The last of what ``stream`` says, read to its end (so that its writer never waits on
    a full pipe)."""
    kept = b""
    while data := await stream.read(4096):
        kept = (kept + data)[-STDERR_KEPT:]
    return kept


def _last_line(said: bytes) -> str:
    lines = said.decode("utf-8", "replace").strip().splitlines()
    return lines[-1].strip() if lines else ""

