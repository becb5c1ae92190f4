"""`doubtlan play`: a game against bots in this terminal that stays on this machine. Its table
listens on loopback only, is never advertised, and keeps no journal unless asked; driven
with Pilot, and as a real process on a LAN of the test's own, where nothing it does may
reach the wire."""

from __future__ import annotations

import ipaddress
import shutil
import struct
from pathlib import Path

import pytest
from apps import start_match, wait_for
from lan import NETNS_MISSING, Lan, netns_available
from textual.widgets import Static

from doubtlan import cli_table
from doubtlan.cli import main
from doubtlan.net import journal
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.widgets.lobby import Lobby

#: mDNS: the group and port zeroconf sends to.
MDNS_GROUP, MDNS_PORT = "224.0.0.251", 5353


def play_app(monkeypatch: pytest.MonkeyPatch, *argv: str) -> DoubtApp:
    """The app ``doubtlan play ARGV`` runs (not yet running), with no advert possible."""
    apps: list[DoubtApp] = []
    monkeypatch.setattr(cli_table, "_run_app", lambda app: apps.append(app) or 0)

    def advertiser(*args: object, **kwargs: object) -> None:
        raise AssertionError("doubtlan play made an advertiser")

    monkeypatch.setattr("doubtlan.net.discovery.Advertiser", advertiser)
    assert main(["play", *argv]) == 0
    (app,) = apps
    return app


def seated(app: DoubtApp) -> list[str | None]:
    mirror = app.client.mirror if app.client else None
    return [seat.strategy for seat in mirror.table.seats] if mirror and mirror.table else []


async def test_play_sits_you_with_three_medium_bots_on_loopback_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = play_app(monkeypatch, "--name", "Amy", "--bot-delay", "0")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: seated(app) == [None, "counter", "counter", "counter"],
                       "three medium bots")
        hosted = app.hosted
        assert hosted is not None and hosted.local
        assert hosted.host.listening
        assert all(ipaddress.ip_address(address).is_loopback
                   for address, _ in hosted.host.listening)
        assert hosted.advertised_name is None and hosted.table.journal is None
        assert app.play is not None
        lobby = app.play.query_one(Lobby)
        local = "On this machine only: nobody on the network can see or join"
        await wait_for(pilot, lambda: local in str(lobby.query_one("#about", Static).render()),
                       "the lobby drawn")
        about = str(lobby.query_one("#about", Static).render())
        assert "Join by address" not in about
        await start_match(pilot, app, seated=4)


async def test_play_takes_the_game_the_level_the_seats_and_a_journal_when_asked(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "solo.journal"
    app = play_app(monkeypatch, "--game", "iknowyoudont", "--level", "hard", "--bots", "2",
                   "--players", "4", "--journal", str(path), "--rounds", "3")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: seated(app) == [None, "hard", "hard", None],
                       "two hard bots at a table for four")
        assert app.hosted is not None and app.hosted.table.config.game == "iknowyoudont"
        assert app.hosted.table.config.options.rounds == 3
        assert app.hosted.table.journal is not None
    assert journal.read(path).records[0]["t"] == "table"


def test_play_refuses_what_it_cannot_seat(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in [
        (["--bots", "0"], "expected 1 or more"),
        (["--bots", "3", "--players", "3"], "--bots 3 leaves no seat for you"),
        (["--level", "hard", "--strategy", "random"], "not allowed with argument"),
        (["--bind", "0.0.0.0"], "unrecognized arguments: --bind"),
    ]:
        with pytest.raises(SystemExit) as stop:
            main(["play", *argv])
        assert stop.value.code == 2
        assert said in capsys.readouterr().err


# -- as a process on a LAN of the test's own ------------------------------------------------


def frames_to_the_wire(frames: list[bytes], address: str) -> list[str]:
    """What each frame that matters was: IPv4 from ``address`` or to the mDNS group, and
    UDP to port 5353 over IPv6 (a kernel's own IPv6 housekeeping is left out)."""
    found = []
    for frame in frames:
        kind = struct.unpack("!H", frame[12:14])[0]
        if kind == 0x0800:
            source = str(ipaddress.ip_address(frame[26:30]))
            target = str(ipaddress.ip_address(frame[30:34]))
            if source == address or target == MDNS_GROUP:
                found.append(f"IPv4 {source} -> {target}")
        elif kind == 0x86DD and frame[20] == 17:  # UDP, with no extension header
            port = struct.unpack("!H", frame[56:58])[0]
            if port == MDNS_PORT:
                found.append("mDNS over IPv6")
    return found


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (apt-get install tmux)")
def test_play_as_a_process_sends_nothing_to_the_network(tmp_path: Path) -> None:
    """`doubtlan play` in a terminal on a machine of a private LAN: once the game is dealt,
    it listens on loopback only, and not a frame of it crossed the LAN, mDNS least of all."""
    if not netns_available():
        pytest.fail(NETNS_MISSING)
    from test_tmux import Tmux

    with Lan(hosts=1, prefix="solo") as lan:
        capture = lan.capture(tmp_path / "solo.pcap")
        with Tmux(lan) as tmux:
            tmux.start("solo", 1, "play", "--name", "Amy", "--bot-delay", "0")
            tmux.wait("the lobby", lambda s: "On this machine only" in s["solo"])
            tmux.press("solo", "s")
            tmux.wait("the deal", lambda s: "Your hand: 13 cards" in s["solo"]
                      or "Your turn" in s["solo"])
            ss = lan.run(1, ["ss", "-H", "-a", "-n", "-t", "-u"])
            assert ss.finish() == 0, ss.errors()
            assert ss.stdout is not None
            sockets = "\n".join(ss.stdout.seen)
        frames = capture.stop()
    local = [line.split()[4] for line in sockets.splitlines() if line.strip()]
    assert local, sockets
    for address in local:
        host = address.rsplit(":", 1)[0].strip("[]").split("%")[0]
        assert host != "*" and ipaddress.ip_address(host).is_loopback, sockets
    assert frames_to_the_wire(frames, lan.address(1)) == []
