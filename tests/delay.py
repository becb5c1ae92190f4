"""A congested link, for tests: a TCP proxy on loopback that passes every byte on, in order
and unchanged (TLS goes through it end to end), but late, as busy Wi-Fi does.

Each chunk read is held ``LOW`` to ``HIGH`` seconds, and now and then (``SPIKE_CHANCE``)
``SPIKE`` more; a chunk never overtakes the one before it. The delays come from the
``random.Random`` given, so a test's link is the same every run.
"""

from __future__ import annotations

import asyncio
import contextlib
import random

LOOPBACK = "127.0.0.1"
LOW, HIGH = 0.020, 0.150
SPIKE, SPIKE_CHANCE = 1.2, 0.15


class DelayProxy:
    """Pass connections from ``LOOPBACK``:``port`` to ``LOOPBACK``:``upstream``, late."""

    def __init__(self, upstream: int, rng: random.Random) -> None:
        self.upstream, self.rng = upstream, rng
        self.port = 0
        #: Chunks passed on, and the most any was held, in seconds.
        self.chunks, self.longest = 0, 0.0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def __aenter__(self) -> DelayProxy:
        self._server = await asyncio.start_server(self._accept, LOOPBACK, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        await self._server.wait_closed()

    def delay(self) -> float:
        held = self.rng.uniform(LOW, HIGH)
        if self.rng.random() < SPIKE_CHANCE:
            held += SPIKE
        return held

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.upstream)
        except OSError:
            writer.close()
            return
        self._writers.add(up_writer)
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))
        self._writers.discard(writer)
        self._writers.discard(up_writer)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Read as it comes; write each chunk when its delay is over, in order."""
        loop = asyncio.get_running_loop()
        held: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await held.get()
                if not data:
                    return
                # The delay is what this link is for: it is held until then, on purpose.
                await asyncio.sleep(max(0.0, due - loop.time()))
                writer.write(data)
                await writer.drain()

        delivering = asyncio.create_task(deliver())
        last = 0.0
        try:
            with contextlib.suppress(ConnectionError, OSError):  # (a reset ends it too)
                while data := await reader.read(65536):
                    delay = self.delay()
                    self.chunks += 1
                    self.longest = max(self.longest, delay)
                    last = max(last, loop.time() + delay)  # (never ahead of the one before)
                    held.put_nowait((last, data))
            # What is on the way still arrives, as on a link: then the end.
            held.put_nowait((last, b""))
            with contextlib.suppress(ConnectionError, OSError):
                await delivering
        finally:
            delivering.cancel()
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()
