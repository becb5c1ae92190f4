"""The user's data folder for doubtlan, and the private files in it.

The folder is the one ``platformdirs`` gives each system for an application's user data:
``$XDG_DATA_HOME/doubtlan`` (or ``~/.local/share/doubtlan``) on Linux,
``~/Library/Application Support/doubtlan`` on macOS, ``%LOCALAPPDATA%\\doubtlan`` on
Windows. It holds the host's key, its journals, the seats kept and the keys of the tables
joined: on POSIX the folder is its owner's alone (0700) and so is every file in it (0600);
on Windows the folder inherits the user profile's access list, which admits the user, the
system and administrators only (docs/security.md).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import stat
import sys
from contextvars import ContextVar
from pathlib import Path

import platformdirs

#: The application's name, as the folder is named.
APP = "doubtlan"
#: When set, the folder doubtlan keeps its data in, in place of the system's: a browser
#: seat's app runs with its browser's own folder (net/web), inside the host's.
HOME = "DOUBTLAN_HOME"
#: The modes of the folder and of each file in it, on POSIX.
FOLDER_MODE, FILE_MODE = 0o700, 0o600
#: In every ``os.open`` of a file doubtlan writes: on Windows a descriptor opened without
#: ``O_BINARY`` turns each "\n" written into "\r\n" (a journal's bytes, a key's); 0 elsewhere.
BINARY: int = getattr(os, "O_BINARY", 0)


def folder_binary() -> int:
    """:data:`BINARY`, as it is now (a test may set it)."""
    return BINARY


#: The data folder of the code running in this context, in place of :data:`HOME`'s: each
#: browser seat's app in the seats' process (cli_seats.py) runs with its browser's own.
HERE: ContextVar[Path | None] = ContextVar("doubtlan_folder", default=None)


def doubtlan_folder() -> Path:
    """The user's data folder for doubtlan on this system (it may not exist yet)."""
    if (here := HERE.get()) is not None:
        return here
    if home := os.environ.get(HOME):
        return Path(home)
    return Path(platformdirs.user_data_dir(APP, appauthor=False, roaming=False))


def journals_folder() -> Path:
    """Where a host's journals go unless told otherwise."""
    return doubtlan_folder() / "journals"


def private_folder(path: Path) -> Path:
    """``path`` as a folder, made (with its parents) when missing. Within doubtlan's own
    folder, on POSIX, each folder from doubtlan's down to ``path`` is its owner's alone
    (0700), and one that was open to others (as earlier doubtlan left it) is closed, with
    every file directly in it set to 0600. Elsewhere (a ``--journal`` the user named) only
    a folder made here is 0700: the user's own folders are left as they are. OSError when
    it cannot be made."""
    root = doubtlan_folder()
    if path != root and root not in path.parents:
        path.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        return path
    _move_in(root)
    folder = root
    for part in ("", *path.relative_to(root).parts):
        folder = folder / part if part else folder
        folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        _close(folder)
    return path


def _old_folder() -> Path:
    """Where doubtlan kept its data on every system before it asked platformdirs."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP


def _move_in(root: Path) -> None:
    """On macOS, where the folder moved to ``~/Library/Application Support``: the first
    time, copy in what an earlier doubtlan kept in ``~/.local/share/doubtlan`` (the host's
    key, so its tables keep their key; the seats, the keys of tables, the journals). The
    old folder is left as it was, for an earlier doubtlan still installed. (Linux keeps
    its folder; Windows ran no earlier doubtlan.)"""
    old = _old_folder()
    if sys.platform != "darwin" or os.environ.get(HOME) or HERE.get() is not None \
            or root.exists() or old == root \
            or not old.is_dir():
        return
    with contextlib.suppress(OSError):
        shutil.copytree(old, root)


def _close(folder: Path) -> None:
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        if stat.S_IMODE(folder.stat().st_mode) != FOLDER_MODE:
            folder.chmod(FOLDER_MODE)
            for entry in folder.iterdir():
                if entry.is_file() and not entry.is_symlink():
                    entry.chmod(FILE_MODE)


def write_private(path: Path, data: bytes) -> None:
    """Replace the file at ``path`` with ``data`` in one step (a reader sees the old file or
    the new one, never half of it), readable by its owner only; its folder is made private
    (:func:`private_folder`). OSError when it cannot be written."""
    private_folder(path.parent)
    # A name of this write's own: two programs writing the same file at once never share
    # (or remove) each other's half-written file.
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.new")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | folder_binary(),
                         FILE_MODE)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
