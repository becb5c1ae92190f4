"""The tables this user has joined, and the key each presented: trust on first use.

The first time a client joins a table of some name, it remembers the fingerprint of the key
that table presented (in ``known-tables.json`` in the user's data folder). When a table of
that name later presents another key, the client refuses it, as SSH does: it may be another
machine claiming that table's name, a relay in the middle (docs/security.md). It says
nothing to that table beyond its hello (no seed, no move). The player may take the new key
(the app asks, with "Don't join" as the default; the command line takes
``--accept-new-key``): it is then the one remembered.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

from .folder import doubtlan_folder, write_private
from .identity import words
from .pin import NotTheTable

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



class KeyChanged(NotTheTable):
    """A table of a name this user has joined before presents another key: refused."""

    def __init__(self, name: str, remembered: bytes, fingerprint: bytes,
                 hint: str = "") -> None:
        self.name, self.remembered, self.fingerprint = name, remembered, fingerprint
        super().__init__(
            f"the table {name!r} had another key when you last joined it (then: "
            f"{words(remembered)}; now: {words(fingerprint)}). It may be another machine "
            f"using its name, or a relay in the middle: compare the key's words with the "
            f"host's screen{hint}")


def refuse_changed(name: str, fingerprint: bytes, *, accept: bool = False,
                   where: Path | None = None, hint: str = "") -> bool:
    """Check a table's key against the one remembered for its name: :class:`KeyChanged`
    when it is another, unless ``accept`` (the new key is remembered then, and the answer
    is True: it changed)."""
    found = check(name, fingerprint, where)
    if found.verdict != "changed":
        return False
    if not accept:
        raise KeyChanged(name, found.remembered, fingerprint, hint)
    remember(name, fingerprint, where)
    return True


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
    _remember(where, known, name, fingerprint)
    return Check("new", fingerprint)


def remember(name: str, fingerprint: bytes, where: Path | None = None) -> None:
    """Take ``fingerprint`` as the key of the table ``name`` from now on."""
    where = where or path()
    _remember(where, _read(where), name, fingerprint)


def _remember(where: Path, known: dict[str, str], name: str, fingerprint: bytes) -> None:
    known.pop(name, None)  # (the newest last: the oldest are forgotten first)
    known[name] = fingerprint.hex()
    while len(known) > MOST:
        del known[next(iter(known))]
    _write(where, known)


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
