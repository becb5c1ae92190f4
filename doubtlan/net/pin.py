"""A table's PIN, proved both ways without sending it: SPAKE2 (the ``spake2`` package), inside
the TLS connection and bound to the certificate fingerprint the client saw.

The client knocks with its half of the exchange (``knock``); the host answers with its half
and a proof that it knows the PIN (``proof``); only when that proof holds does the client say
``hello``, carrying its own proof. A relay that ends the TLS connection with a certificate of
its own makes the two sides bind different fingerprints, so neither proof holds even when it
passes every byte on, and what it saw lets it test no PIN offline (docs/security.md). Each
knock is one guess at the PIN, counted by the host's PIN limits.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spake2 import SPAKE2_A

#: The two sides' names in the exchange.
CLIENT_SIDE, HOST_SIDE = b"doubtlan player", b"doubtlan host"


class NotTheTable(Exception):
    """The host could not prove that it is the table it claims to be. ``pin_may_be_wrong``:
    its proof of the PIN failed, which a wrong PIN given by the player looks like too (so
    the player may try the PIN again); otherwise another PIN changes nothing."""

    def __init__(self, why: str, *, pin_may_be_wrong: bool = False) -> None:
        # A mistyped PIN is far likelier than an attack: it is named first.
        first = "Wrong PIN, or not the real table" if pin_may_be_wrong else \
            "This is not the table it claims to be"
        super().__init__(f"{first}: {why}")
        self.pin_may_be_wrong = pin_may_be_wrong


def via_mark(key: bytes, browser: str, address: str) -> str:
    """What a browser seat's app tells the table of where it comes from, with its knock
    (``knock.via``): the browser (a digest of its cookie, never the cookie), its real
    address, and a MAC under ``key``, the table's own secret (``Table.via_key``), which only
    the host's web server (the same process) knows. It joins over loopback like every
    browser seat: the PIN's limits count it by browser and real address instead."""
    mac = hmac.new(key, f"{browser} {address}".encode(), hashlib.sha256).hexdigest()
    return f"{browser} {address} {mac}"


def via_keys(key: bytes, mark: str) -> tuple[str, str] | None:
    """The browser and real address ``mark`` (from :func:`via_mark`) holds, or None when it
    is not one the table's web server made."""
    parts = mark.split(" ")
    if len(parts) != 3:
        return None
    browser, address, _ = parts
    if not hmac.compare_digest(via_mark(key, browser, address), mark):
        return None
    return browser, address


def _proofs(key: bytes) -> tuple[bytes, bytes]:
    """What the host and the client each send to prove they hold ``key``."""
    return (hmac.new(key, b"host proof", hashlib.sha256).digest(),
            hmac.new(key, b"player proof", hashlib.sha256).digest())


class ClientExchange:
    """The client's side: :meth:`knock`, then :meth:`answer` the host's proof."""

    def __init__(self, pin: str, fingerprint: bytes) -> None:
        from spake2 import SPAKE2_A

        self._spake: SPAKE2_A = SPAKE2_A(pin.encode(), idA=CLIENT_SIDE,
                                         idB=HOST_SIDE + fingerprint)

    def knock(self) -> str:
        """The client's half, as the ``knock`` message carries it (hex)."""
        half: bytes = self._spake.start()
        return half.hex()

    def answer(self, half: str, proof: str) -> str:
        """Check the host's half and proof; the client's proof for its ``hello`` (hex).

        Raises :class:`NotTheTable` when the host did not prove it knows the PIN."""
        from spake2 import SPAKEError

        try:
            key: bytes = self._spake.finish(bytes.fromhex(half))
        except (ValueError, SPAKEError):
            raise NotTheTable("its answer to the PIN is not readable") from None
        host_proof, client_proof = _proofs(key)
        try:
            told = bytes.fromhex(proof)
        except ValueError:
            told = b""
        if not hmac.compare_digest(host_proof, told):
            raise NotTheTable("the host could not prove it knows the PIN given; check it with "
                              "the host", pin_may_be_wrong=True)
        return client_proof.hex()


class HostExchange:
    """The host's side of one knock: :attr:`half` and :attr:`proof` answer it, and
    :meth:`proved` checks the client's proof. ValueError for a knock that cannot be read."""

    def __init__(self, pin: str, fingerprint: bytes, knock: str) -> None:
        from spake2 import SPAKE2_B, SPAKEError

        spake = SPAKE2_B(pin.encode(), idA=CLIENT_SIDE, idB=HOST_SIDE + fingerprint)
        self.half = spake.start().hex()
        try:
            key = spake.finish(bytes.fromhex(knock))
        except SPAKEError as error:
            raise ValueError(f"a knock that cannot be read: {error!r}") from None
        host_proof, self._client_proof = _proofs(key)
        self.proof = host_proof.hex()

    def proved(self, proof: str | None) -> bool:
        """Whether ``proof`` (the client's, hex) shows it knows the PIN."""
        try:
            told = bytes.fromhex(proof) if proof is not None else b""
        except ValueError:
            return False
        return hmac.compare_digest(self._client_proof, told)
