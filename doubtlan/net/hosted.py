"""A hosted table: the table, its server and its advertisement, started and closed together.

The headless host and the app's host both use :class:`HostedTable`; the app's own player
then joins it over loopback like anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .folder import doubtlan_folder
from .host import Host
from .identity import FILE_NAME as IDENTITY_FILE
from .identity import Identity, load_or_make
from .journal import Journal
from .limits import Limits
from .messages import PROTOCOL_VERSION
from .table import Table, TableConfig

if TYPE_CHECKING:  # zeroconf is loaded only when the table is advertised, aiohttp only
    from .discovery import Advertiser, TableAd  # when browsers are seated
    from .web.server import WebSeats

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WebOffer:
    """Browser seats (``host --web``): on ``port`` (None: the table's port + 1; 0: a free
    one), each tab's app saying it plays through ``through``'s machine (net/web)."""

    port: int | None = None
    through: str | None = None


@dataclass
class Advertising:
    """Where and whether the host advertises its table (``--advertise``/``--no-advertise``)."""

    enabled: bool = True
    addresses: tuple[str, ...] = ()


#: The address of a table on this machine only (``doubtlan play``).
LOOPBACK = "127.0.0.1"

#: The codes a port already taken is reported with: POSIX's, and Windows' own (WSAEADDRINUSE,
#: which Windows' sockets give in place of EADDRINUSE, and WSAEACCES, which they give for a
#: port another program holds exclusively or the system keeps reserved).
ADDRESS_IN_USE = frozenset({errno.EADDRINUSE, 10048, 10013})


def port_in_use(error: OSError) -> bool:
    """Whether ``error`` says that the address and port are taken, on any system."""
    return error.errno in ADDRESS_IN_USE or getattr(error, "winerror", None) in ADDRESS_IN_USE


def cannot_listen(error: OSError, bind: str, port: int) -> str:
    """The sentence for a host that cannot listen on ``bind``:``port``."""
    where = f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"
    if port_in_use(error):  # (asyncio's own words name the address as a Python tuple)
        return (f"Cannot host on {where}: another table or program is already using port "
                f"{port}. Choose another port with --port (0 picks a free one).")
    return f"Cannot host on {where}: {error.strerror or error}."


class AdvertiseError(Exception):
    """The table could not be advertised on the network (the message says why)."""


class WebError(Exception):
    """Browser seats could not be served (the message says why)."""


class HostedTable:
    """``config``'s table, with ``bots`` bots seated, served on ``bind``:``port``, written
    to a new ``journal`` (docs/journal.md); or, with ``resume``, the table of that journal
    as it was last written (``config`` and ``bots`` then do not count). It presents
    ``identity``'s certificate, by default the host's own, kept in the user's data folder
    (so a resumed table has the same key): :class:`IdentityError` when it cannot be had."""

    def __init__(
        self,
        config: TableConfig,
        *,
        bots: int = 0,
        strategy: str | None = None,
        bind: str = "0.0.0.0",
        port: int = 0,
        advertising: Advertising | None = None,
        limits: Limits | None = None,
        journal: Path | None = None,
        resume: Path | None = None,
        settings: dict[str, object] | None = None,
        identity: Identity | None = None,
        web: WebOffer | None = None,
    ) -> None:
        if identity is None:  # the host's own, beside its journals (docs/security.md)
            identity = load_or_make(doubtlan_folder() / IDENTITY_FILE)
        if resume is not None:
            self.table = Table.resume(resume, _now(), **(settings or {}))
        else:
            self.table = Table(config, Journal.create(journal) if journal is not None else None)
            for _ in range(bots):
                self.table.seat_bot(strategy)
            if self.table.journal is not None:
                # On the disk before anyone hears of the table: a host stopped before its
                # first message still leaves a journal that resumes.
                self.table.journal.sync()
        #: True when the table was resumed from a journal.
        self.resumed = resume is not None
        self.host = Host(self.table, bind, port, limits, identity=identity)
        self.identity = identity
        #: Browser seats, when offered (``web``), once started.
        self.offer = web
        self.web: WebSeats | None = None
        self._web_lock = asyncio.Lock()
        self.bind = bind
        self.advertising = advertising or Advertising(enabled=False)
        #: The name the table is advertised under (None when it is not advertised), and
        #: the addresses it is advertised at.
        self.advertised_name: str | None = None
        self.advertised_at: tuple[str, ...] = ()
        #: Called after every change at the table (the host's own listeners come first).
        self.on_change: Callable[[], None] = lambda: None
        #: Told what went wrong with a browser seat's app (a sentence for the host's screen).
        self.report: Callable[[str], None] = lambda text: log.warning("%s", text)
        self._advert: _Advert | None = None

    @property
    def port(self) -> int:
        return self.host.port

    @property
    def local(self) -> bool:
        """Whether the table listens on loopback only: nobody on the network can join it."""
        return self.bind == "localhost" or _is_loopback(self.bind)

    def join_addresses(self) -> list[str]:
        """Addresses others can type to join (the LAN addresses when listening on all)."""
        if self.bind not in ("0.0.0.0", "::"):
            return [self.bind]
        from .discovery import lan_addresses

        return lan_addresses()

    async def start(self) -> None:
        """Listen (OSError if the port cannot be had), then advertise (AdvertiseError)."""
        await self.host.start()
        self.host.on_change = self._changed
        try:
            await self._serve_browsers()
        except BaseException:
            await self.host.close()
            raise
        try:
            await self._advertise()
        except (ValueError, RuntimeError, OSError) as error:
            await self.close()
            raise AdvertiseError(str(error)) from error

    @property
    def loopback(self) -> str:
        """The address this machine's own clients reach the table at."""
        return {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(self.bind, self.bind)

    async def _serve_browsers(self) -> None:
        offer = self.offer
        if offer is None:
            return
        from .web.server import EXTRA_SESSIONS, WebSeats

        port = self.port + 1 if offer.port is None else offer.port
        if port == self.port:  # (not another program's: the table's own)
            raise WebError(f"Cannot serve browser seats on port {port}: it is the table's own "
                           f"port, for the players' connections. Choose another with --web "
                           f"PORT, or --web alone for the next one ({port + 1}).")
        web = WebSeats((self.loopback, self.port), self.identity, title=self.table.config.name,
                       through=offer.through, bind=self.bind, port=port,
                       most=self.table.config.players + EXTRA_SESSIONS,
                       via_key=self.table.via_key)
        web.report = lambda text: self.report(text)
        try:
            await web.start()
        except OSError as error:
            if port_in_use(error):
                raise WebError(f"Cannot serve browser seats on port {port}: another program "
                               "is using it. Choose another with --web PORT (0 picks a free "
                               "one).") from error
            raise WebError(f"Cannot serve browser seats on port {port}: "
                           f"{error.strerror or error}.") from error
        self.web = web

    async def serve_browsers(self, on: bool) -> None:
        """Start or stop serving browser seats (the lobby's rules dialog); a page open when
        they stop ends, its seat kept ("away"). WebError when they cannot be served."""
        async with self._web_lock:  # (one change at a time: the last one asked wins)
            if on and self.web is None:
                self.offer = self.offer or WebOffer(through=self._host_name())
                await self._serve_browsers()
            elif not on and self.web is not None:
                await self.web.close()  # (its address shown until its pages are closed)
                self.web = None

    def _host_name(self) -> str | None:
        """The host's player's name: the first seat's."""
        first = self.table.seats[0] if self.table.seats else None
        return first.name if first is not None and first.strategy is None else None

    def web_addresses(self) -> list[str]:
        """The addresses browsers on the network open for a seat (none when not offered)."""
        if self.web is None:
            return []
        return [self.web.url(address) for address in self.join_addresses()]

    def _changed(self) -> None:
        if self._advert is not None:
            self._advert.changed()
        self.on_change()

    async def close(
        self, code: str = "shutdown", message: str = "the host closed the table"
    ) -> None:
        """Say goodbye to everyone, stop serving, and withdraw the advertisement."""
        await self.host.close(code, message)
        if self.web is not None:
            await self.web.close()
            self.web = None
        if self.table.journal is not None:
            self.table.journal.close(why="over" if self.table.state == "over" else "ended")
        if self._advert is not None:
            await self._advert.close()
            self._advert = None

    async def _advertise(self) -> None:
        if not self.advertising.enabled:
            return
        from .discovery import Advertiser, TableAd, lan_addresses

        addresses = self.advertising.addresses or tuple(lan_addresses())
        if not addresses:
            return
        table, port = self.table, self.port

        def make_ad() -> TableAd:
            state = table.state
            return TableAd(
                name=table.config.name,
                port=port,
                addresses=tuple(addresses),
                version=PROTOCOL_VERSION,
                game=table.kind.name,
                rules=table.config.options.text,
                taken=table.taken,
                seats=table.config.players,
                state=state if state in ("lobby", "over") else "playing",
                pin=table.config.pin is not None,
                fingerprint=table.fingerprint.hex(),
                commitment=table.chain.commitment.hex(),
            )

        advertiser = Advertiser(make_ad())
        self.advertised_name = await advertiser.start()
        if self.advertised_name != table.config.name:  # ("Zed's table-2": one was there)
            self.host.rename(self.advertised_name)
        self.advertised_at = tuple(addresses)
        self._advert = _Advert(advertiser, make_ad)


class _Advert:
    """Keeps the table's advertisement in step with the table, without blocking it."""

    def __init__(self, advertiser: Advertiser, make_ad: Callable[[], TableAd]) -> None:
        self.advertiser, self.make_ad = advertiser, make_ad
        self._pending: asyncio.Task[None] | None = None
        self._published = make_ad()
        self._closed = False

    def changed(self) -> None:
        if self._closed or self._pending is not None and not self._pending.done():
            return  # the update in flight publishes the latest ad before it ends
        if self.make_ad() != self._published:
            self._pending = asyncio.create_task(self._publish())

    async def _publish(self) -> None:
        # Loop: changes made while an update was being announced are published after it.
        while not self._closed and (ad := self.make_ad()) != self._published:
            self._published = ad
            try:
                await self.advertiser.update(ad)
            except Exception:
                log.warning("could not update the table's advert", exc_info=True)
                return

    async def close(self) -> None:
        self._closed = True
        if self._pending is not None:
            with contextlib.suppress(Exception):
                await self._pending
        await self.advertiser.close()


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _now() -> float:
    """The host's clock (the event loop's, which is time.monotonic() here)."""
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()
