"""Advertising a table: :class:`Advertiser` registers it over mDNS under a name no other
table on the network holds, keeps its TXT properties current, and withdraws it on close."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import secrets
from types import TracebackType

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from .ad import MAX_NAME_BYTES, SERVICE_TYPE, TableAd, instance_label
from .addresses import advertisable, lan_addresses, machine_ipv4

#: The longest name an :class:`Advertiser` accepts: room is left for a suffix such as "-12".
MAX_ADVERTISED_NAME_BYTES = MAX_NAME_BYTES - 4
#: Seconds the records of a table live in a browser's cache. zeroconf's default for TXT and
#: PTR records is 75 minutes, far too long for the table of a host that crashed without
#: saying goodbye. (python-zeroconf browsers raise a PTR's TTL to at least 1125 s, so there a
#: dead table still lingers for up to 19 minutes.)
RECORD_TTL = 120
#: How long an :class:`Advertiser` browses for the tables already on the network before it
#: picks its name, in milliseconds. zeroconf sends the first query 20 to 120 ms in, and a
#: python-zeroconf table answers that (QU) query at once, so this leaves over 100 ms for the
#: answers to arrive.
NAME_CHECK_MS = 250


class Advertiser:
    """Advertises one table on the addresses its ad names, until closed.

    ``ad.addresses`` are the addresses to advertise and the only interfaces zeroconf uses;
    when empty, :func:`lan_addresses`. The constructor raises :class:`ValueError` for a
    loopback or malformed address or a name too long to take a suffix, and
    :class:`RuntimeError` when the machine has no LAN address, all before any traffic.
    Use it as ``async with Advertiser(ad) as name:`` or call :meth:`start` and :meth:`close`.

    How the name is made unique, and why not by zeroconf: a new table must show up in other
    machines' browsers within 1 s of its host starting. zeroconf's own check (RFC 6762
    probing: a random 150-250 ms wait, then three probes 500 ms apart) alone takes about
    1.2 s. So :meth:`start` browses for :data:`NAME_CHECK_MS` (250 ms) instead, takes the
    first of ``name``, ``name-2``, ``name-3``, ... that no table answered with (compared
    without regard to case, as DNS does), and registers it with
    ``cooperating_responders=True``, which makes zeroconf skip its probing and announce at
    once. The check also hears announcements made while it listens, so a table that
    registers during it is seen too. The trade-off: two hosts that start with the same name
    within the same fraction of a second (on a quiet wired LAN, a few milliseconds: less than
    it takes one's announcement to reach the other) can both take it, and so can a host
    whose one query, or the answer to it, is lost, where zeroconf would have sent three
    probes. Browsers then list one table under that name, not two, until one host restarts.
    """

    def __init__(self, ad: TableAd) -> None:
        if len(ad.name.encode("utf-8")) > MAX_ADVERTISED_NAME_BYTES:
            raise ValueError(
                f"a table name must be at most {MAX_ADVERTISED_NAME_BYTES} bytes of UTF-8, "
                "to leave room for the suffix that tells tables of the same name apart"
            )
        addresses = advertisable(ad.addresses or lan_addresses())
        if not addresses:
            raise RuntimeError(
                "this machine has no LAN address to advertise a table on "
                "(no IPv4 address other than loopback and link-local)"
            )
        self._ad = dataclasses.replace(ad, addresses=addresses)
        self._name: str | None = None
        self._aiozc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        # One advertiser is one host name; a random one cannot clash with another's.
        self._server = f"doubtlan-{secrets.token_hex(6)}.local."
        self._closed = False

    @property
    def ad(self) -> TableAd:
        """The table as advertised: after :meth:`start`, ``name`` is the registered name."""
        return self._ad if self._name is None else dataclasses.replace(self._ad, name=self._name)

    @property
    def name(self) -> str | None:
        """The registered instance name, or None before :meth:`start` has finished."""
        return self._name

    async def start(self) -> str:
        """Check which names are taken, register the table and announce it; return the
        registered name.

        A name another table already holds gets a unique suffix (``-2``, ``-3``, ...) instead
        of failing; see the class's docs for how, and what that cannot catch. The table is on
        the network about :data:`NAME_CHECK_MS` after the call, and the call returns once its
        announcements are sent (about half a second later). Raises :class:`ValueError` if an
        address is not one of this machine's.
        """
        if self._aiozc is not None or self._closed:
            raise RuntimeError("an Advertiser can be started only once")
        mine = {address for _, address in machine_ipv4()}
        for address in self._ad.addresses:
            if address not in mine:
                raise ValueError(f"{address} is not an address of this machine")
        self._aiozc = AsyncZeroconf(
            interfaces=list(self._ad.addresses), ip_version=IPVersion.V4Only
        )
        try:
            name = _unique_name(self._ad.name, await _names_on_the_network(self._aiozc))
            info = self._service_info(f"{name}.{SERVICE_TYPE}", self._ad)
            # cooperating_responders skips zeroconf's probing, names and renaming alike (so
            # allow_name_change would do nothing): the check above stands in for it. The
            # first await registers and sends the first announcement; the second waits for
            # the other announcements, so the table is on the network when start() returns.
            await (await self._aiozc.async_register_service(info, cooperating_responders=True))
        except BaseException:
            await self._aiozc.async_close()
            self._closed = True
            raise
        self._info = info
        self._name = info.get_name()
        return self._name

    async def update(self, ad: TableAd) -> None:
        """Re-publish the table's TXT properties (seats taken, state, ...) from ``ad``; return
        once they are announced (under a second).

        The name, port and addresses are those given at start; an ``ad`` that changes them
        raises :class:`ValueError`.
        """
        if self._aiozc is None or self._info is None or self._closed:
            raise RuntimeError("update() needs a started, open Advertiser")
        if ad.name not in (self._ad.name, self._name) or ad.port != self._ad.port:
            raise ValueError("update() changes the properties, not the name or port")
        if ad.addresses and advertisable(ad.addresses) != self._ad.addresses:
            raise ValueError("update() changes the properties, not the addresses")
        self._ad = dataclasses.replace(ad, name=self._ad.name, addresses=self._ad.addresses)
        self._info = self._service_info(self._info.name, self._ad)
        await (await self._aiozc.async_update_service(self._info))

    async def close(self) -> None:
        """Withdraw the table (goodbye packets) and close zeroconf. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        aiozc, info = self._aiozc, self._info
        if aiozc is None:
            return
        try:
            if info is not None:
                await (await aiozc.async_unregister_service(info))
        finally:
            await aiozc.async_close()

    async def __aenter__(self) -> str:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def _service_info(self, full_name: str, ad: TableAd) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            full_name,
            port=ad.port,
            properties=ad.properties(),
            server=self._server,
            host_ttl=RECORD_TTL,
            other_ttl=RECORD_TTL,
            parsed_addresses=list(ad.addresses),
        )


async def _names_on_the_network(aiozc: AsyncZeroconf) -> set[str]:
    """The instance names of the tables that answer a browse of :data:`NAME_CHECK_MS`,
    casefolded."""
    names: set[str] = set()

    def seen(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        # zeroconf calls handlers by keyword: these parameter names are its names.
        label = instance_label(name)
        if label is not None and state_change is ServiceStateChange.Added:
            names.add(label.casefold())

    await aiozc.zeroconf.async_wait_for_start()  # the wait is for answers, not for startup
    browser = AsyncServiceBrowser(aiozc.zeroconf, SERVICE_TYPE, handlers=[seen])
    try:
        await asyncio.sleep(NAME_CHECK_MS / 1000)  # listening for a while is the point
    finally:
        await browser.async_cancel()
    return names


def _unique_name(wanted: str, taken: set[str]) -> str:
    """``wanted``, or the first of ``wanted-2``, ``wanted-3``, ... whose casefolded form is
    not in ``taken``."""
    suffixed = (f"{wanted}-{number}" for number in itertools.count(2))
    name = next(
        name for name in itertools.chain([wanted], suffixed) if name.casefold() not in taken
    )
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:  # needs a thousand tables of one name
        raise RuntimeError(f"too many tables on the network are named {wanted!r}")
    return name
