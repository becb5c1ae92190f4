"""The host's journal: the table's set-up, its seats, the secret material of every deal and
every action the game accepted, on disk before anyone is told of them. A host that crashes
(even ``kill -9``) loses nothing: ``doubtlan host --resume`` reads the journal and plays on
(:meth:`~doubtlan.net.table.Table.resume`); ``doubtlan verify`` checks a journal's deals and
games (:func:`verify`).

The file starts with :data:`MAGIC`, then records. A record is a 4-byte big-endian length, the
CRC-32 of the body (4 bytes, big-endian), and the body: one msgpack map whose ``t`` says what
it is (docs/journal.md lists them). The journal ends at the first record whose length,
checksum or body does not read: the last write, torn by a crash, is ignored.
"""

from __future__ import annotations

import os
import struct
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

MAGIC = b"doubtlan journal 1\n"
HEADER = struct.Struct(">II")
#: The longest record a journal may hold (a seats record of 16 seats is far smaller).
MAX_RECORD = 1 << 20


class JournalError(Exception):
    """A journal that cannot be used: the message says why, in a sentence for people."""


@dataclass
class Contents:
    """What a journal holds: its records, and how many bytes of it are whole."""

    records: list[dict[str, Any]]
    good: int
    #: Bytes after the whole records (a torn last write), ignored.
    torn: int


def read(path: Path) -> Contents:
    """The whole records of the journal at ``path``."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise JournalError(f"cannot read the journal {path}: {error.strerror}") from None
    if not data.startswith(MAGIC):
        raise JournalError(f"{path} is not a doubtlan journal")
    records = []
    offset = len(MAGIC)
    for record, end in _records(data, offset):
        records.append(record)
        offset = end
    return Contents(records, offset, len(data) - offset)


def _records(data: bytes, offset: int) -> Iterator[tuple[dict[str, Any], int]]:
    while offset + HEADER.size <= len(data):
        length, checksum = HEADER.unpack_from(data, offset)
        start = offset + HEADER.size
        end = start + length
        if length > MAX_RECORD or end > len(data):
            return
        body = data[start:end]
        if zlib.crc32(body) != checksum:
            return
        try:
            record = msgpack.unpackb(body, raw=False, strict_map_key=True)
        except (ValueError, msgpack.UnpackException):
            return
        if not isinstance(record, dict) or not isinstance(record.get("t"), str):
            return
        yield record, end
        offset = end


class Journal:
    """A journal open for appending. :meth:`append` buffers a record; :meth:`sync` puts every
    record appended so far on the disk (flushed and fsynced), and the table calls it before
    it hands anything to the network."""

    def __init__(self, path: Path, file: BinaryIO) -> None:
        self.path = path
        self._file = file
        self._dirty = False

    @classmethod
    def create(cls, path: Path) -> Journal:
        """A new journal at ``path`` (which must not exist: a journal is never overwritten)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            file = open(path, "xb")  # noqa: SIM115 (closed by close())
        except FileExistsError:
            raise JournalError(f"{path} already exists; --resume {path} goes on with it, "
                               "or give another --journal") from None
        except OSError as error:
            raise JournalError(f"cannot create the journal {path}: {error.strerror}") from None
        file.write(MAGIC)
        journal = cls(path, file)
        journal._dirty = True
        return journal

    @classmethod
    def reopen(cls, path: Path, good: int) -> Journal:
        """The journal at ``path``, cut after its ``good`` bytes (a torn last write goes),
        to go on appending."""
        try:
            file = open(path, "r+b")  # noqa: SIM115 (closed by close())
            file.truncate(good)
            file.seek(good)
        except OSError as error:
            raise JournalError(f"cannot write the journal {path}: {error.strerror}") from None
        journal = cls(path, file)
        journal._dirty = True
        journal.sync()
        return journal

    def append(self, record: dict[str, Any]) -> None:
        body = msgpack.packb(record, use_bin_type=True)
        self._file.write(HEADER.pack(len(body), zlib.crc32(body)) + body)
        self._dirty = True

    def sync(self) -> None:
        if self._dirty:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._dirty = False

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
            self._file.close()


def data_folder() -> Path:
    """Where journals go by default: ``$XDG_DATA_HOME/doubtlan/journals`` (or
    ``~/.local/share/doubtlan/journals``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "doubtlan" / "journals"


def new_path(table: str) -> Path:
    """A fresh journal's path in the data folder, named after the time and the table."""
    safe = "".join(c if c.isalnum() else "-" for c in table.casefold()).strip("-")[:32]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = data_folder()
    path = folder / f"{stamp}-{safe or 'table'}.journal"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{safe or 'table'}-{n}.journal"
        n += 1
    return path


def latest() -> Path:
    """The newest journal in the data folder (for ``--resume`` without a path)."""
    folder = data_folder()
    found = sorted(folder.glob("*.journal"), key=lambda p: p.stat().st_mtime) \
        if folder.is_dir() else []
    if not found:
        raise JournalError(f"no journal to resume in {folder}")
    return found[-1]
