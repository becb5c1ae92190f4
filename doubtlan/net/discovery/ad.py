"""What a table tells the network about itself (:class:`TableAd`): the mDNS service type
every table is advertised under, the TXT properties, and the checks that every advert read
from the network passes (it is untrusted input).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: The mDNS service type every doubtlan table is advertised under.
SERVICE_TYPE = "_doubtlan._tcp.local."

#: What a table may be doing: waiting for players, playing, or finished.
STATES = ("lobby", "playing", "over")

#: A DNS label holds at most 63 bytes, and an instance name is one label.
MAX_NAME_BYTES = 63
MAX_RULES = 128
MAX_SEATS = 64
MAX_VERSION = 65535

_GAME = re.compile(r"[a-z][a-z0-9_-]{0,15}")
_RULES = re.compile(r"[\x20-\x7e]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_KEYS = ("v", "name", "game", "rules", "taken", "seats", "state", "pin")
_FINGERPRINT = re.compile(r"[0-9a-f]{64}")


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
    #: The SHA-256 of the host's certificate, in hex ("" from a host that gives none): a
    #: client joining from this advert refuses a host that presents another.
    fingerprint: str = ""
    #: The host's commitment to the secrets of its deals (docs/fairness.md), in hex (""
    #: from a host that gives none): a client joining from this advert checks the deals
    #: against it, fixed before the client sent anything.
    commitment: str = ""

    def __post_init__(self) -> None:
        # A list would make the ad unhashable; a tuple is what the field promises.
        object.__setattr__(self, "addresses", tuple(self.addresses))
        _check_name(self.name, "name")
        _check_int(self.port, "port", 1, 65535)
        for address in self.addresses:
            ipv4(address)
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
        if not isinstance(self.fingerprint, str) or self.fingerprint and \
                not _FINGERPRINT.fullmatch(self.fingerprint):
            raise ValueError(f"fp must be 64 hex digits, not {self.fingerprint!r:.70}")
        if not isinstance(self.commitment, str) or self.commitment and \
                not _FINGERPRINT.fullmatch(self.commitment):
            raise ValueError(f"c must be 64 hex digits, not {self.commitment!r:.70}")

    @property
    def fingerprint_bytes(self) -> bytes | None:
        """The fingerprint a client joining from this advert expects (None: none given)."""
        return bytes.fromhex(self.fingerprint) if self.fingerprint else None

    @property
    def commitment_bytes(self) -> bytes | None:
        """The commitment a client joining from this advert expects (None: none given)."""
        return bytes.fromhex(self.commitment) if self.commitment else None

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
            **({"fp": self.fingerprint} if self.fingerprint else {}),
            **({"c": self.commitment} if self.commitment else {}),
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
                fingerprint=_text(properties, "fp") if b"fp" in properties else "",
                commitment=_text(properties, "c") if b"c" in properties else "",
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
    if not name.isprintable():  # (C1 controls, bidi overrides, zero-width characters...)
        raise ValueError(f"{what} must be printable, not {name!r:.80}")


def _check_int(value: object, what: str, low: int, high: int) -> None:
    # bool is an int, but True seats is a bug, not a number.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{what} must be a whole number from {low} to {high}, not {value!r:.20}")


def ipv4(address: str) -> ipaddress.IPv4Address:
    try:
        return ipaddress.IPv4Address(address)
    except ValueError:
        raise ValueError(f"{address!r:.60} is not an IPv4 address") from None


def instance_label(name: str) -> str | None:
    """The instance name in a full service name of our type, or None for anything else."""
    suffix = "." + SERVICE_TYPE
    if len(name) <= len(suffix) or not name.lower().endswith(suffix):
        return None
    return name[: -len(suffix)]
