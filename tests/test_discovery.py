"""Finding tables: the TXT properties as untrusted input, and mDNS on a private LAN.

The network test builds a LAN of network namespaces (tests/lan.py) and runs every advertiser
and browser in a process inside it, so no packet of it reaches the machine's interfaces. It
needs root; without it the test fails (it does not skip), saying so.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import ifaddr
import pytest
from lan import NETNS_MISSING, Guest, Lan, netns_available

from doubtlan.net import discovery
from doubtlan.net.discovery import (
    SERVICE_TYPE,
    Advertiser,
    TableAd,
    advertiser,
    browser,
    lan_addresses,
)

ROOT = Path(__file__).resolve().parent.parent

#: The longest any one thing on the LAN may take to show.
WAIT = 10.0

AD = TableAd(
    name="Kitchen",
    port=40123,
    addresses=(),
    version=1,
    game="idoubtit",
    rules="decks=1,challenge=window",
    taken=1,
    seats=4,
    state="lobby",
    pin=False,
)


def txt(ad: TableAd, **changes: bytes | None) -> dict[bytes, bytes | None]:
    """``ad``'s properties as zeroconf hands them over, with some keys changed (None: no
    value) or dropped (``b"-"``)."""
    properties: dict[bytes, bytes | None] = {
        key.encode(): value.encode() for key, value in ad.properties().items()
    }
    for key, value in changes.items():
        if value == b"-":
            del properties[key.encode()]
        else:
            properties[key.encode()] = value
    return properties


# The properties, offline.


def test_the_service_type_is_a_valid_mdns_type() -> None:
    assert SERVICE_TYPE == "_doubtlan._tcp.local."


@pytest.mark.parametrize(
    "ad",
    [
        AD,
        dataclasses.replace(AD, name="Ça joue — table 2 (pour de vrai)", pin=True, state="over"),
        dataclasses.replace(AD, addresses=("10.0.0.7", "192.168.1.20"), taken=4, rules=""),
        dataclasses.replace(AD, name="x" * 63, version=65535, seats=64, taken=0),
        dataclasses.replace(AD, fingerprint="ab" * 32, commitment="0f" * 32),
    ],
)
def test_properties_round_trip(ad: TableAd) -> None:
    again = TableAd.from_properties(ad.name, ad.port, ad.addresses, txt(ad))
    assert again == ad


def test_properties_are_small() -> None:
    ad = dataclasses.replace(AD, name="n" * 59, rules="r" * discovery.MAX_RULES, pin=True,
                             fingerprint="ab" * 32, commitment="cd" * 32)
    properties = ad.properties()
    assert set(properties) == {"v", "name", "game", "rules", "taken", "seats", "state", "pin",
                               "fp", "c"}
    assert all(len(key) <= 5 for key in properties)
    # A TXT string holds at most 255 bytes; a whole record well under a packet.
    sizes = [len(f"{key}={value}".encode()) for key, value in properties.items()]
    assert max(sizes) <= 255
    assert sum(sizes) < 550
    assert properties["name"] == "n" * 59 and properties["pin"] == "1"


def test_unknown_keys_are_ignored() -> None:
    properties = txt(AD, later=b"feature", flag=None)
    assert TableAd.from_properties("Kitchen", AD.port, (), properties) == AD


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        *[({key: b"-"}, f"'{key}' is missing") for key in AD.properties()],
        ({"seats": None}, "'seats' is missing or has no value"),
        ({"v": b"one"}, "'v' must be a decimal number"),
        ({"v": b"0"}, "version must be a whole number from 1"),
        ({"taken": b"-1"}, "'taken' must be a decimal number"),
        ({"taken": b"+1"}, "'taken' must be a decimal number"),
        ({"taken": b" 1"}, "'taken' must be a decimal number"),
        ({"taken": b"1.0"}, "'taken' must be a decimal number"),
        ({"taken": "٣".encode()}, "'taken' must be a decimal number"),
        ({"taken": b"5"}, "taken must be a whole number from 0 to 4"),
        ({"seats": b"0"}, "seats must be a whole number from 1 to 64"),
        ({"seats": b"65"}, "seats must be a whole number from 1 to 64"),
        ({"seats": b"9" * 400}, "'seats' is too long"),
        ({"seats": b"123456"}, "'seats' must be a decimal number"),
        ({"state": b"paused"}, "state must be one of lobby, playing, over"),
        ({"pin": b"yes"}, "'pin' must be 0 or 1"),
        ({"game": b"I Doubt It!"}, "game must be"),
        ({"game": b""}, "game must be"),
        ({"rules": b"r" * 129}, "rules must be at most 128 characters"),
        ({"rules": b"decks=1\nchallenge=open"}, "rules must be printable ASCII"),
        ({"name": b"\xff\xfe"}, "'name' is not UTF-8"),
        ({"name": b"y" * 64}, "TXT name must be at most 63 bytes"),
        ({"name": b"bad\x07bell"}, "TXT name must not hold control characters"),
        ({"name": "bad\x9b31mC1".encode()}, "TXT name must be printable"),
        ({"name": "Amy\u202eelbat".encode()}, "TXT name must be printable"),
        ({"name": "Am\u200by".encode()}, "TXT name must be printable"),
        ({"name": b"   "}, "TXT name must be a non-empty string"),
        ({"c": b"12345"}, "c must be 64 hex digits"),
        ({"c": b"G" * 64}, "c must be 64 hex digits"),
    ],
)
def test_malformed_properties_are_refused(changes: dict[str, bytes | None], problem: str) -> None:
    with pytest.raises(ValueError, match="malformed table advert 'Kitchen'") as caught:
        TableAd.from_properties("Kitchen", AD.port, (), txt(AD, **changes))
    assert problem in str(caught.value)


@pytest.mark.parametrize(
    ("name", "port", "addresses", "problem"),
    [
        ("Kitchen", 0, (), "port must be a whole number from 1 to 65535"),
        ("Kitchen", 65536, (), "port must be a whole number from 1 to 65535"),
        ("Kitchen", 40123, ("not-an-ip",), "is not an IPv4 address"),
        ("Kitchen", 40123, ("fe80::1",), "is not an IPv4 address"),
        ("", 40123, (), "name must be a non-empty string"),
        ("z" * 64, 40123, (), "name must be at most 63 bytes"),
        ("tab\there", 40123, (), "name must not hold control characters"),
        ("C1\x85here", 40123, (), "name must be printable"),
        ("Kitchen\u202e", 40123, (), "name must be printable"),
        ("Kit\u200bchen", 40123, (), "name must be printable"),
    ],
)
def test_malformed_names_ports_and_addresses_are_refused(
    name: str, port: int, addresses: tuple[str, ...], problem: str
) -> None:
    with pytest.raises(ValueError, match="malformed table advert") as caught:
        TableAd.from_properties(name, port, addresses, txt(AD))
    assert problem in str(caught.value)


def test_a_table_ad_checks_its_fields() -> None:
    with pytest.raises(ValueError, match="seats must be a whole number"):
        dataclasses.replace(AD, seats=True)
    with pytest.raises(ValueError, match="pin must be a bool"):
        dataclasses.replace(AD, pin=1)  # type: ignore[arg-type]
    listed = dataclasses.replace(AD, addresses=["10.0.0.1"])  # type: ignore[arg-type]
    assert listed.addresses == ("10.0.0.1",) and hash(listed) == hash(listed)


# Choosing addresses, offline: nothing here may create zeroconf.


@pytest.fixture
def no_zeroconf(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make creating zeroconf in this process fail the test: it would send on real interfaces."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        pytest.fail("zeroconf was created in the test process, on the machine's real network")

    for module in (advertiser, browser):  # the modules that create zeroconf
        monkeypatch.setattr(module, "AsyncZeroconf", refuse)


@dataclasses.dataclass
class FakeIP:
    ip: str | tuple[str, int, int]
    network_prefix: int = 24


@dataclasses.dataclass
class FakeAdapter:
    name: str
    ips: list[FakeIP]
    index: int | None


def test_lan_addresses_leave_out_loopback_link_local_and_ipv6(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    adapters = [
        FakeAdapter("wlan0", [FakeIP("192.168.1.20"), FakeIP(("fe80::1", 0, 3))], 3),
        FakeAdapter("lo", [FakeIP("127.0.0.1"), FakeIP(("::1", 0, 1))], 1),
        FakeAdapter("eth0", [FakeIP("10.0.0.9"), FakeIP("169.254.7.7"), FakeIP("10.0.0.3")], 2),
    ]
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: adapters)
    assert lan_addresses() == ["10.0.0.3", "10.0.0.9", "192.168.1.20"]


@pytest.mark.parametrize(
    "addresses", [("127.0.0.1",), ("10.231.0.1", "127.0.0.53"), ("127.1.2.3",)]
)
def test_the_advertiser_refuses_loopback(no_zeroconf: None, addresses: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="refusing to advertise loopback address 127"):
        Advertiser(dataclasses.replace(AD, addresses=addresses))


def test_the_advertiser_refuses_other_unusable_addresses(no_zeroconf: None) -> None:
    with pytest.raises(ValueError, match="is not an IPv4 address"):
        Advertiser(dataclasses.replace(AD, addresses=("::1",)))
    with pytest.raises(ValueError, match="is not the address of an interface"):
        Advertiser(dataclasses.replace(AD, addresses=("0.0.0.0",)))
    with pytest.raises(ValueError, match="at most 59 bytes"):
        Advertiser(dataclasses.replace(AD, name="n" * 60, addresses=("10.0.0.1",)))


def test_the_advertiser_needs_a_lan_address(
    no_zeroconf: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(advertiser, "lan_addresses", lambda: [])  # where Advertiser reads it
    with pytest.raises(RuntimeError, match="no LAN address"):
        Advertiser(AD)


def test_a_taken_name_gets_the_first_free_suffix() -> None:
    unique = advertiser._unique_name
    assert unique("Kitchen", set()) == "Kitchen"
    assert unique("Kitchen", {"kitchen-2", "den"}) == "Kitchen"
    # DNS names are compared without regard to case: "KITCHEN" takes "Kitchen".
    assert unique("Kitchen", {"kitchen"}) == "Kitchen-2"
    assert unique("Kitchen", {"kitchen", "kitchen-2", "kitchen-4"}) == "Kitchen-3"
    assert unique("Ça joue", {"ça joue"}) == "Ça joue-2"
    longest = "n" * discovery.MAX_ADVERTISED_NAME_BYTES
    taken = {longest} | {f"{longest}-{number}" for number in range(2, 1000)}
    assert unique(longest, taken - {f"{longest}-999"}) == f"{longest}-999"
    with pytest.raises(RuntimeError, match="too many tables on the network are named"):
        unique(longest, taken)


async def test_the_advertiser_refuses_an_address_not_of_this_machine(no_zeroconf: None) -> None:
    advertiser = Advertiser(dataclasses.replace(AD, addresses=("198.51.100.77",)))
    with pytest.raises(ValueError, match="198.51.100.77 is not an address of this machine"):
        await advertiser.start()
    await advertiser.close()
    await advertiser.close()


# On a private LAN of network namespaces.

ADVERTISE = """
import asyncio, json, sys
from doubtlan.net.discovery import Advertiser, TableAd

async def main():
    advertiser = Advertiser(TableAd(**json.loads(sys.argv[1])))
    name = await advertiser.start()
    print(json.dumps({"registered": name}), flush=True)
    try:
        while line := await asyncio.to_thread(sys.stdin.readline):
            command, _, rest = line.strip().partition(" ")
            if command == "update":
                await advertiser.update(TableAd(**json.loads(rest)))
            elif command == "close":
                await advertiser.close()
            print(json.dumps({command: name}), flush=True)
    finally:
        await advertiser.close()

asyncio.run(main())
"""

# An advert made by hand, past the Advertiser's checks: its instance name, port and TXT
# properties as given (``raw``). A browser must leave out one that breaks the rules and carry on.
ADVERTISE_RAW = """
import asyncio, json, sys
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf
from doubtlan.net.discovery import SERVICE_TYPE

async def main():
    address, name, port, properties = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    aiozc = AsyncZeroconf(interfaces=[address], ip_version=IPVersion.V4Only)
    info = AsyncServiceInfo(
        SERVICE_TYPE, name + "." + SERVICE_TYPE, port=port, parsed_addresses=[address],
        properties=json.loads(properties),
    )
    await (await aiozc.async_register_service(info))
    print("registered", flush=True)
    await asyncio.to_thread(sys.stdin.read)
    await aiozc.async_close()

asyncio.run(main())
"""
#: The rules broken: a version that is no number, more seats taken than there are.
MALFORMED = {"v": "one", "name": "Broken", "game": "idoubtit", "rules": "", "taken": "9",
             "seats": "4", "state": "lobby", "pin": "0"}


def raw(lan: Lan, host: int, name: str, port: int, properties: dict[str, str]) -> Guest:
    """Advertise ``properties`` by hand from ``host``, once registered."""
    guest = python(lan, host, ADVERTISE_RAW, lan.address(host), name, str(port),
                   json.dumps(properties))
    guest.expect(lambda line: line == "registered", WAIT, f"the advert {name!r}")
    return guest


FIND = """
import asyncio, dataclasses, json, sys
from doubtlan.net.discovery import find_tables

tables = asyncio.run(find_tables(float(sys.argv[2]), [sys.argv[1]]))
print(json.dumps([dataclasses.asdict(ad) for ad in tables]), flush=True)
"""

WATCH = """
import asyncio, dataclasses, json, logging, sys
from doubtlan.net.discovery import Browser

def changed(tables):
    found = {name: dataclasses.asdict(ad) for name, ad in tables.items()}
    print(json.dumps({"tables": found}), flush=True)

async def main():
    async with Browser([sys.argv[1]], on_change=changed):
        print(json.dumps({"browsing": True}), flush=True)
        await asyncio.to_thread(sys.stdin.read)

logging.basicConfig(level=logging.INFO, format="%(name)s %(levelname)s %(message)s")
asyncio.run(main())
"""


def python(lan: Lan, host: int, code: str, *args: str) -> Guest:
    """Run ``code`` with this interpreter in ``host``, importing doubtlan from this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return lan.run(host, [sys.executable, "-c", code, *args], cwd=ROOT, env=env)


def message(line: str) -> dict[str, Any]:
    """A line a script printed, as JSON; anything else (a stray print) as an empty dict."""
    try:
        parsed = json.loads(line)
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def advertise(lan: Lan, host: int, ad: TableAd) -> tuple[Guest, str]:
    """Advertise ``ad`` from ``host`` on its address; the process and the registered name."""
    ad = dataclasses.replace(ad, addresses=(lan.address(host),))
    guest = python(lan, host, ADVERTISE, json.dumps(dataclasses.asdict(ad)))
    line = guest.expect(lambda line: "registered" in message(line), WAIT, "registration")
    return guest, message(line)["registered"]


def find(lan: Lan, host: int, seconds: float) -> list[dict[str, Any]]:
    """The tables ``find_tables`` sees from ``host`` in ``seconds``, as dicts."""
    guest = python(lan, host, FIND, lan.address(host), str(seconds))
    line = guest.expect(lambda line: line.startswith("["), seconds + WAIT, "find_tables")
    assert guest.finish(WAIT) == 0, guest.errors()
    found: list[dict[str, Any]] = json.loads(line)
    return found


def test_tables_are_found_renamed_updated_and_withdrawn_on_a_private_lan() -> None:
    if not netns_available():
        pytest.fail(NETNS_MISSING)
    with Lan(hosts=3, prefix="disc") as lan:
        # One table, found by a one-off search from another host.
        first, first_name = advertise(lan, 1, AD)
        assert first_name == "Kitchen"
        [table] = find(lan, 2, 1.5)
        assert table == {
            **dataclasses.asdict(AD),
            "addresses": [lan.address(1)],
        }

        # A second table that wants the same name gets another, and both are listed; an
        # advert that breaks the rules is not.
        broken = raw(lan, 1, "Broken", 40999, MALFORMED)
        second, second_name = advertise(lan, 3, AD)
        # The Advertiser's own check, not zeroconf's probing, picks the suffix.
        assert second_name == "Kitchen-2"
        found = find(lan, 2, 1.5)
        assert [(t["name"], t["addresses"]) for t in found] == sorted(
            [(first_name, [lan.address(1)]), (second_name, [lan.address(3)])]
        )

        # A live browser follows both tables and leaves the broken one out.
        watcher = python(lan, 2, WATCH, lan.address(2))

        def tables(line: str) -> dict[str, Any] | None:
            tables: dict[str, Any] | None = message(line).get("tables")
            return tables

        watcher.expect(
            lambda line: set(tables(line) or ()) == {first_name, second_name},
            WAIT,
            "the browser to list both tables",
        )
        assert watcher.stderr is not None
        watcher.stderr.expect(
            lambda line: "ignoring a table advert" in line and "'Broken" in line,
            WAIT,
            "the browser to ignore the malformed advert",
        )

        # The first table fills up and starts playing: the browser sees it.
        playing = dataclasses.replace(AD, taken=4, state="playing")
        first.send("update " + json.dumps(dataclasses.asdict(playing)))
        first.expect(lambda line: "update" in message(line), WAIT, "the update to be sent")
        seen = watcher.expect(
            lambda line: (tables(line) or {}).get(first_name, {}).get("state") == "playing",
            WAIT,
            "the browser to see the update",
        )
        assert tables(seen) == {
            first_name: {**dataclasses.asdict(playing), "addresses": [lan.address(1)]},
            second_name: {**dataclasses.asdict(AD), "name": second_name,
                          "addresses": [lan.address(3)]},
        }

        # Withdrawn, it vanishes from the live browser; the other table stays.
        first.send("close")
        first.expect(lambda line: "close" in message(line), WAIT, "the goodbye to be sent")
        watcher.expect(
            lambda line: set(tables(line) or {"?"}) == {second_name},
            WAIT,
            "the browser to drop the withdrawn table",
        )

        for guest in (first, second, broken, watcher):
            assert guest.finish(WAIT) == 0, guest.errors()
        assert "Traceback" not in watcher.errors()


async def test_a_table_that_does_not_answer_at_once_is_asked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A host too busy to answer the first request for its records (or a query lost) still
    gets listed: the browser asks again, up to RESOLVE_TRIES times, rather than waiting for
    the table's next announcement. No network: zeroconf's request is replaced."""
    from doubtlan.net.discovery import browser as browsing

    answers = iter([False, False, True])
    asked: list[str] = []

    class Info:
        def __init__(self, service_type: str, name: str) -> None:
            text = TableAd("Amy's table", 47474, ("10.0.0.1",), 8, "idoubtit",
                           "decks=1,challenge=window", 1, 4, "lobby", False).properties()
            self.port = 47474
            self.properties = {key.encode(): value.encode() for key, value in text.items()}

        async def async_request(self, zeroconf: object, timeout: int) -> bool:
            asked.append("request")
            return next(answers)

        def parsed_addresses(self, version: object) -> list[str]:
            return ["10.0.0.1"]

    monkeypatch.setattr(browsing, "AsyncServiceInfo", Info)
    found: list[dict[str, TableAd]] = []
    browser = browsing.Browser(["10.0.0.1"], on_change=found.append)
    browser._aiozc = type("Zeroconf", (), {"zeroconf": None})()  # type: ignore[assignment]
    await browser._resolve(f"Amy's table.{browsing.SERVICE_TYPE}", "Amy's table")
    assert asked == ["request"] * 3
    assert list(browser.tables) == ["Amy's table"] and found


async def test_the_browse_starts_afresh_now_and_then(monkeypatch: pytest.MonkeyPatch) -> None:
    """zeroconf's browser asks the network only in its first seconds; the Browser starts it
    afresh every BROWSE_AGAIN seconds, so that a table whose answers went astray is asked
    for again. No network: zeroconf is replaced."""
    import asyncio

    from doubtlan.net.discovery import browser as browsing

    started: list[object] = []
    cancelled: list[object] = []

    class Zeroconf:
        def __init__(self, **settings: object) -> None:
            self.zeroconf = type("Inner", (), {"done": False})()

        async def async_close(self) -> None:
            self.zeroconf.done = True

    class ServiceBrowser:
        def __init__(self, zeroconf: object, service_type: str, handlers: list[object]) -> None:
            started.append(self)

        async def async_cancel(self) -> None:
            cancelled.append(self)

    monkeypatch.setattr(browsing, "AsyncZeroconf", Zeroconf)
    monkeypatch.setattr(browsing, "AsyncServiceBrowser", ServiceBrowser)
    monkeypatch.setattr(browsing, "BROWSE_AGAIN", 0.01)
    async with browsing.Browser(["10.0.0.1"]):
        deadline = asyncio.get_running_loop().time() + WAIT
        while len(started) < 3:
            assert asyncio.get_running_loop().time() < deadline, "the browse never began again"
            await asyncio.sleep(0.01)
    assert set(cancelled) == set(started)  # every one stopped, the last when it closed


#: A table whose name carries what a terminal would obey or hide: a C1 CSI, a bidi override,
#: a zero-width space (the Advertiser's own checks are what it goes round).
HOSTILE_NAME = "Kit\u009b31mchen\u202e\u200b"


def test_an_advert_with_escape_sequences_in_its_name_is_left_out_of_tables() -> None:
    """`doubtlan tables` in one namespace lists the honest table advertised in another and
    leaves out one whose name holds a C1 control, a bidi override and a zero-width space:
    nothing of it reaches the terminal."""
    if not netns_available():
        pytest.fail(NETNS_MISSING)
    with Lan(hosts=3, prefix="rogue") as lan:
        honest, _ = advertise(lan, 1, AD)
        rogue = raw(lan, 3, HOSTILE_NAME, 40998, {
            "v": "1", "name": HOSTILE_NAME, "game": "idoubtit", "rules": "decks=1",
            "taken": "1", "seats": "4", "state": "lobby", "pin": "0"})
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        tables = lan.run(2, [sys.executable, "-m", "doubtlan", "tables", "--timeout", "2"],
                         cwd=ROOT, env=env)
        assert tables.finish(WAIT + 5) == 0, tables.errors()
        assert tables.stdout is not None
        shown = tables.stdout.drain() + tables.errors()
        assert "Kitchen" in shown and "40998" not in shown, shown
        assert not {c for c in shown if not c.isprintable() and c != "\n"}, repr(shown)
        for guest in (honest, rogue):
            assert guest.finish(WAIT) == 0, guest.errors()
