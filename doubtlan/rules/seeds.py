"""Seeds and the deterministic shuffle.

A seed is bytes. Integers and strings are accepted for convenience and turned into bytes the
same way everywhere (their decimal or UTF-8 text). No seed means 32 bytes from the operating
system (:mod:`secrets`), never the clock.

The shuffle is a Fisher-Yates shuffle driven by HMAC-SHA256 in counter mode, with rejection
sampling so that every order is equally likely. It depends on nothing but the seed, so a game
replays the same on every machine and every Python version.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import itertools
import secrets
import struct
from collections.abc import Iterator, MutableSequence
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


def _words(key: bytes) -> Iterator[int]:
    """Uniform 32-bit numbers: HMAC-SHA256(key, counter) for counter 0, 1, 2..., each block
    read as eight big-endian words."""
    keyed = hmac.new(key, digestmod=hashlib.sha256)  # keyed once; each block starts a copy
    for counter in itertools.count():
        block = keyed.copy()
        block.update(counter.to_bytes(8, "big"))
        yield from _EIGHT_WORDS.unpack(block.digest())


_EIGHT_WORDS = struct.Struct(">8I")


def shuffle(items: MutableSequence[T], seed: bytes) -> None:
    """Shuffle ``items`` in place, the same way for the same seed.

    For each position from the last down, a word is drawn until it falls below the largest
    multiple of the number of choices that fits in 32 bits, so that every choice is equally
    likely; the choice is that word modulo the number of choices.
    """
    i = len(items) - 1  # the position to fill next: a choice among i + 1
    if i < 1:
        return
    limits = _limits(i + 1)
    for word in _words(seed):
        if word < limits[i]:  # (else rejected: the next word is drawn for the same i)
            j = word % (i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1
            if i == 0:
                return


@functools.cache
def _limits(size: int) -> tuple[int, ...]:
    """For each i below ``size``, the largest multiple of i + 1 that fits in 32 bits: a
    word at or above it is rejected for a choice among i + 1 (made once for each size)."""
    return tuple(_WORDS - _WORDS % (i + 1) for i in range(size))


_WORDS = 1 << 32


def seal(seed: bytes, what: str) -> str:
    """The seal on a card laid face down: HMAC-SHA256 under the game's seed of ``what`` (the
    action's number in the game, the seat and the card), its first 16 bytes in hex. Nobody
    without the seed can tell the card from it; once the reveal gives the seed, a card other
    than the one laid gives another seal (docs/fairness.md: the reveal cannot rewrite which
    card was laid when)."""
    return hmac.digest(seed, b"doubtlan seal " + what.encode(), "sha256")[:16].hex()
