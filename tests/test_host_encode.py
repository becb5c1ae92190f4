"""A host that cannot encode a message (a bug: a view holding a value with no wire form) ends
the table, saying so to everyone, instead of going on without ever sending another state
(issue 43). On loopback only."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections.abc import AsyncIterator

import pytest

from doubtlan.net import headless, protocol
from doubtlan.net.client import Client
from doubtlan.net.host import Host
from doubtlan.net.hosted import Advertising
from doubtlan.net.messages import Bye, Message, State
from doubtlan.net.table import Table, TableConfig

LOOPBACK = "127.0.0.1"
#: The ``bye`` code of a table its host ended (docs/protocol.md).
HOST_ERROR = "host_error"
#: Seconds any one step may take (a host that hangs fails the test well before this).
DEADLINE = 10.0


class BrokenStates:
    """``protocol.encode`` as it is, but for a ``state`` once :attr:`broken` is set: then it
    raises as the codec does for a value it has no wire form for."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.broken = asyncio.Event()
        self.encode = protocol.encode
        monkeypatch.setattr(protocol, "encode", self)

    def __call__(self, message: Message) -> bytes:
        if self.broken.is_set() and isinstance(message, State):
            raise TypeError("no wire form for <object object>")
        return self.encode(message)


@pytest.fixture
async def opened() -> AsyncIterator[list[Host | Client | asyncio.Task[object]]]:
    """What a test opened, closed after it whatever happened."""
    things: list[Host | Client | asyncio.Task[object]] = []
    yield things
    for thing in reversed(things):
        if isinstance(thing, asyncio.Task):
            thing.cancel()
            with contextlib.suppress(BaseException):
                await thing
        else:
            await asyncio.wait_for(thing.close(), DEADLINE)


async def test_a_state_that_cannot_be_encoded_ends_the_table_with_a_bye_to_everyone(
        monkeypatch: pytest.MonkeyPatch,
        opened: list[Host | Client | asyncio.Task[object]]) -> None:
    encode = BrokenStates(monkeypatch)
    # Three bots, slowed down: the match goes on after the first state, one action at a time.
    table = Table(TableConfig(players=3, seed=5, bot_delay=0.3, window=0.5))
    for _ in range(3):
        table.seat_bot("counter")
    host = Host(table, LOOPBACK, 0)
    await host.start()
    opened.append(host)
    watchers = [Client(LOOPBACK, host.port, f"w{i}", watch=True, retry_for=0.0)
                for i in range(2)]
    first_state = [asyncio.Event() for _ in watchers]
    runs: list[asyncio.Task[Bye | None]] = []
    for watcher, seen in zip(watchers, first_state, strict=True):
        def on_message(message: Message, seen: asyncio.Event = seen) -> None:
            if isinstance(message, State):
                seen.set()
                encode.broken.set()  # every state from now on fails to encode

        watcher.on_message = on_message
        opened.append(watcher)
        runs.append(asyncio.create_task(watcher.run()))
    opened.extend(runs)
    async with asyncio.timeout(DEADLINE):
        for watcher in watchers:
            await watcher.connected.wait()
        serving = asyncio.create_task(host.serve())
        opened.append(serving)
        host.start_when_full()  # the deal: the first state reaches both, then the next fails
        for seen in first_state:
            await seen.wait()
        byes = await asyncio.gather(*runs)
        await serving
    assert [bye.code if bye else None for bye in byes] == [HOST_ERROR, HOST_ERROR]
    assert all(bye is not None and bye.message == host.failure for bye in byes)
    assert host.failure is not None and "TypeError" in host.failure
    assert table.state == "playing"  # ended by the host, not by the match
    with pytest.raises(OSError):  # the server is closed: nothing more gets in
        await asyncio.open_connection(LOOPBACK, host.port)
    await asyncio.wait_for(host.close(), DEADLINE)  # (closing again changes nothing)


class Told(io.StringIO):
    """A headless host's output, with the port it listens on once it says so."""

    def __init__(self) -> None:
        super().__init__()
        self.listening = asyncio.Event()
        self.port = 0

    def write(self, text: str) -> int:
        found = re.search(r"listening on [0-9.]+:(\d+)", text)
        if found:
            self.port = int(found[1])
            self.listening.set()
        return super().write(text)


async def test_the_headless_host_exits_with_the_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        opened: list[Host | Client | asyncio.Task[object]]) -> None:
    encode = BrokenStates(monkeypatch)
    encode.broken.set()  # every state fails: the first is the snapshot a watcher is sent
    config = TableConfig(players=3, seed=5, bot_delay=0.3, window=0.5)
    out = Told()
    hosting = asyncio.create_task(headless.host(
        config, bots=3, bind=LOOPBACK, advertising=Advertising(enabled=False), out=out))
    opened.append(hosting)
    async with asyncio.timeout(DEADLINE):
        await out.listening.wait()
        watcher = Client(LOOPBACK, out.port, "watcher", watch=True, retry_for=0.0)
        opened.append(watcher)
        bye = await watcher.run()
        status = await hosting
    assert bye is not None and bye.code == HOST_ERROR
    assert status == 1
    assert f"doubtlan: {bye.message}" in capsys.readouterr().err.splitlines()
