"""`doubtlan host`, `join` and `tables` as real processes, on loopback only (no multicast:
the host runs with --no-advertise; discovery is tested in tests/test_lan.py)."""

from __future__ import annotations

import gc
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from doubtlan.cli import main
from doubtlan.net import identity, known
from doubtlan.net.discovery import TableAd
from doubtlan.net.folder import doubtlan_folder
from doubtlan.net.journal import read

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 60


def doubtlan(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "doubtlan", *args], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def start_host(*args: str) -> tuple[subprocess.Popen[str], int]:
    host = doubtlan("host", "--headless", "--bind", "127.0.0.1", "--port", "0",
                    "--no-advertise", *args)
    assert host.stdout is not None
    line = host.stdout.readline()  # the first line names the port; blocks until it is out
    match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    assert match, f"unexpected first line {line!r}"
    return host, int(match.group(1))


def hosts_fingerprint() -> bytes:
    """The key every host of this test session presents: the one kept in the session's
    data folder (tests/conftest.py), which the first host made."""
    return identity.load_or_make(doubtlan_folder() / identity.FILE_NAME).fingerprint


def hosts_words() -> str:
    return identity.words(hosts_fingerprint())


def test_a_headless_match_with_bots_joining_over_the_network() -> None:
    host, port = start_host("--players", "4", "--bots", "1", "--games", "3", "--seed", "5")
    joiners = [doubtlan("join", f"127.0.0.1:{port}", "--bot", strategy, "--name", f"bot{i}")
               for i, strategy in enumerate(["random", "honest", "counter"])]
    watcher = doubtlan("join", f"127.0.0.1:{port}", "--watch", "--headless")
    for i, joiner in enumerate(joiners):
        out, err = joiner.communicate(timeout=DEADLINE)
        assert joiner.returncode == 0, err
        assert "the match is over" in out and "Traceback" not in err
        assert f"bot{i}: the table's key: {hosts_words()}\n" in out and "WARNING" not in err
    out, err = host.communicate(timeout=DEADLINE)
    assert host.returncode == 0, err
    assert len(re.findall(r"^game \d: won by .+ \(seat [1-4]\)$", out, re.M)) == 3
    watched, err = watcher.communicate(timeout=DEADLINE)
    assert watcher.returncode == 0, err
    assert "claimed" in watched and "wins" in watched


def test_a_wrong_pin_is_a_plain_sentence() -> None:
    """A wrong PIN and a host that does not know the PIN look the same to the client: the
    host's proof fails (docs/security.md). No PIN at all is said so."""
    host, port = start_host("--players", "3", "--bots", "2", "--pin", "4321")
    try:
        joiner = doubtlan("join", f"127.0.0.1:{port}", "--bot", "random", "--pin", "0000")
        out, err = joiner.communicate(timeout=DEADLINE)
        assert joiner.returncode == 1
        assert "doubtlan: Wrong PIN, or not the real table: the host could not prove it knows " \
            "the PIN given; check it with the host" in err and "Traceback" not in err
        joiner = doubtlan("join", f"127.0.0.1:{port}", "--bot", "random")
        out, err = joiner.communicate(timeout=DEADLINE)
        assert joiner.returncode == 1
        assert "doubtlan: this table has a PIN, and none was given; give it with --pin" in err
        assert "Traceback" not in err
    finally:
        host.terminate()
        host.communicate(timeout=DEADLINE)


def test_nobody_at_the_address_is_a_plain_sentence() -> None:
    with socketless_port() as port:
        joiner = doubtlan("join", f"127.0.0.1:{port}", "--bot", "random")
        out, err = joiner.communicate(timeout=DEADLINE)
    assert joiner.returncode == 1
    assert f"cannot reach a table at 127.0.0.1:{port}" in err and "Traceback" not in err


def test_stopping_a_host_tells_the_players() -> None:
    host, port = start_host("--players", "4", "--bots", "1")
    joiner = doubtlan("join", f"127.0.0.1:{port}", "--bot", "random", "--name", "Zed")
    assert host.stdout is not None
    assert host.stdout.readline() == f"the table's key: {hosts_words()}\n"
    assert host.stdout.readline().startswith("journal: ")  # kept in the data folder
    assert host.stdout.readline() == "Zed took seat 2\n"  # blocks until Zed is seated
    host.terminate()
    out, err = host.communicate(timeout=DEADLINE)
    assert "Traceback" not in err
    out, err = joiner.communicate(timeout=DEADLINE)
    assert joiner.returncode == 1 and "closed the table" in err


def test_a_table_whose_key_changed_is_refused_unless_the_new_key_is_taken() -> None:
    """The key a table of this name presented before is remembered (net/known.py): here
    another one, as if another machine had taken the name. `join --bot` and `--watch
    --headless` refuse it (exit 1), and play only with --accept-new-key."""
    before = b"\x01" * 32
    assert known.check("Changed key", before).verdict == "new"
    host, port = start_host("--players", "3", "--bots", "2", "--name", "Changed key")
    assert host.stdout is not None
    assert host.stdout.readline() == f"the table's key: {hosts_words()}\n"
    for refused in (doubtlan("join", f"127.0.0.1:{port}", "--watch", "--headless"),
                    doubtlan("join", f"127.0.0.1:{port}", "--bot", "random", "--name", "Ben")):
        out, err = refused.communicate(timeout=DEADLINE)
        assert refused.returncode == 1, (out, err)
        assert "had another key when you last joined it" in err, err
        assert f"(then: {identity.words(before)}; now: {hosts_words()})" in err
        assert "join with --accept-new-key" in err and "Traceback" not in err
        assert json.loads(known.path().read_text())["Changed key"] == before.hex()
    joiner = doubtlan("join", f"127.0.0.1:{port}", "--bot", "random", "--name", "Cy",
                      "--accept-new-key")
    out, err = joiner.communicate(timeout=DEADLINE)
    assert joiner.returncode == 0, err
    assert out.startswith(f"Cy: the table's key: {hosts_words()}\n")
    assert "Cy: the match is over" in out
    assert f"has a new key, taken as you asked: {hosts_words()}" in err
    host.communicate(timeout=DEADLINE)
    # The key taken is the one remembered from then on.
    assert json.loads(known.path().read_text())["Changed key"] == hosts_fingerprint().hex()


class FoundBrowser:
    """Discovery's Browser, finding the one advert :attr:`ad` at once (no multicast)."""

    ad: TableAd

    def __init__(self, on_change: Any) -> None:
        self.tables = {self.ad.name: self.ad}
        self.on_change = on_change

    async def __aenter__(self) -> FoundBrowser:
        self.on_change(self.tables)
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass


def test_joining_by_name_refuses_a_host_whose_key_is_not_its_adverts(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    host, port = start_host("--players", "3", "--bots", "2", "--name", "Advertised")
    monkeypatch.setattr("doubtlan.net.discovery.Browser", FoundBrowser)
    fingerprint = identity.load_or_make(doubtlan_folder() / identity.FILE_NAME).fingerprint
    ad = TableAd("Advertised", port, ("127.0.0.1",), 4, "idoubtit", "decks=1,challenge=window",
                 2, 3, "lobby", False, fingerprint="ab" * 32)
    try:
        FoundBrowser.ad = ad
        assert main(["join", "--table", "Advertised", "--bot", "random", "--name", "Eve"]) == 1
        out, err = capfd.readouterr()
        assert err == ("doubtlan: This is not the table it claims to be: its key is not the "
                       "one its advert names\n")
        assert "the table's key" not in out  # refused before it said hello
        FoundBrowser.ad = TableAd(**{**ad.__dict__, "fingerprint": fingerprint.hex()})
        assert main(["join", "--table", "Advertised", "--bot", "random", "--name", "Eve"]) == 0
        out, err = capfd.readouterr()
        assert out.startswith(f"Eve: the table's key: {identity.words(fingerprint)}\n")
        assert "Eve: the match is over" in out and not err
    finally:
        gc.unfreeze()  # (the bot froze what this process had made)
        host.terminate()
        host.communicate(timeout=DEADLINE)


class socketless_port:
    """A loopback port with nothing listening on it."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        return int(self.sock.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["host", "--decks", "2", "--players", "11"], "3 to 10 players"),
        (["host", "--bots", "9"], "--bots 9 is more than the table's 8 seats"),
        (["host", "--players", "3", "--bots", "3"], "leaves no seat for you"),
        (["host", "--headless", "--players", "2"], "3 to 8 players"),
        (["host", "--headless", "--players", "3", "--bots", "4"], "--bots 4 is more than"),
        (["host", "--headless", "--port", "70000"], "a port is 0 to 65535"),
        (["host", "--headless", "--window", "0"], "expected 0.1 to 3600 seconds"),
        (["host", "--headless", "--window", "1.5"], "--window: at least 2 seconds, so that a "
                                                   "person has time to answer"),
        (["host", "--headless", "--turn-timeout", "soon"], "expected a number of seconds"),
        (["host", "--headless", "--pin", ""], "a PIN is 1 to 64 printable characters"),
        (["host", "--headless", "--no-advertise", "--advertise", "10.0.0.1"], "not allowed"),
        (["join", "--headless"], "--headless joins with --bot STRATEGY or --watch"),
        (["join", "--bot", "clever"], "invalid choice"),
        (["join", "host:port", "--bot", "random"], "a port is 1 to 65535"),
        (["join", "h:1", "--bot", "random", "--watch"], "choose one"),
        (["join", "h:1", "--table", "t", "--bot", "random"], "an address or --table, not both"),
        (["join", "--bot", "random", "--name", "x" * 25], "a name is 1 to 24"),
        (["tables", "--timeout", "0"], "expected 0.1 to 60 seconds"),
        (["host", "--game", "iknowyoudont", "--players", "7"], "3 to 6 players"),
        (["host", "--game", "iknowyoudont", "--decks", "2"], "I Know You Don't takes --deck"),
        (["host", "--deck", "standard"], "--deck is I Know You Don't's"),
        (["host", "--game", "iknowyoudont", "--rounds", "0"], "invalid choice"),
        (["host", "--rounds", "3"], "--rounds is I Know You Don't's"),
        # (issue 42: the table's own port, and the bots counted as the user typed them)
        (["host", "--web", "47474"], "--web 47474 is the table's own port (--port 47474)"),
        (["host", "--port", "5000", "--web", "5000"], "for the next one (5001)"),
        (["play", "--bots", "99"], "--bots 99 and you make 100 players, and one deck needs 3 "
                                   "to 8 players: give --bots 2 to 7"),
        (["host", "--level", "hard", "--strategy", "random"], "not allowed with argument"),
        (["host", "--bots", "8"], "no seat for you at the table's 8 seats: give --bots 7 or"),
    ],
)
def test_bad_arguments_get_a_clear_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_help_names_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    from doubtlan.rules import GAMES

    with pytest.raises(SystemExit):
        main(["--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert all(game.title in said for game in GAMES.values()), said


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_host_seats_bots_of_a_level_as_play_does(level: str) -> None:
    from doubtlan.bots import LEVELS
    from doubtlan.cli import build_parser
    from doubtlan.cli_table import bot_strategy

    for command in ("host", "play"):
        args = build_parser(command).parse_args([command, "--game", "liarsdeck", "--level",
                                                 level])
        assert bot_strategy(args) == LEVELS["liarsdeck"][level]
    args = build_parser("host").parse_args(["host", "--strategy", "sharp"])
    assert bot_strategy(args) == "sharp"
    assert bot_strategy(build_parser("host").parse_args(["host"])) == "counter"


def under_way(journal: Path, host: subprocess.Popen[str], actions: int) -> None:
    """Wait until the game is under way: the host's journal holds ``actions`` actions."""
    deadline = time.monotonic() + DEADLINE
    while sum(r["t"] == "act" for r in read(journal).records) < actions:
        assert time.monotonic() < deadline and host.poll() is None, "no game under way"
        time.sleep(0.05)  # polling a file another process writes, until the deadline


def test_a_bot_player_killed_mid_game_takes_its_seat_back_when_run_again(
        tmp_path: Path) -> None:
    """`doubtlan join --bot` keeps its seat in the user's data folder: killed (kill -9) in
    the middle of a game and run again with the same name, it finishes the match in the
    same seat (a stand-in played it meanwhile, if the grace time ran out)."""
    journal = tmp_path / "table.journal"
    host, port = start_host("--players", "3", "--bots", "2", "--games", "1", "--bot-delay",
                            "0.05", "--turn-timeout", "0", "--journal", str(journal))
    first = doubtlan("join", f"127.0.0.1:{port}", "--bot", "counter", "--name", "Kim")
    again = None
    try:
        under_way(journal, host, 10)
        first.kill()
        first.communicate(timeout=DEADLINE)
        seats = [r for r in read(journal).records if r["t"] == "seats"][-1]["seats"]
        kim = next(seat for seat in seats if seat[1] == "Kim")
        again = doubtlan("join", f"127.0.0.1:{port}", "--bot", "counter", "--name", "Kim")
        out, err = again.communicate(timeout=DEADLINE)
        assert again.returncode == 0, err
        assert "Kim: game 1: deal verified" in out and "Kim: the match is over" in out
        said, err = host.communicate(timeout=DEADLINE)
        assert host.returncode == 0, err
        assert said.count("took seat") == 1  # Kim's, once: the second run took it back
        seats = [r for r in read(journal).records if r["t"] == "seats"][-1]["seats"]
        assert [seat for seat in seats if seat[1] == "Kim"] == [kim[:5] + seats[kim[0]][5:]]
    finally:
        for process in (host, first, again):
            if process is not None and process.poll() is None:
                process.kill()
                process.communicate(timeout=DEADLINE)


def test_a_host_killed_mid_game_resumes_from_its_journal_and_the_player_plays_on(
        tmp_path: Path) -> None:
    journal = tmp_path / "table.journal"
    host, port = start_host("--players", "3", "--bots", "2", "--games", "1", "--bot-delay",
                            "0.02", "--window", "2", "--turn-timeout", "0", "--journal",
                            str(journal))
    joiner = doubtlan("join", f"127.0.0.1:{port}", "--bot", "random", "--name", "Amy")
    resumed = None
    try:
        under_way(journal, host, 20)  # then kill -9
        host.kill()
        host.communicate(timeout=DEADLINE)
        resumed = doubtlan("host", "--headless", "--bind", "127.0.0.1", "--port", str(port),
                           "--no-advertise", "--resume", str(journal))
        out, err = joiner.communicate(timeout=DEADLINE)
        assert joiner.returncode == 0, err
        assert "Amy: game 1: deal verified" in out and "Amy: the match is over" in out
        said, err = resumed.communicate(timeout=DEADLINE)
        assert resumed.returncode == 0, err
        assert f"resumed from {journal}" in said and re.search(r"^game 1: won by", said, re.M)
    finally:
        for process in (host, joiner, resumed):
            if process is not None and process.poll() is None:
                process.kill()
                process.communicate(timeout=DEADLINE)
    assert main(["verify", str(journal)]) == 0
