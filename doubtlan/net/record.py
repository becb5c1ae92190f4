"""Your record (docs/record.md): the games this user played, one JSON line each in the data
folder (``record.jsonl``): the game, the date, the table, the seats, the result and the
figures told by the game's verified reveal (claims, bluffs, times caught, doubts right and
wrong). A line that cannot be read is skipped with a note; nothing else is lost. A file that
cannot be written never stops anyone from playing."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..rules import GAMES
from ..rules.fairness import Disclosure
from ..rules.story import Story, figures
from .folder import FILE_MODE, doubtlan_folder, folder_binary, private_folder
from .mirror import Mirror

#: The file in the user's data folder.
FILE_NAME = "record.jsonl"
#: The figures of a game, as the record names them (each a count).
FIGURES = ("claims", "bluffs", "caught", "doubts_right", "doubts_wrong")


@dataclass(frozen=True)
class Entry:
    """One game played."""

    game: str
    #: When it ended, in UTC, as ISO 8601 text ("2026-12-03T12:00:00+00:00").
    date: str
    table: str
    #: The match (its commitment's first 16 hexadecimal digits) and the game's number in
    #: it; the game itself (its reveal's digest, 16 hexadecimal digits: a game is recorded
    #: once, and a table dealt from a fixed seed plays a new game each time).
    match: str
    number: int
    deal: str
    #: Every seat's name, and this user's seat among them.
    seats: tuple[str, ...]
    seat: int
    won: bool
    claims: int
    bluffs: int
    caught: int
    doubts_right: int
    doubts_wrong: int

    @property
    def key(self) -> tuple[str, int]:
        return self.deal, self.seat

    def figure(self, name: str) -> int:
        value: int = getattr(self, name)
        return value


def deal_digest(reveal: Disclosure) -> str:
    """A game's own name: SHA-256 of its reveal (secret, seeds, every action), 16
    hexadecimal digits."""
    digest = hashlib.sha256(reveal.secret)
    for seed in reveal.contributions:
        digest.update(len(seed).to_bytes(1, "big") + seed)
    for played in reveal.actions:
        digest.update(f"{played.seat} {played.by} {played.action}\n".encode())
    return digest.hexdigest()[:16]


def entry(story: Story, *, table: str, match: str, deal: str, seats: Sequence[str],
          seat: int, when: datetime | None = None) -> Entry:
    """The record of ``seat``'s game told by ``story``."""
    mine = figures((step.told for step in story.steps), seat)
    date = (when or datetime.now(UTC)).isoformat(timespec="seconds")
    return Entry(story.game, date, table, match[:16], story.number, deal, tuple(seats), seat,
                 story.winner == seat, mine.claims, mine.bluffs, mine.caught,
                 mine.doubts_right, mine.doubts_wrong)


#: Each field's type in a line of the record (``bool`` is not an ``int`` there).
_TYPES: dict[str, type] = {"game": str, "date": str, "table": str, "match": str,
                           "number": int, "deal": str, "seats": list, "seat": int,
                           "won": bool, **dict.fromkeys(FIGURES, int)}


def _read(line: str) -> Entry:
    """One line of the record (ValueError, with why, when it is not one)."""
    data = json.loads(line)
    if not isinstance(data, dict):
        raise ValueError("not an object")
    values: dict[str, Any] = {}
    for name, kind in _TYPES.items():
        if name not in data:
            raise ValueError(f"no {name}")
        value = data[name]
        if type(value) is not kind:
            raise ValueError(f"{name} is not a {kind.__name__}")
        values[name] = value
    if values["game"] not in GAMES:
        raise ValueError(f"a game this doubtlan does not know: {values['game']!r:.40}")
    if not all(isinstance(name, str) for name in values["seats"]):
        raise ValueError("seats is not a list of names")
    values["seats"] = tuple(values["seats"])
    made = Entry(**values)
    if not 0 <= made.seat < len(made.seats) or any(made.figure(f) < 0 for f in FIGURES):
        raise ValueError("a seat or a figure out of range")
    return made


class Record:
    """The record file at ``path`` (by default the user's data folder's)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or doubtlan_folder() / FILE_NAME
        #: The games noted in this session (match, number), and the last of them.
        self._noted: set[tuple[str, int]] = set()
        self._last: Yours | None = None

    def load(self) -> tuple[list[Entry], list[str]]:
        """Every game recorded (once each), and a note for each line that could not be
        read (it is skipped, and left in the file as it is)."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return [], []
        except OSError as error:
            return [], [f"the record {self.path} cannot be read: {error.strerror}"]
        entries: dict[tuple[str, int], Entry] = {}
        notes = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                made = _read(line)
            except Exception as error:  # (any line at all: nesting too deep, say)
                notes.append(f"line {number} of {self.path} was skipped: it cannot be read "
                             f"({error})")
                continue
            entries.setdefault(made.key, made)
        return list(entries.values()), notes

    def note(self, mirror: Mirror) -> Yours | None:
        """Record each game ``mirror`` verified from start to end at this user's seat, not
        recorded yet; the last of them against the average of those recorded before it."""
        info, seat = mirror.table, mirror.seat
        if info is None or seat is None or not mirror.revealed:
            return None
        names = tuple(s.name or f"seat {s.seat + 1}" for s in info.seats)
        for number in sorted(mirror.revealed):
            if (mirror.commitment or "", number) in self._noted:
                continue
            self._noted.add((mirror.commitment or "", number))
            story = mirror.story(number)
            if isinstance(story, str) or not 0 <= seat < len(names):
                continue
            made = entry(story, table=info.name, match=mirror.commitment or "",
                         deal=deal_digest(mirror.revealed[number][3]), seats=names, seat=seat)
            before, _ = self.load()
            earlier = [old for old in before if old.key != made.key and old.game == made.game]
            self.add(made, before)
            self._last = Yours(made, averages(earlier, made.game), len(earlier))
        return self._last

    def add(self, made: Entry, entries: list[Entry] | None = None) -> bool:
        """Add ``made`` at the end of the file, unless that game is recorded already (among
        ``entries``, the file's as just loaded, or loaded now); whether it was added (False too
        when the file cannot be written)."""
        if entries is None:
            entries, _ = self.load()
        if any(old.key == made.key for old in entries):
            return False
        line = json.dumps(asdict(made), ensure_ascii=False) + "\n"
        with contextlib.suppress(OSError):
            private_folder(self.path.parent)
            descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT
                                 | folder_binary(), FILE_MODE)
            with os.fdopen(descriptor, "ab") as out:
                # A last line cut short (a crash while it was written) stays a line of its own.
                if out.tell() and not _ends_a_line(self.path):
                    line = "\n" + line
                out.write(line.encode("utf-8"))
            return True
        return False


@dataclass(frozen=True)
class Yours:
    """One game recorded, against the average of the games of its kind recorded before it."""

    entry: Entry
    averages: dict[str, float]
    #: How many games the averages are of.
    games: int


def _ends_a_line(path: Path) -> bool:
    with path.open("rb") as file:
        file.seek(-1, os.SEEK_END)
        return file.read(1) == b"\n"


def averages(entries: Iterable[Entry], game: str) -> dict[str, float]:
    """Each figure's average over the recorded games of ``game`` (none: an empty dict)."""
    mine = [made for made in entries if made.game == game]
    if not mine:
        return {}
    return {name: sum(made.figure(name) for made in mine) / len(mine) for name in FIGURES}


def as_json(entries: Iterable[Entry]) -> list[dict[str, Any]]:
    return [asdict(made) for made in entries]
