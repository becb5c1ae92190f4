"""Memory the host freed, given back to the system.

Each TLS connection holds buffers of a few hundred KiB while it is open (asyncio's SSL
layer reads into 256 KiB), so a burst of connections that the host lets go (a slowloris
attack, a flood of connections that never say hello) leaves that much freed in the C
library's heap. glibc keeps freed memory for the process unless it lies at the heap's top,
so the host's resident memory would stay where the burst left it; ``malloc_trim`` hands
whole free pages back to the system (bench/attack.py, ``memory`` and ``web``: docs/
architecture.md, "Limits"). Elsewhere (macOS, Windows, other C libraries) there is no such
call, and nothing is done: their allocators give back what they can by themselves.
"""

from __future__ import annotations

import ctypes
import functools
import sys
from collections.abc import Callable


@functools.cache
def _trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # glibc only
    except (OSError, AttributeError):  # (musl has none)
        return None
    return trim


def give_back() -> bool:
    """Give the system back the free pages of the C library's heap (glibc's
    ``malloc_trim``); whether there was a way to (a fraction of a millisecond)."""
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
