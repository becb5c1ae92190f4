"""Browsing for tables: :class:`Browser` keeps the tables on the LAN current while open;
:func:`find_tables` lists those seen in a while."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Self

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from .ad import SERVICE_TYPE, TableAd, instance_label, ipv4
from .addresses import lan_addresses

log = logging.getLogger(__name__)

#: How long a browser waits for a table's records once it has heard of it, in milliseconds,
#: and how many times it asks before it gives up until the table is heard of again (a busy
#: host, or a query lost, must not keep a table off the list until its next announcement).
RESOLVE_TIMEOUT_MS = 3000
RESOLVE_TRIES = 4
#: Seconds between fresh starts of the browse. zeroconf's browser asks the network four
#: times in its first 14 seconds, then only refreshes what it has heard of: a table whose
#: answers all went astray in those seconds would stay off the list until it next changed.
BROWSE_AGAIN = 15.0


class Browser:
    """Keeps :attr:`tables` current with the tables on the LAN, while open.

    ``tables`` maps each table's instance name to its :class:`TableAd`; tables are added once
    resolved, replaced when their properties change and removed when they say goodbye (or
    their records expire). Adverts that are malformed or carry no IPv4 address are left out.
    ``on_change``, if given, is called with a copy of ``tables`` after each change.
    ``interfaces`` are the IPv4 addresses to browse on (default :func:`lan_addresses`).
    Use as ``async with Browser() as browser:``.
    """

    def __init__(
        self,
        interfaces: Sequence[str] | None = None,
        on_change: Callable[[dict[str, TableAd]], object] | None = None,
    ) -> None:
        self.tables: dict[str, TableAd] = {}
        self._interfaces = list(interfaces) if interfaces is not None else None
        self._on_change = on_change
        self._aiozc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._again: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Self:
        if self._aiozc is not None:
            raise RuntimeError("a Browser can be opened only once")
        interfaces = self._interfaces if self._interfaces is not None else lan_addresses()
        for address in interfaces:
            ipv4(address)
        if not interfaces:
            raise RuntimeError("this machine has no LAN address to look for tables on")
        self._aiozc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        self._browser = self._browse()
        self._again = asyncio.create_task(self._browse_again())
        return self

    def _browse(self) -> AsyncServiceBrowser:
        assert self._aiozc is not None
        return AsyncServiceBrowser(
            self._aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_service_state_change]
        )

    async def _browse_again(self) -> None:
        """Start the browse afresh every :data:`BROWSE_AGAIN` seconds while open: it asks the
        network again. Tables already listed stay (their records are in zeroconf's cache)."""
        while True:
            await asyncio.sleep(BROWSE_AGAIN)  # a period, not a wait on a state
            old = self._browser
            if old is None:
                return
            self._browser = self._browse()
            await old.async_cancel()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop browsing and resolving, and close zeroconf. Safe to call twice."""
        browser, aiozc, again = self._browser, self._aiozc, self._again
        self._browser = self._again = None
        if again is not None:
            again.cancel()
            await asyncio.gather(again, return_exceptions=True)
        if browser is not None:
            await browser.async_cancel()
        tasks = list(self._resolving.values())
        self._resolving.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if aiozc is not None and not aiozc.zeroconf.done:
            await aiozc.async_close()

    def _on_service_state_change(
        self,
        zeroconf: Zeroconf,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        # zeroconf calls handlers by keyword: these parameter names are its names.
        label = instance_label(name)
        if label is None or self._browser is None:
            return
        earlier = self._resolving.pop(name, None)
        if earlier is not None:
            earlier.cancel()  # the newer records are in the cache; resolve those
        if state_change is ServiceStateChange.Removed:
            self._set(label, None)
            return
        task = asyncio.create_task(self._resolve(name, label))
        self._resolving[name] = task
        task.add_done_callback(lambda done: self._resolved(name, done))

    async def _resolve(self, name: str, label: str) -> None:
        assert self._aiozc is not None
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        for _ in range(RESOLVE_TRIES):
            if await info.async_request(self._aiozc.zeroconf, RESOLVE_TIMEOUT_MS):
                break
        else:
            log.debug("table %r did not answer", name)
            return
        addresses = info.parsed_addresses(IPVersion.V4Only)
        try:
            if info.port is None or not addresses:
                raise ValueError(f"table advert {name!r:.80} has no port or no IPv4 address")
            ad = TableAd.from_properties(label, info.port, addresses, info.properties)
        except ValueError as error:
            log.info("ignoring a table advert: %s", error)
            self._set(label, None)
            return
        self._set(label, ad)

    def _resolved(self, name: str, task: asyncio.Task[None]) -> None:
        if self._resolving.get(name) is task:
            del self._resolving[name]
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not resolve table %r", name, exc_info=task.exception())

    def _set(self, label: str, ad: TableAd | None) -> None:
        if self.tables.get(label) == ad:
            return
        if ad is None:
            del self.tables[label]
        else:
            self.tables[label] = ad
        if self._on_change is not None:
            try:
                self._on_change(dict(self.tables))
            except Exception:
                # The caller's bug must not stop the browser from following the network.
                log.exception("on_change failed")


async def find_tables(timeout: float, interfaces: list[str] | None = None) -> list[TableAd]:
    """The tables seen while browsing for ``timeout`` seconds, sorted by name.

    ``interfaces`` are the IPv4 addresses to browse on (default :func:`lan_addresses`).
    """
    async with Browser(interfaces) as browser:
        await asyncio.sleep(timeout)  # browsing for a while is the point, not a wait for a state
        return sorted(browser.tables.values(), key=lambda ad: (ad.name.casefold(), ad.name))
