"""Browser tabs without a browser, for the web server's own rules (tests/test_web.py): a
page fetched and a websocket opened with aiohttp, as textual-serve's script opens it, over
loopback, holding the server to the table's certificate."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from doubtlan.net.hosted import HostedTable, WebOffer
from doubtlan.net.identity import make
from doubtlan.net.table import TableConfig
from doubtlan.net.web.server import COOKIE, WebSeats
from doubtlan.net.web.session import Session

#: Seconds any one step may take.
STEP = 20.0


@dataclass
class Tab:
    """One tab's websocket, the screen bytes its app has sent so far, and the page's own
    messages (the keyboard's: ``["keyboard", true]``)."""

    socket: aiohttp.ClientWebSocketResponse
    screen: bytearray = field(default_factory=bytearray)
    said: list[str] = field(default_factory=list)

    async def read_until(self, text: str, timeout: float = STEP) -> None:
        """Read the app's screen until ``text`` is in it (AssertionError at the deadline)."""
        async with asyncio.timeout(timeout):
            while text.encode() not in self.screen:
                message = await self.socket.receive()
                if message.type == aiohttp.WSMsgType.TEXT:
                    self.said.append(message.data)
                    continue
                assert message.type == aiohttp.WSMsgType.BINARY, (message.type, message.extra)
                self.screen += message.data

    async def closed(self, timeout: float = STEP) -> str:
        """Read until the server closes the websocket: the reason it gave."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.socket.receive()
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.screen += message.data
                elif message.type == aiohttp.WSMsgType.TEXT:
                    self.said.append(message.data)
                elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                                      aiohttp.WSMsgType.CLOSING):
                    return str(message.extra or "")


@asynccontextmanager
async def served(name: str, *, players: int = 3, bots: int = 1, **web: object
                 ) -> AsyncIterator[tuple[HostedTable, WebSeats]]:
    """A table on loopback with browser seats (``web``: WebSeats' settings changed)."""
    hosted = HostedTable(TableConfig(players=players, name=name, autostart=False), bots=bots,
                         strategy="random", bind="127.0.0.1", identity=make(),
                         web=WebOffer(0, "Amy"))
    await hosted.start()
    assert hosted.web is not None
    for key, value in web.items():
        setattr(hosted.web, key, value)
    try:
        yield hosted, hosted.web
    finally:
        await hosted.close()


def client(web: WebSeats, source: str = "127.0.0.1") -> aiohttp.ClientSession:
    """A client that holds the server to the table's certificate, from ``source``."""
    connector = aiohttp.TCPConnector(ssl=aiohttp.Fingerprint(web.fingerprint),
                                     local_addr=(source, 0))
    return aiohttp.ClientSession(connector=connector)


async def browser_id(session: aiohttp.ClientSession, web: WebSeats) -> str:
    """Open the page, as a browser does first (a browser with no id yet loads it again to
    be given one): the id its cookie gives."""
    async with session.get(web.url("127.0.0.1") + "?fresh=1") as response:
        assert response.status == 200, await response.text()
        return response.cookies[COOKIE].value


@asynccontextmanager
async def tab(web: WebSeats, source: str = "127.0.0.1", *, origin: str | None = None,
              browser: str | None = None) -> AsyncIterator[Tab]:
    """A tab's websocket to ``web`` from ``source``, with its page's Origin and cookie."""
    async with client(web, source) as session:
        browser = browser or await browser_id(session, web)
        socket = await session.ws_connect(
            f"wss://127.0.0.1:{web.port}/ws?width=80&height=24",
            origin=origin or f"https://127.0.0.1:{web.port}",
            headers={"Cookie": f"{COOKIE}={browser}"})
        try:
            yield Tab(socket)
        finally:
            await socket.close()


def ended(session: Session) -> bool:
    """Whether a session's app has ended (its thread, or its process)."""
    return session.app is not None and session.app.ended


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, dead but not yet reaped, is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


async def gone(pids: list[int], timeout: float = STEP) -> None:
    """Wait until none of ``pids`` runs (AssertionError naming those that do)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while any(alive(pid) for pid in pids):
        assert loop.time() < deadline, [pid for pid in pids if alive(pid)]
        await asyncio.sleep(0.05)


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run (Linux's /proc)."""
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listed:
            found += [int(child) for child in listed.read().split()]
    return found
