"""The way in to the host (net/host.py), before the table hears of a connection: each new
connection counted against its address's allowance and, unless a seat was played from that
address, the handshakes' allowance of the whole host; its TLS handshake begun within a cap of
handshakes at once; and a connection the host has no room for turned away.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ssl

from . import protocol
from .errors import TooManyConnections
from .limits import Limits
from .messages import Bye

#: TLS connections begun between two collections of garbage (:meth:`Gate.collect_soon`).
COLLECT_EVERY = 32


class Gate:
    """Who gets in, held to ``limits``."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        #: The admission's allowances (:meth:`admit`): by address, and the handshakes' in
        #: all, each (allowance, when last counted).
        self._knocks: dict[str, tuple[float, float]] = {}
        self._handshakes = (limits.handshake_burst, 0.0)
        #: The address each seat was last played from (by seat number: as many as there
        #: are seats): it may always come back.
        self.players: dict[int, str] = {}
        #: Connections being turned away politely just now (past as many, abruptly), and
        #: TLS handshakes under way.
        self._turning_away = 0
        self._handshaking = 0
        #: TLS connections begun since the last collection of garbage (collect_soon).
        self._since_collected, self._collected = 0, float("-inf")

    def played_from(self, address: str) -> bool:
        """Whether a seat was last played from ``address``."""
        return address in self.players.values()

    def admit(self, address: str, now: float) -> bool:
        """Whether a new connection from ``address`` may go on to its TLS handshake: within
        the address's allowance, and (unless a seat was played from there) the handshakes'
        allowance of the whole host."""
        limits = self.limits
        allowance, checked = self._knocks.get(address, (limits.connect_burst, now))
        allowance = min(limits.connect_burst, allowance + (now - checked) * limits.connect_rate)
        if allowance < 1:
            self._knocks[address] = (allowance, now)
            return False
        if not self.played_from(address):
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

    async def secure(self, writer: asyncio.StreamWriter, address: str,
                     context: ssl.SSLContext, now: float) -> bool:
        """Begin TLS on an admitted connection from ``address``; False (the connection
        aborted) past the cap of handshakes at once, or when the handshake fails."""
        if self._handshaking >= self.limits.handshaking and not self.played_from(address):
            writer.transport.abort()
            return False
        self._handshaking += 1
        self.collect_soon(now)
        try:
            await writer.start_tls(context, ssl_handshake_timeout=self.limits.handshake)
        except (OSError, ConnectionError, TimeoutError, ssl.SSLError):
            writer.transport.abort()
            return False
        except asyncio.CancelledError:  # the host is stopping mid-handshake: end quietly
            writer.transport.abort()  # (a handler that ends cancelled is logged as an
            return False              # error by asyncio's streams)
        finally:
            self._handshaking -= 1
        return True

    def collect_soon(self, now: float) -> None:
        """Collect the garbage once every :data:`COLLECT_EVERY` TLS connections begun. A
        closed TLS connection is a cycle of objects that holds the TLS layer's 256 KiB
        buffer until the collector finds it, and connections that live a moment outlive the
        young generations: a flood of them would otherwise hold tens of MB of garbage for
        as long as it lasted, and the memory after."""
        self._since_collected += 1
        if self._since_collected >= COLLECT_EVERY and now - self._collected >= 0.5:
            self._since_collected, self._collected = 0, now  # (twice a second at most)
            asyncio.get_running_loop().call_soon(gc.collect)

    def collect(self, now: float) -> None:
        """Collect the garbage of the connections begun since the last collection, if any
        (the host's heartbeat: they were let go of by now, or are players')."""
        if self._since_collected:
            self._since_collected, self._collected = 0, now
            gc.collect()

    async def turn_away(self, reader: asyncio.StreamReader,
                        writer: asyncio.StreamWriter) -> None:
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
