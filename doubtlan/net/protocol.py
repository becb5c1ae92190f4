"""Frames and messages: the bytes on a doubtlan connection.

A frame is a 4-byte big-endian length, then that many bytes of msgpack holding one map, the
message. The length is checked against :data:`MAX_FRAME` before the body is read, and the
body is unpacked with ``raw=False``, ``strict_map_key=True``, an ``ext_hook`` that refuses
every extension type, and a buffer no larger than a frame. A decoded map then has to match
its message's definition (:mod:`.messages`) exactly before anything else sees it.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from ..rules import GAMES
from .codec import Codec
from .errors import BadFrame, BadMessage, FrameTooLarge, UnknownMessage, WireError
from .messages import CLIENT_MESSAGES, HOST_MESSAGES, PROTOCOL_VERSION, Message

#: The largest frame body, in bytes, either side will send or read.
MAX_FRAME = 64 * 1024
HEADER = struct.Struct(">I")
#: Messages a client may send: a burst of this many, then this many a second (the host
#: drops a connection past either, as a flood; docs/architecture.md, "Limits").
MESSAGE_BURST = 1000.0
MESSAGE_RATE = 500.0

#: Every game's events and views (their kinds and names differ, so one codec reads them all).
CODEC = Codec(GAMES.values())

__all__ = [
    "CODEC",
    "HEADER",
    "MAX_FRAME",
    "MESSAGE_BURST",
    "MESSAGE_RATE",
    "PROTOCOL_VERSION",
    "decode",
    "encode",
    "frame",
    "read_length",
    "unpack",
]


def _refuse_ext(code: int, data: bytes) -> Any:
    raise BadFrame(f"extension type {code} is not allowed")


#: The most any msgpack header in a frame may declare, by who sent it. msgpack makes room for
#: what a header declares before it reads the items, so a small frame of nested headers
#: declaring many items each would cost the reader much time; no message needs more than
#: this. A client's messages are small maps of short texts and numbers (no lists); the host's
#: largest lists are a history's claims and a reveal's actions (docs/protocol.md).
LIMITS: dict[str, dict[str, int]] = {
    "client": {"max_array_len": 4, "max_map_len": 16, "max_str_len": 256, "max_bin_len": 256,
               "max_ext_len": 0},
    "host": {"max_array_len": 1024, "max_map_len": 64, "max_str_len": 1024, "max_bin_len": 1024,
             "max_ext_len": 0},
}


def unpack(body: bytes, sender: str = "host") -> Any:
    """The msgpack value in a frame body sent by ``sender`` (held to :data:`LIMITS`);
    :class:`BadFrame` for anything that is not one."""
    if len(body) > MAX_FRAME:
        raise FrameTooLarge(f"{len(body)} bytes is more than {MAX_FRAME}")
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        ext_hook=_refuse_ext,
        max_buffer_size=MAX_FRAME,
        use_list=True,
        **LIMITS[sender],
    )
    try:
        unpacker.feed(body)
        value = unpacker.unpack()
    except BadFrame:
        raise
    except msgpack.OutOfData:
        raise BadFrame("the frame ends inside a value") from None
    except ValueError as error:
        if "exceeds max_" in str(error):  # a header declaring more than LIMITS allow
            raise BadFrame(f"more than a message may hold: {str(error)[:60]}") from None
        raise BadFrame(f"not msgpack: {type(error).__name__}") from None
    except Exception as error:  # msgpack raises several kinds; all mean "not msgpack"
        raise BadFrame(f"not msgpack: {type(error).__name__}") from None
    if unpacker.tell() != len(body):
        raise BadFrame("a frame holds one value, and nothing after it")
    return value


def read_length(header: bytes) -> int:
    """The body length a 4-byte header announces; :class:`FrameTooLarge` past the cap."""
    length: int = HEADER.unpack(header)[0]
    if length > MAX_FRAME:
        raise FrameTooLarge(f"a frame of {length} bytes is more than {MAX_FRAME}")
    return length


def frame(body: bytes) -> bytes:
    """``body`` with its length in front."""
    if len(body) > MAX_FRAME:
        raise FrameTooLarge(f"refusing to send {len(body)} bytes")
    return HEADER.pack(len(body)) + body


_BY_TYPE = {
    "client": {cls.TYPE: cls for cls in CLIENT_MESSAGES},
    "host": {cls.TYPE: cls for cls in HOST_MESSAGES},
}


def encode(message: Message) -> bytes:
    """The frame (header and body) that carries ``message``."""
    return frame(msgpack.packb(CODEC.encode(message), use_bin_type=True))


def decode(body: bytes, sender: str) -> Message:
    """The message in a frame body sent by ``sender`` (``"client"`` or ``"host"``), checked
    against its definition. Raises a :class:`~doubtlan.net.errors.WireError` otherwise."""
    wire = unpack(body, sender)
    if type(wire) is not dict:
        raise BadMessage("a message is a map")
    kind = wire.get("type")
    if type(kind) is not str:
        raise BadMessage("a message needs a 'type'")
    cls = _BY_TYPE[sender].get(kind)
    if cls is None:
        raise UnknownMessage(f"no message of type {kind[:32]!r} from a {sender}")
    try:
        message: Message = CODEC.decode(wire, cls, kind)
    except (ValueError, TypeError) as error:  # a value no definition foresaw: still refused
        if isinstance(error, WireError):
            raise
        raise BadMessage(f"{kind}: {type(error).__name__}") from None
    return message
