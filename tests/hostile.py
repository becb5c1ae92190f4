"""A hostile client, written from docs/protocol.md alone: frames that cost a host work to
refuse, and connections that take its room. Used by tests/test_attack.py against a real host
process and by bench/attack.py to measure what a seated player feels meanwhile. Everything
goes to loopback (127.0.0.0/8: a test may speak from several of its addresses) and is
bounded in count and time.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct

import msgpack

from doubtlan.net import protocol
from doubtlan.net.errors import HandshakeTimeout, TooManyConnections
from doubtlan.net.identity import client_context
from doubtlan.net.messages import PROTOCOL_VERSION, Bye, Error, Hello, Message, Welcome

#: How long one connection of the attack may take, at most, in seconds.
PATIENCE = 5.0


def bomb() -> bytes:
    """The CPU bomb: 1,000 nested array32 headers each declaring 65,535 items, 5,004 bytes.
    An unbounded decoder allocates for every one before it finds the frame is short."""
    return protocol.frame(b"\xdd\x00\x00\xff\xff" * 1000 + b"\xc0\xc0\xc0\xc0")


def key_flood() -> bytes:
    """A map of 13,000 keys, just under the frame cap: the most a frame can ask of a host
    that decodes it whole."""
    keys = b"".join(b"\xa4" + struct.pack(">I", n) + b"\xc0" for n in range(13_000))
    return protocol.frame(b"\xde" + struct.pack(">H", 13_000)[-2:] + keys[: 65_000])


def malformed(rng: random.Random) -> bytes:
    """One malformed frame of a kind chosen by ``rng``: after a hello, most kinds are refused
    with ``error`` and the connection stays, so they can come many to a connection."""
    kind = rng.randrange(6)
    if kind == 0:  # an unknown type
        body = msgpack.packb({"type": "x" * rng.randint(1, 20)})
    elif kind == 1:  # fields of the wrong type
        body = msgpack.packb({"type": "act", "turn": "soon", "action": 7})
    elif kind == 2:  # an action that is not one
        body = msgpack.packb({"type": "act", "turn": rng.randrange(100),
                              "action": rng.choice(["lay ZZ", "doubt doubt", "", "fly"])})
    elif kind == 3:  # a seed at a table not waiting for one
        body = msgpack.packb({"type": "seed", "seed": "00" * rng.randint(1, 40)})
    elif kind == 4:  # a message a client may not send
        body = msgpack.packb({"type": "welcome", "version": 1})
    else:  # a hello again, with an extra key
        body = msgpack.packb({"type": "hello", "version": PROTOCOL_VERSION, "name": "x",
                              "proof": None, "token": None, "watch": True, "extra": 1})
    return protocol.frame(body)


async def _open(port: int, source: str | None) -> tuple[asyncio.StreamReader,
                                                        asyncio.StreamWriter]:
    # (not wait_for: on Python 3.11 it loses a cancel that comes as the connection opens,
    # and a flood told to stop would hold that connection until the host lets it go)
    async with asyncio.timeout(PATIENCE):
        return await asyncio.open_connection(
            "127.0.0.1", port, ssl=client_context(), server_hostname="",
            local_addr=None if source is None else (source, 0))


async def _drain_until_closed(reader: asyncio.StreamReader, limit: float = PATIENCE) -> None:
    with contextlib.suppress(OSError, ConnectionError, TimeoutError, asyncio.IncompleteReadError):
        async with asyncio.timeout(limit):
            while await reader.read(65536):
                pass


async def fire(port: int, frame: bytes, source: str | None = None, tries: int = 1) -> int:
    """``frame`` on a connection of its own, before any hello (as a bomb comes): the host
    closes it. A connection the host turns away before TLS is tried again, up to ``tries``
    times in all. Returns 1 if the frame was sent."""
    for attempt in range(tries):
        try:
            reader, writer = await _open(port, source)
            break
        except (OSError, TimeoutError):
            if attempt + 1 == tries:
                return 0
            await asyncio.sleep(0.02)  # (the host's allowance of handshakes refills)
    try:
        writer.write(frame)
        with contextlib.suppress(OSError, ConnectionError):  # (the host may close at once)
            await writer.drain()
            await _drain_until_closed(reader)
        return 1
    finally:
        writer.close()


async def _message(reader: asyncio.StreamReader) -> Message:
    header = await reader.readexactly(protocol.HEADER.size)
    return protocol.decode(await reader.readexactly(protocol.read_length(header)), "host")


async def _bye(reader: asyncio.StreamReader, limit: float) -> Bye | None:
    """The host's goodbye on this connection (what comes before it is passed over); None if
    the connection ends, or ``limit`` seconds pass, without one."""
    with contextlib.suppress(OSError, ConnectionError, TimeoutError, asyncio.IncompleteReadError):
        async with asyncio.timeout(limit):
            while True:
                message = await _message(reader)
                if isinstance(message, Bye):
                    return message
    return None


async def refusal(port: int, frame: bytes, source: str | None = None,
                  within: float = 60.0) -> str | None:
    """``frame`` on a connection of its own, before any hello (as a bomb comes), and the code
    of the goodbye the host answers it with; None if none came within ``within`` seconds. A
    connection the host let go before it read the frame (turned away before TLS, or after it
    for lack of room, or out of time for a hello on a machine too busy to read it) is tried
    again until then: what is counted is the host's answer to the frame, however long the
    machine takes to give it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while loop.time() < deadline:
        try:
            reader, writer = await _open(port, source)
        except (OSError, TimeoutError):
            await asyncio.sleep(0.02)  # (the host's allowance of handshakes refills)
            continue
        try:
            writer.write(frame)
            bye = await _bye(reader, max(0.0, deadline - loop.time()))
        finally:
            writer.close()
        if bye is not None and bye.code not in (TooManyConnections.code, HandshakeTimeout.code):
            return bye.code
        await asyncio.sleep(0.02)  # (let go unread: the room comes back)
    return None


async def _welcomed(reader: asyncio.StreamReader) -> bool:
    """Whether the host's first frame is its welcome (not a goodbye for lack of room)."""
    try:
        async with asyncio.timeout(PATIENCE):
            header = await reader.readexactly(protocol.HEADER.size)
            body = await reader.readexactly(protocol.read_length(header))
    except (OSError, ConnectionError, TimeoutError, asyncio.IncompleteReadError):
        return False
    return isinstance(protocol.decode(body, "host"), Welcome)


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def spectator(port: int, source: str | None = None, tries: int = 50) -> Connection | None:
    """A connection joined as a spectator (trying again when the host has no room, up to
    ``tries`` times); None if it never got in."""
    for _ in range(tries):
        try:
            reader, writer = await _open(port, source)
        except (OSError, TimeoutError):
            continue
        writer.write(protocol.encode(Hello(PROTOCOL_VERSION, "prober", None, None, True)))
        if await _welcomed(reader):
            return reader, writer
        writer.close()
    return None


async def spray(connection: Connection | None, frames: int, rng: random.Random,
                pace: float = 0.0) -> int:
    """Send up to ``frames`` malformed frames on a joined ``connection``, one every ``pace``
    seconds (a connection may send a burst of 1,000 messages, then 500 a second); how many
    were sent."""
    if connection is None:
        return 0
    reader, writer = connection
    sent = 0
    reading = asyncio.create_task(_drain_until_closed(reader, frames * pace + PATIENCE))
    try:
        for _ in range(frames):
            if reading.done():
                break  # the host closed it
            writer.write(malformed(rng))
            sent += 1
            await writer.drain()
            await asyncio.sleep(pace)  # a pace (0: none), under the host's limit of messages
    except (OSError, ConnectionError):
        pass
    finally:
        reading.cancel()
        writer.close()
    return sent


async def spray_refused(connection: Connection, frames: int, rng: random.Random,
                        within: float = 60.0) -> int:
    """Send ``frames`` malformed frames on a joined ``connection``, at once, and read the
    host's answers until it has refused every one with an ``error``, said goodbye, or
    ``within`` seconds have passed; how many it refused. The connection is closed after.
    (Past the burst of messages a connection may send, the host says goodbye: ``flood``.)"""
    reader, writer = connection
    refused = 0

    async def count() -> None:
        nonlocal refused
        with contextlib.suppress(OSError, ConnectionError, TimeoutError,
                                 asyncio.IncompleteReadError):
            async with asyncio.timeout(within):
                while refused < frames:
                    message = await _message(reader)
                    if isinstance(message, Error):
                        refused += 1
                    elif isinstance(message, Bye):
                        return

    counting = asyncio.create_task(count())
    try:
        with contextlib.suppress(OSError, ConnectionError):  # (the count tells)
            for _ in range(frames):
                writer.write(malformed(rng))
                await writer.drain()
        await counting
    finally:
        counting.cancel()
        writer.close()
    return refused


async def hold(port: int, source: str, seconds: float) -> None:
    """A connection that never says hello, held for ``seconds`` or until the host lets it
    go: what takes a host's room."""
    try:
        reader, writer = await _open(port, source)
    except (OSError, TimeoutError):
        return
    try:
        with contextlib.suppress(TimeoutError, OSError, ConnectionError):
            async with asyncio.timeout(seconds):
                while await reader.read(65536):
                    pass
    finally:
        writer.close()


async def slot_flood(port: int, addresses: int, per_address: int, until: asyncio.Event,
                     limit: float, most: int = 5000) -> int:
    """Keep ``per_address`` connections that never say hello open from each of
    ``addresses`` loopback addresses, opening a new one whenever one is let go (or turned
    away), until ``until`` is set (those open are closed then), ``limit`` seconds pass or
    ``most`` have been opened; how many were opened."""
    opened = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    stopped = asyncio.ensure_future(until.wait())

    async def keep(source: str) -> None:
        nonlocal opened
        while not until.is_set() and loop.time() < deadline and opened < most:
            opened += 1
            holding = asyncio.ensure_future(hold(port, source, max(0.0, deadline - loop.time())))
            await asyncio.wait([holding, stopped], return_when=asyncio.FIRST_COMPLETED)
            holding.cancel()  # (closed now: the host need not wait it out)
            await asyncio.gather(holding, return_exceptions=True)
            await asyncio.sleep(0.005)  # (a pace: the loop is bounded, not the attack)

    try:
        await asyncio.gather(*(keep(f"127.0.0.{2 + n % addresses}")
                               for n in range(addresses * per_address)))
    finally:
        stopped.cancel()
    return opened


async def slowloris(port: int, source: str, seconds: float) -> None:
    """A connection that starts a hello and sends it a byte at a time, never finishing it,
    for ``seconds`` or until the host lets it go."""
    try:
        reader, writer = await _open(port, source)
    except (OSError, TimeoutError):
        return
    frame = protocol.frame(b"\x81\xa4type\xa5hello" + b"\x00" * 900)
    try:
        with contextlib.suppress(TimeoutError, OSError, ConnectionError):
            async with asyncio.timeout(seconds):
                for byte in frame:
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(0.2)  # (the pace of the attack itself)
                    if reader.at_eof():
                        return
    finally:
        writer.close()


async def loris_flood(port: int, addresses: int, per_address: int, seconds: float) -> int:
    """Never-say-hello and slowloris connections, ``per_address`` of each at a time from
    each of ``addresses`` loopback addresses, each opened again as soon as it is let go,
    for ``seconds``; how many were opened."""
    opened = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds

    async def keep(source: str, slow: bool) -> None:
        nonlocal opened
        while loop.time() < deadline:
            opened += 1
            left = max(0.0, deadline - loop.time())
            await (slowloris(port, source, left) if slow else hold(port, source, left))
            await asyncio.sleep(0.005)  # (a pace: the loop is bounded, not the attack)

    await asyncio.gather(*(keep(f"127.0.3.{1 + n % addresses}", n % 2 == 0)
                           for n in range(addresses * per_address * 2)))
    return opened
