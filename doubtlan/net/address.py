"""Addresses as players type them: ``HOST``, ``HOST:PORT``, ``[IPv6]`` or ``[IPv6]:PORT``."""

from __future__ import annotations

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


def is_loopback(address: str) -> bool:
    """Whether ``address`` (a peer's, as the socket gives it) is this machine's loopback.

    >>> is_loopback("127.0.0.1"), is_loopback("::ffff:127.0.0.1"), is_loopback("10.0.0.2")
    (True, True, False)
    """
    import ipaddress

    try:
        found = ipaddress.ip_address(address.partition("%")[0])
    except ValueError:
        return False
    mapped = getattr(found, "ipv4_mapped", None)
    return bool((mapped or found).is_loopback)
