"""One connection as the host holds it (net/host.py): its writer and the bounded queue of
frames waiting for it, what it may still send (its allowances of messages and bytes), and
the tasks that serve it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from . import protocol
from .errors import Flood
from .limits import Limits
from .messages import Message

#: Put in a link's queue: close once everything before it is written.
CLOSE = b""


class Link:
    """Connection ``number`` of the host, written to through ``writer``, held to ``limits``
    from ``now`` on."""

    def __init__(self, number: int, writer: asyncio.StreamWriter, limits: Limits,
                 now: float) -> None:
        self.number = number
        self.writer = writer
        self.limits = limits
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(limits.queue)
        self.last_heard = now
        self.allowance = limits.burst
        self.bytes_allowance = limits.burst_bytes
        self.checked = now
        self.sent = 0
        self.address = "?"
        self.closing = False
        #: Its writer (first) and its deadline for a hello; the reader is the task that
        #: accepted it.
        self.tasks: list[asyncio.Task[None]] = []

    def put(self, data: bytes) -> bool:
        """Queue ``data`` for the writer; False when the queue is full (the peer stopped
        reading)."""
        try:
            self.queue.put_nowait(data)
        except asyncio.QueueFull:
            return False
        return True

    async def read(self, reader: asyncio.StreamReader, clock: Callable[[], float],
                   waiting: Callable[[], bool]) -> Message:
        """The next message the peer sends, its frame's length checked before the body is
        read and its size counted (:meth:`meter`) before it is decoded: a
        :class:`~.errors.WireError` for what is refused (always fatal for a length refused:
        what follows cannot be read)."""
        header = await reader.readexactly(protocol.HEADER.size)
        length = protocol.read_length(header)
        body = await reader.readexactly(length)
        self.last_heard = now = clock()
        self.meter(length, now, waiting)
        return protocol.decode(body, "client")

    def meter(self, size: int, now: float, waiting: Callable[[], bool]) -> None:
        """Count a message of ``size`` bytes against the allowances; :class:`Flood` past
        either, or past ``Limits.before_joining`` bytes while ``waiting`` (the table knows
        the connection, and it has not joined)."""
        limits = self.limits
        if self.sent <= limits.before_joining:  # (counted until it passes the cap once)
            self.sent += size
            if self.sent > limits.before_joining and waiting():
                raise Flood(f"more than {limits.before_joining // 1024} KiB before joining")
        elapsed, self.checked = now - self.checked, now
        self.allowance = min(limits.burst, self.allowance + elapsed * limits.rate) - 1
        self.bytes_allowance = min(
            limits.burst_bytes, self.bytes_allowance + elapsed * limits.rate_bytes
        ) - size
        if self.allowance < 0:
            raise Flood(f"more than {limits.rate:g} messages a second")
        if self.bytes_allowance < 0:
            raise Flood(f"more than {limits.rate_bytes / 1024:g} KiB a second")

    async def write(self) -> None:
        """Write what is queued until :data:`CLOSE` (then close politely), the peer goes,
        or a write stalls for ``Limits.silence`` seconds."""
        writer, limits = self.writer, self.limits
        try:
            while True:
                data = await self.queue.get()
                if data is CLOSE:  # everything before it is written: close politely
                    self.closing = True
                    writer.close()
                    await asyncio.wait_for(writer.wait_closed(), limits.silence)
                    break
                if writer.transport.is_closing():
                    break  # the peer has gone: its reader will notice (nothing to write to)
                writer.write(data)
                if writer.transport.get_write_buffer_size() > limits.write_buffer:
                    # The peer reads slower than we write: wait for it, but not for ever.
                    await asyncio.wait_for(writer.drain(), limits.silence)
        except (ConnectionError, OSError, TimeoutError):
            pass
