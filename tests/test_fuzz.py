"""Fuzzing the wire: over 10,000 cases of bad input, and nothing but clear refusals.

- Any bytes, and any msgpack value, given to the decoder give a message or a WireError.
- Valid frames with bytes flipped, cut or added, likewise.
- Mangled messages from every connection of a table in play: the table never fails,
  answers every refusal, and keeps every card where it belongs.
- Garbage on a live host's socket while bots play there: the match still ends.
"""

from __future__ import annotations

import asyncio
import random

import msgpack
from games import GameSpec
from hypothesis import given, settings
from hypothesis import strategies as st
from wire import Harness

from doubtlan.bots import make_bot
from doubtlan.net import botclient, protocol
from doubtlan.net.client import Client
from doubtlan.net.errors import WireError
from doubtlan.net.host import Host
from doubtlan.net.identity import client_context
from doubtlan.net.messages import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    PROTOCOL_VERSION,
    Act,
    Error,
    Hello,
    Leave,
    Ping,
)
from doubtlan.net.table import Table, TableConfig
from doubtlan.rules import game_named

scalars = (
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats()
    | st.text(max_size=40) | st.binary(max_size=40)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(st.text(max_size=10) | st.integers(-5, 5), inner, max_size=6),
    max_leaves=12,
)
fields = scalars | st.lists(scalars, max_size=4)
TYPES = [cls.TYPE for cls in CLIENT_MESSAGES] + ["welcome", "state", "", "x" * 300]
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={
        "version": fields, "name": fields, "pin": fields, "token": fields, "watch": fields,
        "turn": fields, "action": fields, "extra": fields,
    },
)


def refuses_cleanly(body: bytes) -> None:
    try:
        message = protocol.decode(body, "client")
    except WireError as error:
        assert error.code and error.message
    else:
        assert type(message) in CLIENT_MESSAGES


@settings(max_examples=2000)
@given(st.binary(max_size=300))
def test_any_bytes(body: bytes) -> None:
    refuses_cleanly(body)


@settings(max_examples=2000)
@given(values)
def test_any_msgpack_value(value: object) -> None:
    refuses_cleanly(msgpack.packb(value, use_bin_type=True))


@settings(max_examples=2000)
@given(messages)
def test_any_message_shaped_map(wire: dict[str, object]) -> None:
    refuses_cleanly(msgpack.packb(wire, use_bin_type=True))


HOST_TYPES = [cls.TYPE for cls in HOST_MESSAGES]
host_messages = st.fixed_dictionaries(
    {"type": st.sampled_from(HOST_TYPES)},
    optional={key: fields for key in (
        "version", "seat", "token", "name", "table", "game_number", "record_from", "view",
        "events", "notes", "claims", "code", "message",
    )},
)


@settings(max_examples=1000)
@given(host_messages | values)
def test_a_client_refuses_any_bad_host_message_cleanly(wire: object) -> None:
    """A client reads what a host sends with the same care (a host is untrusted too)."""
    try:
        message = protocol.decode(msgpack.packb(wire, use_bin_type=True), "host")
    except WireError as error:
        assert error.code
    else:
        assert type(message) in HOST_MESSAGES


#: Odd messages sent at each game's table (a bound on the loop: four games share the suite's
#: eight minutes).
CASES = 500

VALID = [
    protocol.encode(Hello(PROTOCOL_VERSION, "Amy", "ab" * 32, None, False)),
    protocol.encode(Hello(PROTOCOL_VERSION, "Amy", None, "t" * 32, True)),
    protocol.encode(Act(3, "lay QS")),
    protocol.encode(Act(0, "doubt")),
    protocol.encode(Ping()),
    protocol.encode(Leave()),
]


def mutate(rng: random.Random, data: bytes) -> bytes:
    body = bytearray(data[protocol.HEADER.size :])
    for _ in range(rng.randint(1, 4)):
        choice = rng.random()
        if choice < 0.4 and body:
            body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
        elif choice < 0.6 and body:
            del body[rng.randrange(len(body)) :]
        elif choice < 0.8:
            body.insert(rng.randrange(len(body) + 1), rng.randrange(256))
        else:
            body += bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
    return bytes(body)


def test_mangled_valid_frames() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        refuses_cleanly(mutate(rng, rng.choice(VALID)))


#: Text forms of every game's actions, whole, cut short and malformed, which a client might
#: send at any table (another game's are malformed there).
ODD_ACTIONS = ["pass", "accept", "challenge", "intercept", "wild", "keep", "play",
               "play T3", "play T3 7T", "play T3 0B", "play Q 3T", "play W 3X", "play B2 4T",
               "intercept now", "lay AS", "lay", "fold", "doubt", "stand", "announce", "put",
               "put Q Q Q Q", "put X", "liar", "liar now", "put Q K"]


def test_mangled_messages_at_a_table_in_play(spec: GameSpec) -> None:
    """500 odd but decodable messages from seated players, spectators and strangers,
    mixed into games played by bots, at a table of each game. The table never fails and
    loses nothing it holds."""
    rng = random.Random(11)
    cases = 0
    kind = game_named(spec.name)
    while cases < CASES:
        h = Harness(TableConfig(players=4, games=1, seed=rng.randrange(10**6), grace=1.0,
                                turn_timeout=5.0, game=spec.name, options=kind.options_type()),
                    bots=1)
        players = [h.hello(f"p{i}", bot="random", seed=i) for i in range(3)]
        others = [h.hello("eve", watch=True), h.connect()]
        for _ in range(400):
            if h.table.state == "over":
                break
            conn = rng.choice(players + others)
            if conn not in h.closed:
                data = mutate(rng, rng.choice(VALID)) if rng.random() < 0.5 else None
                try:
                    message = (protocol.decode(data, "client") if data is not None
                               else Act(rng.randrange(60), spec.odd_action(rng)[0]
                                        if rng.random() < 0.5 else rng.choice(ODD_ACTIONS)))
                except WireError:
                    message = None
                if message is not None:
                    before = len(h.inbox[conn])
                    game = h.table.game
                    version = game.version if game is not None else None
                    h.send(conn, message)
                    cases += 1
                    answers = h.inbox[conn][before:]
                    if isinstance(message, Act) and h.table.game is game and game is not None \
                            and game.version == version and conn not in h.closed:
                        # Refused, since nothing changed: the refusal was answered.
                        assert any(isinstance(a, Error) for a in answers), message
            if not h.play_bots(rng, limit=3):
                h.advance(2.0)
            game = h.table.game
            if game is not None:
                assert spec.conserved(game)
        for _ in range(2000):  # let the bots finish what the noise interrupted
            if h.table.state == "over":
                break
            if not h.play_bots(rng):
                h.advance(2.0)
        assert h.table.state == "over"


async def test_garbage_on_a_live_host_while_bots_play() -> None:
    """300 garbage frames on their own connections to a host on loopback, while three bot
    clients play a match there: the match ends, and every bot saw it end."""
    rng = random.Random(3)
    table = Table(TableConfig(players=4, games=2, seed=9))
    table.seat_bot("counter")
    host = Host(table, "127.0.0.1", 0)
    await host.start()
    clients = [Client("127.0.0.1", host.port, f"b{i}") for i in range(3)]
    tasks = [asyncio.create_task(botclient.play(c, make_bot("random", i)))
             for i, c in enumerate(clients)]
    try:
        for n in range(30):  # (from addresses of their own, within each one's allowance)
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", host.port, ssl=client_context(), local_addr=(f"127.0.4.{n + 1}", 0))
            for _ in range(10):
                choice = rng.random()
                if choice < 0.3:
                    writer.write(mutate(rng, rng.choice(VALID)))
                elif choice < 0.6:
                    writer.write(protocol.frame(mutate(rng, rng.choice(VALID))))
                else:
                    writer.write(bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))))
            writer.close()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert all(c.mirror.bye is not None and c.mirror.bye.code == "match_over" for c in clients)
        assert len(table.results) == 2
    finally:
        for task in tasks:
            task.cancel()
        await host.close()
