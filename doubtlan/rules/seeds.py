"""Seeds and the deterministic shuffle.

A seed is bytes. Integers and strings are accepted for convenience and turned into bytes the
same way everywhere (their decimal or UTF-8 text). No seed means 32 bytes from the operating
system (:mod:`secrets`), never the clock.

The shuffle is a Fisher-Yates shuffle driven by HMAC-SHA256 in counter mode, with rejection
sampling so that every order is equally likely. It depends on nothing but the seed, so a game
replays the same on every machine and every Python version.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence
from typing import TypeVar

Seed = int | str | bytes
T = TypeVar("T")


def seed_bytes(seed: Seed | None) -> bytes:
    """The bytes of ``seed``; fresh OS randomness when ``seed`` is None."""
    if seed is None:
        return secrets.token_bytes(32)
    if isinstance(seed, bool):
        raise TypeError("a seed is an int, str or bytes, not a bool")
    if isinstance(seed, int):
        return str(seed).encode()
    if isinstance(seed, str):
        return seed.encode()
    if isinstance(seed, bytes):
        return seed
    raise TypeError(f"a seed is an int, str or bytes, not {type(seed).__name__}")


def derive(seed: bytes, label: str) -> bytes:
    """A seed for one purpose (``"game 3"``, ``"bot 2"``) drawn from a parent seed."""
    return hmac.new(seed, b"doubtlan derive " + label.encode(), hashlib.sha256).digest()


class _Stream:
    """Uniform 32-bit numbers from HMAC-SHA256(key, counter)."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._block = b""
        self._at = 0

    def u32(self) -> int:
        if self._at >= len(self._block):
            self._block = hmac.new(
                self._key, self._counter.to_bytes(8, "big"), hashlib.sha256
            ).digest()
            self._counter += 1
            self._at = 0
        value = int.from_bytes(self._block[self._at : self._at + 4], "big")
        self._at += 4
        return value

    def below(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, by rejection (no modulo bias)."""
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            value = self.u32()
            if value < limit:
                return value % bound


def shuffle(items: MutableSequence[T], seed: bytes) -> None:
    """Shuffle ``items`` in place, the same way for the same seed."""
    stream = _Stream(seed)
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
