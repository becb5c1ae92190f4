"""How the host (net/host.py) serves each connection: let in (net/gate.py), told to the
table, read one message at a time (each frame and message checked before the table sees it),
written to by a task of its own, and held to a deadline for its hello.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from typing import TYPE_CHECKING

from .errors import HandshakeTimeout, TooManyConnections, WireError
from .gate import Gate
from .limits import Limits
from .link import Link
from .table import Table

log = logging.getLogger(__name__)


class Serving:
    """The host's connections, each served by the task that accepted it (its reader)."""

    #: What the host holds (``Host.__init__`` sets it): its table and limits, its
    #: connections by number and the next number, its way in and its TLS context.
    table: Table
    limits: Limits
    _conns: dict[int, Link]
    _next: int
    _gate: Gate
    _context: ssl.SSLContext | None

    if TYPE_CHECKING:
        # What the host does with its connections besides serving them (host.py).
        @property
        def now(self) -> float: ...
        def _flush(self) -> None: ...
        def _flush_soon(self) -> None: ...
        def _drop(self, conn: Link) -> None: ...
        def _lost(self, conn: Link) -> None: ...

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if not self._gate.admit(address, self.now):
            writer.transport.abort()  # no TLS, no goodbye: it costs the host nothing
            return
        if self._context is not None \
                and not await self._gate.secure(writer, address, self._context, self.now):
            return
        number, self._next = self._next, self._next + 1
        conn = Link(number, writer, self.limits, self.now)
        if not self._make_room(address):
            await self._gate.turn_away(reader, writer)
            return
        conn.address = address
        self._open(conn)
        # The reader is this task; it ends when the connection is aborted.
        try:
            await self._read(conn, reader)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self._lost(conn)
        except asyncio.CancelledError:  # the host stopped with it open: end quietly (see
            self._drop(conn)            # Gate.secure)
        except Exception:  # a bug must cost this connection, never the host
            log.exception("connection %s: unexpected error; dropping it", number)
            self._drop(conn)
        else:
            if not conn.closing:
                self._lost(conn)
            # Closing politely: the writer sends what is queued, then closes and cleans up.

    def _make_room(self, address: str) -> bool:
        """Whether a new connection from ``address`` finds room among those not yet joined:
        False past the cap from one address; past the cap in all, the oldest makes room (it
        had the longest), but never one from a seat's address (False when all are)."""
        waiting = [c for c in self._conns.values() if not c.closing and not self._joined(c)]
        if sum(c.address == address for c in waiting) >= self.limits.waiting_per_address:
            return False
        if len(waiting) >= self.limits.waiting:
            players = set(self._gate.players.values())
            others = [c for c in waiting if c.address not in players]
            if not others:
                return False
            self._refuse(min(others, key=lambda c: c.number), TooManyConnections(
                "the host let this connection go to make room for a newer one"))
        return True

    def _open(self, conn: Link) -> None:
        """Tell the table of ``conn``, and start its writer and its deadline for a hello."""
        self._conns[conn.number] = conn
        writer = conn.writer
        writer.transport.set_write_buffer_limits(high=self.limits.write_buffer)
        sock = writer.get_extra_info("socket")
        if self.limits.send_buffer is not None and sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        self.table.connect(conn.number, conn.address)
        conn.tasks = [
            asyncio.create_task(self._write(conn), name=f"writer {conn.number}"),
            asyncio.create_task(self._handshake(conn), name=f"handshake {conn.number}"),
        ]

    def _joined(self, conn: Link) -> bool:
        state = self.table.conns.get(conn.number)
        return state is not None and state.joined

    def _waiting(self, conn: Link) -> bool:
        """Whether the table knows ``conn`` and it has not joined."""
        state = self.table.conns.get(conn.number)
        return state is not None and not state.joined

    async def _read(self, conn: Link, reader: asyncio.StreamReader) -> None:
        clock, waiting = (lambda: self.now), (lambda: self._waiting(conn))
        while not conn.closing:
            try:
                message = await conn.read(reader, clock, waiting)
            except WireError as error:
                self._refuse(conn, error)
                if error.fatal:
                    return
                continue
            self.table.receive(conn.number, message, self.now)
            state = self.table.conns.get(conn.number)
            if state is not None and state.seat is not None:
                self._gate.players[state.seat] = conn.address  # it may always come back
            self._flush_soon()
            # One message at a time from each connection: what a flooding client sent waits
            # behind every other connection's, and behind the flush of what it asked for.
            await asyncio.sleep(0)

    def _refuse(self, conn: Link, error: WireError) -> None:
        self.table.refuse(conn.number, error)
        self._flush()

    async def _handshake(self, conn: Link) -> None:
        await asyncio.sleep(self.limits.handshake)  # the deadline itself
        state = self.table.conns.get(conn.number)
        if state is not None and not state.joined:
            self._refuse(conn, HandshakeTimeout())

    async def _write(self, conn: Link) -> None:
        try:
            await conn.write()
        finally:
            self._drop(conn)
