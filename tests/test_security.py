"""What TLS and the PIN's key exchange promise (docs/protocol.md), shown on real connections.

- A whole match captured on a private LAN's bridge holds TLS records and nothing else: no
  frame, no card, no message name in the clear. The checker is shown to catch cleartext.
- A relay that ends TLS with a key of its own and passes every byte on (tests/relay.py) is
  refused at a table with a PIN, and learns no PIN, no token, no card; at a table without a
  PIN it gets in, but shows a key (and key words) other than the host's, which is what the
  people in the room compare.
- The parts: the host's key file (net/identity.py), the exchange (net/pin.py), the keys of
  tables joined (net/known.py).

Direct connections are to 127.0.0.1. The capture runs only inside network namespaces that
the test makes (tests/lan.py); it needs root, and fails (does not skip) without it.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import os
import re
import stat
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lan import NETNS_MISSING, Guest, Lan, netns_available, tcp_segments, tcp_streams
from relay import LOOPBACK, Relay
from wire import Harness

from doubtlan.net import known
from doubtlan.net.client import Client
from doubtlan.net.host import Host, Limits
from doubtlan.net.identity import (
    WORDLIST,
    WORDS,
    IdentityError,
    load_or_make,
    make,
    words,
)
from doubtlan.net.messages import State
from doubtlan.net.pin import ClientExchange, HostExchange, NotTheTable
from doubtlan.net.table import Table, TableConfig
from doubtlan.rules import deck

ROOT = Path(__file__).resolve().parent.parent
#: The longest any one step may take: a process starting, a match, a client's tries.
STEP = 60.0
NOT_THE_TABLE = "This is not the table it claims to be"
#: What a failed PIN proof says first: a mistyped PIN (or a host that does not know it).
WRONG_PIN = "Wrong PIN, or not the real table"
REFUSED = (NOT_THE_TABLE, WRONG_PIN)
PIN = "4321"


# -- what cleartext looks like -------------------------------------------------------------

#: The msgpack of names that every doubtlan frame is made of (message types and keys). Each
#: is 5 bytes or more: in ciphertext, one turns up by chance about once in 2**40 bytes.
NAMES = tuple(msgpack.packb(name) for name in (
    "type", "hello", "welcome", "state", "table", "knock", "proof", "hand", "token", "seat",
    "view", "legal", "events", "version", "commitment",
))
#: A card as msgpack carries it (b"\xa2QS"). Three bytes: random bytes hold one of the 52 by
#: chance once in 300 KiB or so, so single cards are looked for only outside ciphertext; a
#: hand (two cards or more in a row) is looked for everywhere.
CARD = re.compile(b"|".join(re.escape(msgpack.packb(card.code)) for card in deck(1)))
HAND = re.compile(b"(?:" + CARD.pattern + b"){2,}")
#: TLS record types: change_cipher_spec, alert, handshake, application_data.
CHANGE_CIPHER_SPEC, ALERT, HANDSHAKE, APPLICATION_DATA = 0x14, 0x15, 0x16, 0x17
#: The largest record body TLS 1.3 allows (2**14 bytes of data, and 256 of padding and tag).
MAX_RECORD = 2**14 + 256


def tls_records(stream: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """(content type, header, body) of each TLS record ``stream`` is made of; ValueError where
    it is not one. A last record cut short (still in flight when the capture stopped) counts
    if its header is whole and right."""
    at = 0
    while at < len(stream):
        header = stream[at:at + 5]
        if len(header) < 5:
            raise ValueError(f"{len(header)} bytes at {at}: not a record header")
        kind, version, length = header[0], header[1:3], int.from_bytes(header[3:5], "big")
        if kind not in (CHANGE_CIPHER_SPEC, ALERT, HANDSHAKE, APPLICATION_DATA):
            raise ValueError(f"byte {kind:#04x} at {at} is no TLS record type")
        if version not in (b"\x03\x03", b"\x03\x01") or length > MAX_RECORD:
            raise ValueError(f"at {at}: version {version.hex()}, {length} bytes: not TLS 1.3")
        yield kind, header, stream[at + 5:at + 5 + length]
        at += 5 + length


def cleartext_in(stream: bytes) -> list[str]:
    """What in the bytes of one direction of a connection is not sealed by TLS 1.3: [] when
    the stream is TLS records only, application data once the handshake has begun to be
    encrypted, and holds no doubtlan name, no hand, and outside the ciphertext no card."""
    found = [f"the name {name!r}" for name in NAMES if name in stream]
    found += [f"the cards {match.group()!r}" for match in HAND.finditer(stream)]
    clear = bytearray()
    try:
        encrypted = False
        for kind, header, body in tls_records(stream):
            clear += header
            if kind == APPLICATION_DATA:
                encrypted = True
            elif encrypted and kind != CHANGE_CIPHER_SPEC:
                found.append(f"a record of type {kind:#04x} in the clear after the handshake")
            if kind != APPLICATION_DATA:
                clear += body
    except ValueError as error:
        found.append(f"not TLS: {error}")
        clear = bytearray(stream)
    found += [f"the card {match.group()!r} in the clear" for match in CARD.finditer(clear)]
    return found


def a_state_frame() -> bytes:
    """A real ``state`` frame: the first a player gets at a table of two bots, with a hand."""
    h = Harness(TableConfig(players=3, seed=1, turn_timeout=0), bots=2)
    conn = h.hello("Amy")
    return next(frame for frame, message in zip(h.frames[conn], h.received[conn], strict=True)
                if isinstance(message, State))


def test_the_checker_finds_a_frame_sent_in_the_clear() -> None:
    frame = a_state_frame()
    found = cleartext_in(frame)
    assert "the name b'\\xa4hand'" in found and "the name b'\\xa5state'" in found, found
    assert any(line.startswith("the cards ") for line in found), found
    assert any(line.startswith("not TLS: ") for line in found), found

    # Hidden after an honest-looking record, or a single card in a record not encrypted,
    # it is found too.
    record = b"\x17\x03\x03\x00\x10" + os.urandom(16)
    assert any(line.startswith("not TLS: ") for line in cleartext_in(record + frame))
    hand = HAND.search(frame)
    assert hand is not None
    card = hand.group()[:3]
    assert cleartext_in(b"\x16\x03\x03\x00\x03" + card + record) == [
        f"the card {card!r} in the clear"
    ]
    assert cleartext_in(record + b"\x16\x03\x03\x00\x03" + card) == [
        "a record of type 0x16 in the clear after the handshake", f"the card {card!r} in the clear"
    ]

    # And random bytes in records are not taken for cleartext.
    sealed = b"".join(b"\x17\x03\x03\x40\x00" + os.urandom(2**14) for _ in range(8))
    assert cleartext_in(b"\x16\x03\x01\x00\x04\x01\x00\x00\x00" + sealed) == []


# -- a whole match on the wire ----------------------------------------------------------------

LISTENING = re.compile(r'table "(?P<name>.+)" listening on (?P<bind>\S+):(?P<port>\d+)')

#: For the control: a table of one bot that serves plain TCP (which no command does), in
#: one machine, and two bot players that speak it, in another.
PLAIN_HOST = """
import asyncio, sys
from doubtlan.net.host import Host
from doubtlan.net.table import Table, TableConfig

async def main():
    table = Table(TableConfig(players=3, games=1, seed=1, window=1, turn_timeout=0))
    table.seat_bot("counter")
    host = Host(table, sys.argv[1], 0, tls=False)
    print(f'table "Plain" listening on {sys.argv[1]}:{await host.start()}', flush=True)
    await asyncio.wait_for(host.serve(), float(sys.argv[2]))
    await host.close()

asyncio.run(main())
"""
PLAIN_PLAYERS = """
import asyncio, sys
from doubtlan.bots import make_bot
from doubtlan.net import botclient
from doubtlan.net.client import Client

async def main():
    host, port, step = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    clients = [Client(host, port, name, tls=False) for name in ("Ada", "Bo")]
    await asyncio.wait_for(
        asyncio.gather(*(botclient.play(c, make_bot("random")) for c in clients)), step)
    print("the match is over", flush=True)

asyncio.run(main())
"""


def python(lan: Lan, host: int, *args: str) -> Guest:
    """Run this interpreter with ``args`` in ``host``, importing doubtlan from this checkout."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return lan.run(host, [sys.executable, *args], cwd=ROOT, env=env)


def table_port(host: Guest) -> int:
    line = host.expect(lambda line: LISTENING.fullmatch(line) is not None, STEP, "listening")
    found = LISTENING.fullmatch(line)
    assert found is not None
    return int(found["port"])


def capture_a_match(path: Path, tls: bool) -> tuple[list[bytes], tuple[str, int]]:
    """Every frame that crossed the bridge of a new LAN while a table in host 1 played a match
    with a bot and two players in hosts 2 and 3 (`doubtlan host` and `doubtlan join`; or,
    with ``tls`` False, the same in plain TCP); and the table's address and port."""
    if not netns_available():
        pytest.fail(NETNS_MISSING)
    with Lan(hosts=3, prefix="sectls" if tls else "secplain") as lan:
        capture = lan.capture(path)
        if not tls:
            host = python(lan, 1, "-c", PLAIN_HOST, lan.address(1), str(STEP))
            port = table_port(host)
            players = python(lan, 2, "-c", PLAIN_PLAYERS, lan.address(1), str(port), str(STEP))
            players.expect("the match is over".__eq__, STEP, "the match's end")
            assert players.finish(STEP) == 0, players.errors()
        else:
            host = python(lan, 1, "-m", "doubtlan", "host", "--headless", "--name", "Sealed",
                          "--players", "3", "--bots", "1", "--games", "1", "--seed", "1",
                          "--window", "2", "--no-advertise", "--no-journal",
                          "--bind", lan.address(1), "--port", "0")
            port = table_port(host)
            joiners = {
                name: python(lan, i, "-m", "doubtlan", "join", f"{lan.address(1)}:{port}",
                             "--bot", "random", "--name", name)
                for i, name in ((2, "Ada"), (3, "Bo"))
            }
            host.expect(lambda line: line.startswith("game 1: won by"), STEP, "the winner")
            for name, joiner in joiners.items():
                over = f"{name}: the match is over"
                joiner.expect(over.__eq__, STEP, repr(over))
                assert joiner.finish(STEP) == 0, joiner.errors()
        assert host.finish(STEP) == 0, host.errors()
        return capture.stop(), (lan.address(1), port)


def the_tables_streams(frames: list[bytes], table: tuple[str, int]) -> dict[str, bytes]:
    """The bytes of each direction of each connection to the table, by "from"/"to" and the
    player's address and port; checks that every IPv4 packet on the bridge was TCP to or from the
    table (nothing else went on: nothing advertised), and that each player had one
    connection."""
    segments = list(tcp_segments(frames))
    assert segments, f"{len(frames)} frames captured, no TCP among them"
    ipv4 = [frame for frame in frames if frame[12:14] == b"\x08\x00"]
    assert len(ipv4) == len(segments), "IPv4 that is not TCP crossed the bridge"
    assert all(table in (s.source, s.destination) for s in segments)
    streams = {}
    for (source, destination), data in tcp_streams(frames).items():
        if source == table:
            streams["from the table to {}:{}".format(*destination)] = data
        else:
            streams["from {}:{} to the table".format(*source)] = data
    assert len(streams) == 4, sorted(streams)  # two players, each one connection, both ways
    # A game's worth reached each player: every state of it (some 60 KiB, bench/net.py).
    assert all(len(data) > 10_000 for key, data in streams.items() if "from the table" in key), \
        {key: len(data) for key, data in streams.items()}
    return streams


def test_a_match_captured_on_the_lan_holds_no_frame_in_the_clear(tmp_path: Path) -> None:
    frames, table = capture_a_match(tmp_path / "match.pcap", tls=True)
    for key, data in the_tables_streams(frames, table).items():
        assert cleartext_in(data) == [], key
        kinds = Counter(kind for kind, _, _ in tls_records(data))
        assert kinds[APPLICATION_DATA] >= 20, (key, kinds)


def test_the_same_capture_of_a_plain_tcp_match_shows_every_frame(tmp_path: Path) -> None:
    """The control: the capture and its check see cleartext when there is some."""
    frames, table = capture_a_match(tmp_path / "plain.pcap", tls=False)
    for key, data in the_tables_streams(frames, table).items():
        found = cleartext_in(data)
        assert any(line.startswith("not TLS: ") for line in found), (key, found)
        if key.startswith("from the table"):
            assert "the name b'\\xa4hand'" in found, (key, found)
            assert any(line.startswith("the cards ") for line in found), (key, found)
        else:
            assert "the name b'\\xa5hello'" in found, (key, found)


# -- a relay in the middle --------------------------------------------------------------------


#: The relay's tries all come from one address, many in a row: past the host's allowance of
#: new connections from one address, which is not these tests' point.
RELAYED = Limits(connect_burst=1000)


#: Numbers for the tables' names.
_TABLES = itertools.count(1)


@pytest.fixture
async def pin_table() -> AsyncIterator[Host]:
    """A table with a PIN, on loopback, nobody seated; named as no other table, so that no
    key another test's `join` remembered for a name is this one's."""
    host = Host(Table(TableConfig(players=3, pin=PIN, turn_timeout=0,
                                  name=f"PIN table {next(_TABLES)}")), LOOPBACK, 0, RELAYED)
    await host.start()
    yield host
    await host.close()


@pytest.fixture
async def open_table() -> AsyncIterator[Host]:
    """A table without a PIN, on loopback, nobody seated."""
    host = Host(Table(TableConfig(players=3, turn_timeout=0)), LOOPBACK, 0, RELAYED)
    await host.start()
    yield host
    await host.close()


async def knock_through(relay: Relay, name: str) -> str:
    """Join through the relay with the PIN: what ``Client.run`` ended with (NotTheTable's
    message, or the host's bye code)."""
    client = Client(LOOPBACK, relay.port, name, pin=PIN, first_try_for=STEP)
    try:
        bye = await asyncio.wait_for(client.run(), STEP)
    except NotTheTable as error:
        return str(error)
    finally:
        await client.close()
    return f"bye {bye.code}" if bye is not None else "nothing"


def nothing_but_knocks(relay: Relay, tries: int) -> None:
    """The relay saw the PIN's exchange and nothing after it: ``tries`` knocks, answered by
    proofs or refusals (and maybe the host's ping), each after the table's name asked (by
    `doubtlan join`, which remembers keys); no PIN, no hello, no seat, no card."""
    to_host = Counter(message["type"] for message in relay.messages("to host"))
    to_client = Counter(message["type"] for message in relay.messages("to client"))
    assert to_host["knock"] == tries and to_host["peek"] in (0, tries), to_host
    assert set(to_host) <= {"knock", "peek"}, to_host
    assert set(to_client) <= {"proof", "bye", "ping", "name"}, to_client
    assert to_client["proof"] + to_client["bye"] == tries, to_client

    seen = relay.plaintext()
    # The exchange's values are random each time (hex, from a new secret every knock), so
    # none is the PIN's; "4321" may turn up inside one by chance (once in 300 tries), so the
    # PIN is looked for in what is left once they are taken out.
    values = [message[key] for message in relay.messages("to host") + relay.messages("to client")
              for key in ("half", "proof") if key in message]
    assert len(values) == len(set(values)), "an exchange value was sent twice"
    for value in values:
        assert PIN.encode() not in bytes.fromhex(value)
        seen = seen.replace(value.encode(), b"")
    for form in (PIN.encode(), PIN.encode().hex().encode(), PIN.encode("utf-16-le"),
                 b"NDMyMQ", msgpack.packb(PIN), msgpack.packb(int(PIN))):
        assert form not in seen, form
    in_a_knock = {msgpack.packb(name) for name in ("type", "knock", "proof", "version")}
    for name in NAMES:
        assert name in in_a_knock or name not in seen, name
    assert HAND.search(seen) is None


async def test_a_relay_with_its_own_key_is_refused_at_a_pin_table_every_time(
    pin_table: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty tries through the relay each end in NotTheTable, and the relay learns nothing.

    The host counts every knock as a try at the PIN: three from one address, then a wait
    that doubles (net/table/seats.py). The relay's tries all come from one address, so at
    the default the fourth is refused with ``too_many_attempts`` before any exchange (the
    next test shows that). To see what a player is told on each try, this host allows 100.
    """
    monkeypatch.setattr("doubtlan.net.table.seats.PIN_TRIES", 100)
    monkeypatch.setattr("doubtlan.net.table.seats.TABLE_PIN_BURST", 100)
    async with Relay(LOOPBACK, pin_table.port) as relay:
        for attempt in range(20):
            outcome = await knock_through(relay, f"try {attempt}")
            assert outcome.startswith(REFUSED), (attempt, outcome)
        assert relay.connections == 20
    nothing_but_knocks(relay, 20)
    assert not any(seat.taken for seat in pin_table.table.seats)
    assert all(seat.token is None for seat in pin_table.table.seats)


async def test_the_relays_tries_are_counted_as_guesses_at_the_pin(pin_table: Host) -> None:
    """At the default PIN limits the relay's knocks soon get no answer but a refusal."""
    async with Relay(LOOPBACK, pin_table.port) as relay:
        outcomes = [await knock_through(relay, f"try {attempt}") for attempt in range(20)]
    assert all(o.startswith(REFUSED) for o in outcomes[:3]), outcomes
    assert all(o.startswith(REFUSED) or o == "bye too_many_attempts" for o in outcomes)
    assert "bye too_many_attempts" in outcomes, outcomes
    nothing_but_knocks(relay, 20)
    assert not any(seat.taken for seat in pin_table.table.seats)


async def test_doubtlan_join_through_the_relay_says_it_is_not_the_table(
    pin_table: Host,
) -> None:
    async with Relay(LOOPBACK, pin_table.port) as relay:
        joiner = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "doubtlan", "join", f"{LOOPBACK}:{relay.port}", "--bot",
            "random", "--name", "Cli", "--pin", PIN, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(joiner.communicate(), STEP)
    problems = err.decode()
    assert joiner.returncode == 1, (joiner.returncode, out, problems)
    assert any(f"doubtlan: {refused}:" in problems for refused in REFUSED), problems
    assert "Traceback" not in problems, problems
    assert out == b""
    nothing_but_knocks(relay, 1)


async def test_without_a_pin_the_relay_gets_in_but_shows_another_key(open_table: Host) -> None:
    host_key = open_table.table.fingerprint
    assert open_table.identity is not None and host_key == open_table.identity.fingerprint
    async with Relay(LOOPBACK, open_table.port) as relay:
        client = Client(LOOPBACK, relay.port, "Ada", first_try_for=STEP)
        playing = asyncio.create_task(client.run())
        await asyncio.wait_for(client.connected.wait(), STEP)
        # Nothing proves the host here: the player is seated, through the relay...
        assert client.mirror.seat is not None and client.mirror.token is not None
        await client.close()
        await asyncio.wait_for(playing, STEP)
        assert msgpack.packb(client.mirror.token) in relay.plaintext("to client")

        # ... but it saw the relay's key, not the host's, and reads other words aloud.
        assert client.fingerprint == relay.identity.fingerprint != host_key
        assert words(client.fingerprint) != words(host_key)

        # A player who has the host's key from its advert is not fooled, and sends nothing.
        told = Client(LOOPBACK, relay.port, "Bo", fingerprint=host_key, first_try_for=STEP)
        with pytest.raises(NotTheTable, match="^" + NOT_THE_TABLE):
            await asyncio.wait_for(told.run(), STEP)
        assert {p.connection for p in relay.log if p.direction == "to host"} == {1}


# -- the host's key file ----------------------------------------------------------------------


def test_the_host_key_is_made_once_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "data" / "host.pem"
    made = load_or_make(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_make(path)
    assert again == made and again.fingerprint == made.fingerprint
    assert path.read_bytes() == made.key_pem + made.cert_pem
    assert len(made.fingerprint) == 32 and make().fingerprint != made.fingerprint


@pytest.mark.parametrize("damage", ["garbage", "half", "certificate only"])
def test_a_damaged_key_file_is_refused_saying_what_to_do(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "host.pem"
    whole = make()
    path.write_bytes({
        "garbage": b"not a key at all\n",
        "half": (whole.key_pem + whole.cert_pem)[: len(whole.key_pem) + 40],
        "certificate only": whole.cert_pem,
    }[damage])
    with pytest.raises(IdentityError) as caught:
        load_or_make(path)
    assert str(caught.value) == (f"{path} does not hold a key and a certificate; move it "
                                 "away and a new one is made")


def test_a_key_that_is_not_the_certificates_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "host.pem"
    path.write_bytes(make().key_pem + make().cert_pem)  # each whole, but not a pair
    with pytest.raises(IdentityError, match="does not hold a usable key and certificate"):
        load_or_make(path)


def test_a_host_with_a_damaged_key_file_says_so_and_stops(tmp_path: Path) -> None:
    (tmp_path / "doubtlan").mkdir()
    (tmp_path / "doubtlan" / "host.pem").write_bytes(b"not a key at all\n")
    done = subprocess.run(
        [sys.executable, "-m", "doubtlan", "host", "--headless", "--no-advertise",
         "--no-journal", "--bind", "127.0.0.1", "--port", "0"],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )
    assert done.returncode == 1
    assert "does not hold a key and a certificate" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_key_file_that_cannot_be_read_says_so(tmp_path: Path) -> None:
    path = tmp_path / "host.pem"
    path.mkdir()
    with pytest.raises(IdentityError, match=f"^cannot read the host's key {path}: "):
        load_or_make(path)


def test_a_fingerprint_is_read_aloud_as_six_different_words_of_the_list() -> None:
    fingerprint = make().fingerprint
    said = words(fingerprint).split(" ")
    assert len(said) == WORDS == 6 and len(set(said)) == 6
    assert set(said) <= set(WORDLIST)
    assert words(fingerprint) == words(fingerprint[:6] + bytes(26))  # its first 48 bits
    assert words(b"") == ""
    # The number the six bytes make, in the list's mixed radix: 0 is the list's first six.
    assert words(bytes(6)).split(" ") == list(WORDLIST[:6])
    assert words(bytes([0, 0, 0, 0, 0, 1])).split(" ") == [WORDLIST[1], WORDLIST[0],
                                                           *WORDLIST[2:6]]


@given(st.binary(min_size=6, max_size=6), st.binary(min_size=6, max_size=6))
def test_no_word_repeats_and_two_prefixes_never_read_alike(a: bytes, b: bytes) -> None:
    """Six different words from 260 can say 260 x 259 x ... x 255 numbers, more than the
    2**48 that six bytes are: the words are as strong as the bytes (docs/security.md)."""
    said = words(a).split(" ")
    assert len(set(said)) == 6
    assert (words(a) == words(b)) == (a == b)


def test_six_different_words_say_48_bits_and_the_ends_read_right() -> None:
    assert math.perm(len(WORDLIST), WORDS) >= 2 ** 48 > math.perm(256, WORDS)
    for prefix in (bytes(6), b"\xff" * 6, b"\x80" + bytes(5)):
        assert len(set(words(prefix).split(" "))) == 6


def test_the_word_list_has_260_words_no_two_alike() -> None:
    assert len(WORDLIST) == 260
    assert len(set(WORDLIST)) == 260
    assert len({word[:4] for word in WORDLIST}) == 260, [
        prefix for prefix, n in Counter(word[:4] for word in WORDLIST).items() if n > 1
    ]
    assert all(word.isascii() and word.isalpha() and word.islower() for word in WORDLIST)


# -- the PIN's key exchange ------------------------------------------------------------------

KEY = bytes(range(32))


def exchange(client_pin: str, host_pin: str, client_key: bytes = KEY,
             host_key: bytes = KEY) -> tuple[ClientExchange, HostExchange]:
    player = ClientExchange(client_pin, client_key)
    return player, HostExchange(host_pin, host_key, player.knock())


def test_the_same_pin_and_key_prove_both_ways() -> None:
    player, host = exchange(PIN, PIN)
    proof = player.answer(host.half, host.proof)
    assert host.proved(proof)


def test_a_wrong_pin_is_found_out_by_the_player_first() -> None:
    player, host = exchange("1111", PIN)
    with pytest.raises(NotTheTable, match=f"^{WRONG_PIN}: the host could not prove"):
        player.answer(host.half, host.proof)


def test_the_right_pin_bound_to_another_key_fails() -> None:
    """What a relay with its own certificate gets: both sides know the PIN, but each binds
    the fingerprint it sees."""
    player, host = exchange(PIN, PIN, client_key=b"\x01" * 32)
    with pytest.raises(NotTheTable, match=f"^{WRONG_PIN}"):
        player.answer(host.half, host.proof)


def test_the_host_refuses_a_proof_that_does_not_hold() -> None:
    player, host = exchange(PIN, PIN)
    right = player.answer(host.half, host.proof)
    other_player, other_host = exchange(PIN, PIN)
    replayed = other_player.answer(other_host.half, other_host.proof)
    last = bytes.fromhex(right)
    tampered = (last[:-1] + bytes([last[-1] ^ 1])).hex()
    for proof in (None, "", "zz", "00" * 32, tampered, right[:-1]):
        assert not host.proved(proof), proof
    assert not host.proved(replayed)  # the same PIN's proof, from another exchange
    assert host.proved(right)


def test_an_unreadable_knock_or_answer_is_refused() -> None:
    for knock in ("zz", "", "00" * 10, "00" * 33):
        with pytest.raises(ValueError):
            HostExchange(PIN, KEY, knock)
    player = ClientExchange(PIN, KEY)
    player.knock()
    with pytest.raises(NotTheTable, match="not readable"):
        player.answer("00" * 10, "00" * 32)


# -- the keys of tables joined --------------------------------------------------------------


def test_a_table_key_is_remembered_and_a_changed_one_refused_unless_taken(
        tmp_path: Path) -> None:
    where = tmp_path / "known-tables.json"
    first, second = make().fingerprint, make().fingerprint
    assert known.check("Office", first, where) == known.Check("new", first)
    assert known.check("Office", first, where) == known.Check("same", first)
    assert known.check("Office", second, where) == known.Check("changed", second, first)
    with pytest.raises(known.KeyChanged) as refused:
        known.refuse_changed("Office", second, where=where)
    assert isinstance(refused.value, NotTheTable)
    assert f"(then: {words(first)}; now: {words(second)})" in str(refused.value)
    assert (refused.value.remembered, refused.value.fingerprint) == (first, second)
    # Refused, the first key stays the one remembered; another table's name is its own.
    assert known.check("Office", second, where).verdict == "changed"
    assert known.check("Kitchen", second, where).verdict == "new"
    assert not known.refuse_changed("Office", first, where=where)
    # Taken when asked: the new key is the one remembered from then on.
    assert known.refuse_changed("Office", second, accept=True, where=where)
    assert known.check("Office", second, where) == known.Check("same", second)
    assert known.check("Office", first, where).verdict == "changed"


def test_a_damaged_file_of_known_tables_is_read_as_empty(tmp_path: Path) -> None:
    where = tmp_path / "known-tables.json"
    key = make().fingerprint
    for damage in (b"{not json", b"\xff\xfe", b"[1, 2]", b'{"Office": 7}', b'{"Office": "zz"}'):
        where.write_bytes(damage)
        assert known.check("Office", key, where) == known.Check("new", key), damage
        assert known.check("Office", key, where).verdict == "same"


def test_kept_seats_are_readable_by_their_owner_only_and_a_damaged_file_is_empty(
        tmp_path: Path) -> None:
    from doubtlan.net.kept import MOST, Kept, KeptSeats

    where = tmp_path / "seats.json"
    kept = KeptSeats(where)
    seat = Kept("ab" * 32, "Ben", "cd" * 32, "t" * 32, "11" * 16, "Amy's table")
    kept.keep(seat)
    assert where.stat().st_mode & 0o777 == 0o600
    found = kept.find(bytes.fromhex("ab" * 32), "Ben")
    assert found is not None and found.token == seat.token and found.kept > 0
    assert kept.find(bytes.fromhex("ef" * 32), "Ben") is None  # another table's key: nothing
    assert kept.holds("ab" * 32, "cd" * 32) and not kept.holds("ab" * 32, "00" * 32)
    for n in range(MOST + 5):
        kept.keep(Kept("ab" * 32, f"p{n}", "cd" * 32, "t" * 32, "11" * 16))
    assert kept.find(bytes.fromhex("ab" * 32), "Ben") is None  # the oldest went
    where.write_text("{not json")
    assert kept.find(bytes.fromhex("ab" * 32), "p70") is None
    where.write_text('[{"fingerprint": 1}]')  # a line that does not read is left out
    kept.keep(seat)
    assert kept.find(bytes.fromhex("ab" * 32), "Ben") is not None
