"""The authoritative host: an asyncio TCP server in front of one :class:`~.table.Table`.

A new connection is admitted before any cryptography is done for it (per address, and in
all for addresses that hold no seat: :meth:`.gate.Gate.admit`), then speaks TLS. Each
connection has a reader task and a writer task with a bounded queue (net/serving.py,
net/link.py). A client that stops reading fills its queue and is dropped; it never slows the
others. Every frame is checked (length before body, then the message's definition) before
the table sees it, and the table is only ever called synchronously from the event loop, so
actions are applied one at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Callable

from ..rules import Options
from . import protocol
from .gate import Gate
from .identity import Identity
from .limits import Limits as Limits  # (re-exported: the host's limits)
from .link import CLOSE, Link
from .memory import give_back
from .messages import Bye, Ping
from .serving import Serving
from .table import Table

log = logging.getLogger(__name__)


#: The ``bye`` code of a table the host ended because it could not send a message (a bug:
#: a value the codec has no wire form for; docs/protocol.md).
HOST_ERROR = "host_error"


class Host(Serving):
    """Serve ``table`` on ``address``:``port`` (0 picks a free port), over TLS 1.3 with
    ``identity``'s certificate (a new one when not given). ``tls=False`` serves plain TCP:
    only for measuring what TLS costs (bench/net.py). Each connection is served as
    :class:`~.serving.Serving` says."""

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
        self._conns: dict[int, Link] = {}
        self._next = 1
        self._server: asyncio.Server | None = None
        self._wake = asyncio.Event()
        self._flush_pending = False
        self._tasks: list[asyncio.Task[None]] = []
        #: The way in: who may connect, and TLS begun (net/gate.py).
        self._gate = Gate(self.limits)
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

    # -- connections (the rest: serving.py) --------------------------------------------------

    def _send(self, number: int, data: bytes) -> None:
        conn = self._conns.get(number)
        if conn is None or conn.closing:
            return
        if not conn.put(data):
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
                conn.put(CLOSE)
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
            if not (conn.put(bye) and conn.put(CLOSE)):
                self._drop(conn)  # it stopped reading: it would never read the goodbye
                continue
            conn.closing = True
        self._ending = asyncio.get_running_loop().create_task(self._stop(), name="host ending")
        self.on_change()

    def _drop(self, conn: Link) -> None:
        """Close the connection now, whatever is still queued."""
        conn.closing = True
        conn.writer.transport.abort()
        self._lost(conn)

    def _lost(self, conn: Link) -> None:
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
            # What the connections let go of (this port's and the web port's) goes back to the
            # system (net/memory.py).
            self._gate.collect(now)
            give_back()
