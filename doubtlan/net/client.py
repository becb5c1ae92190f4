"""The client side: a connection that keeps itself up. :class:`Client` is the asyncio
connection: it says hello, reads frames into its :class:`~doubtlan.net.mirror.Mirror` (what
the seat knows of the table), answers pings, notices a silent host, and after a lost
connection reconnects by itself with the seat's token and gets a full snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import random
import secrets
import socket
import ssl
import time
from collections.abc import Awaitable, Callable

from ..rules import Action
from . import protocol
from .errors import BadToken, TooManyAttempts, TooManyConnections, WireError
from .identity import client_context
from .joining import KNOWN as KNOWN  # (re-exported: the games a hello names)
from .joining import Joining, read_message
from .kept import Kept, KeptSeats
from .messages import (
    PROTOCOL_VERSION,
    Act,
    Bye,
    Error,
    Hello,
    Leave,
    Message,
    Ping,
    Pong,
    Say,
    Welcome,
)
from .mirror import Mirror

#: Seconds of silence from the host before the client gives the connection up (checked
#: at each ping, so noticed within SILENCE + PING_EVERY seconds).
SILENCE = 10.0
#: Seconds between the client's own pings; while its seat plays a game, more often: each
#: answer proves when the host had heard from it, and so bounds how early a wait shown next
#: can have begun (net/timing.py judges the host's clocks by that).
PING_EVERY = 5.0
PROBE_EVERY = 0.5
#: Seconds one attempt to connect may take.
CONNECT_TIMEOUT = 5.0
#: The client keeps well inside the host's allowance of messages (a bot answering a table
#: of bots that play at once could otherwise send more than it takes): a burst of this many,
#: then this many a second; past that a message waits its turn.
SEND_BURST = protocol.MESSAGE_BURST / 2
SEND_RATE = protocol.MESSAGE_RATE * 0.8

class ConnectionLost(Exception):
    """The host went away, or closed the connection."""


#: The codes of "no route to that host or network": POSIX's, and Windows' own (its sockets'
#: WSAEHOSTUNREACH and WSAENETUNREACH, and ERROR_NETWORK_UNREACHABLE and
#: ERROR_HOST_UNREACHABLE from its default event loop).
UNREACHABLE = frozenset({errno.EHOSTUNREACH, errno.ENETUNREACH, 10065, 10051, 1231, 1232})


def why_not(error: BaseException) -> str:
    """Why a connection to a table could not be made, in words for the player: nothing
    listening, no answer (a network or firewall that drops it), or what else it was."""
    if isinstance(error, ConnectionRefusedError):
        return ("nothing is listening there (the connection was refused): check the address "
                "and port the host's lobby shows, and that the table is still open")
    if isinstance(error, TimeoutError):
        return ("no answer: the network or a firewall drops the connection (guest or office "
                "Wi-Fi that keeps machines apart, a firewall on the host's machine, a VPN)")
    if isinstance(error, socket.gaierror):
        return "no machine of that name is known here: type the address the host's lobby shows"
    if isinstance(error, OSError) and (error.errno in UNREACHABLE
                                       or getattr(error, "winerror", None) in UNREACHABLE):
        return "this machine has no way to that address: is it on this network?"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror[0].lower() + error.strerror[1:]
    return str(error) or type(error).__name__


class NotATable(ConnectionLost):
    """Something answered at the address, but not as a doubtlan table does (no TLS): not
    tried again."""


class Client(Joining):
    """One connection to a host, kept up by itself.

    ``on_message`` is called with every message after the :attr:`mirror` has taken it in.
    :meth:`run` connects, says hello and reads until the host says ``bye`` or the client is
    closed; after a lost connection it reconnects with the seat's token (backing off, up to
    ``retry_for`` seconds) and the host sends a full snapshot. Each connection's way in is
    :class:`~.joining.Joining`'s.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        pin: str | None = None,
        watch: bool = False,
        token: str | None = None,
        on_message: Callable[[Message], Awaitable[None] | None] | None = None,
        retry_for: float = 60.0,
        first_try_for: float = 5.0,
        on_connection: Callable[[bool], None] | None = None,
        seed: bytes | None = None,
        fingerprint: bytes | None = None,
        tls: bool = True,
        commitment: bytes | None = None,
        kept: KeptSeats | None = None,
        program: bool = False,
        check_key: Callable[[str, bytes], None] | None = None,
        via: str | None = None,
    ) -> None:
        self.host, self.port, self.name, self.pin, self.watch = host, port, name, pin, watch
        #: True when a program plays the seat (``join --bot``): the hello says so.
        self.program = program
        #: Where this user's seats are kept (net/kept.py): a seat kept at this table for this
        #: name is taken back, and a seat taken is kept. None: nothing is kept (tests).
        self.kept = kept
        #: The host's certificate fingerprint as its advert gives it, or else the one it
        #: presented the first time: a host that presents another (also on a reconnect) is
        #: not the table it claims to be. After connecting: the one it presented.
        self.expected = fingerprint
        self._expected_from = "its advert names" if fingerprint else "it showed before"
        self.fingerprint = b""
        #: Called with the table's name and key at the first welcome, before the client
        #: takes in anything from the table: it raises :class:`NotTheTable` to refuse it (a
        #: key other than the one a table of that name had: net/known.py).
        self.check_key = check_key
        #: False: plain TCP, only to measure what TLS costs (bench/net.py).
        self.tls = tls
        #: A browser seat's app: where the host's web server says it comes from (its knock
        #: carries it: ``knock.via``).
        self.via = via
        #: This client's seed for the match's deals: random unless given (tests, replays).
        self.mirror = Mirror(token=token,
                             contribution=secrets.token_bytes(16) if seed is None else seed,
                             advertised=commitment.hex() if commitment else None)
        self.on_message = on_message
        self.retry_for, self.first_try_for = retry_for, first_try_for
        #: Called with True when the host welcomes this client, False when it is lost.
        self.on_connection = on_connection
        #: Set while a connection is up (from the host's welcome); cleared while reconnecting.
        self.connected = asyncio.Event()
        #: How many times the host has welcomed this client (1 for a connection never lost),
        #: and turned it away for lack of room (it tries again).
        self.connections = 0
        self.turned_away = 0
        #: Bytes of frames received, over every connection, and when the last one was read
        #: (time.monotonic(), before it was decoded).
        self.received = 0
        self.last_read = 0.0
        self._writer: asyncio.StreamWriter | None = None
        self._closed = False
        #: What is left of the sending allowance, and when it was counted (loop time).
        self._allowance, self._counted = SEND_BURST, 0.0

    # -- sending ------------------------------------------------------------------------

    async def send(self, message: Message) -> bool:
        """Send ``message``; False if the connection is down (the reader will notice and
        reconnect, and the host's snapshot will say what to do next)."""
        writer = self._writer
        if writer is None or writer.is_closing():
            return False
        await self._pace()
        if writer.is_closing():
            return False
        # (signed with the seat's key; its actions are checked against the game's reveal, its
        # pings time the host's clocks)
        message = self.mirror.signed(message, time.time())
        self.mirror.sending(message, time.monotonic())
        try:
            writer.write(protocol.encode(message))
            await writer.drain()
        except (ConnectionError, OSError):
            return False
        return True

    async def _pace(self) -> None:
        """Spend one message of the allowance, first waiting for it to refill if it is
        spent (a rate kept to, not an event waited on)."""
        now = asyncio.get_running_loop().time()
        allowance = min(SEND_BURST, self._allowance + (now - self._counted) * SEND_RATE)
        if allowance < 1:
            await asyncio.sleep((1 - allowance) / SEND_RATE)
            now, allowance = asyncio.get_running_loop().time(), 1.0
        self._allowance, self._counted = allowance - 1, now

    async def act(self, action: Action, decision: int) -> bool:
        """Ask the host to apply ``action``, decided at the view's ``decision``."""
        return await self.send(Act(decision, action.text))

    async def say(self, line: str) -> bool:
        """Say ``line`` to the table (docs/talk.md)."""
        return await self.send(Say(line))

    async def leave(self) -> None:
        await self.send(Leave())
        if self.kept is not None and self.fingerprint:
            self.kept.forget(self.fingerprint, self.name)  # (the seat is the bots' now)
        await self.close()

    async def close(self) -> None:
        self._closed = True
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await writer.wait_closed()

    def drop(self) -> None:
        """Cut the connection at once, as a failing network would (for tests)."""
        if self._writer is not None:
            self._writer.transport.abort()

    # -- running ------------------------------------------------------------------------

    async def run(self) -> Bye | None:
        """Play until the host says goodbye (returned) or :meth:`close`.

        A first connection that cannot be made within ``first_try_for`` seconds raises
        :class:`ConnectionLost`. A connection lost later is made again, with the seat's
        token, backing off between tries, for up to ``retry_for`` seconds.
        """
        loop = asyncio.get_running_loop()
        started = since = loop.time()
        delay = 0.1
        failure = "the connection closed before the table answered"
        while not self._closed:
            try:
                await self._session()
            except NotATable:
                raise
            except (ConnectionLost, OSError, asyncio.IncompleteReadError, WireError,
                    TimeoutError) as error:
                if self.connections == 0:
                    failure = why_not(error)
            finally:
                if self._session_over():
                    since, delay = loop.time(), 0.1  # it was up: the retry clock restarts
            no_room = self._no_room()
            if not no_room and (self.mirror.bye is not None or self._closed):
                return self.mirror.bye
            now = loop.time()
            if not self._try_again(now - started, now - since, no_room, failure):
                return None  # it never had a seat to come back to
            await asyncio.sleep(delay * (0.5 + random.random()))  # backoff between tries
            delay = min(delay * 2, 5.0)
        return self.mirror.bye

    def _session_over(self) -> bool:
        """The connection is down (or never came up): whether it had been up."""
        was_up = self.connected.is_set()
        self.connected.clear()
        self._writer = None
        if was_up and self.on_connection is not None:
            self.on_connection(False)
        return was_up

    def _no_room(self) -> bool:
        """Whether the host turned this client away for now: no room just now, or (for a
        spectator coming back) the table's PIN allowance spent by others just now. Its
        goodbye is then forgotten, and the client tries again."""
        bye = self.mirror.bye
        busy = bye is not None and (bye.code == TooManyConnections.code or (
            bye.code == TooManyAttempts.code and self.connections > 0))
        if busy and not self._closed:
            self.mirror.bye = None
            self.turned_away += 1
            return True
        return False

    def _try_again(self, since_started: float, since_up: float, no_room: bool,
                   failure: str) -> bool:
        """After a connection that ended without a goodbye (or found no room): whether to
        try again (False: a spectator's, or a seat's never taken, is not made again), or
        :class:`ConnectionLost` once the client has tried for long enough."""
        if self.connections == 0:
            # A table that answered "no room" is there: it is tried for as long as a
            # lost connection would be.
            patience = max(self.first_try_for, self.retry_for) if no_room \
                else self.first_try_for
            if since_started >= patience:
                if no_room:
                    raise ConnectionLost(f"the table at {self.host}:{self.port} had no room "
                                         f"for another connection for {patience:g} s")
                raise ConnectionLost(f"cannot reach a table at {self.host}:{self.port}: "
                                     f"{failure}")
        elif self.mirror.token is None and not self.watch:
            return False
        elif since_up >= self.retry_for:
            raise ConnectionLost(
                f"lost the connection to {self.host}:{self.port} and could not get it back"
            )
        return True

    async def _session(self) -> None:
        reader, writer = await _connect(self.host, self.port, self.tls)
        self.mirror.bye = None
        kept, proof = await self._before_hello(reader, writer, CONNECT_TIMEOUT)
        if self.mirror.bye is not None:  # refused before the hello
            writer.close()
            return
        self._writer = writer
        await self.send(
            Hello(PROTOCOL_VERSION, self.name, proof, self.mirror.token, self.watch,
                  None if self.watch else self.mirror.seed_hash(), self.program, KNOWN)
        )
        self.last_read = time.monotonic()
        pinger = asyncio.create_task(self._ping(writer))
        try:
            await self._converse(reader, writer, kept)
        finally:
            pinger.cancel()
            writer.close()

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        kept: Kept | None) -> None:
        """Read the host's messages until its goodbye (or the connection's end)."""
        while True:
            message, size, self.last_read = await read_message(reader)
            self.received += size
            if isinstance(message, Error) and message.code == BadToken.code \
                    and not self.connected.is_set():
                if await self._unknown_seat(message, kept, reader, writer, CONNECT_TIMEOUT):
                    return
                kept = None  # (a hello afresh: the seat kept is forgotten)
                continue
            if isinstance(message, Welcome) and not self.connected.is_set():
                await self._welcomed(message)
            await self._take_in(message)
            if isinstance(message, Bye):
                return

    async def _take_in(self, message: Message) -> None:
        """Answer a ping, take ``message`` into the mirror (keeping the seat), send the seed
        when the table waits for it, and hand the message on (``on_message``)."""
        if isinstance(message, Ping) and self.connected.is_set():
            await self.send(Pong())  # (before the welcome the host takes a hello only)
        self.mirror.receive(message, self.last_read)
        self._keep(message)
        seed = self.mirror.seed_due()
        if seed is not None:  # a ping right after: its answer proves the seed came
            await self.send(seed)
            await self.send(Ping())
        if self.on_message is not None:
            result = self.on_message(message)
            if result is not None:
                await result

    async def _ping(self, writer: asyncio.StreamWriter) -> None:
        """Ping the host now and then, and give the connection up when the host has been
        silent too long (checked here, not on every read, which is cheaper). No ping goes
        before the welcome: until then the host takes nothing but a hello (a kept seat the
        table no longer knows is followed by a second hello on the same connection)."""
        pinged = time.monotonic()
        while True:
            await asyncio.sleep(PROBE_EVERY)  # a heartbeat's period, not a wait on state
            table, now = self.mirror.table, time.monotonic()
            playing = self.mirror.seat is not None and table is not None \
                and table.state in ("seeding", "playing")
            if self.connected.is_set() and (playing or now - pinged >= PING_EVERY):
                if not await self.send(Ping()):
                    return
                pinged = now
            if now - self.last_read > SILENCE:
                writer.transport.abort()  # the reader then ends, and run() reconnects
                return


async def _connect(host: str, port: int,
                   tls: bool) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to ``host``:``port``, over TLS unless told: :class:`NotATable` when what
    answers does not speak TLS, :class:`ConnectionLost` when it does not answer."""
    # A peer that drops the connection attempt would hold us for minutes otherwise.
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(host, port), CONNECT_TIMEOUT)
    if not tls:
        return reader, writer
    try:
        await writer.start_tls(client_context(), ssl_handshake_timeout=CONNECT_TIMEOUT)
    except ssl.SSLError as error:
        writer.transport.abort()
        if isinstance(error, ssl.SSLEOFError | ssl.SSLZeroReturnError):
            raise  # (closed: a host turning connections away does that)
        raise NotATable(f"{host}:{port} answered, but it is not a doubtlan table") from None
    except TimeoutError:
        writer.transport.abort()
        raise ConnectionLost("the machine there took the connection but did not answer as a "
                             "doubtlan table does") from None
    except BaseException:
        writer.transport.abort()
        raise
    return reader, writer
