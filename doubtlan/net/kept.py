"""The seats this user holds, kept so that a player whose program stopped (a quit by
mistake, a crash, a closed terminal) takes the same seat back by joining again.

Each seat is kept in ``seats.json`` in the user's data folder (readable by its owner only:
a seat's token takes the seat) under the table's key (its certificate's fingerprint) and the
name the player asked for: the seat's token, the seed it committed to, the match's
commitment and the table's name. ``doubtlan join`` (the app and ``--bot``) looks there
before it says hello; a seat the table no longer knows is forgotten (docs/app.md). A file
that cannot be read or written never stops anyone from playing: it is treated as empty.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from .folder import doubtlan_folder, write_private

#: The file in the user's data folder.
FILE_NAME = "seats.json"
#: Seats kept at most (the oldest are forgotten first).
MOST = 64


@dataclass(frozen=True)
class Kept:
    """One seat: where (``fingerprint``, and the match's ``commitment``), who asked for it
    (``name``), and what takes it back (``token``, the ``seed`` its hello committed to, and
    the ``key`` it signs with; hexadecimal). ``table``: the table's name, for the player to read."""

    fingerprint: str
    name: str
    commitment: str
    token: str
    seed: str
    table: str = ""
    kept: float = 0.0
    #: The key the seat's player signs with (net/signing.py), hexadecimal ("": none kept).
    key: str = ""


class KeptSeats:
    """The seats kept in ``where`` (by default the user's data folder's ``seats.json``)."""

    def __init__(self, where: Path | None = None) -> None:
        self.where = where or doubtlan_folder() / FILE_NAME

    def find(self, fingerprint: bytes, name: str) -> Kept | None:
        """The seat kept at the table of this key for this player's name, if any."""
        return self._read().get(_key(fingerprint.hex(), name))

    def holds(self, fingerprint: str, commitment: str, name: str | None = None) -> bool:
        """Whether a seat is kept at this table's match (hexadecimal, as adverts give them),
        for ``name`` when given: joining under that name takes it back."""
        return any(kept.fingerprint == fingerprint and kept.commitment == commitment
                   and (name is None or kept.name == name) for kept in self._read().values())

    def keep(self, kept: Kept) -> None:
        seats = self._read()
        key = _key(kept.fingerprint, kept.name)
        seats.pop(key, None)
        seats[key] = Kept(**{**asdict(kept), "kept": time.time()})
        while len(seats) > MOST:
            del seats[next(iter(seats))]
        self._write(seats)

    def forget(self, fingerprint: bytes, name: str) -> None:
        seats = self._read()
        if seats.pop(_key(fingerprint.hex(), name), None) is not None:
            self._write(seats)

    def _read(self) -> dict[str, Kept]:
        try:
            data = json.loads(self.where.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        seats: dict[str, Kept] = {}
        for item in data if isinstance(data, list) else []:
            try:
                kept = Kept(**item)
            except TypeError:
                continue  # a line that does not read: left out
            texts = (kept.fingerprint, kept.name, kept.commitment, kept.token, kept.seed,
                     kept.table, kept.key)
            if all(isinstance(text, str) for text in texts):
                seats[_key(kept.fingerprint, kept.name)] = kept
        return seats

    def _write(self, seats: dict[str, Kept]) -> None:
        with contextlib.suppress(OSError):
            text = json.dumps([asdict(kept) for kept in seats.values()], indent=1)
            write_private(self.where, text.encode("utf-8"))


def _key(fingerprint: str, name: str) -> str:
    return f"{fingerprint} {name}"
