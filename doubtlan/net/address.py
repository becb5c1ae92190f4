"""Addresses as players type them: ``HOST``, ``HOST:PORT``, ``[IPv6]`` or ``[IPv6]:PORT``."""

from __future__ import annotations

import ipaddress

#: The port a host listens on unless told otherwise.
DEFAULT_PORT = 47474


def parse_address(text: str) -> tuple[str, int]:
    """``(host, port)`` from ``text``; ValueError with a sentence for the player.

    >>> parse_address("192.168.1.20")
    ('192.168.1.20', 47474)
    >>> parse_address("[::1]:5000")
    ('::1', 5000)
    """
    host, port = text.strip(), str(DEFAULT_PORT)
    if host.startswith("["):
        inside, closed, rest = host[1:].partition("]")
        if not closed or (rest and not rest.startswith(":")):  # ("[::1]x", "[::1")
            raise ValueError(f"expected HOST[:PORT] or [IPv6]:PORT, got {text!r}")
        host = inside
        if rest.startswith(":"):
            port = rest[1:]
    elif host.count(":") == 1:
        host, port = host.split(":")
    if not host or not host.isprintable() or " " in host:
        raise ValueError(f"expected HOST[:PORT], got {text!r}")
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) <= 65535:
        raise ValueError(f"a port is 1 to 65535, not {port!r}")
    return host, int(port)


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``address`` as the socket gives it (a scope after ``%`` left out), read; None if it
    is no IP address. An IPv4 address mapped into IPv6 is read as the IPv4 one."""
    try:
        found = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return None
    mapped = getattr(found, "ipv4_mapped", None)
    return mapped or found


def is_loopback(address: str) -> bool:
    """Whether ``address`` (a peer's, as the socket gives it) is this machine's loopback.

    >>> is_loopback("127.0.0.1"), is_loopback("::ffff:127.0.0.1"), is_loopback("10.0.0.2")
    (True, True, False)
    """
    found = _ip(address)
    return found is not None and found.is_loopback


def counted_as(address: str) -> str:
    """What the PIN's limits count an address as: itself, or for IPv6 its /64 (one device
    may take any number of addresses in its network's /64).

    >>> counted_as("10.0.0.2"), counted_as("::ffff:10.0.0.2"), counted_as("fd00:1::99")
    ('address 10.0.0.2', 'address 10.0.0.2', 'address fd00:1::/64')
    """
    found = _ip(address)
    if found is None:
        return f"address {address}"
    if isinstance(found, ipaddress.IPv6Address):
        return f"address {ipaddress.IPv6Network((found, 64), strict=False)}"
    return f"address {found}"
