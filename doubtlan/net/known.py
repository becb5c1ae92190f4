"""The tables this user has joined, and the key each presented: trust on first use.

The first time a client joins a table of some name, it remembers the fingerprint of the key
that table presented (in ``known-tables.json`` in the user's data folder). When a table of
that name later presents another key, the client warns loudly: it may be another machine
claiming that table's name (docs/security.md). The first key stays the one remembered until
the user removes the line from the file.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

from .folder import doubtlan_folder, write_private
from .identity import words

#: The file in the user's data folder.
FILE_NAME = "known-tables.json"
#: Tables remembered at most (the oldest are forgotten first).
MOST = 1000


@dataclass(frozen=True)
class Check:
    """What the remembered key says of a table's key: ``new`` (never joined: now
    remembered), ``same``, or ``changed`` (``remembered`` is the key seen before)."""

    verdict: str
    fingerprint: bytes
    remembered: bytes = b""

    @property
    def warning(self) -> str:
        """The loud warning for a changed key ("" otherwise)."""
        if self.verdict != "changed":
            return ""
        return (f"WARNING: this table's key is not the one it had when you last joined a table "
                f"of this name (then: {words(self.remembered)}; now: {words(self.fingerprint)}). "
                f"It may be another machine using its name: compare the key's words with the "
                f"host's screen. (If the host made a new key, remove the name from "
                f"{path()}.)")


def path() -> Path:
    return doubtlan_folder() / FILE_NAME


def check(name: str, fingerprint: bytes, where: Path | None = None) -> Check:
    """Check ``name``'s ``fingerprint`` against the one remembered, remembering it when it
    is the first. A file that cannot be read or written is treated as empty (and the
    check says ``new``): it must never stop anyone from playing."""
    where = where or path()
    known = _read(where)
    before = known.get(name)
    if before is not None:
        try:
            remembered = bytes.fromhex(before)
        except ValueError:
            remembered = b""
        if remembered == fingerprint:
            return Check("same", fingerprint)
        if remembered:
            return Check("changed", fingerprint, remembered)
    known[name] = fingerprint.hex()
    while len(known) > MOST:
        del known[next(iter(known))]
    _write(where, known)
    return Check("new", fingerprint)


def _read(where: Path) -> dict[str, str]:
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def _write(where: Path, known: dict[str, str]) -> None:
    with contextlib.suppress(OSError):
        write_private(where, json.dumps(known, indent=1, ensure_ascii=False).encode("utf-8"))
