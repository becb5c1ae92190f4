"""The name this user last played under, kept in the data folder (``name.txt``), so that the
join screen and the host's name question start from it. A file that cannot be read or
written never stops anyone from playing: it is as if there were none."""

from __future__ import annotations

import contextlib
from pathlib import Path

from .folder import doubtlan_folder, write_private

#: The file in the user's data folder.
FILE_NAME = "name.txt"
#: The longest name a table takes.
LONGEST = 24


def valid(name: str) -> bool:
    """Whether ``name`` (already stripped) is a name a table takes: 1 to 24 printable
    characters."""
    return 1 <= len(name) <= LONGEST and name.isprintable()


def last_name(where: Path | None = None) -> str | None:
    """The name last played under, if one was kept and is still a name."""
    try:
        name = (where or doubtlan_folder() / FILE_NAME).read_text(encoding="utf-8").strip()
    except (OSError, ValueError):
        return None
    return name if valid(name) else None


def remember(name: str, where: Path | None = None) -> None:
    """Keep ``name`` as the one last played under."""
    if valid(name):
        with contextlib.suppress(OSError):
            write_private(where or doubtlan_folder() / FILE_NAME, (name + "\n").encode("utf-8"))
