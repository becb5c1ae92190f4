"""The host over real sockets, on loopback only: matches, bad input, slow and silent peers.

Every connection here is to 127.0.0.1; nothing is advertised. A test that takes ``spec`` is
a contract of every game (tests/games.py holds what differs).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import struct
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest
from games import GameSpec

from doubtlan.bots import make_bot
from doubtlan.net import botclient, headless, protocol
from doubtlan.net import client as client_module
from doubtlan.net.client import Client, NotATable
from doubtlan.net.host import Host, Limits
from doubtlan.net.identity import client_context, seen_fingerprint
from doubtlan.net.kept import Kept, KeptSeats
from doubtlan.net.messages import (
    PROTOCOL_VERSION,
    Bye,
    Error,
    Hello,
    Knock,
    Message,
    Pong,
    Said,
    Say,
    TableInfo,
    Welcome,
)
from doubtlan.net.mirror import Mirror
from doubtlan.net.pin import ClientExchange, NotTheTable
from doubtlan.net.table import Table, TableConfig
from doubtlan.net.table import talk as talk_module

LOOPBACK = "127.0.0.1"
DEADLINE = 30.0


_opened: list[object] = []


@pytest.fixture(autouse=True)
async def cleanup() -> AsyncIterator[None]:
    """Close every host, client and raw connection a test opened."""
    yield
    while _opened:
        thing = _opened.pop()
        if isinstance(thing, (Host, Client)):
            await thing.close()
        elif isinstance(thing, Raw):
            # A TLS close waits for the host's answer, which a host that already dropped the
            # connection may never give (a cleanup once waited on it for good): abort then.
            thing.writer.close()
            try:
                await asyncio.wait_for(thing.writer.wait_closed(), 2.0)
            except Exception:
                thing.writer.transport.abort()
        elif isinstance(thing, asyncio.Task):
            thing.cancel()
            with contextlib.suppress(BaseException):
                await thing


async def start(config: TableConfig, bots: int = 0, limits: Limits | None = None) -> Host:
    table = Table(config)
    for _ in range(bots):
        table.seat_bot("counter")
    host = Host(table, LOOPBACK, 0, limits)
    await host.start()
    _opened.append(host)
    return host


def bot_client(
    host: Host, name: str, strategy: str = "random", seed: int = 0, game: str = "idoubtit"
) -> tuple[Client, asyncio.Task[None]]:
    client = Client(LOOPBACK, host.port, name, retry_for=10.0)
    task = asyncio.create_task(botclient.play(client, make_bot(strategy, seed, game)))
    _opened.extend([client, task])
    return client, task


class Raw:
    """A bare connection (TLS, as every client's) that sends whatever it is told and reads
    frames back."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        #: What it has read, and the key it signs with, as a client's (net/mirror.py).
        self.mirror = Mirror()

    @classmethod
    async def open(cls, host: Host, source: str | None = None) -> Raw:
        """A connection to ``host``, from the loopback address ``source`` if given."""
        raw = cls(*await asyncio.open_connection(
            LOOPBACK, host.port, ssl=client_context(),
            local_addr=None if source is None else (source, 0)))
        _opened.append(raw)
        return raw

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def hello(self, name: str = "raw", watch: bool = True,
                    token: str | None = None) -> Message:
        await self.send(protocol.encode(self.mirror.signed(
            Hello(PROTOCOL_VERSION, name, None, token, watch))))
        return await self.read()

    def signed(self, message: Message) -> bytes:
        """``message``, signed with the seat's key as a client signs it, in its frame."""
        return protocol.encode(self.mirror.signed(message))

    async def read(self) -> Message:
        header = await asyncio.wait_for(self.reader.readexactly(4), DEADLINE)
        length = protocol.read_length(header)
        body = await asyncio.wait_for(self.reader.readexactly(length), DEADLINE)
        message = protocol.decode(body, "host")
        if isinstance(message, Welcome | TableInfo):
            self.mirror.receive(message)
        return message

    async def read_until(self, kind: type[Message]) -> Message:
        while True:
            message = await self.read()
            if isinstance(message, kind):
                return message

    async def closed(self) -> bool:
        """True once the host has closed the connection (reading what is left)."""
        try:
            while await asyncio.wait_for(self.reader.read(65536), DEADLINE):
                pass
        except (ConnectionError, OSError):
            pass
        return True


async def back_in(client: Client) -> None:
    """Wait until ``client``, whose connection was cut, has joined again on a new one."""
    async with asyncio.timeout(DEADLINE):
        while client.connections < 2 or not client.connected.is_set():
            await asyncio.sleep(0.01)  # polling the counter of connections made


async def finish(host: Host, tasks: list[asyncio.Task[None]]) -> None:
    await asyncio.wait_for(asyncio.gather(*tasks), DEADLINE)
    await asyncio.wait_for(host.over.wait(), DEADLINE)


def game_config(spec: GameSpec, **changes: Any) -> TableConfig:
    return TableConfig(game=spec.name, options=spec.options, **changes)


async def test_bots_play_a_match_over_loopback_and_every_client_verifies_it(
        spec: GameSpec) -> None:
    host = await start(game_config(spec, players=4, games=2, seed=5, window=0.5), bots=1)
    clients = [bot_client(host, f"b{i}", seed=i, game=spec.name) for i in range(3)]
    watcher = Client(LOOPBACK, host.port, "watcher", watch=True)
    _opened.append(watcher)
    seen: list[Message] = []
    watcher.on_message = seen.append
    watching = asyncio.create_task(watcher.run())
    _opened.append(watching)
    await finish(host, [task for _, task in clients])
    await asyncio.wait_for(watching, DEADLINE)
    assert host.table.state == "over" and len(host.table.results) == 2
    for client, _ in clients:
        assert client.mirror.bye is not None and client.mirror.bye.code == "match_over"
        assert client.connections == 1
    for client in [*(client for client, _ in clients), watcher]:
        verdicts = client.mirror.verdicts
        assert sorted(verdicts) == [1, 2] and all(v.ok for v in verdicts.values()), verdicts
    infos = [m for m in seen if isinstance(m, TableInfo)]
    assert infos and all(info.game == spec.name for info in infos)
    assert watcher.mirror.view is not None and watcher.mirror.view.hand == ()


async def test_a_bot_at_a_table_of_bots_that_play_at_once_keeps_inside_the_hosts_allowance(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots at the host answer at once, so a bot client could send more than the host takes
    (it was dropped as a flood): the client paces itself within the allowance. Here both
    are small, so that the match needs the pacing many times over."""
    monkeypatch.setattr(client_module, "SEND_BURST", 20.0)
    monkeypatch.setattr(client_module, "SEND_RATE", 100.0)
    host = await start(TableConfig(players=4, games=2, seed=5, turn_timeout=0.0), bots=3,
                       limits=Limits(burst=30.0, rate=120.0))
    client, task = bot_client(host, "Zed", strategy="counter")
    await finish(host, [task])
    assert client.mirror.bye is not None and client.mirror.bye.code == "match_over"
    assert client.connections == 1 and len(host.table.results) == 2


async def test_a_spectator_sees_public_facts_only(spec: GameSpec) -> None:
    host = await start(game_config(spec, players=3, games=1, seed=2), bots=1)
    watcher = await Raw.open(host)
    welcome = await watcher.hello("eve", watch=True)
    assert isinstance(welcome, Welcome) and welcome.seat is None
    clients = [bot_client(host, f"b{i}", seed=i, game=spec.name) for i in range(2)]
    await finish(host, [task for _, task in clients])
    saw_state = False
    while True:
        message = await watcher.read()
        if isinstance(message, Bye):
            break
        view = getattr(message, "view", None)
        if view is not None:
            saw_state = True
            assert not any(spec.private(view)), spec.private(view)
    assert saw_state


def test_a_headless_spectator_reads_the_match_in_lines(spec: GameSpec) -> None:
    names: dict[int, str | None] = {0: "Amy", 1: "Ben", 2: "Cleo"}
    for event, line in spec.narrations():
        assert headless.describe(event, names) == line


@pytest.mark.parametrize(
    ("garbage", "code"),
    [
        (struct.pack(">I", 2**32 - 1), "frame_too_large"),  # a declared length of 4 GiB
        (struct.pack(">I", protocol.MAX_FRAME + 1) + b"x" * 10, "frame_too_large"),
        (struct.pack(">I", 3) + b"\xc1\xc1\xc1", "bad_frame"),  # not msgpack
        (protocol.frame(msgpack.packb(msgpack.ExtType(5, b"boom"))), "bad_frame"),
        (protocol.frame(msgpack.packb({1: 2})), "bad_frame"),  # a map key that is not text
        (protocol.frame(msgpack.packb([1, 2]) + b"extra"), "bad_frame"),
        # 5 KB of nested lists, each declaring 65,535 items: refused at the first header
        pytest.param(protocol.frame((b"\xdd" + struct.pack(">I", 65535)) * 1000 + b"\xc0"),
                     "bad_frame", id="nested lists"),
        # a map of 500 keys, far more than any message has
        pytest.param(protocol.frame(msgpack.packb({f"k{i}": None for i in range(500)})),
                     "bad_frame", id="a map of 500 keys"),
    ],
)
async def test_unreadable_frames_are_answered_and_the_connection_closed(
    garbage: bytes, code: str
) -> None:
    host = await start(TableConfig(players=3, games=1, seed=1), bots=2)
    raw = await Raw.open(host)
    await raw.send(garbage)
    bye = await raw.read_until(Bye)
    assert isinstance(bye, Bye) and bye.code == code
    assert await raw.closed()
    # The host still serves everyone else.
    client, task = bot_client(host, "after")
    await finish(host, [task])
    await host.close()


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        ({"type": "hello", "version": "1", "name": "x", "pin": None, "token": None,
          "watch": False}, "bad_message"),  # wrong type
        ({"type": "hello", "version": 1, "name": "", "pin": None, "token": None,
          "watch": False}, "bad_message"),  # an empty name
        ({"type": "hello", "version": 1, "name": "x"}, "bad_message"),  # missing keys
        ({"type": "teleport"}, "unknown_message"),
        ({"type": "welcome"}, "unknown_message"),  # a host's message, from a client
        ([1, 2, 3], "bad_message"),
    ],
)
async def test_readable_but_wrong_messages_get_an_error_and_the_connection_stays(
    wire: object, code: str
) -> None:
    host = await start(TableConfig(players=3, games=1, seed=1, autostart=False))
    raw = await Raw.open(host)
    await raw.send(protocol.frame(msgpack.packb(wire)))
    error = await raw.read()
    assert isinstance(error, Error) and error.code == code
    welcome = await raw.hello("still here")
    assert isinstance(welcome, Welcome)
    await host.close()


async def test_a_flood_is_cut_off_and_the_others_play_on() -> None:
    host = await start(TableConfig(players=3, games=1, seed=3), bots=1)
    raw = await Raw.open(host)
    pong = protocol.frame(msgpack.packb({"type": "pong"}))  # a message with no reply
    await raw.hello("flooder")
    await raw.send(pong * int(host.limits.burst * 3))
    bye = await raw.read_until(Bye)
    assert isinstance(bye, Bye) and bye.code == "flood"
    clients = [bot_client(host, f"b{i}", seed=i) for i in range(2)]
    await finish(host, [task for _, task in clients])


async def test_a_talk_flood_is_refused_and_the_others_play_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A seated player floods the table with lines, as fast as the host lets a connection
    send and keep its seat: three are said, every other is refused, the flooder keeps its
    seat, and the others play the match to its end and check it (how fast their moves are
    answered meanwhile: bench/attack.py, its ``flood`` phase)."""
    # No line earned back while the host reads the flood, however long that takes on a busy
    # machine: the burst alone is said (the rate itself: tests/test_talk.py, on its clock).
    monkeypatch.setattr(talk_module, "TALK_EVERY", 1e9)
    # (the clocks play for the flooder, who never plays: the turn timer, the window's)
    host = await start(TableConfig(players=4, games=1, seed=3, window=0.05, turn_timeout=0.1),
                       bots=1)
    raw = await Raw.open(host)
    welcome = await raw.hello("Zed", watch=False)
    assert isinstance(welcome, Welcome) and welcome.seat is not None
    burst = int(host.limits.burst * 0.8)  # (past the message limit the flooder is cut off)
    await raw.send(b"".join(raw.signed(Say("Sure you do.")) for _ in range(burst)))
    clients = [bot_client(host, f"b{i}", seed=i) for i in range(2)]
    refused = said = 0
    async with asyncio.timeout(DEADLINE):
        while refused + said < burst:
            message = await raw.read()
            if isinstance(message, Error):
                assert message.code == "talk_too_fast", message
                refused += 1
            elif isinstance(message, Said) and message.name == "Zed":
                said += 1
            assert not isinstance(message, Bye), message
    assert said == 3 and refused == burst - 3
    assert host.table.seats[welcome.seat].conn is not None  # (the flooder keeps its seat)
    await finish(host, [task for _, task in clients])
    assert all(client.mirror.verdicts[1].ok for client, _ in clients)
    assert [s.line for s in host.table.talk if s.name == "Zed"] == ["Sure you do."] * 3


async def test_a_headless_watcher_prints_what_the_players_say() -> None:
    """``join --watch --headless`` prints each line said at the table, with its speaker."""
    import io

    printed = asyncio.Event()

    class Out(io.StringIO):
        def write(self, text: str) -> int:
            if "says:" in text:
                printed.set()
            return super().write(text)

    # (a name of its own: the watcher remembers the key of the table it is shown, as
    # `doubtlan join` does, and other tests' tables named "doubtlan" are shown another)
    host = await start(TableConfig(players=3, autostart=False, name="Talk table"), bots=1)
    out = Out()
    watching = asyncio.create_task(headless.watch(("127.0.0.1", host.port), out=out))
    _opened.append(watching)
    raw = await Raw.open(host)
    assert isinstance(await raw.hello("Amy", watch=False), Welcome)
    async with asyncio.timeout(DEADLINE):
        while host.table.info().watchers < 1:
            await raw.read()  # (the table tells Amy how many watch)
    await raw.send(raw.signed(Say("Sure you do.")))
    await asyncio.wait_for(printed.wait(), DEADLINE)
    assert "Amy says: Sure you do.\n" in out.getvalue()


async def test_a_peer_that_has_not_joined_may_send_little() -> None:
    host = await start(TableConfig(players=3, games=1, seed=3), bots=1)
    raw = await Raw.open(host)
    junk = protocol.frame(msgpack.packb({"type": "teleport", "cargo": "x" * 200}))
    await raw.send(junk * (host.limits.before_joining // len(junk) + 2))
    bye = await raw.read_until(Bye)
    assert isinstance(bye, Bye) and bye.code == "flood" and "before joining" in bye.message
    assert await raw.closed()
    clients = [bot_client(host, f"b{i}", seed=i) for i in range(2)]
    await finish(host, [task for _, task in clients])


async def test_a_peer_that_never_says_hello_is_let_go() -> None:
    host = await start(TableConfig(players=3, autostart=False), limits=Limits(handshake=0.2))
    raw = await Raw.open(host)
    bye = await raw.read()
    assert isinstance(bye, Bye) and bye.code == "handshake_timeout"
    assert await raw.closed()
    await host.close()


async def test_a_silent_peer_is_noticed_and_its_seat_kept() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(ping_every=0.05, silence=0.3))
    raw = await Raw.open(host)
    welcome = await raw.hello("quiet", watch=False)
    assert isinstance(welcome, Welcome)
    assert await raw.closed()  # it answered no ping: dropped
    seat = host.table.seats[0]
    assert seat.name == "quiet" and seat.conn is None and seat.away_since is not None
    await host.close()


async def test_waiting_connections_are_capped_and_the_oldest_makes_room() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(waiting=2, waiting_per_address=8, handshake=30.0))
    first, second = await Raw.open(host), await Raw.open(host)
    third = await Raw.open(host)  # past the room for waiting connections: the first goes
    bye = await first.read()
    assert isinstance(bye, Bye) and bye.code == "too_many_connections"
    assert "to make room for a newer one" in bye.message
    assert isinstance(await second.hello("b"), Welcome)
    assert isinstance(await third.hello("c"), Welcome)
    await host.close()


async def test_one_address_cannot_hold_more_than_its_share_of_waiting_connections() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(waiting_per_address=2, handshake=30.0))
    mine = [await Raw.open(host, "127.0.0.2"), await Raw.open(host, "127.0.0.2")]
    turned_away = await Raw.open(host, "127.0.0.2")
    bye = await turned_away.read()
    assert isinstance(bye, Bye) and bye.code == "too_many_connections"
    elsewhere = await Raw.open(host, "127.0.0.3")  # another address has its own share
    assert isinstance(await elsewhere.hello("e"), Welcome)
    assert isinstance(await mine[0].hello("m"), Welcome)  # and joined ones count no more
    again = await Raw.open(host, "127.0.0.2")
    assert isinstance(await again.hello("a"), Welcome)


async def test_a_seated_player_gets_back_in_past_a_flood_of_waiting_connections() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(waiting=4, waiting_per_address=2, handshake=30.0))
    amy = Client(LOOPBACK, host.port, "Amy", retry_for=10.0)
    task = asyncio.create_task(amy.run())
    _opened.extend([amy, task])
    await asyncio.wait_for(amy.connected.wait(), DEADLINE)
    seat = amy.mirror.seat
    assert seat is not None
    # Nine addresses, two waiting connections each: far past the room for waiting ones.
    flood = [await Raw.open(host, f"127.0.0.{2 + n // 2}") for n in range(18)]
    amy.drop()  # her connection is cut ...
    await back_in(amy)  # ... and she comes back
    assert amy.mirror.seat == seat and host.table.seats[seat].conn is not None
    waiting = [c for c in host.table.conns.values() if not c.joined]
    assert len(waiting) <= 4 and len(flood) == 18


async def test_a_seated_players_new_connection_is_never_let_go_for_a_newer_one() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(waiting=2, waiting_per_address=8, handshake=30.0))
    amy = await Raw.open(host, "127.0.0.2")
    welcome = await amy.hello("Amy", watch=False)
    assert isinstance(welcome, Welcome) and welcome.token is not None
    back = await Raw.open(host, "127.0.0.2")  # Amy again, before she says hello
    back.mirror.key = amy.mirror.key
    flood = [await Raw.open(host, "127.0.0.3") for _ in range(3)]
    for let_go in flood[:2]:  # each newer one made room by letting go another's oldest
        bye = await let_go.read()
        assert isinstance(bye, Bye) and bye.code == "too_many_connections"
    again = await back.hello("Amy", watch=False, token=welcome.token)
    assert isinstance(again, Welcome) and again.seat == welcome.seat


async def test_a_seated_player_comes_back_to_a_pin_table_whose_pin_allowance_is_spent() -> None:
    """Wrong PINs from many addresses spend the table's allowance; a seated player comes
    back with the seat's token alone (the host's key is the one it saw before)."""
    host = await start(TableConfig(players=3, autostart=False, pin="2468"))
    amy = Client(LOOPBACK, host.port, "Amy", pin="2468", retry_for=10.0)
    task = asyncio.create_task(amy.run())
    _opened.extend([amy, task])
    await asyncio.wait_for(amy.connected.wait(), DEADLINE)
    answers = []
    for n in [*range(12)] * 2:  # (an address's second wrong PIN spends the table's allowance)
        guess = await Raw.open(host, f"127.0.0.{n + 2}")
        exchange = ClientExchange("1357", host.table.fingerprint)
        await guess.send(protocol.encode(Knock(PROTOCOL_VERSION, exchange.knock())))
        answers.append(await guess.read())
    refused = answers[-1]
    assert isinstance(refused, Bye) and refused.code == "too_many_attempts"
    assert "at this table" in refused.message
    amy.drop()
    await back_in(amy)
    assert amy.mirror.seat == 0 and amy.mirror.bye is None


async def test_a_browser_seats_wrong_pin_is_counted_by_its_browser_and_real_address() -> None:
    """A browser seat's app joins over loopback with its knock marked by the host's web
    server (``knock.via``): a wrong PIN counts against that browser and address, not
    against the loopback address every browser seat shares."""
    from doubtlan.net.pin import via_mark

    host = await start(TableConfig(players=3, autostart=False, pin="2468"))
    mark = via_mark(host.table.via_key, "ab" * 16, "192.168.1.30")
    wrong = Client(LOOPBACK, host.port, "Tab", pin="1357", retry_for=0.0, via=mark)
    _opened.append(wrong)
    with pytest.raises(NotTheTable, match="Wrong PIN"):
        await asyncio.wait_for(wrong.run(), DEADLINE)
    assert set(host.table._pin_failures) == {"address 192.168.1.30", "browser " + "ab" * 16}
    right = Client(LOOPBACK, host.port, "Other tab", pin="2468", retry_for=0.0,
                   via=via_mark(host.table.via_key, "cd" * 16, "192.168.1.31"))
    task = asyncio.create_task(right.run())
    _opened.extend([right, task])
    await asyncio.wait_for(right.connected.wait(), DEADLINE)


async def test_a_client_refused_for_lack_of_room_tries_again() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(waiting_per_address=1, handshake=30.0, silence=30.0))
    holder = await Raw.open(host)  # the one waiting connection 127.0.0.1 may have
    late = Client(LOOPBACK, host.port, "Late", first_try_for=1.0, retry_for=20.0)
    task = asyncio.create_task(late.run())
    _opened.extend([late, task])
    loop = asyncio.get_running_loop()
    started = loop.time()
    async with asyncio.timeout(DEADLINE):  # refused, and still trying past its first_try_for
        while late.turned_away < 2 or loop.time() - started < 1.5:
            await asyncio.sleep(0.01)  # polling the client's counter of refusals
    assert not late.connected.is_set() and not task.done()
    assert isinstance(await holder.hello("holder"), Welcome)  # the room is free again
    await asyncio.wait_for(late.connected.wait(), DEADLINE)
    assert late.mirror.seat is not None and late.mirror.bye is None


async def test_a_table_takes_so_many_spectators() -> None:
    host = await start(TableConfig(players=3, autostart=False, watchers=2))
    watchers = [await Raw.open(host) for _ in range(3)]
    assert isinstance(await watchers[0].hello("w0"), Welcome)
    assert isinstance(await watchers[1].hello("w1"), Welcome)
    bye = await watchers[2].hello("w2")
    assert isinstance(bye, Bye) and bye.code == "too_many_connections"
    assert "as many spectators as it takes" in bye.message
    player = await Raw.open(host)  # a seat is never short of room
    assert isinstance(await player.hello("p", watch=False), Welcome)


async def test_a_client_that_stops_reading_is_dropped_and_slows_nobody() -> None:
    # Small buffers, so that the stuck client is found out soon; no flood limit, which the
    # bots playing twenty games at full speed could otherwise reach (not this test's point).
    limits = Limits(queue=16, write_buffer=2048, send_buffer=4096, burst=1e9, rate=1e9,
                    burst_bytes=1e12, rate_bytes=1e12)
    host = await start(TableConfig(players=4, games=20, seed=4), bots=1, limits=limits)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect((LOOPBACK, host.port))
    reader, writer = await asyncio.open_connection(sock=sock, ssl=client_context(),
                                                  server_hostname="")
    stuck = Raw(reader, writer)
    _opened.append(stuck)
    await stuck.send(protocol.encode(Hello(PROTOCOL_VERSION, "stuck", None, None, True)))
    assert isinstance(await stuck.read(), Welcome)  # and from now on it reads nothing
    pong = protocol.encode(Pong())

    async def seem_alive() -> None:  # it answers no ping, but keeps talking: not "silent"
        while True:
            with contextlib.suppress(OSError, ConnectionError):
                await stuck.send(pong)
            await asyncio.sleep(0.2)  # a pace, not a wait for a state

    alive = asyncio.create_task(seem_alive())
    _opened.append(alive)
    watcher = next(iter(host.table.conns))
    dropped = asyncio.Event()
    host.on_change = lambda: dropped.set() if watcher not in host.table.conns else None
    clients = [bot_client(host, f"b{i}", seed=i) for i in range(3)]  # never read by `stuck`
    await asyncio.wait_for(dropped.wait(), DEADLINE)
    assert host.table.state == "playing"  # dropped for not reading, while the match went on
    await finish(host, [task for _, task in clients])
    assert all(c.mirror.bye and c.mirror.bye.code == "match_over" for c, _ in clients)


async def test_closing_the_host_tells_every_client() -> None:
    host = await start(TableConfig(players=4, autostart=False))
    clients = [Client(LOOPBACK, host.port, f"c{i}") for i in range(3)]
    _opened.extend(clients)
    runs = [asyncio.create_task(client.run()) for client in clients]
    for client in clients:
        await asyncio.wait_for(client.connected.wait(), DEADLINE)
    await host.close()
    byes = await asyncio.wait_for(asyncio.gather(*runs), DEADLINE)
    assert [bye.code for bye in byes] == ["shutdown"] * 3  # type: ignore[union-attr]


async def test_cut_connections_come_back_by_themselves() -> None:
    host = await start(TableConfig(players=4, games=3, seed=8, grace=5.0), bots=1)
    clients = [bot_client(host, f"b{i}", seed=i) for i in range(3)]
    seats: dict[str, int] = {}
    moved = asyncio.Event()
    host.on_change = moved.set
    cuts, next_cut = 0, 2
    while cuts < 9 and host.table.state != "over":  # cut one connection every few claims
        await asyncio.wait_for(moved.wait(), DEADLINE)
        moved.clear()
        game = host.table.game
        if game is None or game.turns < next_cut:
            continue
        client = clients[cuts % 3][0]
        if client.mirror.seat is not None:
            seats.setdefault(client.name, client.mirror.seat)
            client.drop()
            cuts += 1
            next_cut = game.turns + 3
    assert cuts == 9
    await finish(host, [task for _, task in clients])
    for client, _ in clients:
        assert client.mirror.seat == seats[client.name]  # the same seat each time
        assert client.connections > 1
        assert client.mirror.bye is not None and client.mirror.bye.code == "match_over"
    assert len(host.table.results) == 3


async def test_a_version_mismatch_is_refused_with_both_versions() -> None:
    host = await start(TableConfig(players=3, autostart=False))
    raw = await Raw.open(host)
    await raw.send(protocol.encode(Hello(PROTOCOL_VERSION + 1, "future", None, None, False)))
    bye = await raw.read()
    assert isinstance(bye, Bye) and bye.code == "version_mismatch"
    assert f"version {PROTOCOL_VERSION}" in bye.message
    await host.close()


async def test_a_reconnect_to_a_host_with_another_key_is_refused() -> None:
    """A client remembers the key its table showed first: a connection made again (after a
    drop) to a host with another key is not the same table (docs/security.md)."""
    first = await start(TableConfig(players=3, autostart=False))
    other = await start(TableConfig(players=3, autostart=False))
    client = Client(LOOPBACK, first.port, "Amy")
    task = asyncio.create_task(client.run())
    try:
        async with asyncio.timeout(10):
            await client.connected.wait()
        assert client.fingerprint == first.table.fingerprint != other.table.fingerprint
        client.port = other.port  # the same address now answers with another key
        client.drop()
        with pytest.raises(NotTheTable, match="its key is not the one it showed before"):
            async with asyncio.timeout(10):
                await task
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await client.close()
        await first.close()
        await other.close()


async def test_connections_past_an_addresss_allowance_are_closed_before_tls() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(connect_burst=3, connect_rate=0.001, handshake=30.0))
    for _ in range(3):
        await Raw.open(host, "127.0.0.2")
    with pytest.raises((ssl.SSLError, ConnectionError, OSError)):
        await Raw.open(host, "127.0.0.2")  # closed before any cryptography
    await Raw.open(host, "127.0.0.3")  # another address has its own allowance


async def test_a_seated_players_address_gets_in_past_a_flood_of_handshakes() -> None:
    host = await start(TableConfig(players=3, autostart=False),
                       limits=Limits(handshake_burst=3, handshake_rate=0.001, handshake=30.0))
    amy = Client(LOOPBACK, host.port, "Amy", retry_for=10.0)
    task = asyncio.create_task(amy.run())
    _opened.extend([amy, task])
    await asyncio.wait_for(amy.connected.wait(), DEADLINE)  # (the first of three handshakes)
    for n in range(2):
        await Raw.open(host, f"127.0.0.{n + 2}")
    with pytest.raises((ssl.SSLError, ConnectionError, OSError)):
        await Raw.open(host, "127.0.0.9")  # the host's handshakes are spent ...
    amy.drop()
    await back_in(amy)  # ... but Amy, seated, comes back
    assert amy.mirror.seat == 0


async def test_an_address_that_answers_but_not_as_a_table_is_said_so_at_once() -> None:
    """A port where something else listens (a web server, say) answers the TLS handshake
    with bytes that are not TLS: the client says so, and does not try again for seconds."""
    asked = 0

    async def web(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal asked
        asked += 1
        await reader.read(100)
        writer.write(b"HTTP/1.0 400 Bad Request\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(web, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    client = Client(LOOPBACK, port, "Amy", first_try_for=30.0)
    _opened.append(client)
    try:
        with pytest.raises(NotATable, match=f"{LOOPBACK}:{port} answered, but it is not a "
                                            "doubtlan table"):
            await asyncio.wait_for(client.run(), 20.0)  # (not after its 30 s of tries)
        assert asked == 1  # at once: it did not try again
    finally:
        server.close()
        await server.wait_closed()


async def test_a_table_renamed_by_its_advert_says_that_name_in_its_lobby(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of the same name was on the network: the advert takes "Zed's table-2", and
    the table's own lobby says so too (an advertiser that touches no network stands in)."""
    from doubtlan.net import discovery
    from doubtlan.net.hosted import Advertising, HostedTable

    published: list[str] = []

    class Taken:
        def __init__(self, ad: discovery.TableAd) -> None:
            self.ad = ad

        async def start(self) -> str:
            return f"{self.ad.name}-2"

        async def update(self, ad: discovery.TableAd) -> None:
            published.append(ad.name)

        async def close(self) -> None:
            pass

    monkeypatch.setattr(discovery, "Advertiser", Taken)
    hosted = HostedTable(TableConfig(players=3, name="Zed's table", autostart=False),
                         bind=LOOPBACK, advertising=Advertising(True, (LOOPBACK,)))
    await hosted.start()
    try:
        assert hosted.advertised_name == "Zed's table-2"
        raw = await Raw.open(hosted.host)
        welcome = await raw.hello("Amy", watch=False)
        assert isinstance(welcome, Welcome) and welcome.table.name == "Zed's table-2"
        assert all(name == "Zed's table-2" for name in published)
    finally:
        await hosted.close()


async def test_a_player_whose_program_stopped_takes_the_seat_back_by_joining_again(
        tmp_path: Any) -> None:
    """The seat's token and seed are kept in the user's data folder (net/kept.py): a new
    client of the same name, for the same table, takes the same seat and hand back."""
    kept = KeptSeats(tmp_path / "seats.json")
    host = await start(TableConfig(players=3, games=1, seed=4, turn_timeout=0.0, grace=60.0,
                                   bot_delay=0.5), bots=2)
    amy = Client(LOOPBACK, host.port, "Amy", kept=kept)
    task = asyncio.create_task(amy.run())
    _opened.extend([amy, task])
    async with asyncio.timeout(DEADLINE):
        while amy.mirror.view is None:
            await asyncio.sleep(0.01)  # polling for the deal
    seat, hand = amy.mirror.seat, amy.mirror.view.hand
    assert kept.find(amy.fingerprint, "Amy") is not None
    # The program stops: no goodbye, the connection just ends.
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    amy.drop()
    again = Client(LOOPBACK, host.port, "Amy", kept=kept)
    rerun = asyncio.create_task(again.run())
    _opened.extend([again, rerun])
    await asyncio.wait_for(again.connected.wait(), DEADLINE)
    assert again.mirror.seat == seat and again.mirror.view is not None
    assert again.mirror.view.hand == hand and again.mirror.contribution == amy.mirror.contribution
    assert host.table.seats[seat].conn is not None and host.table.seats[seat].bot is None


async def test_a_seat_kept_from_another_match_is_forgotten_and_the_player_joins_afresh(
        tmp_path: Any) -> None:
    kept = KeptSeats(tmp_path / "seats.json")
    host = await start(TableConfig(players=3, autostart=False))
    probe = await Raw.open(host)
    fingerprint = seen_fingerprint(probe.writer.get_extra_info("ssl_object"))
    kept.keep(Kept(fingerprint.hex(), "Amy", "00" * 32, "x" * 32, "11" * 16, "old table"))
    amy = Client(LOOPBACK, host.port, "Amy", kept=kept)
    task = asyncio.create_task(amy.run())
    _opened.extend([amy, task])
    await asyncio.wait_for(amy.connected.wait(), DEADLINE)
    assert amy.mirror.seat is not None and amy.connections == 1  # on the same connection
    assert amy.mirror.error is None  # (a heartbeat sent before the hello was taken was one)
    now = kept.find(fingerprint, "Amy")
    assert now is not None and now.token == amy.mirror.token != "x" * 32
