"""The host's journal: the table's set-up, its seats, the secret material of every deal and
every action the game accepted, on disk before anyone is told of them. A host that crashes
(even ``kill -9``) loses nothing: ``doubtlan host --resume`` reads the journal and plays on
(:meth:`~doubtlan.net.table.Table.resume`); ``doubtlan verify`` checks a journal's deals and
games (:func:`verify`).

The file starts with :data:`MAGIC`, then records. A record is a 4-byte big-endian length, a
16-byte link and the body: one msgpack map whose ``t`` says what it is (docs/journal.md lists
them). The links make a hash chain: each is SHA-256 of the link before it and the body, so a
record changed, left out, repeated or moved breaks the chain where it happened. A record that
does not read with nothing readable after it is the last write, torn by a crash, and is
ignored; one with whole records after it is damage (:attr:`Contents.damage`). A table that
closes its journal ends it with a ``closed`` record, so a journal cut short shows.

Both readers of a journal play its games again with one :class:`Replay`: the table resuming
refuses a journal at its first fault, ``verify`` notes each fault and reads on.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import struct
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from ..rules import Event, Game, IDoubtIt, Match
from ..rules.fairness import deal_seed
from .folder import FILE_MODE, folder_binary, journals_folder, private_folder

with warnings.catch_warnings():
    # Where the system has no flock (and is not Windows), filelock falls back to a lock
    # file that records its holder, and says so once: the journal's lock is as good there.
    warnings.filterwarnings("ignore", "only soft file lock", UserWarning)
    import filelock

MAGIC = b"doubtlan journal 2\n"
#: The first line of the journals of doubtlan before the hash chain, which this one refuses.
OLD_MAGIC = b"doubtlan journal 1\n"
#: How long a link of the chain is, in bytes.
LINK = 16
HEADER = struct.Struct(f">I{LINK}s")
#: The link before a journal's first record.
FIRST_LINK = hashlib.sha256(MAGIC).digest()[:LINK]
#: The longest record a journal may hold (a seats record of 16 seats is far smaller).
MAX_RECORD = 1 << 20
#: The game of a journal whose table record names none: journals from before the second
#: game were I Doubt It's.
UNNAMED_GAME = IDoubtIt.name


def advance(digest: bytes, events: Sequence[Event]) -> bytes:
    """The digest of a game's events after ``events`` (their wire form, after ``digest``):
    each action's record carries it, so an action left out, moved or changed shows."""
    from .protocol import CODEC

    body = msgpack.packb([CODEC.encode(event, Event) for event in events], use_bin_type=True)
    return hashlib.sha256(digest + body).digest()[:8]


class JournalError(Exception):
    """A journal that cannot be used: the message says why, in a sentence for people."""


def link(previous: bytes, body: bytes) -> bytes:
    """The chain's link for a record of ``body`` after the link ``previous``."""
    return hashlib.sha256(previous + body).digest()[:LINK]


@dataclass
class Contents:
    """What a journal holds: its records, and how many bytes of it are whole."""

    records: list[dict[str, Any]]
    good: int
    #: Bytes after the whole records, ignored: a torn last write, or damage.
    torn: int
    #: The link of the last whole record (the next record's ``previous``).
    link: bytes = FIRST_LINK
    #: None, or a sentence: a record that does not read with whole records after it.
    damage: str | None = None

    @property
    def closed(self) -> bool:
        """Whether the table closed the journal (nothing was cut off its end)."""
        return bool(self.records) and self.records[-1]["t"] == "closed"


def read(path: Path) -> Contents:
    """The whole records of the journal at ``path``."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise JournalError(f"cannot read the journal {path}: {error.strerror}") from None
    return parse(data, path)


def parse(data: bytes, path: Path) -> Contents:
    """The whole records of ``data``, the journal at ``path``."""
    if data.startswith(OLD_MAGIC):
        raise JournalError(f"{path} was written by an older doubtlan (journal version 1), "
                           "which this one does not read")
    if not data.startswith(MAGIC):
        raise JournalError(f"{path} is not a doubtlan journal")
    records = []
    offset, chain = len(MAGIC), FIRST_LINK
    while (found := _record(data, offset, chain)) is not None:
        record, offset, chain = found
        records.append(record)
    contents = Contents(records, offset, len(data) - offset, chain)
    after = _whole_after(data, offset)
    if after is not None:
        contents.damage = (f"{path} is damaged at byte {offset}: the record there does not "
                           f"read, and whole records follow it (from byte {after})")
    return contents


def _record(data: bytes, offset: int,
            previous: bytes) -> tuple[dict[str, Any], int, bytes] | None:
    """The record at ``offset`` after the link ``previous``, where it ends and its link;
    None unless it is whole and in the chain."""
    if offset + HEADER.size > len(data):
        return None
    length, stored = HEADER.unpack_from(data, offset)
    start = offset + HEADER.size
    end = start + length
    if length > MAX_RECORD or end > len(data):
        return None
    body = data[start:end]
    if link(previous, body) != stored:
        return None
    record = _body(body)
    return None if record is None else (record, end, stored)


def _whole_after(data: bytes, offset: int) -> int | None:
    """Where, after the record at ``offset`` that does not read, a whole record begins (one
    the record after it links to, or the journal's last); None if nowhere: what a torn
    write leaves. Every record's body begins with its ``t`` (:meth:`Journal.append`)."""
    start = offset
    while True:
        if start + HEADER.size <= len(data):
            length, stored = HEADER.unpack_from(data, start)
            end = start + HEADER.size + length
            if length <= MAX_RECORD and end <= len(data) and (
                    _record(data, end, stored) is not None
                    or start > offset and end == len(data) and _body(data[end - length:end])):
                return start
        key = data.find(b"\xa1t", start + HEADER.size + 2)  # a map's first key, "t"
        if key < 0:
            return None
        start = key - 1 - HEADER.size


def _body(body: bytes) -> dict[str, Any] | None:
    """The record ``body`` holds, if it reads as one."""
    try:
        record = msgpack.unpackb(body, raw=False, strict_map_key=True)
    except (ValueError, msgpack.UnpackException):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("t"), str):
        return None
    return record


class Replay:
    """A journal's games played again by the rules, record by record: what a ``seats``, a
    ``deal`` and an ``act`` record do. A reader calls the method for each record it reads,
    and checks around it what it checks (:meth:`Table.resume
    <doubtlan.net.table.Table.resume>`, :func:`verify`), the digest each action's record
    carries among them. A record that does not read raises what reading it raised
    (KeyError, TypeError, ValueError ...); an action the rules refuse, its RulesError.
    """

    def __init__(self, kind: type[Game[Any, Any]], players: int, options: Any) -> None:
        self.kind = kind
        #: The players and rules of the deals to come (the last ``seats`` record's).
        self.players = players
        self.options = options
        #: The game dealt last, its secret and the seats' seeds, and the digest of its
        #: events so far (:func:`advance`).
        self.game: Game[Any, Any] | None = None
        self.secret = b""
        self.seeds: tuple[bytes, ...] = ()
        self.digest = b""

    def seats(self, record: dict[str, Any]) -> None:
        """A ``seats`` record: the players and rules from now on."""
        self.players = record["players"]
        self.options = self.kind.options_type.parse(record["options"])

    def deal(self, record: dict[str, Any], match: Match | None = None) -> Game[Any, Any]:
        """A ``deal`` record: its game, dealt from its secret and the seats' seeds. With a
        ``match`` (a resumed table's: its tally goes on), the match's next game, opened by
        the seat whose turn it is; without, a game opened by the seat the record names."""
        number = record["game"]
        self.secret, self.seeds = record["secret"], tuple(record["seeds"])
        self.digest = b""
        seed = deal_seed(self.secret, number, self.seeds)
        if match is not None:
            self.game = match.new_game(seed)
        else:
            self.game = self.kind(self.players, self.options, seed=seed,
                                  opener=record["opener"])
        return self.game

    def act(self, record: dict[str, Any]) -> None:
        """An ``act`` record: its action applied to the game dealt last, and the digest of
        the game's events advanced (the reader compares it with the record's ``h``)."""
        game = self.game
        assert game is not None, "actions are replayed in a game"
        events = game.apply(record["seat"], game.parse_action(record["action"]))
        self.digest = advance(self.digest, events)


class Journal:
    """A journal open for appending, and locked: a second host cannot write it at the same
    time. :meth:`append` buffers a record; :meth:`sync` puts every record appended so far on
    the disk (flushed and fsynced), and the table calls it before it hands anything to the
    network."""

    def __init__(self, path: Path, file: BinaryIO, chain: bytes,
                 lock: filelock.BaseFileLock) -> None:
        self.path = path
        self._file = file
        self._lock_held = lock
        self._link = chain
        self._dirty = False

    @staticmethod
    def _lock(path: Path, file: BinaryIO) -> filelock.BaseFileLock:
        """Take the journal's lock, on ``JOURNAL.lock`` beside it (on the file itself,
        Windows' mandatory locks would keep ``doubtlan verify`` from reading a journal in
        use). The system lets go of it when the host stops, even by ``kill -9``; where it
        has no native lock, filelock's lock file names its holder, and a holder that is
        gone no longer holds it."""
        lock = filelock.FileLock(lock_path(path), mode=FILE_MODE, blocking=False,
                                 thread_local=False)
        try:
            lock.acquire()
        except filelock.Timeout:
            file.close()
            raise JournalError(f"{path} is in use: another host is writing it") from None
        except OSError as error:
            file.close()
            raise JournalError(f"cannot lock the journal {path}: "
                               f"{error.strerror or error}") from None
        return lock

    @classmethod
    def create(cls, path: Path) -> Journal:
        """A new journal at ``path`` (which must not exist: a journal is never overwritten),
        readable by its owner only: it holds the PIN, the seats' tokens and the secrets of
        the deals to come."""
        try:
            private_folder(path.parent)
            descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | folder_binary(),
                                 FILE_MODE)
            file = os.fdopen(descriptor, "wb")
        except FileExistsError:
            raise JournalError(f"{path} already exists; --resume {path} goes on with it, "
                               "or give another --journal") from None
        except OSError as error:
            raise JournalError(f"cannot create the journal {path}: {error.strerror}") from None
        lock = cls._lock(path, file)
        file.write(MAGIC)
        journal = cls(path, file, FIRST_LINK, lock)
        journal._dirty = True
        return journal

    @classmethod
    def open(cls, path: Path) -> tuple[Journal, Contents]:
        """The journal at ``path``, locked, and what it holds, to go on with once it has
        been read back (:meth:`cut`). A damaged journal is refused, and left as it is."""
        try:
            file = open(path, "r+b")  # noqa: SIM115 (closed by close())
        except OSError as error:
            raise JournalError(f"cannot open the journal {path}: {error.strerror}") from None
        lock = cls._lock(path, file)
        try:
            contents = parse(file.read(), path)
        except (OSError, JournalError) as error:
            file.close()
            lock.release()
            if isinstance(error, JournalError):
                raise
            raise JournalError(f"cannot read the journal {path}: {error.strerror}") from None
        if contents.damage is not None:
            file.close()
            lock.release()
            raise JournalError(f"{contents.damage}; it cannot be resumed, and is left as it "
                               "is (doubtlan verify says more)")
        return cls(path, file, contents.link, lock), contents

    def cut(self, good: int) -> None:
        """Go on after the journal's first ``good`` bytes (a torn last write goes)."""
        try:
            self._file.truncate(good)
            self._file.seek(good)
        except OSError as error:
            raise JournalError(f"cannot write the journal {self.path}: "
                               f"{error.strerror}") from None
        self._dirty = True
        self.sync()

    def append(self, record: dict[str, Any]) -> None:
        """Add ``record`` (its ``t`` first, as :func:`parse` looks for it)."""
        body = msgpack.packb({"t": record["t"], **record}, use_bin_type=True)
        self._link = link(self._link, body)
        self._file.write(HEADER.pack(len(body), self._link) + body)
        self._dirty = True

    def sync(self) -> None:
        if self._dirty:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._dirty = False

    def close(self, closed: bool = True, why: str = "ended") -> None:
        """Close the journal: ``closed``, as its table closes (a ``closed`` record ends it,
        saying ``why``: ``over``, the match was played to its end, or ``ended``, the host
        ended it; and when, in UTC); otherwise as it is (a resume that failed)."""
        if not self._file.closed:
            if closed:
                when = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
                self.append({"t": "closed", "why": why, "when": when})
            self.sync()
            self._file.close()
            self._lock_held.release()


def lock_path(path: Path) -> Path:
    """The lock file of the journal at ``path``. A host holds its lock while it writes the
    journal; on POSIX the file stays when the lock is let go (its lock, not its being
    there, is what counts), on Windows it goes."""
    return path.with_name(path.name + ".lock")


def new_path(table: str) -> Path:
    """A fresh journal's path in the data folder, named after the time and the table."""
    safe = "".join(c if c.isalnum() else "-" for c in table.casefold()).strip("-")[:32]
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = journals_folder()
    path = folder / f"{stamp}-{safe or 'table'}.journal"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{safe or 'table'}-{n}.journal"
        n += 1
    return path


def latest() -> Path:
    """The newest journal in the data folder (for ``--resume`` without a path)."""
    folder = journals_folder()
    found = sorted(folder.glob("*.journal"), key=lambda p: p.stat().st_mtime) \
        if folder.is_dir() else []
    if not found:
        raise JournalError(f"no journal in {folder}: only the machine that hosts a table "
                           "keeps its journal (`doubtlan host`, or `play --journal`)")
    return found[-1]


def in_use(path: Path) -> bool:
    """Whether a table is writing the journal at ``path`` now (it holds its lock)."""
    if not lock_path(path).exists():  # (a host holds it in a file of its own while it runs)
        return False
    lock = filelock.FileLock(lock_path(path), blocking=False, thread_local=False)
    try:
        lock.acquire()
    except filelock.Timeout:
        return True
    except OSError:
        return False
    lock.release()
    return False
