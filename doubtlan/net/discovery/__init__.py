"""Finding tables on the LAN: a host advertises its table over mDNS, players browse for it.

A table is a ``_doubtlan._tcp.local.`` service (:data:`SERVICE_TYPE`). Its instance name is the
table's name, made unique on a conflict with the tables already on the network (``"Kitchen"``
may become ``"Kitchen-2"``), and its TXT properties say what the table plays and how full it is
(:class:`TableAd`).

What arrives from the network is untrusted: :meth:`TableAd.from_properties` checks every field,
and a :class:`Browser` leaves out adverts that fail. Zeroconf only ever runs on the addresses
given (or the machine's LAN addresses), never on loopback.

This package uses only the standard library, zeroconf and ifaddr, so that the rest of doubtlan
can take it or leave it. Its modules:

- ``ad``: :class:`TableAd`, the TXT properties and their checks
- ``addresses``: this machine's LAN addresses, and those a table may be advertised at
- ``advertiser``: :class:`Advertiser`, a table on the network under a unique name
- ``browser``: :class:`Browser` and :func:`find_tables`, the tables on the network

Each constant is read in the module that defines it; change it there.
"""

from .ad import MAX_NAME_BYTES, MAX_RULES, MAX_SEATS, MAX_VERSION, SERVICE_TYPE, STATES, TableAd
from .addresses import lan_addresses
from .advertiser import MAX_ADVERTISED_NAME_BYTES, NAME_CHECK_MS, RECORD_TTL, Advertiser
from .browser import RESOLVE_TIMEOUT_MS, Browser, find_tables

__all__ = [
    "MAX_ADVERTISED_NAME_BYTES",
    "MAX_NAME_BYTES",
    "MAX_RULES",
    "MAX_SEATS",
    "MAX_VERSION",
    "NAME_CHECK_MS",
    "RECORD_TTL",
    "RESOLVE_TIMEOUT_MS",
    "SERVICE_TYPE",
    "STATES",
    "Advertiser",
    "Browser",
    "TableAd",
    "find_tables",
    "lan_addresses",
]
