"""The host's journal: the table's set-up, its seats, the secret material of every deal and
every action the game accepted, on disk before anyone is told of them. A host that crashes
(even ``kill -9``) loses nothing: ``doubtlan host --resume`` reads the journal and plays on
(:meth:`~doubtlan.net.table.Table.resume`); ``doubtlan verify`` checks a journal's deals and
games (:func:`verify`).

The file starts with :data:`MAGIC`, then records. A record is a 4-byte big-endian length, the
CRC-32 of the body (4 bytes, big-endian), and the body: one msgpack map whose ``t`` says what
it is (docs/journal.md lists them). The journal ends at the first record whose length,
checksum or body does not read: the last write, torn by a crash, is ignored.

Both readers of a journal play its games again with one :class:`Replay`: the table resuming
refuses a journal at its first fault, ``verify`` notes each fault and reads on.
"""

from __future__ import annotations

import hashlib
import os
import struct
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from ..rules import Event, Game, IDoubtIt, Match
from ..rules.fairness import deal_seed

MAGIC = b"doubtlan journal 1\n"
HEADER = struct.Struct(">II")
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
    """A journal open for appending. :meth:`append` buffers a record; :meth:`sync` puts every
    record appended so far on the disk (flushed and fsynced), and the table calls it before
    it hands anything to the network."""

    def __init__(self, path: Path, file: BinaryIO) -> None:
        self.path = path
        self._file = file
        self._dirty = False

    @classmethod
    def create(cls, path: Path) -> Journal:
        """A new journal at ``path`` (which must not exist: a journal is never overwritten),
        readable by its owner only: it holds the PIN, the seats' tokens and the secrets of
        the deals to come."""
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            file = os.fdopen(descriptor, "wb")
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


def doubtlan_folder() -> Path:
    """The user's data folder for doubtlan: ``$XDG_DATA_HOME/doubtlan`` (or
    ``~/.local/share/doubtlan``): journals, the host's key, the keys of tables joined."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "doubtlan"


def data_folder() -> Path:
    """Where journals go by default: ``doubtlan_folder()/journals``."""
    return doubtlan_folder() / "journals"


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


def verify(path: Path) -> tuple[list[str], list[str]]:
    """Check the journal at ``path``: each deal from the secret the table committed to (and
    from the seats' seeds), each game's actions by the rules. Returns (lines for people,
    problems): no problems means verified."""
    from ..rules import RulesError, game_named
    from ..rules.fairness import CHAIN_LINKS, SeedChain, links_to

    contents = read(path)
    lines: list[str] = []
    problems: list[str] = []
    records = contents.records
    if not records or records[0].get("t") != "table":
        return lines, [f"{path} does not start with a table"]
    try:
        commitment = SeedChain(records[0]["root"]).commitment
        players = records[0]["config"]["players"]
        played = game_named(records[0]["config"].get("game", UNNAMED_GAME))
        options = played.options_type.parse(records[0]["config"]["options"])
    except (KeyError, TypeError, ValueError, AttributeError, RulesError) as error:
        return lines, [f"the table's record cannot be read ({error!r})"]
    lines.append(f"commitment {commitment.hex()}")
    replay = Replay(played, players, options)
    number = actions = 0

    def ended() -> None:
        game = replay.game
        if game is None:
            return
        if game.over:
            lines.append(f"game {number}: verified, won by seat {game.winner} "
                         f"in {actions} actions")
        else:
            lines.append(f"game {number}: verified as far as it went ({actions} actions)")

    for index, record in enumerate(records[1:], 2):
        try:
            kind = record["t"]
            if kind == "seats":
                replay.seats(record)
            elif kind == "deal":
                game = replay.game
                if game is not None and not game.over:
                    problems.append(f"record {index}: game {record['game']} was dealt before "
                                    f"game {number} ended")
                ended()
                number, actions = record["game"], 0
                if type(number) is not int or not 1 <= number <= CHAIN_LINKS:
                    problems.append(f"record {index}: a game numbered {number!r}")
                    replay.game, number = None, 0
                    continue
                secret, seeds = record["secret"], tuple(record["seeds"])
                if not links_to(secret, number, commitment):
                    problems.append(f"game {number}: its secret does not match the commitment")
                if len(seeds) != replay.players:
                    problems.append(f"game {number}: {len(seeds)} seeds for {replay.players} "
                                    "seats")
                if record["opener"] != (number - 1) % replay.players:
                    problems.append(f"game {number}: opened by seat {record['opener']}, not "
                                    f"seat {(number - 1) % replay.players}")
                replay.deal(record)  # as the record says, whatever was found above
            elif kind == "act":
                if replay.game is None and record["game"] == number and number:
                    continue  # the rest of a game already found wrong
                if replay.game is None or record["game"] != number:
                    problems.append(f"record {index}: an action outside its game")
                    continue
                replay.act(record)
                actions += 1
                if record["h"] != replay.digest:
                    problems.append(f"record {index}: game {number}, action {actions}: the "
                                    "game went otherwise than the journal says")
                    replay.game = None
            elif kind != "table":
                problems.append(f"record {index}: unknown record {kind!r}")
        except RulesError as error:
            problems.append(f"record {index}: game {number}, action {actions + 1} breaks the "
                            f"rules: {error.message}")
            replay.game = None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            problems.append(f"record {index} cannot be read ({error!r})")
            replay.game = None
    ended()
    if contents.torn:
        lines.append(f"{contents.torn} bytes after the last whole record were left out "
                     "(a write cut short by a crash)")
    return lines, problems
