"""Each seat's key, and what a seat signs with it (docs/security.md, "Signed moves and
words").

A client makes an Ed25519 key (``cryptography``) for the seat it sits down in, gives the
public half in its ``hello``, and keeps the key with the seat for its return (net/kept.py).
Every action it sends (``act``) and every line it says (``say``) carries its signature over
what it means: the table's match (its commitment), the game, the decision and the action;
or the line and its number. The host relays the signatures (``said``, ``reveal``) and
journals them, every other client checks them, and ``doubtlan verify`` checks the journal's:
an action or a line labelled as a player's that the player's key did not sign is a problem.
The host can still withhold a move or a line; it cannot make one up.
"""

from __future__ import annotations

import functools

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

#: Bytes in a key's secret, a public key, a signature.
SECRET_BYTES, PUBLIC_BYTES, SIGNATURE_BYTES = 32, 32, 64


def act_text(match: str, game: int, decision: int, action: str) -> bytes:
    """What a seat signs when it plays ``action`` at ``decision`` of game ``game`` of the
    match whose commitment is ``match`` (hexadecimal): the same action at another moment,
    in another game or at another table is another text."""
    return f"doubtlan act\n{match}\n{game}\n{decision}\n{action}".encode()


def say_text(match: str, number: int, line: str) -> bytes:
    """What a seat signs when it says ``line`` as its line ``number`` (each of a seat's
    lines has a greater number than the one before: a line said once is relayed once)."""
    return f"doubtlan say\n{match}\n{number}\n{line}".encode()


class SeatKey:
    """A seat's key: signs for the seat; ``public`` (hexadecimal) is what the table shows."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._key = Ed25519PrivateKey.generate() if secret is None \
            else Ed25519PrivateKey.from_private_bytes(secret)
        self.public = self._key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()

    @property
    def secret(self) -> bytes:
        """The key itself, to keep with the seat (readable by its owner only)."""
        return self._key.private_bytes(serialization.Encoding.Raw,
                                       serialization.PrivateFormat.Raw,
                                       serialization.NoEncryption())

    @classmethod
    def from_hex(cls, text: str) -> SeatKey | None:
        """The key kept as ``text`` (None: it does not read as one)."""
        try:
            secret = bytes.fromhex(text)
            return cls(secret) if len(secret) == SECRET_BYTES else None
        except ValueError:
            return None

    def sign(self, text: bytes) -> str:
        """The signature of ``text``, in hexadecimal."""
        return self._key.sign(text).hex()


@functools.lru_cache(maxsize=64)
def _public(public: str) -> Ed25519PublicKey | None:
    try:
        raw = bytes.fromhex(public)
        return Ed25519PublicKey.from_public_bytes(raw) if len(raw) == PUBLIC_BYTES else None
    except ValueError:
        return None


def readable(public: str) -> bool:
    """Whether ``public`` (hexadecimal) is an Ed25519 public key."""
    return _public(public.lower()) is not None


def signed(public: str | None, text: bytes, signature: str | None) -> bool:
    """Whether ``signature`` (hexadecimal) is the signature of ``text`` by the key whose
    public half is ``public``."""
    if not public or not signature:
        return False
    return _signed(public, text, signature)


@functools.lru_cache(maxsize=4096)
def _signed(public: str, text: bytes, signature: str) -> bool:
    """(A signature checked once in a process is not checked again: the host and the
    clients of one process, the same reveal sent again.)"""
    key = _public(public)
    try:
        raw = bytes.fromhex(signature)
    except ValueError:
        return False
    if key is None or len(raw) != SIGNATURE_BYTES:
        return False
    try:
        key.verify(raw, text)
    except InvalidSignature:
        return False
    return True


def signed_by_any(publics: frozenset[str] | set[str], text: bytes,
                  signature: str | None) -> bool:
    """Whether one of ``publics`` signed ``text`` (a seat a newcomer took has had two)."""
    return any(signed(public, text, signature) for public in publics)
