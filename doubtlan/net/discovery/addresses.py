"""Which addresses a table may be advertised at and browsed on: this machine's private IPv4
addresses (:func:`lan_addresses`), never loopback."""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

import ifaddr

from .ad import ipv4


def _is_lan(address: ipaddress.IPv4Address) -> bool:
    return not (
        address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or address.is_multicast
    )


def machine_ipv4() -> list[tuple[int, str]]:
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
    found = {(index, ipaddress.IPv4Address(address)) for index, address in machine_ipv4()}
    return [
        str(address) for _, address in sorted(found) if _is_lan(address) and address.is_private
    ]


def advertisable(addresses: Sequence[str]) -> tuple[str, ...]:
    """The addresses, checked: IPv4, each once, and none a players' machine could not reach."""
    checked: list[str] = []
    for address in addresses:
        ip = ipv4(address)
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
