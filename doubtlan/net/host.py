"""The authoritative host: an asyncio TCP server in front of one :class:`~.table.Table`.

A new connection is admitted before any cryptography is done for it (per address, and in
all for addresses that hold no seat: :meth:`Host._admit`), then speaks TLS. Each connection
has a reader task and a writer task with a bounded queue. A client that stops reading fills
its queue and is dropped; it never slows the others. Every frame is checked
(length before body, then the message's definition) before the table sees it, and the table
is only ever called synchronously from the event loop, so actions are applied one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
import ssl
from collections.abc import Callable

from ..rules import Options
from . import protocol
from .errors import Flood, HandshakeTimeout, TooManyConnections, WireError
from .identity import Identity
from .limits import Limits as Limits  # (re-exported: the host's limits)
from .memory import give_back
from .messages import Bye, Ping
from .table import Table

log = logging.getLogger(__name__)


#: TLS connections begun between two collections of garbage (:meth:`Host._collect_soon`).
COLLECT_EVERY = 32
#: The ``bye`` code of a table the host ended because it could not send a message (a bug:
#: a value the codec has no wire form for; docs/protocol.md).
HOST_ERROR = "host_error"
_CLOSE = b""  # put in a writer's queue: close once everything before it is written


class _Conn:
    def __init__(self, number: int, writer: asyncio.StreamWriter, limits: Limits, now: float):
        self.number = number
        self.writer = writer
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(limits.queue)
        self.last_heard = now
        self.allowance = limits.burst
        self.bytes_allowance = limits.burst_bytes
        self.checked = now
        self.sent = 0
        self.address = "?"
        self.closing = False
        self.tasks: list[asyncio.Task[None]] = []


class Host:
    """Serve ``table`` on ``address``:``port`` (0 picks a free port), over TLS 1.3 with
    ``identity``'s certificate (a new one when not given). ``tls=False`` serves plain TCP:
    only for measuring what TLS costs (bench/net.py)."""

    def __init__(
        self,
        table: Table,
        address: str = "0.0.0.0",
        port: int = 0,
        limits: Limits | None = None,
        *,
        identity: Identity | None = None,
        tls: bool = True,
    ) -> None:
        if tls and identity is None:
            from .identity import make

            identity = make()
        self.identity = identity if tls else None
        if self.identity is not None:
            table.fingerprint = self.identity.fingerprint
        self.table = table
        self.address, self.port = address, port
        self.limits = limits or Limits()
        self._conns: dict[int, _Conn] = {}
        self._next = 1
        self._server: asyncio.Server | None = None
        self._wake = asyncio.Event()
        self._flush_pending = False
        self._tasks: list[asyncio.Task[None]] = []
        #: The admission's allowances (:meth:`_admit`): by address, and the handshakes'
        #: in all, each (allowance, when last counted); the address each seat was last played
        #: from (by seat number: as many as there are seats).
        self._knocks: dict[str, tuple[float, float]] = {}
        self._handshakes = (self.limits.handshake_burst, 0.0)
        self._players: dict[int, str] = {}
        #: Connections being turned away politely just now (past as many, abruptly), and
        #: TLS handshakes under way.
        self._turning_away = 0
        self._handshaking = 0
        #: TLS connections begun since the last collection of garbage (_collect_soon).
        self._since_collected, self._collected = 0, float("-inf")
        self._context: ssl.SSLContext | None = None
        #: Set when the table's match is over and everyone has been told.
        self.over = asyncio.Event()
        #: Why the host ended the table itself (None while it has not): a message it could
        #: not encode. Everyone was told so in a ``bye`` of code :data:`HOST_ERROR`.
        self.failure: str | None = None
        self._ending: asyncio.Task[None] | None = None
        #: Called after every change the table makes (to update the advertisement).
        self.on_change: Callable[[], None] = lambda: None

    @property
    def now(self) -> float:
        return asyncio.get_running_loop().time()

    @property
    def listening(self) -> list[tuple[str, int]]:
        """The addresses and ports the host listens on (none before it starts)."""
        server = self._server
        return [tuple(sock.getsockname()[:2]) for sock in server.sockets] if server else []

    async def start(self) -> int:
        """Open the listening socket; returns the port."""
        self._context = self.identity.server_context() if self.identity is not None else None
        # Plain TCP first: TLS starts once the connection is admitted (_accept).
        self._server = await asyncio.start_server(self._accept, self.address, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        self._tasks = [
            asyncio.create_task(self._clock(), name="table clock"),
            asyncio.create_task(self._heartbeat(), name="heartbeat"),
        ]
        return self.port

    def start_when_full(self) -> None:
        """Start the match now if every seat is already taken (a table of bots)."""
        self.table.start_when_full(self.now)
        self._flush()

    # -- the host player's own commands (the app calls these; each may raise Refused) ------

    def add_bot(self, strategy: str | None = None) -> None:
        """Seat a bot of ``strategy`` (the game's own unless told) in the first free seat."""
        self._command(lambda: self.table.seat_bot(strategy))

    def remove_bot(self, seat: int) -> None:
        self._command(lambda: self.table.remove_bot(seat))

    def mute(self, seat: int, on: bool = True) -> None:
        """Mute ``seat`` (the table no longer hears it), or with ``on`` false, unmute it."""
        self._command(lambda: self.table.mute(seat, on))

    def open_seats(self, keep: int | None = None) -> list[str]:
        """Give the seats of players who are away to newcomers (between games), but seat
        ``keep``; returns their names."""
        opened: list[str] = []
        self._command(lambda: opened.extend(self.table.open_seats(keep)))
        return opened

    def rename(self, name: str) -> None:
        """Call the table ``name`` (its advert's name) from now on."""
        self._command(lambda: self.table.rename(name))

    def configure(
        self,
        options: Options | None = None,
        *,
        window: float | None = None,
        turn_timeout: float | None = None,
        players: int | None = None,
    ) -> None:
        """Change the rules, the clocks or the number of seats before the match starts."""
        self._command(lambda: self.table.configure(
            options, window=window, turn_timeout=turn_timeout, players=players
        ))

    def start_match(self) -> None:
        """Deal the first game to everyone seated (three or more)."""
        self._command(lambda: self.table.start(self.now))

    def next_game(self) -> None:
        """Deal the next game of the match, after one has ended."""
        self._command(lambda: self.table.next_game(self.now))

    def _command(self, do: Callable[[], object]) -> None:
        try:
            do()
        finally:
            self._flush()

    async def serve(self) -> None:
        """Run until the match is over and every connection has been told, or the host
        ended the table itself (:attr:`failure` says why)."""
        await self.over.wait()

    async def close(
        self, code: str = "shutdown", message: str = "the host closed the table"
    ) -> None:
        """Tell every client, let the writers finish (briefly), and stop."""
        if self._ending is None:
            self.table.finish(code, message)
            self._flush()
        if self._ending is not None:  # the host ended the table itself: everyone was told why
            await self._ending
        else:
            await self._stop()

    async def _stop(self) -> None:
        """Let the writers finish (briefly), close every connection and the server, and stop
        the clocks: :meth:`serve` returns."""
        writers = [c.tasks[0] for c in self._conns.values() if c.tasks]
        if writers:
            await asyncio.wait(writers, timeout=2.0)
        for conn in list(self._conns.values()):
            self._drop(conn)
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.over.set()

    # -- connections -----------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if not self._admit(address):
            writer.transport.abort()  # no TLS, no goodbye: it costs the host nothing
            return
        if self._context is not None:
            if self._handshaking >= self.limits.handshaking \
                    and address not in self._players.values():
                writer.transport.abort()
                return
            self._handshaking += 1
            self._collect_soon()
            try:
                await writer.start_tls(self._context, ssl_handshake_timeout=self.limits.handshake)
            except (OSError, ConnectionError, TimeoutError, ssl.SSLError):
                writer.transport.abort()
                return
            except asyncio.CancelledError:  # the host is stopping mid-handshake: end quietly
                writer.transport.abort()  # (a handler that ends cancelled is logged as an
                return                    # error by asyncio's streams)
            finally:
                self._handshaking -= 1
        number, self._next = self._next, self._next + 1
        conn = _Conn(number, writer, self.limits, self.now)
        waiting = [c for c in self._conns.values() if not c.closing and not self._joined(c)]
        if sum(c.address == address for c in waiting) >= self.limits.waiting_per_address:
            await self._turn_away(reader, writer)
            return
        if len(waiting) >= self.limits.waiting:  # the oldest makes room (it had the longest),
            players = set(self._players.values())  # but never one from a seat's address
            others = [c for c in waiting if c.address not in players]
            if not others:
                await self._turn_away(reader, writer)
                return
            self._refuse(min(others, key=lambda c: c.number), TooManyConnections(
                "the host let this connection go to make room for a newer one"))
        conn.address = address
        self._conns[number] = conn
        writer.transport.set_write_buffer_limits(high=self.limits.write_buffer)
        sock = writer.get_extra_info("socket")
        if self.limits.send_buffer is not None and sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        self.table.connect(number, address)
        # The reader is this task; it ends when the connection is aborted.
        conn.tasks = [
            asyncio.create_task(self._write(conn), name=f"writer {number}"),
            asyncio.create_task(self._handshake(conn), name=f"handshake {number}"),
        ]
        try:
            await self._read(conn, reader)
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            self._lost(conn)
        except asyncio.CancelledError:  # the host stopped with it open: end quietly (see
            self._drop(conn)            # start_tls above)
        except Exception:  # a bug must cost this connection, never the host
            log.exception("connection %s: unexpected error; dropping it", number)
            self._drop(conn)
        else:
            if not conn.closing:
                self._lost(conn)
            # Closing politely: the writer sends what is queued, then closes and cleans up.

    def _collect_soon(self) -> None:
        """Collect the garbage once every :data:`COLLECT_EVERY` TLS connections begun. A
        closed TLS connection is a cycle of objects that holds the TLS layer's 256 KiB
        buffer until the collector finds it, and connections that live a moment outlive the
        young generations: a flood of them would otherwise hold tens of MB of garbage for
        as long as it lasted, and the memory after."""
        self._since_collected += 1
        now = self.now
        if self._since_collected >= COLLECT_EVERY and now - self._collected >= 0.5:
            self._since_collected, self._collected = 0, now  # (twice a second at most)
            asyncio.get_running_loop().call_soon(gc.collect)

    def _admit(self, address: str) -> bool:
        """Whether a new connection from ``address`` may go on to its TLS handshake: within
        the address's allowance, and (unless a seat was played from there) the handshakes'
        allowance of the whole host."""
        now, limits = self.now, self.limits
        allowance, checked = self._knocks.get(address, (limits.connect_burst, now))
        allowance = min(limits.connect_burst, allowance + (now - checked) * limits.connect_rate)
        if allowance < 1:
            self._knocks[address] = (allowance, now)
            return False
        if address not in self._players.values():
            shared, counted = self._handshakes
            shared = min(limits.handshake_burst, shared + (now - counted) * limits.handshake_rate)
            if shared < 1:
                self._handshakes = (shared, now)
                return False
            self._handshakes = (shared - 1, now)
        self._knocks[address] = (allowance - 1, now)
        if len(self._knocks) > 4096:  # forget the addresses whose allowance is whole again
            full = now - limits.connect_burst / limits.connect_rate
            self._knocks = {a: k for a, k in self._knocks.items() if k[1] > full}
        return True

    def _joined(self, conn: _Conn) -> bool:
        state = self.table.conns.get(conn.number)
        return state is not None and state.joined

    async def _turn_away(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Refuse a connection past the caps, in a way its client can read: say why, end our
        side, and give the client a moment to finish (closing at once would reset the
        connection and lose the message). Past ``Limits.waiting`` of them at once, and after a
        second, the connection is aborted: the client sees a reset, and tries again as after
        a lost connection."""
        if self._turning_away >= self.limits.waiting:
            writer.transport.abort()
            return
        self._turning_away += 1
        try:
            error = TooManyConnections()
            writer.write(protocol.encode(Bye(error.code, error.message)))
            with contextlib.suppress(OSError, ConnectionError, TimeoutError):
                if writer.can_write_eof():  # (TLS has no half-close: the client reads the bye)
                    writer.write_eof()
                async with asyncio.timeout(1.0):
                    await writer.drain()
                    while await reader.read(4096):
                        pass
        finally:
            self._turning_away -= 1
        writer.close()

    async def _read(self, conn: _Conn, reader: asyncio.StreamReader) -> None:
        while not conn.closing:
            header = await reader.readexactly(protocol.HEADER.size)
            try:
                length = protocol.read_length(header)
            except WireError as error:
                self._refuse(conn, error)
                return
            body = await reader.readexactly(length)
            conn.last_heard = self.now
            try:
                self._meter(conn, length)
                message = protocol.decode(body, "client")
            except WireError as error:
                self._refuse(conn, error)
                if error.fatal:
                    return
                continue
            self.table.receive(conn.number, message, self.now)
            state = self.table.conns.get(conn.number)
            if state is not None and state.seat is not None:
                self._players[state.seat] = conn.address  # it may always come back (_admit)
            self._flush_soon()
            # One message at a time from each connection: what a flooding client sent waits
            # behind every other connection's, and behind the flush of what it asked for.
            await asyncio.sleep(0)

    def _meter(self, conn: _Conn, size: int) -> None:
        """Count a message and its bytes against the connection's allowances; :class:`Flood`
        past either."""
        now = self.now
        limits = self.limits
        if conn.sent <= limits.before_joining:  # (counted until it passes the cap once)
            conn.sent += size
            state = self.table.conns.get(conn.number)
            if conn.sent > limits.before_joining and state is not None and not state.joined:
                raise Flood(f"more than {limits.before_joining // 1024} KiB before joining")
        elapsed, conn.checked = now - conn.checked, now
        conn.allowance = min(limits.burst, conn.allowance + elapsed * limits.rate) - 1
        conn.bytes_allowance = min(
            limits.burst_bytes, conn.bytes_allowance + elapsed * limits.rate_bytes
        ) - size
        if conn.allowance < 0:
            raise Flood(f"more than {limits.rate:g} messages a second")
        if conn.bytes_allowance < 0:
            raise Flood(f"more than {limits.rate_bytes / 1024:g} KiB a second")

    def _refuse(self, conn: _Conn, error: WireError) -> None:
        self.table.refuse(conn.number, error)
        self._flush()

    async def _handshake(self, conn: _Conn) -> None:
        await asyncio.sleep(self.limits.handshake)  # the deadline itself
        state = self.table.conns.get(conn.number)
        if state is not None and not state.joined:
            self._refuse(conn, HandshakeTimeout())

    async def _write(self, conn: _Conn) -> None:
        try:
            while True:
                data = await conn.queue.get()
                if data is _CLOSE:  # everything before it is written: close politely
                    conn.closing = True
                    conn.writer.close()
                    await asyncio.wait_for(conn.writer.wait_closed(), self.limits.silence)
                    break
                if conn.writer.transport.is_closing():
                    break  # the peer has gone: its reader will notice (nothing to write to)
                conn.writer.write(data)
                if conn.writer.transport.get_write_buffer_size() > self.limits.write_buffer:
                    # The peer reads slower than we write: wait for it, but not for ever.
                    await asyncio.wait_for(conn.writer.drain(), self.limits.silence)
        except (ConnectionError, OSError, TimeoutError):
            pass
        finally:
            self._drop(conn)

    def _send(self, number: int, data: bytes) -> None:
        conn = self._conns.get(number)
        if conn is None or conn.closing:
            return
        try:
            conn.queue.put_nowait(data)
        except asyncio.QueueFull:
            log.info("dropping connection %s: it stopped reading", number)
            self._drop(conn)

    def _flush_soon(self) -> None:
        """Flush once everything that arrived together has been handled: several actions
        in a row then reach each client as one ``state``."""
        if not self._flush_pending:
            self._flush_pending = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Hand what the table wants sent to the writers; close what it wants closed."""
        self._flush_pending = False
        if self.failure is not None:  # the table has ended: nothing more is sent
            return
        # One write per connection per flush: each write is a system call, and a wake-up
        # for the reader at the other end.
        batches: dict[int, list[bytes]] = {}
        try:
            for number, message in self.table.take_outbox():
                batches.setdefault(number, []).append(protocol.encode(message))
        except (TypeError, ValueError) as error:  # (the codec's, and a frame too large)
            self._fail(error)
            return
        for number, frames in batches.items():
            self._send(number, b"".join(frames))
        for number in self.table.take_closing():
            conn = self._conns.get(number)
            if conn is not None and not conn.closing:
                conn.closing = True
                with contextlib.suppress(asyncio.QueueFull):
                    conn.queue.put_nowait(_CLOSE)
                if conn.queue.full():
                    self._drop(conn)
        self._wake.set()
        self.on_change()
        if self.table.state == "over" and not self._conns:
            self.over.set()

    def _fail(self, error: Exception) -> None:
        """A message could not be encoded (a bug: a value with no wire form). Nobody can be
        told the table any more, so it ends: a ``bye`` to every connection, straight (not
        through the table, whose goodbye sends the state that failed first), then the host
        stops."""
        log.error("could not encode a message for the table; ending it", exc_info=error)
        self.failure = (f"the host could not send the game ({type(error).__name__}, a bug in "
                        "doubtlan): the table has ended")
        bye = protocol.encode(Bye(HOST_ERROR, self.failure))
        for conn in list(self._conns.values()):
            if conn.closing:
                continue  # (told why already)
            try:
                conn.queue.put_nowait(bye)
                conn.queue.put_nowait(_CLOSE)
            except asyncio.QueueFull:
                self._drop(conn)  # it stopped reading: it would never read the goodbye
                continue
            conn.closing = True
        self._ending = asyncio.get_running_loop().create_task(self._stop(), name="host ending")
        self.on_change()

    def _drop(self, conn: _Conn) -> None:
        """Close the connection now, whatever is still queued."""
        conn.closing = True
        conn.writer.transport.abort()
        self._lost(conn)

    def _lost(self, conn: _Conn) -> None:
        if self._conns.pop(conn.number, None) is None:
            return
        for task in conn.tasks:
            if task is not asyncio.current_task():
                task.cancel()
        self.table.disconnect(conn.number, self.now)
        self._flush_soon()  # not now: this may run inside a flush, and order must hold

    # -- clocks ------------------------------------------------------------------------------

    async def _clock(self) -> None:
        """Call the table's tick when its next deadline comes."""
        while True:
            self._wake.clear()
            try:
                # Not wait_for: on Python 3.11 it loses a cancel that comes as the wait ends,
                # and close() then waits for this task forever.
                async with asyncio.timeout_at(self.table.next_deadline()):
                    await self._wake.wait()
            except TimeoutError:
                self.table.tick(self.now)
                self._flush()

    async def _heartbeat(self) -> None:
        """Ping everyone; drop whoever has been silent too long."""
        while True:
            await asyncio.sleep(self.limits.ping_every)  # the heartbeat's period
            now = self.now
            for conn in list(self._conns.values()):
                if now - conn.last_heard > self.limits.silence:
                    log.info("dropping connection %s: silent", conn.number)
                    self._drop(conn)
                else:
                    self._send(conn.number, protocol.encode(Ping()))
            # The connections begun since the last collection were let go of by now (or are
            # players'): their garbage is collected, and what the connections let go of (this
            # port's and the web port's) goes back to the system (net/memory.py).
            if self._since_collected:
                self._since_collected, self._collected = 0, now
                gc.collect()
            give_back()
