"""How a client joins a table on each new connection (net/client.py), before and around its
hello: the host's key checked (and the table's name asked first, when the client checks it),
the seat kept at this table taken back, the PIN proved both ways, a fresh hello when the
table no longer knows the seat kept, and the seat kept or forgotten as the table says.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..rules import GAMES
from . import protocol
from .identity import seen_fingerprint
from .kept import Kept, KeptSeats
from .messages import (
    PROTOCOL_VERSION,
    Bye,
    Error,
    Hello,
    Knock,
    Leave,
    Message,
    Peek,
    Ping,
    Proof,
    TableName,
    Welcome,
)
from .mirror import Mirror
from .pin import ClientExchange, NotTheTable
from .signing import SeatKey

#: The games this client plays and shows, which its hello tells the host: a table of another
#: game refuses it, saying so (``unknown_game``).
KNOWN = tuple(GAMES)


async def read_message(reader: asyncio.StreamReader) -> tuple[Message, int, float]:
    """The next message from the host, the size of its frame, and when it was read
    (time.monotonic(), before it was decoded)."""
    header = await reader.readexactly(protocol.HEADER.size)
    body = await reader.readexactly(protocol.read_length(header))
    read = time.monotonic()
    return protocol.decode(body, "host"), len(header) + len(body), read


class Joining:
    """The steps of a client's way in to a table, each on the connection it is given."""

    #: What the client holds (``Client.__init__`` sets it): who it joins as, the PIN, where
    #: its seats are kept, the host's key (expected, and as presented), the check of the
    #: table's key, how many times it was welcomed, its mirror of the table, and whether
    #: (and whom to tell when) its connection is up.
    name: str
    pin: str | None
    watch: bool
    program: bool
    via: str | None
    kept: KeptSeats | None
    expected: bytes | None
    _expected_from: str
    fingerprint: bytes
    check_key: Callable[[str, bytes], None] | None
    connections: int
    mirror: Mirror
    connected: asyncio.Event
    on_connection: Callable[[bool], None] | None

    if TYPE_CHECKING:
        # (client.py)
        async def send(self, message: Message) -> bool: ...

    async def _before_hello(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                            timeout: float) -> tuple[Kept | None, str | None]:
        """Everything before the hello: the host's key checked, the seat kept taken back,
        the PIN proved (each answer awaited for ``timeout`` seconds). Returns the seat kept
        that was taken back and the PIN's proof for the hello; the connection is closed when
        this raises."""
        try:
            self.fingerprint = seen_fingerprint(writer.get_extra_info("ssl_object"))
            if self.expected and self.fingerprint != self.expected:
                raise NotTheTable(f"its key is not the one {self._expected_from}")
            self.expected = self.expected or self.fingerprint
            if self.check_key is not None and self.connections == 0:
                name = await self._peek(reader, writer, timeout)
                if name is not None:
                    self.check_key(name, self.fingerprint)  # (or refused, before the hello)
            kept = self._take_kept()
            # A seat's token is enough to come back: the PIN is asked of newcomers only, and
            # the host's key is the one this client saw before.
            knock = self.pin is not None and self.mirror.token is None
            proof = await self._prove_pin(reader, writer, timeout) if knock else None
        except Exception:
            writer.close()
            # Let TLS close now: run() ends here, and the loop may end with it.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), timeout)
            raise
        except BaseException:
            writer.close()
            raise
        return kept, proof

    def _take_kept(self) -> Kept | None:
        """Take the seat kept at this table for this name, if any (a player whose program
        stopped, back): its token and seed go into the hello."""
        if self.kept is None or self.watch:
            return None
        kept = self.kept.find(self.fingerprint, self.name)
        if kept is None:
            return None
        if self.mirror.token is not None:  # a seat given (the host's own, resumed): its key
            if kept.token == self.mirror.token and self.mirror.key is None:
                self.mirror.key = SeatKey.from_hex(kept.key)
            return None
        try:
            seed = bytes.fromhex(kept.seed)
        except ValueError:
            return None
        self.mirror.token, self.mirror.contribution = kept.token, seed
        self.mirror.key = SeatKey.from_hex(kept.key) or self.mirror.key
        return kept

    async def _afresh(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      timeout: float) -> None:
        """The table no longer knows the seat kept (another match, or it was given away):
        forget it, and say hello as a newcomer on the same connection."""
        if self.kept is not None:
            self.kept.forget(self.fingerprint, self.name)
        self.mirror.token, self.mirror.contribution = None, secrets.token_bytes(16)
        proof = await self._prove_pin(reader, writer, timeout) if self.pin is not None else None
        if self.mirror.bye is None:
            await self.send(Hello(PROTOCOL_VERSION, self.name, proof, None, self.watch,
                                  self.mirror.seed_hash(), self.program, KNOWN))

    async def _unknown_seat(self, error: Error, kept: Kept | None,
                            reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                            timeout: float) -> bool:
        """The table does not know the seat the hello came back to (``bad_token``): the end
        of this client's seat when it held it at this table (True), or else a hello afresh
        for the seat kept from before (True if that is refused too)."""
        if kept is None:  # the seat this client held is gone
            self.mirror.receive(Bye(error.code, error.message))
            return True
        await self._afresh(reader, writer, timeout)  # a seat the table no longer knows
        return self.mirror.bye is not None

    async def _welcomed(self, welcome: Welcome) -> None:
        """The host's first welcome on this connection: only now is the connection up (the
        table's key checked first, the first time)."""
        if self.connections == 0 and self.check_key is not None:
            try:
                self.check_key(welcome.table.name, self.fingerprint)
            except NotTheTable:
                await self.send(Leave())  # (the seat its hello took: given up)
                raise
        self.connections += 1
        self.connected.set()
        if self.on_connection is not None:
            self.on_connection(True)

    def _keep(self, message: Message) -> None:
        """Keep the seat this client was welcomed to; forget it when the match is over."""
        if self.kept is None or not self.fingerprint:
            return
        if isinstance(message, Welcome) and message.token is not None \
                and message.seat is not None and self.mirror.contribution:
            key = self.mirror.key
            self.kept.keep(Kept(self.fingerprint.hex(), self.name, message.table.commitment,
                                message.token, self.mirror.contribution.hex(),
                                message.table.name, key=key.secret.hex() if key else ""))
        elif isinstance(message, Bye) and message.code in ("match_over", "left"):
            self.kept.forget(self.fingerprint, self.name)

    async def _peek(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    timeout: float) -> str | None:
        """Ask the table's name before saying anything else (None: a host that does not
        answer ``peek`` says so with an error, and the name is checked at the welcome)."""
        writer.write(protocol.encode(Peek()))
        async with asyncio.timeout(timeout):
            while True:
                message, _, _ = await read_message(reader)
                if isinstance(message, TableName):
                    return message.name
                if isinstance(message, Error | Bye):
                    return None
                if not isinstance(message, Ping):
                    raise NotTheTable(f"it answered the question of its name with "
                                      f"{message.TYPE!r}")

    async def _prove_pin(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                         timeout: float) -> str | None:
        """The PIN's key exchange (net/pin.py): knock, and check the host's proof before
        anything else is sent. :class:`NotTheTable` when the host cannot prove the PIN; None
        (with :attr:`mirror`'s ``bye`` set) when the host refused the knock."""
        assert self.pin is not None
        exchange = ClientExchange(self.pin, self.fingerprint)
        writer.write(protocol.encode(Knock(PROTOCOL_VERSION, exchange.knock(), self.via)))
        async with asyncio.timeout(timeout):
            while True:
                message, _, _ = await read_message(reader)
                if isinstance(message, Proof):
                    return exchange.answer(message.half, message.proof)
                if isinstance(message, Bye):
                    if message.code == "no_pin":
                        raise NotTheTable("it says it has no PIN")
                    self.mirror.receive(message)
                    return None
                if not isinstance(message, Ping):
                    raise NotTheTable(f"it answered the PIN with {message.TYPE!r}")
