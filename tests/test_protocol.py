"""The wire: frames, the message definitions, and docs/protocol.md, which must agree."""

from __future__ import annotations

import dataclasses
import re
import struct
from pathlib import Path

import msgpack
import pytest
from games import GameSpec
from wire import Harness

from doubtlan.net import protocol
from doubtlan.net.errors import WIRE_CODES, BadFrame, BadMessage, FrameTooLarge, UnknownMessage
from doubtlan.net.messages import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    PROTOCOL_VERSION,
    Act,
    Hello,
    Note,
    SeatInfo,
    State,
)
from doubtlan.net.table import TableConfig
from doubtlan.rules import ERROR_CODES, Card
from doubtlan.rules.idoubtit import Announced, Answered, Dealt, Laid, Resolved, TableView, Won

DOC = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()


def section(title: str) -> str:
    """The text of the doc's section headed ``### `title```, up to the next heading."""
    match = re.search(rf"^###[^\n]*`{re.escape(title)}`[^\n]*\n(.*?)(?=^##)", DOC, re.S | re.M)
    assert match, f"docs/protocol.md has no section for {title!r}"
    return match.group(1)


@pytest.mark.parametrize(
    "cls", sorted(set(CLIENT_MESSAGES + HOST_MESSAGES), key=lambda c: c.TYPE)  # type: ignore[attr-defined]
)
def test_the_doc_describes_every_message_and_field(cls: type) -> None:
    text = section(cls.TYPE)  # type: ignore[attr-defined]
    for field in dataclasses.fields(cls):
        assert f"`{field.name}`" in text, f"{cls.TYPE}.{field.name} is not documented"  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", [SeatInfo, Note, TableView])
def test_the_doc_describes_every_nested_field(cls: type) -> None:
    for field in dataclasses.fields(cls):
        assert f"`{field.name}`" in DOC, f"{cls.__name__}.{field.name} is not documented"


@pytest.mark.parametrize("cls", [Dealt, Laid, Announced, Answered, Resolved, Won])
def test_the_doc_describes_every_event(cls: type) -> None:
    events = DOC[DOC.index("**Events**") : DOC.index("### `history`")]
    rows = events.splitlines()
    row = next((line for line in rows if line.startswith(f"| `{cls.kind}`")), None)  # type: ignore[attr-defined]
    assert row is not None, f"event {cls.kind} is not documented"  # type: ignore[attr-defined]
    for field in dataclasses.fields(cls):
        assert f"`{field.name}`" in row, f"{cls.kind}.{field.name}"  # type: ignore[attr-defined]


def test_the_doc_lists_every_error_code() -> None:
    for code in [*WIRE_CODES, *ERROR_CODES]:
        assert f"`{code}`" in DOC, code


def test_the_doc_gives_the_version_and_the_cap() -> None:
    assert f"version {PROTOCOL_VERSION}" in DOC
    assert protocol.MAX_FRAME == 65536 and "64 KiB" in DOC


# -- frames -------------------------------------------------------------------------------


def test_the_length_is_checked_before_the_body() -> None:
    assert protocol.read_length(struct.pack(">I", protocol.MAX_FRAME)) == protocol.MAX_FRAME
    with pytest.raises(FrameTooLarge):
        protocol.read_length(struct.pack(">I", protocol.MAX_FRAME + 1))
    with pytest.raises(FrameTooLarge):
        protocol.read_length(b"\xff\xff\xff\xff")  # 4 GiB
    with pytest.raises(FrameTooLarge):
        protocol.frame(b"x" * (protocol.MAX_FRAME + 1))


@pytest.mark.parametrize(
    "body",
    [b"", b"\xc1", b"\x92\x01", msgpack.packb({"type": "ping"}) + b"\x00",
     msgpack.packb(msgpack.ExtType(1, b"x")), msgpack.packb({1: "ping"})],
)
def test_bodies_that_are_not_one_msgpack_map_of_text_keys_are_bad_frames(body: bytes) -> None:
    with pytest.raises(BadFrame):
        protocol.decode(body, "client")


@pytest.mark.parametrize(
    "wire",
    [
        {"type": "ping", "extra": 1},
        {"type": "act", "turn": -1, "action": "doubt"},
        {"type": "act", "turn": True, "action": "doubt"},
        {"type": "act", "turn": 1.0, "action": "doubt"},
        {"type": "act", "turn": 1, "action": ""},
        {"type": "act", "turn": 1, "action": "x" * 33},
        {"type": "hello", "version": 1, "name": "x" * 25, "pin": None, "token": None,
         "watch": False},
        {"type": "hello", "version": 1, "name": "tab\there", "pin": None, "token": None,
         "watch": False},
        {"type": "hello", "version": 1, "name": "x", "pin": None, "token": "short",
         "watch": False},
        {"type": "hello", "version": 1, "name": "x", "pin": None, "token": None, "watch": 1},
        # hexadecimal fields hold hexadecimal digits only: bytes.fromhex would skip the spaces
        {"type": "hello", "version": 5, "name": "x", "proof": None, "token": None,
         "watch": False, "seed_hash": "ab " * 21 + " "},
        {"type": "hello", "version": 5, "name": "x", "proof": "abc", "token": None,
         "watch": False, "seed_hash": None},
        {"type": "seed", "seed": "0x12"},
        {"type": 7},
        {"name": "x"},
        {b"type": "ping"},
    ],
)
def test_every_field_is_checked(wire: dict[object, object]) -> None:
    with pytest.raises(BadMessage):
        protocol.decode(msgpack.packb(wire), "client")


def test_only_the_right_side_may_send_a_message() -> None:
    state_from_client = msgpack.packb({"type": "bye", "code": "x", "message": ""})
    with pytest.raises(UnknownMessage):
        protocol.decode(state_from_client, "client")
    with pytest.raises(UnknownMessage):
        protocol.decode(msgpack.packb({"type": "hello"}), "host")


def test_client_messages_round_trip() -> None:
    for message in [Hello(PROTOCOL_VERSION, "Amy", "ab" * 32, None, False),
                    Hello(PROTOCOL_VERSION, "Bob", None, "t" * 32, True), Act(3, "lay TS")]:
        data = protocol.encode(message)
        assert protocol.decode(data[protocol.HEADER.size :], "client") == message


def test_a_view_of_each_game_round_trips(spec: GameSpec) -> None:
    game = spec.rules(3, seed=1)
    message = State(1, 0, game.view(0), game.log(0), (), 0)
    data = protocol.encode(message)
    assert protocol.decode(data[protocol.HEADER.size :], "host") == message


def test_host_messages_round_trip_through_a_whole_game(spec: GameSpec) -> None:
    h = Harness(TableConfig(players=4, games=1, seed=2, game=spec.name, options=spec.options),
                bots=2)
    for i in range(2):
        h.hello(f"p{i}", bot="counter", seed=i)
    h.hello("eve", watch=True)
    h.play_bots()
    assert h.table.state == "over"
    for frames in h.frames.values():
        for data in frames:
            assert len(data) <= protocol.MAX_FRAME + protocol.HEADER.size
            message = protocol.decode(data[protocol.HEADER.size :], "host")
            assert protocol.encode(message) == data


def test_a_table_has_as_many_players_as_some_game_allows() -> None:
    """``table.players`` reaches from the fewest players any game's rules allow to the most
    (the registry's, not a number of the wire's own)."""
    import itertools
    import typing

    from doubtlan.net.codec import Limit
    from doubtlan.net.messages import TableInfo
    from doubtlan.rules import GAMES

    counts = set()
    for game in GAMES.values():
        fields = game.options_type.fields
        for chosen in itertools.product(*(field.values for field in fields)):
            text = ",".join(f"{field.name}={value}"
                            for field, value in zip(fields, chosen, strict=True))
            options = game.options_type.parse(text)
            counts.update(range(options.min_players, options.max_players + 1))
    hints = typing.get_type_hints(TableInfo, include_extras=True)
    (limit,) = [meta for meta in hints["players"].__metadata__ if isinstance(meta, Limit)]
    assert (limit.low, limit.high) == (min(counts), max(counts))


@dataclasses.dataclass(frozen=True)
class _Pairs:
    """A view field of two items of different types (issue 43: it was sent as if both were
    ints, and the host's sending failed at the first state, every player left waiting)."""

    held: tuple[int, Card]


def test_a_tuple_of_fixed_items_is_refused_when_the_game_is_registered() -> None:
    from doubtlan.net.codec import Codec

    for build in (protocol.CODEC.encoder, protocol.CODEC.decoder):
        with pytest.raises(TypeError, match=r"tuple\[int, .*Card\].*only tuple\[X, \.\.\.\]"):
            build(_Pairs)
    stub = type("Stub", (), {"name": "stub", "view_type": _Pairs, "events": (),
                             "parse_action": staticmethod(lambda text: None)})
    with pytest.raises(TypeError, match=r"only tuple\[X, \.\.\.\]"):
        Codec([stub])  # type: ignore[list-item]
