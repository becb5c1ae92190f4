"""The client side: what a seat knows of the table, and a connection that keeps itself up.

:class:`Mirror` turns the host's messages into the seat's current view (no I/O: the tests,
the bot client and the app share it). :class:`Client` is the asyncio connection: it says
hello, reads frames into the mirror, answers pings, notices a silent host, and after a
lost connection reconnects by itself with the seat's token and gets a full snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ..rules import Action, Event, RulesError, View, game_named
from ..rules.fairness import Disclosure, Seen, Verdict, unchecked, verify
from . import protocol
from .errors import WireError
from .identity import client_context, seen_fingerprint
from .messages import (
    PROTOCOL_VERSION,
    Act,
    Bye,
    Error,
    Hello,
    History,
    Knock,
    Leave,
    Message,
    Note,
    Ping,
    Pong,
    Proof,
    Reveal,
    State,
    TableInfo,
    Welcome,
)
from .pin import ClientExchange, NotTheTable

#: Seconds of silence from the host before the client gives the connection up (checked
#: at each ping, so noticed within SILENCE + PING_EVERY seconds).
SILENCE = 10.0
#: Seconds between the client's own pings.
PING_EVERY = 5.0
#: Seconds one attempt to connect may take.
CONNECT_TIMEOUT = 5.0
#: Seconds by which the host's clock may seem early to a client (the message that started
#: a wait may reach it later than the one that ended it): more is a problem of the check.
CLOCK_SLACK = 0.5


@dataclass
class Mirror:
    """What one connection knows of the table, rebuilt from the host's messages."""

    seat: int | None = None
    token: str | None = None
    name: str | None = None
    table: TableInfo | None = None
    game_number: int = 0
    #: The seat's view of the current game, with every settled claim.
    view: View | None = None
    #: The events and notes of the last ``state`` received.
    events: tuple[object, ...] = ()
    notes: tuple[Note, ...] = ()
    #: The last refusal, and why the host closed the connection (None while open).
    error: Error | None = None
    bye: Bye | None = None
    #: The seed this client adds to the match's deals (sent in its hello).
    contribution: bytes | None = None
    #: Each game's check against the host's reveal (docs/fairness.md), by game number.
    verdicts: dict[int, Verdict] = field(default_factory=dict)
    #: The host's commitment (and whether it deals from a fixed seed) as first seen: they
    #: may not change while this client plays.
    commitment: str | None = None
    seeded: bool | None = None
    #: Check each game as soon as its reveal is in; if False, :meth:`check` does it when
    #: asked (the app, which keeps the work out of the frame that shows the results).
    check_at_once: bool = True
    _unchecked: dict[int, Callable[[], Verdict]] = field(default_factory=dict)
    _from_start: bool = False
    _claims: list[Event] = field(default_factory=list)
    _claims_copy: tuple[Event, ...] = ()
    #: For the current game: the events shown since the last fresh picture of it, the
    #: actions sent, and the reveal's parts received.
    _events: list[Event] = field(default_factory=list)
    _events_from: int = 0
    _sent: list[str] = field(default_factory=list)
    _revealed: list[Reveal] = field(default_factory=list)
    #: This seat's wait on a clock now ("turn" or "window", and what it waits on), since
    #: when (the client's clock), the actions it had sent then; what the host's clocks did
    #: wrong to it in this game.
    _wait: tuple[object, ...] | None = None
    _wait_since: float = 0.0
    _wait_sent: int = 0
    _clocks: list[str] = field(default_factory=list)
    #: What this client saw of games it lost before their end, until their reveals come.
    _pending: dict[int, Seen] = field(default_factory=dict)
    #: The game whose reveal's parts are being received.
    _revealing: int = 0

    def receive(self, message: Message, now: float | None = None) -> None:
        """Take in ``message``; ``now``, when it came (a monotonic clock, in seconds), to
        check the host's clocks for this seat."""
        if isinstance(message, Welcome):
            self.seat, self.token, self.name = message.seat, message.token, message.name
            self.table = message.table
            self.bye = None
            self._committed(message.table)
        elif isinstance(message, TableInfo):
            self.table = message
            self._committed(message)
        elif isinstance(message, History):
            self._claims_from(message.game_number, message.claims_from, message.claims)
        elif isinstance(message, State):
            self._claims_from(message.game_number, message.claims_from, message.view.claims)
            view = message.view  # decoded just now for this mirror: it may be completed
            if len(self._claims_copy) != len(self._claims):
                self._claims_copy = tuple(self._claims)
            setattr(view, "claims", self._claims_copy)  # noqa: B010  (each game's view has it)
            self.view = view
            self.events, self.notes = message.events, message.notes
            if now is not None:
                self._clock(message, view, now)
            if message.events_from != self._events_from + len(self._events):
                self._events_from, self._events = message.events_from, []  # a snapshot
            elif message.events_from == 0 and not self._events:
                self._from_start = True  # this client has the game from its deal on
            self._events.extend(message.events)
        elif isinstance(message, Reveal):
            self._reveal(message)
        elif isinstance(message, Error):
            self.error = message
        elif isinstance(message, Bye):
            self.bye = message
            if message.code == "match_over":
                self._never_revealed()

    def _clock(self, message: State, view: View, now: float) -> None:
        """Check the host's clocks against this seat's waits: a turn timer that played for
        it, or a window closed on it, before its time was up (docs/fairness.md)."""
        table, wait = self.table, self._wait
        if self.seat is None or table is None:
            return
        if wait is not None:
            waited = now - self._wait_since
            silent = len(self._sent) == self._wait_sent
            for note in message.notes:
                if note.kind == "timeout" and note.seat == self.seat and (
                        wait[0] != "turn" or waited < table.turn_timeout - CLOCK_SLACK):
                    self._clocks.append(f"the host's turn timer played for you after "
                                        f"{waited:.1f} s of your {table.turn_timeout:g} s")
                elif note.kind == "window" and wait[0] == "window" and silent and \
                        waited < table.window - CLOCK_SLACK:
                    self._clocks.append(f"the host closed a window on you after "
                                        f"{waited:.1f} s of its {table.window:g} s")
        key = view.window_key
        now_waiting: tuple[object, ...] | None = None
        if view.legal and self.seat in view.awaiting:
            now_waiting = ("turn", self.game_number, view.turns) if key is None else \
                ("window", self.game_number, key)
        if now_waiting != wait:
            self._wait, self._wait_since, self._wait_sent = now_waiting, now, len(self._sent)

    def _seen(self, to_end: bool = True) -> Seen:
        """What this client was shown of the current game, as it is now."""
        return Seen(self.seat, self.contribution, tuple(self._claims), self._events_from,
                    tuple(self._events), tuple(self._sent),
                    self.view.hand if self.view is not None and self.seat is not None
                    else None, self._from_start, to_end, tuple(self._clocks))

    def _never_revealed(self) -> None:
        """The games this client saw whose reveal never came (the match is over): not
        checked."""
        current = self.game_number
        if current and current not in self.verdicts and current not in self._unchecked \
                and (self._events or self._claims):
            self._pending[current] = self._seen()
        for game in sorted(self._pending):
            self.verdicts[game] = unchecked("the host never sent this game's reveal")
        self._pending.clear()

    def _never_revealed_one(self) -> None:
        game = min(self._pending)
        del self._pending[game]
        self.verdicts[game] = unchecked("the host never sent this game's reveal")

    def _committed(self, table: TableInfo) -> None:
        if self.commitment is None:
            self.commitment, self.seeded = table.commitment, table.seeded

    def sent(self, action: str) -> None:
        """This client asked the host to apply ``action`` in the current game."""
        self._sent.append(action)

    def _reveal(self, part: Reveal) -> None:
        """Keep a part of the host's reveal; check the game once it is all here."""
        if part.game_number != self._revealing or part.actions_from != sum(
                len(p.actions) for p in self._revealed):
            self._revealed = []  # a part out of place: wait for a whole reveal
            if part.actions_from != 0:
                return
        if not self._revealed:
            self._revealing = part.game_number
        self._revealed.append(part)
        if part.complete:
            parts, self._revealed = self._revealed, []
            # What this client was shown, as it is now (or was, when it lost the game before
            # its end): the check may come later.
            if part.game_number == self.game_number:
                seen = self._seen()
            elif part.game_number in self._pending:
                seen = self._pending.pop(part.game_number)
            else:
                return  # a game this client never saw
            table = self.table
            self._unchecked[part.game_number] = lambda: self._check(parts, seen, table)
            if self.check_at_once:
                self.check()

    def check(self) -> None:
        """Check every game whose reveal is in and not yet checked (into ``verdicts``)."""
        for game, check in list(self._unchecked.items()):
            del self._unchecked[game]
            self.verdicts[game] = check()

    def _check(self, parts: list[Reveal], seen: Seen, table: TableInfo | None) -> Verdict:
        first = parts[0]
        if table is None:
            return Verdict(("the host revealed a game this client did not see",))
        if table.commitment != self.commitment or table.seeded != self.seeded:
            return Verdict(("the host changed its commitment after you joined",))
        try:
            revealed = Disclosure(
                first.game_number, bytes.fromhex(first.secret),
                tuple(bytes.fromhex(seed) for seed in first.seeds), first.opener,
                tuple(played for part in parts for played in part.actions))
            commitment = bytes.fromhex(self.commitment or "")
            options = game_named(table.game).options_type.parse(table.rules)
        except (ValueError, RulesError) as error:
            return Verdict((f"the host's reveal cannot be read: {error}",))
        bots = tuple(s.seat for s in table.seats if s.bot)
        return verify(revealed, commitment=commitment, players=table.players, options=options,
                      seen=seen, seeded=bool(self.seeded), bots=bots, game=table.game)

    def _claims_from(self, game: int, start: int, claims: tuple[Event, ...]) -> None:
        if game != self.game_number:
            old = self.game_number
            if old and old not in self.verdicts and old not in self._unchecked and (
                    self._events or self._claims):
                self._pending[old] = self._seen(to_end=False)  # its reveal may come yet
                while len(self._pending) > 2:
                    self._never_revealed_one()
            self.game_number, self._claims, self._claims_copy = game, [], ()
            self._events, self._sent, self._revealed = [], [], []
            self._events_from, self._from_start = 0, False
            self._wait, self._clocks = None, []
        if start < len(self._claims):
            del self._claims[start:]
            self._claims_copy = ()
        if len(self._claims) == start:
            self._claims.extend(claims)


class ConnectionLost(Exception):
    """The host went away, or closed the connection."""


class Client:
    """One connection to a host, kept up by itself.

    ``on_message`` is called with every message after the :attr:`mirror` has taken it in.
    :meth:`run` connects, says hello and reads until the host says ``bye`` or the client is
    closed; after a lost connection it reconnects with the seat's token (backing off, up to
    ``retry_for`` seconds) and the host sends a full snapshot.
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
    ) -> None:
        self.host, self.port, self.name, self.pin, self.watch = host, port, name, pin, watch
        #: The host's certificate fingerprint as its advert gives it, or else the one it
        #: presented the first time: a host that presents another (also on a reconnect) is
        #: not the table it claims to be. After connecting: the one it presented.
        self.expected = fingerprint
        self._expected_from = "its advert names" if fingerprint else "it showed before"
        self.fingerprint = b""
        #: False: plain TCP, only to measure what TLS costs (bench/net.py).
        self.tls = tls
        #: This client's seed for the match's deals: random unless given (tests, replays).
        self.mirror = Mirror(token=token,
                             contribution=secrets.token_bytes(16) if seed is None else seed)
        self.on_message = on_message
        self.retry_for, self.first_try_for = retry_for, first_try_for
        #: Called with True when the host welcomes this client, False when it is lost.
        self.on_connection = on_connection
        #: Set while a connection is up (from the host's welcome); cleared while reconnecting.
        self.connected = asyncio.Event()
        #: How many times the host has welcomed this client (1 for a connection never lost).
        self.connections = 0
        #: Bytes of frames received, over every connection, and when the last one was read
        #: (time.monotonic(), before it was decoded).
        self.received = 0
        self.last_read = 0.0
        self._writer: asyncio.StreamWriter | None = None
        self._closed = False

    # -- sending ------------------------------------------------------------------------

    async def send(self, message: Message) -> bool:
        """Send ``message``; False if the connection is down (the reader will notice and
        reconnect, and the host's snapshot will say what to do next)."""
        writer = self._writer
        if writer is None or writer.is_closing():
            return False
        if isinstance(message, Act):
            self.mirror.sent(message.action)  # (checked against the game's reveal)
        try:
            writer.write(protocol.encode(message))
            await writer.drain()
        except (ConnectionError, OSError):
            return False
        return True

    async def act(self, action: Action, turn: int) -> bool:
        """Ask the host to apply ``action``, decided when ``turn`` claims had been made."""
        return await self.send(Act(turn, action.text))

    async def leave(self) -> None:
        await self.send(Leave())
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
        while not self._closed:
            try:
                await self._session()
            except (ConnectionLost, OSError, asyncio.IncompleteReadError, WireError,
                    TimeoutError):
                pass
            finally:
                was_up = self.connected.is_set()
                if was_up:
                    since, delay = loop.time(), 0.1  # it was up: the retry clock restarts
                self.connected.clear()
                self._writer = None
                if was_up and self.on_connection is not None:
                    self.on_connection(False)
            if self.mirror.bye is not None or self._closed:
                return self.mirror.bye
            now = loop.time()
            if self.connections == 0:
                if now - started >= self.first_try_for:
                    raise ConnectionLost(f"cannot reach a table at {self.host}:{self.port}")
            elif self.mirror.token is None and not self.watch:
                return None  # it never had a seat to come back to
            elif now - since >= self.retry_for:
                raise ConnectionLost(
                    f"lost the connection to {self.host}:{self.port} and could not get it back"
                )
            await asyncio.sleep(delay * (0.5 + random.random()))  # backoff between tries
            delay = min(delay * 2, 5.0)
        return self.mirror.bye

    async def _session(self) -> None:
        # A peer that drops the connection attempt would hold us for minutes otherwise.
        context = client_context() if self.tls else None
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port, ssl=context,
                                    ssl_handshake_timeout=CONNECT_TIMEOUT if context else None),
            CONNECT_TIMEOUT,
        )
        self.mirror.bye = None
        try:
            self.fingerprint = seen_fingerprint(writer.get_extra_info("ssl_object"))
            if self.expected and self.fingerprint != self.expected:
                raise NotTheTable(f"its key is not the one {self._expected_from}")
            self.expected = self.expected or self.fingerprint
            proof = await self._prove_pin(reader, writer) if self.pin is not None else None
        except Exception:
            writer.close()
            # Let TLS close now: run() ends here, and the loop may end with it.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.wait_closed(), CONNECT_TIMEOUT)
            raise
        except BaseException:
            writer.close()
            raise
        if self.mirror.bye is not None:  # refused before the hello
            writer.close()
            return
        self._writer = writer
        await self.send(
            Hello(PROTOCOL_VERSION, self.name, proof, self.mirror.token, self.watch,
                  None if self.watch or self.mirror.contribution is None
                  else self.mirror.contribution.hex())
        )
        self.last_read = time.monotonic()
        pinger = asyncio.create_task(self._ping(writer))
        try:
            while True:
                message, size, self.last_read = await _read(reader)
                self.received += size
                if isinstance(message, Welcome) and not self.connected.is_set():
                    self.connections += 1  # in: only now is the connection up
                    self.connected.set()
                    if self.on_connection is not None:
                        self.on_connection(True)
                if isinstance(message, Ping):
                    await self.send(Pong())
                self.mirror.receive(message, self.last_read)
                if self.on_message is not None:
                    result = self.on_message(message)
                    if result is not None:
                        await result
                if isinstance(message, Bye):
                    return
        finally:
            pinger.cancel()
            writer.close()

    async def _prove_pin(self, reader: asyncio.StreamReader,
                         writer: asyncio.StreamWriter) -> str | None:
        """The PIN's key exchange (net/pin.py): knock, and check the host's proof before
        anything else is sent. :class:`NotTheTable` when the host cannot prove the PIN; None
        (with :attr:`mirror`'s ``bye`` set) when the host refused the knock."""
        assert self.pin is not None
        exchange = ClientExchange(self.pin, self.fingerprint)
        writer.write(protocol.encode(Knock(PROTOCOL_VERSION, exchange.knock())))
        async with asyncio.timeout(CONNECT_TIMEOUT):
            while True:
                message, _, _ = await _read(reader)
                if isinstance(message, Proof):
                    return exchange.answer(message.half, message.proof)
                if isinstance(message, Bye):
                    if message.code == "no_pin":
                        raise NotTheTable("it says it has no PIN")
                    self.mirror.receive(message)
                    return None
                if not isinstance(message, Ping):
                    raise NotTheTable(f"it answered the PIN with {message.TYPE!r}")

    async def _ping(self, writer: asyncio.StreamWriter) -> None:
        """Ping the host now and then, and give the connection up when the host has been
        silent too long (checked here, not on every read, which is cheaper)."""
        while await self.send(Ping()):
            await asyncio.sleep(PING_EVERY)  # a heartbeat's period, not a wait on state
            if time.monotonic() - self.last_read > SILENCE:
                writer.transport.abort()  # the reader then ends, and run() reconnects
                return


async def _read(reader: asyncio.StreamReader) -> tuple[Message, int, float]:
    header = await reader.readexactly(protocol.HEADER.size)
    body = await reader.readexactly(protocol.read_length(header))
    read = time.monotonic()
    return protocol.decode(body, "host"), len(header) + len(body), read
