"""Finding tables on the LAN: a host advertises its table over mDNS, players browse for it.

A table is a ``_doubtlan._tcp.local.`` service (:data:`SERVICE_TYPE`). Its instance name is the
table's name, made unique on a conflict with the tables already on the network (``"Kitchen"``
may become ``"Kitchen-2"``), and its TXT properties say what the table plays and how full it is
(:class:`TableAd`).

What arrives from the network is untrusted: :meth:`TableAd.from_properties` checks every field,
and a :class:`Browser` leaves out adverts that fail. Zeroconf only ever runs on the addresses
given (or the machine's LAN addresses), never on loopback.

This module uses only the standard library, zeroconf and ifaddr, so that the rest of doubtlan
can take it or leave it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import itertools
import logging
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Self

import ifaddr
from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

__all__ = [
    "SERVICE_TYPE",
    "STATES",
    "Advertiser",
    "Browser",
    "TableAd",
    "find_tables",
    "lan_addresses",
]

log = logging.getLogger(__name__)

#: The mDNS service type every doubtlan table is advertised under.
SERVICE_TYPE = "_doubtlan._tcp.local."

#: What a table may be doing: waiting for players, playing, or finished.
STATES = ("lobby", "playing", "over")

#: A DNS label holds at most 63 bytes, and an instance name is one label.
MAX_NAME_BYTES = 63
#: The longest name an :class:`Advertiser` accepts: room is left for a suffix such as "-12".
MAX_ADVERTISED_NAME_BYTES = MAX_NAME_BYTES - 4
MAX_RULES = 128
MAX_SEATS = 64
MAX_VERSION = 65535

#: Seconds the records of a table live in a browser's cache. zeroconf's default for TXT and
#: PTR records is 75 minutes, far too long for the table of a host that crashed without
#: saying goodbye. (python-zeroconf browsers raise a PTR's TTL to at least 1125 s, so there a
#: dead table still lingers for up to 19 minutes.)
RECORD_TTL = 120
#: How long a browser waits for a table's records once it has heard of it, in milliseconds.
RESOLVE_TIMEOUT_MS = 3000
#: How long an :class:`Advertiser` browses for the tables already on the network before it
#: picks its name, in milliseconds. zeroconf sends the first query 20 to 120 ms in, and a
#: python-zeroconf table answers that (QU) query at once, so this leaves over 100 ms for the
#: answers to arrive.
NAME_CHECK_MS = 250

_GAME = re.compile(r"[a-z][a-z0-9_-]{0,15}")
_RULES = re.compile(r"[\x20-\x7e]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_KEYS = ("v", "name", "game", "rules", "taken", "seats", "state", "pin")


@dataclass(frozen=True)
class TableAd:
    """What a table tells the network about itself.

    Every instance is valid: the constructor raises :class:`ValueError` on a bad field. ``name``
    is the table's name when advertising and the unique instance name when browsed, so two
    tables that asked for the same name are told apart. ``addresses`` are IPv4 addresses.
    """

    name: str
    port: int
    addresses: tuple[str, ...]
    version: int
    game: str
    rules: str
    taken: int
    seats: int
    state: str
    pin: bool

    def __post_init__(self) -> None:
        # A list would make the ad unhashable; a tuple is what the field promises.
        object.__setattr__(self, "addresses", tuple(self.addresses))
        _check_name(self.name, "name")
        _check_int(self.port, "port", 1, 65535)
        for address in self.addresses:
            _ipv4(address)
        _check_int(self.version, "version", 1, MAX_VERSION)
        if not isinstance(self.game, str) or not _GAME.fullmatch(self.game):
            raise ValueError(f"game must be 1 to 16 of a-z, 0-9, _ and -, not {self.game!r:.40}")
        if not isinstance(self.rules, str) or not _RULES.fullmatch(self.rules):
            raise ValueError(f"rules must be printable ASCII, not {self.rules!r:.40}")
        if len(self.rules) > MAX_RULES:
            raise ValueError(f"rules must be at most {MAX_RULES} characters")
        _check_int(self.seats, "seats", 1, MAX_SEATS)
        _check_int(self.taken, "taken", 0, self.seats)
        if self.state not in STATES:
            raise ValueError(f"state must be one of {', '.join(STATES)}, not {self.state!r:.40}")
        if not isinstance(self.pin, bool):
            raise ValueError(f"pin must be a bool, not {self.pin!r:.40}")

    def properties(self) -> dict[str, str]:
        """The TXT properties that advertise this table: short keys, short values."""
        return {
            "v": str(self.version),
            "name": self.name,
            "game": self.game,
            "rules": self.rules,
            "taken": str(self.taken),
            "seats": str(self.seats),
            "state": self.state,
            "pin": "1" if self.pin else "0",
        }

    @classmethod
    def from_properties(
        cls,
        name: str,
        port: int,
        addresses: Iterable[str],
        properties: Mapping[bytes, bytes | None],
    ) -> TableAd:
        """The table a resolved advert describes, checked as the untrusted input it is.

        ``name`` is the instance name, ``properties`` the TXT properties as zeroconf gives them.
        Raises :class:`ValueError` naming the first problem: a missing or empty key, a value
        that is not UTF-8, not a plain decimal number, out of range or too long. Unknown keys
        are ignored, so later versions may add some.
        """
        try:
            text = {key: _text(properties, key) for key in _KEYS}
            _check_name(text["name"], "TXT name")
            return cls(
                name=name,
                port=port,
                addresses=tuple(addresses),
                version=_number(text["v"], "v"),
                game=text["game"],
                rules=text["rules"],
                taken=_number(text["taken"], "taken"),
                seats=_number(text["seats"], "seats"),
                state=text["state"],
                pin=_flag(text["pin"], "pin"),
            )
        except ValueError as error:
            raise ValueError(f"malformed table advert {name!r:.80}: {error}") from None


def _text(properties: Mapping[bytes, bytes | None], key: str) -> str:
    value = properties.get(key.encode())
    if value is None:
        raise ValueError(f"TXT key {key!r} is missing or has no value")
    if len(value) > 255:  # a TXT string cannot be longer; anything else is not from zeroconf
        raise ValueError(f"TXT key {key!r} is too long")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"TXT key {key!r} is not UTF-8") from None


def _number(text: str, key: str) -> int:
    # int() would also take " 7", "+7", "7_000" and other digits than ASCII ones.
    if not (text.isascii() and text.isdigit() and len(text) <= 5):
        raise ValueError(f"TXT key {key!r} must be a decimal number, not {text!r:.20}")
    return int(text)


def _flag(text: str, key: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError(f"TXT key {key!r} must be 0 or 1, not {text!r:.20}")
    return text == "1"


def _check_name(name: object, what: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{what} must be a non-empty string")
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise ValueError(f"{what} must be at most {MAX_NAME_BYTES} bytes of UTF-8")
    if _CONTROL.search(name):
        raise ValueError(f"{what} must not hold control characters")


def _check_int(value: object, what: str, low: int, high: int) -> None:
    # bool is an int, but True seats is a bug, not a number.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {value!r:.20}")


def _ipv4(address: str) -> ipaddress.IPv4Address:
    try:
        return ipaddress.IPv4Address(address)
    except ValueError:
        raise ValueError(f"{address!r:.60} is not an IPv4 address") from None


def _is_lan(address: ipaddress.IPv4Address) -> bool:
    return not (
        address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or address.is_multicast
    )


def _machine_ipv4() -> list[tuple[int, str]]:
    """Every IPv4 address of this machine, with its interface's index."""
    return [
        (adapter.index or 0, ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str)  # ifaddr gives IPv6 addresses as tuples
    ]


def lan_addresses() -> list[str]:
    """This machine's private IPv4 addresses (the ranges home and office networks use),
    other than loopback and link-local ones. A table on any other address is advertised
    only when the host asks for it (``--advertise``).

    In the order of their interfaces, then of the addresses, so the same on every call while
    the interfaces stay the same.
    """
    found = {(index, ipaddress.IPv4Address(address)) for index, address in _machine_ipv4()}
    return [
        str(address) for _, address in sorted(found) if _is_lan(address) and address.is_private
    ]


def _advertisable(addresses: Sequence[str]) -> tuple[str, ...]:
    """The addresses, checked: IPv4, each once, and none a players' machine could not reach."""
    checked: list[str] = []
    for address in addresses:
        ip = _ipv4(address)
        if ip.is_loopback:
            raise ValueError(
                f"refusing to advertise loopback address {address}: "
                "players on other machines cannot reach it"
            )
        if ip.is_unspecified or ip.is_multicast:
            raise ValueError(f"{address} is not the address of an interface")
        if str(ip) not in checked:
            checked.append(str(ip))
    return tuple(checked)


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
        addresses = _advertisable(ad.addresses or lan_addresses())
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
        mine = {address for _, address in _machine_ipv4()}
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
        if ad.addresses and _advertisable(ad.addresses) != self._ad.addresses:
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
        label = _instance_label(name)
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

    async def __aenter__(self) -> Self:
        if self._aiozc is not None:
            raise RuntimeError("a Browser can be opened only once")
        interfaces = self._interfaces if self._interfaces is not None else lan_addresses()
        for address in interfaces:
            _ipv4(address)
        if not interfaces:
            raise RuntimeError("this machine has no LAN address to look for tables on")
        self._aiozc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        self._browser = AsyncServiceBrowser(
            self._aiozc.zeroconf, SERVICE_TYPE, handlers=[self._on_service_state_change]
        )
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop browsing and resolving, and close zeroconf. Safe to call twice."""
        browser, aiozc = self._browser, self._aiozc
        self._browser = None
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
        label = _instance_label(name)
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
        if not await info.async_request(self._aiozc.zeroconf, RESOLVE_TIMEOUT_MS):
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


def _instance_label(name: str) -> str | None:
    """The instance name in a full service name of our type, or None for anything else."""
    suffix = "." + SERVICE_TYPE
    if len(name) <= len(suffix) or not name.lower().endswith(suffix):
        return None
    return name[: -len(suffix)]


async def find_tables(timeout: float, interfaces: list[str] | None = None) -> list[TableAd]:
    """The tables seen while browsing for ``timeout`` seconds, sorted by name.

    ``interfaces`` are the IPv4 addresses to browse on (default :func:`lan_addresses`).
    """
    async with Browser(interfaces) as browser:
        await asyncio.sleep(timeout)  # browsing for a while is the point, not a wait for a state
        return sorted(browser.tables.values(), key=lambda ad: (ad.name.casefold(), ad.name))
