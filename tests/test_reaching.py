"""When nobody can see the table: after a few seconds with no table found, the join screen
says what to check and how to type the host's address; a connection that fails says which
way it failed (nothing listening, no answer, something that is not a doubtlan table)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable, Iterator

import pytest
from apps import wait_for
from test_app import SIZE, socket_nobody_listens_on, text_of

from doubtlan.net.discovery import TableAd
from doubtlan.tui.app import DoubtApp, JoinSetup
from doubtlan.tui.screens import discovery
from doubtlan.tui.screens.discovery import NOTHING_FOUND, DiscoveryScreen
from doubtlan.tui.screens.message import MessageScreen

#: A table on the network.
AD = TableAd(name="Amy's table", port=47474, addresses=("192.168.1.20",), version=1,
             game="idoubtit", rules="decks=1,challenge=window", taken=2, seats=4,
             state="lobby", pin=False)
#: Seconds the tests below wait for a connection to fail (the client tries for 5).
FAILS_WITHIN = 15.0


class Network:
    """A browser the test tells which tables are on the network (none at first)."""

    def __init__(self) -> None:
        self.on_change: Callable[[dict[str, TableAd]], object] | None = None

    @contextlib.asynccontextmanager
    async def browse(self, on_change: Callable[[dict[str, TableAd]], object]
                     ) -> AsyncIterator[None]:
        self.on_change = on_change
        yield None

    def tables(self, *ads: TableAd) -> None:
        assert self.on_change is not None
        self.on_change({ad.name: ad for ad in ads})


async def test_the_join_screen_says_what_to_check_when_no_table_shows_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery, "HINT_AFTER", 0.3)
    network = Network()
    app = DoubtApp("Ben", join=JoinSetup(), browser=network.browse)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DiscoveryScreen)
                       and network.on_change is not None, "the join screen")
        screen = app.screen
        assert isinstance(screen, DiscoveryScreen)
        # (until the hint's time has passed, the screen only says it is looking)
        looking = text_of(app, "#looking")
        assert looking == NOTHING_FOUND if screen.waited else looking.startswith("Looking for")
        await wait_for(pilot, lambda: text_of(app, "#looking") == NOTHING_FOUND, "the hint")
        for words in ("press / and type the address", "guest or office Wi-Fi",
                      "TCP 47474", "UDP 5353", "VPN", "If nobody sees your table"):
            assert words in NOTHING_FOUND
        network.tables(AD)
        await pilot.pause()
        assert text_of(app, "#looking") == (
            "1 table: Enter keeps your name and goes to the list, where Enter joins the one "
            "selected.")
        network.tables()  # the table went away: the hint again
        await pilot.pause()
        assert text_of(app, "#looking") == NOTHING_FOUND


async def test_a_table_found_in_time_gets_no_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery, "HINT_AFTER", 0.3)
    network = Network()
    app = DoubtApp("Ben", join=JoinSetup(), browser=network.browse)  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: network.on_change is not None, "the join screen")
        network.tables(AD)
        screen = app.screen
        assert isinstance(screen, DiscoveryScreen)
        await wait_for(pilot, lambda: screen.waited, "the hint's time")
        assert text_of(app, "#looking") == (
            "1 table: Enter keeps your name and goes to the list, where Enter joins the one "
            "selected.")


async def failure_shown(address: tuple[str, int]) -> str:
    """What the join app says after joining ``address`` typed by hand fails."""
    app = DoubtApp("Ben", join=JoinSetup(address=address))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen)
                       and app.screen.query("#message"), "the failure", timeout=FAILS_WITHIN)
        return text_of(app, "#message")


async def test_nothing_listening_is_told_as_refused() -> None:
    with socket_nobody_listens_on() as port:
        text = await failure_shown(("127.0.0.1", port))
    assert text.startswith(f"Cannot reach a table at 127.0.0.1:{port}: nothing is listening "
                           "there (the connection was refused): check the address and port")


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A loopback port that takes no more connections and answers none: its queue of
    connections holds one already, so the system drops each new attempt (as a firewall
    that drops packets does)."""
    with socket.socket() as server, socket.socket() as filler:
        server.bind(("127.0.0.1", 0))
        server.listen(0)
        port = int(server.getsockname()[1])
        filler.connect(("127.0.0.1", port))
        yield port


async def test_no_answer_is_told_as_a_network_or_firewall_that_drops_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("doubtlan.net.client.CONNECT_TIMEOUT", 0.5)
    with silent_port() as port:
        text = await failure_shown(("127.0.0.1", port))
    assert text.startswith(f"Cannot reach a table at 127.0.0.1:{port}: no answer: the network "
                           "or a firewall drops the connection (guest or office Wi-Fi")


async def test_something_else_answering_is_told_as_not_a_doubtlan_table() -> None:
    async def web(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(100)
        writer.write(b"HTTP/1.0 400 Bad Request\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(web, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        text = await failure_shown(("127.0.0.1", port))
    finally:
        server.close()
        await server.wait_closed()
    assert f"127.0.0.1:{port} answered, but it is not a doubtlan table" in text
