"""doubtlan on every system players bring: nothing POSIX-only is needed to import or to keep a
journal, the data folder is the system's own, private on POSIX, and a port in use is told
as such on Windows too."""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from apps import host_app, wait_for
from textual.widgets import Static

from doubtlan.net import folder, identity, known
from doubtlan.net.hosted import HostedTable, cannot_listen, port_in_use
from doubtlan.net.journal import Journal, lock_path
from doubtlan.net.kept import Kept, KeptSeats
from doubtlan.tui.screens.message import MessageScreen

ROOT = Path(__file__).resolve().parent.parent
#: Seconds one of the processes below may take.
TIMEOUT = 60.0

#: Run first in each process below: the modules that exist on POSIX systems only cannot be
#: imported, as on Windows (those already loaded by the interpreter are forgotten first).
WITHOUT_POSIX = textwrap.dedent("""
    import importlib.abc, sys
    POSIX_ONLY = {"fcntl", "termios", "pwd", "grp", "resource"}

    class NotHere(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in POSIX_ONLY:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    for name in POSIX_ONLY:
        sys.modules.pop(name, None)
    sys.meta_path.insert(0, NotHere())
""")


def without_posix(code: str, *, stdin: str | None = None,
                  env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_POSIX + textwrap.dedent(code)], input=stdin,
        capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, env=env,
        check=False,
    )


def test_the_blocker_does_keep_the_posix_modules_out() -> None:
    result = without_posix("import fcntl")
    assert "No module named 'fcntl'" in result.stderr


def test_every_module_imports_without_the_posix_only_modules() -> None:
    result = without_posix("""
        import importlib, pkgutil
        import doubtlan
        failed = []
        for module in pkgutil.walk_packages(doubtlan.__path__, "doubtlan."):
            if module.name != "doubtlan.__main__":  # (runs the command)
                try:
                    importlib.import_module(module.name)
                except Exception as error:
                    failed.append(f"{module.name}: {error!r}")
        print("\\n".join(failed) or "all imported")
        import filelock
        print("journal lock:", filelock.FileLock.__name__)
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["all imported", "journal lock: SoftFileLock"]
    assert result.stderr == ""  # (filelock's word that it falls back is not shown)


#: A host that keeps a journal: three bots seated at a table for four, every record on the
#: disk; then it says so and waits (until the test kills it).
HOST = """
    import sys
    from doubtlan.net.journal import Journal
    from doubtlan.net.table import Table, TableConfig
    table = Table(TableConfig(players=4, games=1, seed=1), Journal.create(Path(sys.argv[1])))
    for _ in range(3):
        table.seat_bot("random")
    table.journal.sync()
    print("hosting", table.state, flush=True)
    sys.stdin.readline()
"""


def test_a_journal_is_kept_locked_and_resumed_without_the_posix_modules(tmp_path: Path) -> None:
    """On a system without flock, the journal's lock is filelock's lock file naming its
    holder: a second host is refused while the first runs, and once the first is killed
    (kill -9: its lock file stays behind) a new host resumes the table."""
    path = tmp_path / "solo.journal"
    host = subprocess.Popen(
        [sys.executable, "-c", WITHOUT_POSIX + "from pathlib import Path\n"
         + textwrap.dedent(HOST), str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT,
    )
    try:
        assert host.stdout is not None
        line = host.stdout.readline()  # (a line, or "" once the host has ended)
        assert line.split() == ["hosting", "lobby"], host.communicate(timeout=TIMEOUT)
        second = without_posix(f"""
            from pathlib import Path
            from doubtlan.net.journal import Journal, JournalError
            try:
                Journal.open(Path({str(path)!r}))
            except JournalError as error:
                print(error)
        """)
        assert second.stdout.strip() == f"{path} is in use: another host is writing it", \
            second.stderr
    finally:
        host.kill()
        host.communicate(timeout=TIMEOUT)
    assert lock_path(path).exists()  # what the killed host left
    resumed = without_posix(f"""
        from pathlib import Path
        from doubtlan.net.table import Table
        table = Table.resume(Path({str(path)!r}), 0.0)
        print(table.state, [seat.name for seat in table.seats])
        table.journal.close()
    """)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.split("\n")[0] == \
        "lobby ['Ada', 'Bex', 'Cal', None]"
    assert not lock_path(path).exists()  # (let go as the resumed table closed)


# -- the data folder --------------------------------------------------------------------------


@pytest.mark.parametrize("system, expected", [
    ("unix", Path("/data/home/doubtlan")),
    ("macos", Path.home() / "Library" / "Application Support" / "doubtlan"),
    ("windows", Path("C:/Users/amy/AppData/Local/doubtlan")),
])
def test_the_data_folder_is_the_systems_own(system: str, expected: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """platformdirs' user data folder, as each system keeps it (here with platformdirs'
    class for each system in place of this one's)."""
    import platformdirs.macos
    import platformdirs.unix
    import platformdirs.windows

    kinds = {"unix": platformdirs.unix.Unix, "macos": platformdirs.macos.MacOS,
             "windows": platformdirs.windows.Windows}
    monkeypatch.setattr(platformdirs, "PlatformDirs", kinds[system])
    if system == "unix":
        monkeypatch.setenv("XDG_DATA_HOME", "/data/home")
    else:  # (platformdirs lets XDG_DATA_HOME win on macOS too, where it is rarely set)
        monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("LOCALAPPDATA", "C:/Users/amy/AppData/Local")
    monkeypatch.setattr(platformdirs.windows, "get_win_folder",
                        lambda csidl: {"CSIDL_LOCAL_APPDATA": "C:/Users/amy/AppData/Local"}[csidl])
    assert folder.doubtlan_folder() == expected
    assert folder.journals_folder() == expected / "journals"


def test_the_help_names_this_machines_journals_folder(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))
    result = subprocess.run([sys.executable, "-m", "doubtlan", "host", "--help"],
                            capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
                            env={**os.environ, "COLUMNS": "400"}, check=True)
    assert str(tmp_path / "elsewhere" / "doubtlan" / "journals") in result.stdout
    assert ".local/share" not in result.stdout


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes (Windows: docs/security.md)")
def test_the_data_folder_and_every_file_in_it_are_the_owners_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    before = os.umask(0o022)
    try:
        home = folder.doubtlan_folder()
        identity.load_or_make(home / identity.FILE_NAME)
        known.check("Amy's table", b"\x01" * 32)
        KeptSeats().keep(Kept("01" * 32, "Ben", "02" * 8, "03" * 16, "04" * 16, "Amy's table"))
        journal = Journal.create(folder.journals_folder() / "a.journal")
        try:
            files = sorted(p.relative_to(home).as_posix() for p in home.rglob("*"))
            assert files == ["host.pem", "journals", "journals/a.journal",
                             "journals/a.journal.lock", "known-tables.json", "seats.json"]
            for path in home.rglob("*"):
                assert mode(path) == (0o700 if path.is_dir() else 0o600), path
            assert mode(home) == 0o700
        finally:
            journal.close()
    finally:
        os.umask(before)


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes (Windows: docs/security.md)")
def test_a_data_folder_left_open_is_closed_on_the_next_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Earlier doubtlan made the folder 0755 and known-tables.json 0644."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    home = folder.doubtlan_folder()
    home.mkdir(mode=0o755)
    home.chmod(0o755)
    (home / "known-tables.json").write_text(json.dumps({"Old": "00" * 32}))
    (home / "known-tables.json").chmod(0o644)
    (home / "seats.json").write_text("[]")
    (home / "seats.json").chmod(0o644)
    known.check("Amy's table", b"\x01" * 32)
    assert mode(home) == 0o700
    assert mode(home / "known-tables.json") == 0o600
    assert mode(home / "seats.json") == 0o600
    assert json.loads((home / "known-tables.json").read_text()) == \
        {"Old": "00" * 32, "Amy's table": "01" * 32}


def test_a_folder_the_user_named_is_left_as_it_is(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``--journal ~/games/a.journal``: the user's own folder keeps its mode and files."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    mine = tmp_path / "games"
    mine.mkdir(mode=0o755)
    mine.chmod(0o755)
    (mine / "notes.txt").write_text("mine")
    (mine / "notes.txt").chmod(0o644)
    Journal.create(mine / "a.journal").close()
    assert mode(mine) == 0o755 and mode(mine / "notes.txt") == 0o644
    assert mode(mine / "a.journal") == 0o600


# -- a port in use ----------------------------------------------------------------------------


def windows_error(code: int) -> OSError:
    """An OSError as Windows' sockets raise it: the Windows code in ``winerror``."""
    error = OSError(code, "Only one usage of each socket address is normally permitted")
    error.winerror = code  # type: ignore[attr-defined]  # (set by Windows itself there)
    return error


@pytest.mark.parametrize("error", [
    OSError(errno.EADDRINUSE, os.strerror(errno.EADDRINUSE)),
    OSError(10048, "Only one usage of each socket address is normally permitted"),
    windows_error(10048),
], ids=["EADDRINUSE", "WSAEADDRINUSE", "winerror"])
def test_a_port_in_use_is_recognised_on_every_system(error: OSError) -> None:
    assert port_in_use(error)
    assert cannot_listen(error, "0.0.0.0", 47474) == (
        "Cannot host on 0.0.0.0:47474: another table or program is already using port 47474. "
        "Choose another port with --port (0 picks a free one).")


def test_another_error_gives_no_port_hint() -> None:
    error = OSError(errno.EACCES, os.strerror(errno.EACCES))
    assert not port_in_use(error)
    assert cannot_listen(error, "::", 80) == f"Cannot host on [::]:80: {os.strerror(errno.EACCES)}."



def test_the_command_says_when_the_port_is_taken() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "doubtlan", "host", "--headless", "--no-journal",
             "--no-advertise", "--bind", "127.0.0.1", "--port", str(port)],
            capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, check=False)
    assert result.returncode == 1
    assert result.stderr == (
        f"doubtlan: Cannot host on 127.0.0.1:{port}: another table or program is already "
        f"using port {port}. Choose another port with --port (0 picks a free one).\n")


async def test_the_app_says_when_windows_reports_the_port_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def taken(self: HostedTable) -> None:
        raise windows_error(10048)

    monkeypatch.setattr(HostedTable, "start", taken)
    app = host_app()
    assert app.host_setup is not None
    app.host_setup.port = 47474  # (not listened on: start is the test's)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen)
                       and app.screen.query("#message"), "the failure")
        text = str(app.screen.query_one("#message", Static).render())
    assert text == ("Cannot host on 127.0.0.1:47474: another table or program is already "
                    "using port 47474. Choose another port with --port (0 picks a free one).")


def test_every_file_doubtlan_writes_is_opened_binary(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """On Windows a descriptor opened without O_BINARY writes "\\r\\n" for each "\\n": the
    journal, the host's key, every private file and the record all ask for it (here a stand-in
    bit, taken off again before the system sees it)."""
    from doubtlan.net import journal, record

    flag = 1 << 28
    opened: list[tuple[str, int]] = []
    real_open = os.open

    def open_(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        opened.append((Path(path).name, flags))
        return real_open(path, flags & ~flag, mode, **kwargs)

    monkeypatch.setattr(folder, "BINARY", flag)
    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setenv("DOUBTLAN_HOME", str(tmp_path))
    journal.Journal.create(tmp_path / "a.journal").close()
    identity.load_or_make(tmp_path / "host.pem")
    folder.write_private(tmp_path / "name.txt", b"Amy\n")
    made = record.Entry("idoubtit", "d", "t", "m", 1, "x", ("a", "b", "c"), 0, True, 1, 1, 0,
                        0, 0)
    assert record.Record(tmp_path / "record.jsonl").add(made)
    written = {name: flags for name, flags in opened if not name.endswith(".lock")}
    assert {"a.journal", "host.pem", "record.jsonl"} <= set(written)
    assert any(name.startswith("name.txt.") for name in written)
    assert all(flags & flag for flags in written.values()), written
