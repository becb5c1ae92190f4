"""The commands on a private LAN: `doubtlan host --headless`, `join --bot` and `tables`.

Every process runs inside network namespaces that the test builds (tests/lan.py): one host,
players and a browser, each its own machine on a bridge that is connected to nothing else.
So the mDNS of these tests never reaches the machine's real interfaces, and the players find
the table by zeroconf alone. The tests need root; without it they fail (they do not skip),
saying so.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lan import NETNS_MISSING, Guest, Lan, netns_available

from doubtlan.net.folder import doubtlan_folder
from doubtlan.net.identity import FILE_NAME as KEY_FILE
from doubtlan.net.identity import load_or_make
from doubtlan.net.messages import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parent.parent

#: The longest any one step may take: a process starting, a table showing up, a match.
STEP = 60.0
#: Seconds `doubtlan join` may look for the table: it stops once it has seen one (half a
#: second later, to see whether another answers), so a long limit costs nothing when the
#: table answers (on a private LAN within 1 s; a machine busy with other work may take
#: many times that).
JOIN_TIMEOUT = "30"
#: Seconds `doubtlan tables` looks (all of them, each time it runs): its browser asks at
#: about 0.1 s and 1.1 s, and a machine busy with other work may be slow to answer and to
#: resolve the table's records; a table that answers is listed within 1 s on a quiet one.
TABLES_TIMEOUT = "5"

LISTENING = re.compile(r'table "(?P<name>.+)" listening on (?P<bind>\S+):(?P<port>\d+)')


def need_netns() -> None:
    """Fail (not skip) the test when this machine cannot make network namespaces."""
    if not netns_available():
        pytest.fail(NETNS_MISSING)


def python(lan: Lan, host: int, *args: str) -> Guest:
    """Run this interpreter with ``args`` in ``host``, importing doubtlan from this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return lan.run(host, [sys.executable, *args], cwd=ROOT, env=env)


def doubtlan(lan: Lan, host: int, *args: str) -> Guest:
    """Run ``doubtlan ARGS`` in ``host``."""
    return python(lan, host, "-m", "doubtlan", *args)


def start_host(lan: Lan, name: str, *options: str) -> tuple[Guest, int]:
    """Host a table named ``name`` in host 1, advertised on its address; the process and the
    port it listens on, once the table is on the network."""
    guest = doubtlan(
        lan, 1, "host", "--headless", "--name", name, "--port", "0",
        "--advertise", lan.address(1), *options,
    )
    line = guest.expect(lambda line: LISTENING.fullmatch(line) is not None, STEP, "listening")
    found = LISTENING.fullmatch(line)
    assert found is not None and found["name"] == name
    guest.expect(
        lambda line: line == f'advertised as "{name}" on {lan.address(1)}', STEP, "the advert"
    )
    return guest, int(found["port"])


def tables(lan: Lan, host: int) -> list[dict[str, Any]]:
    """The tables `doubtlan tables --json` lists in ``host``."""
    guest = doubtlan(lan, host, "tables", "--json", "--timeout", TABLES_TIMEOUT)
    line = guest.expect(lambda line: line.startswith("["), STEP, "the list of tables")
    assert guest.finish(STEP) == 0, guest.errors()
    assert "Traceback" not in guest.errors()
    found: list[dict[str, Any]] = json.loads(line)
    return [committed(table) for table in found]


def committed(table: dict[str, Any]) -> dict[str, Any]:
    """``table`` as listed, without the commitment its advert gives: the host draws it anew
    for each table, so it is only checked to be one (64 hexadecimal digits)."""
    assert re.fullmatch(r"[0-9a-f]{64}", table.pop("commitment")), table
    return table


def join(lan: Lan, host: int, strategy: str, name: str, *options: str) -> Guest:
    """A bot that finds the table by discovery (no address) and plays a seat."""
    return doubtlan(
        lan, host, "join", "--bot", strategy, "--name", name, "--timeout", JOIN_TIMEOUT, *options
    )


def plays_to_the_end(joiner: Guest, name: str) -> None:
    """``joiner`` checked the first game's deal, says the match is over and exits 0,
    without a traceback."""
    joiner.expect(lambda line: line.startswith(f"{name}: game 1: deal verified"), STEP,
                  f"{name}: game 1: deal verified")
    joiner.expect(
        lambda line: line == f"{name}: the match is over", STEP, f"{name}: the match is over"
    )
    assert joiner.finish(STEP) == 0, joiner.errors()
    assert "Traceback" not in joiner.errors()


def won(game: int) -> Callable[[str], bool]:
    """Whether a line of the host's says who won game number ``game``."""
    pattern = re.compile(rf"game {game}: won by .+ \(seat \d+\)")
    return lambda line: pattern.fullmatch(line) is not None


def host_key() -> str:
    """The fingerprint (hex) of the key every `doubtlan host` of these tests presents: the one
    kept in the data folder, which is the test session's own (conftest.py)."""
    return load_or_make(doubtlan_folder() / KEY_FILE).fingerprint.hex()


def advert(lan: Lan, host: int, name: str, port: int, **fields: Any) -> dict[str, Any]:
    """What `doubtlan tables --json` shows for a table hosted in ``host``."""
    return {
        "name": name,
        "port": port,
        "addresses": [lan.address(host)],
        "version": PROTOCOL_VERSION,
        "game": "idoubtit",
        "rules": "decks=1,challenge=window",
        "fingerprint": host_key(),
        **fields,
    }


def test_bots_find_the_table_by_zeroconf_and_play_three_games() -> None:
    need_netns()
    with Lan(hosts=5, prefix="lanplay") as lan:
        host, port = start_host(
            lan, "Office LAN", "--players", "4", "--bots", "1", "--games", "3", "--seed", "11",
            "--window", "2",
        )

        # The table waits in the lobby for three players: a fifth machine sees it there.
        assert tables(lan, 5) == [
            advert(lan, 1, "Office LAN", port, taken=1, seats=4, state="lobby", pin=False)
        ]

        # Three players on three machines, none told where the table is.
        players = {2: ("random", "Ada"), 3: ("honest", "Bo"), 4: ("counter", "Cy")}
        joiners = {
            name: join(lan, machine, strategy, name)
            for machine, (strategy, name) in players.items()
        }

        for game in (1, 2, 3):
            host.expect(won(game), STEP, f"game {game}'s winner")
        for name, joiner in joiners.items():
            plays_to_the_end(joiner, name)
        assert host.finish(STEP) == 0, host.errors()
        assert host.stdout is not None
        results = [line for line in host.stdout.seen if line.startswith("game ")]
        assert len(results) == 3, host.stdout.seen
        assert all(won(n)(line) for n, line in enumerate(results, start=1)), results
        assert "Traceback" not in host.errors()


def test_a_table_with_a_pin_seats_only_players_who_give_it() -> None:
    need_netns()
    with Lan(hosts=4, prefix="lanpin") as lan:
        host, port = start_host(
            lan, "Locked", "--players", "3", "--bots", "2", "--games", "1", "--seed", "5",
            "--pin", "1234", "--window", "2",
        )
        assert host.stdout is not None  # the join hint asks for the PIN, and does not say it
        assert f"  join by address: doubtlan join {lan.address(1)}:{port} --pin PIN" \
            in host.stdout.seen, host.stdout.seen

        # Both wrong players look for the table while a third machine lists it, at once.
        without = join(lan, 2, "random", "Nopin")
        wrong = join(lan, 3, "random", "Wrong", "--pin", "9999")
        assert tables(lan, 4) == [
            advert(lan, 1, "Locked", port, taken=2, seats=3, state="lobby", pin=True)
        ]
        for joiner in (without, wrong):
            status = joiner.finish(STEP)
            problems = joiner.errors()
            assert status > 0, (status, problems)
            assert "PIN" in problems, problems
            assert "Traceback" not in problems, problems
            assert joiner.stdout is not None and joiner.stdout.seen == []

        # The PIN gets the last seat; the match is played and the host is done.
        plays_to_the_end(join(lan, 4, "counter", "Keyholder", "--pin", "1234"), "Keyholder")
        host.expect(lambda line: line.startswith("game 1: won by"), STEP, "the winner")
        assert host.finish(STEP) == 0, host.errors()
        assert "Traceback" not in host.errors()


WATCH = """
import asyncio, dataclasses, json, sys
from doubtlan.net.discovery import Browser

def changed(tables):
    print(json.dumps({name: dataclasses.asdict(ad) for name, ad in tables.items()}), flush=True)

async def main():
    async with Browser([sys.argv[1]], on_change=changed):
        print("{}", flush=True)
        await asyncio.to_thread(sys.stdin.read)

asyncio.run(main())
"""

#: How long players may take to leave, and a browser to drop the table, once the host has
#: said goodbye: a player that was not told would try to reconnect for a minute, and a
#: table that was not withdrawn would stay in the browser for minutes.
GOODBYE = 10.0


def seen(line: str) -> dict[str, Any] | None:
    """The tables a line of the WATCH script lists (None for any other line)."""
    if not line.startswith("{"):
        return None
    return {name: committed(table) for name, table in json.loads(line).items()}


def test_a_stopped_host_says_goodbye_and_withdraws_its_table() -> None:
    need_netns()
    with Lan(hosts=4, prefix="lanstop") as lan:
        host, port = start_host(lan, "Short-lived", "--players", "4")
        watcher = python(lan, 2, "-c", WATCH, lan.address(2))

        # Two players sit down (by address: finding the table is tested above) and wait in
        # the lobby; the browser follows the advert until it says so.
        address = f"{lan.address(1)}:{port}"
        players = [
            doubtlan(lan, 3, "join", address, "--bot", "random", "--name", "Early"),
            doubtlan(lan, 4, "join", address, "--bot", "random", "--name", "Earlier"),
        ]
        line = watcher.expect(
            lambda line: ((seen(line) or {}).get("Short-lived") or {}).get("taken") == 2,
            STEP,
            "the advert to show both players seated",
        )
        assert seen(line) == {
            "Short-lived": advert(lan, 1, "Short-lived", port, taken=2, seats=4, state="lobby",
                                  pin=False)
        }

        # `ip netns exec` execs its command: the signal goes to doubtlan itself.
        host.popen.send_signal(signal.SIGTERM)
        status = host.finish(STEP)
        assert status >= 0, f"the host did not exit by itself ({status}):\n{host.errors()}"
        assert "Traceback" not in host.errors()

        # The players were told goodbye, and the browser that knew the table dropped it.
        for player in players:
            assert player.finish(GOODBYE) > 0, player.errors()
            assert "closed" in player.errors(), player.errors()
            assert "Traceback" not in player.errors()
        watcher.expect(lambda line: seen(line) == {}, GOODBYE, "the browser to drop the table")
        assert watcher.finish(STEP) == 0, watcher.errors()
        assert "Traceback" not in watcher.errors()

        # And a search started now finds nothing.
        assert tables(lan, 3) == []


def test_an_i_know_you_dont_table_is_found_as_one_and_played() -> None:
    need_netns()
    with Lan(hosts=4, prefix="lanknow") as lan:
        host, port = start_host(
            lan, "Second game", "--game", "iknowyoudont", "--players", "3", "--bots", "1",
            "--strategy", "random", "--games", "1", "--seed", "7", "--window", "2",
        )
        assert tables(lan, 4) == [
            advert(lan, 1, "Second game", port, taken=1, seats=3, state="lobby", pin=False,
                   game="iknowyoudont", rules="deck=own,rounds=5")
        ]
        # The players' bots are I Doubt It's by name; they play the game the table plays.
        joiners = {name: join(lan, machine, "counter", name)
                   for machine, name in ((2, "Ada"), (3, "Bo"))}
        host.expect(won(1), STEP, "the winner")
        for name, joiner in joiners.items():
            plays_to_the_end(joiner, name)
        assert host.finish(STEP) == 0, host.errors()
        assert "Traceback" not in host.errors()
