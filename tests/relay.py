"""A TLS-terminating relay, for tests: the machine in the middle that a PIN must defeat.

:class:`Relay` listens on loopback with a certificate of its own (a TLS server to whoever
connects), opens a TLS connection of its own to the real host for each connection it takes,
and passes the decrypted bytes on both ways, keeping every plaintext byte it sees in
:attr:`Relay.log`. It changes nothing: all it does is what a relay on the network could do
with a key of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any, Literal

from doubtlan.net import protocol
from doubtlan.net.identity import Identity, client_context, make

LOOPBACK = "127.0.0.1"
#: Seconds to open the connection to the host, handshake included.
CONNECT_TIMEOUT = 10.0

Direction = Literal["to host", "to client"]


@dataclass(frozen=True)
class Piece:
    """Plaintext bytes the relay read on connection ``connection`` and passed on."""

    connection: int
    direction: Direction
    data: bytes


class Relay:
    """Relay connections from ``LOOPBACK``:``port`` to ``host``:``port`` (see the module)."""

    def __init__(self, host: str, port: int, identity: Identity | None = None) -> None:
        self.upstream = (host, port)
        self.identity = identity or make("a relay")
        #: Every plaintext byte read, in the order read.
        self.log: list[Piece] = []
        self.connections = 0
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> int:
        """Listen; the port."""
        self._server = await asyncio.start_server(
            self._accept, LOOPBACK, 0, ssl=self.identity.server_context()
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        """Stop listening and cut every connection still open (each ends as its peer's
        would, so nothing is cancelled in the middle)."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for writer in list(self._writers):
            writer.transport.abort()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=CONNECT_TIMEOUT)

    async def __aenter__(self) -> Relay:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def plaintext(self, direction: Direction | None = None) -> bytes:
        """Everything the relay read (one way, or both), one connection after another."""
        pieces = sorted((p for p in self.log if direction in (None, p.direction)),
                        key=lambda p: p.connection)  # (sorted keeps each connection's order)
        return b"".join(p.data for p in pieces)

    def messages(self, direction: Direction) -> list[dict[str, Any]]:
        """Every frame the relay passed on one way, unpacked (each connection's bytes are
        frames end to end; ValueError if not)."""
        found: list[dict[str, Any]] = []
        for connection in range(1, self.connections + 1):
            data = b"".join(p.data for p in self.log
                            if p.connection == connection and p.direction == direction)
            at = 0
            while at < len(data):
                length = protocol.read_length(data[at:at + protocol.HEADER.size])
                body = data[at + protocol.HEADER.size:at + protocol.HEADER.size + length]
                if len(body) != length:
                    raise ValueError(f"connection {connection} ends inside a frame")
                found.append(protocol.unpack(body))
                at += protocol.HEADER.size + length
        return found

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        try:
            try:
                up_reader, up_writer = await asyncio.wait_for(
                    asyncio.open_connection(*self.upstream, ssl=client_context()),
                    CONNECT_TIMEOUT,
                )
            except (OSError, TimeoutError):
                writer.close()
                return
            self._writers.add(up_writer)
            await asyncio.gather(
                self._pump(number, "to host", reader, up_writer),
                self._pump(number, "to client", up_reader, writer),
            )
            self._writers.discard(up_writer)
        finally:
            self._writers.discard(writer)
            self._tasks.discard(task)

    async def _pump(self, number: int, direction: Direction, reader: asyncio.StreamReader,
                    writer: asyncio.StreamWriter) -> None:
        """Pass on what ``reader`` gives until it ends, then close ``writer`` (TLS has no
        half-close), which ends the other direction too."""
        try:
            while data := await reader.read(65536):
                self.log.append(Piece(number, direction, data))
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()
