"""Why the host (or a client) refused a frame or a message.

Every refusal on the wire is an ``error`` message with a stable ``code``. The codes of the
rules (:data:`doubtlan.rules.ERROR_CODES`) are sent on unchanged; these are the wire's own.
:data:`WIRE_CODES` is their one list, and docs/protocol.md describes each.
"""

from __future__ import annotations

from typing import ClassVar


class WireError(ValueError):
    """A refusal with a stable ``code``; ``fatal`` ones close the connection after the reply."""

    code: ClassVar[str] = "wire_error"
    fatal: ClassVar[bool] = False
    default_message: ClassVar[str] = "refused"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)
        self.message = str(self.args[0])


class BadFrame(WireError):
    code, fatal = "bad_frame", True
    default_message = "the bytes received are not a msgpack map"


class FrameTooLarge(WireError):
    code, fatal = "frame_too_large", True
    default_message = "the frame is larger than 64 KiB"


class BadMessage(WireError):
    code = "bad_message"
    default_message = "the message does not match its definition"


class UnknownMessage(WireError):
    code = "unknown_message"
    default_message = "there is no message of that type"


class VersionMismatch(WireError):
    code, fatal = "version_mismatch", True
    default_message = "the protocol versions differ"


class UnknownGame(WireError):
    code, fatal = "unknown_game", True
    default_message = "the table plays a game this client does not know"


class NotJoined(WireError):
    code = "not_joined"
    default_message = "say hello first"


class AlreadyJoined(WireError):
    code = "already_joined"
    default_message = "this connection has joined already"


class WrongPin(WireError):
    code, fatal = "wrong_pin", True
    default_message = "wrong PIN for this table"


class NoPin(WireError):
    code, fatal = "no_pin", True
    default_message = "this table has no PIN"


class TooManyAttempts(WireError):
    code, fatal = "too_many_attempts", True
    default_message = "too many wrong PINs; wait before trying again"


class BadToken(WireError):
    """Not fatal: a client that kept a seat the table no longer knows says hello afresh on
    the same connection."""

    code, fatal = "bad_token", False
    default_message = "that seat token is not valid at this table"


class TableFull(WireError):
    code, fatal = "table_full", True
    default_message = ("every seat is taken; watch it (--watch), or ask the host to free a "
                       "seat whose player is away (in the lobby, or between games)")


class NameTaken(WireError):
    code, fatal = "name_taken", True
    default_message = "a player at the table has a name that looks the same"


class Spectating(WireError):
    code = "spectating"
    default_message = "spectators cannot act"


class NotPlaying(WireError):
    code = "not_playing"
    default_message = "no game is being played"


class BadSignature(WireError):
    """Not fatal: an action or a line whose signature is not the seat's (net/signing.py)."""

    code = "bad_signature"
    default_message = "that is not signed with your seat's key"


class Stale(WireError):
    code = "stale"
    default_message = "the table moved on before your action arrived"


class Muted(WireError):
    code = "muted"
    default_message = "the host has muted you: the table does not hear you"


class TalkTooFast(WireError):
    code = "talk_too_fast"
    default_message = "you are talking too fast: wait a moment"


class Flood(WireError):
    code, fatal = "flood", True
    default_message = "too many messages"


class HandshakeTimeout(WireError):
    code, fatal = "handshake_timeout", True
    default_message = "no hello in time"


class TooManyConnections(WireError):
    code, fatal = "too_many_connections", True
    default_message = "the host has as many connections as it takes"


def _all_codes() -> dict[str, type[WireError]]:
    found: dict[str, type[WireError]] = {}
    pending: list[type[WireError]] = [WireError]
    while pending:
        cls = pending.pop()
        found[cls.code] = cls
        pending.extend(cls.__subclasses__())
    return dict(sorted(found.items()))


#: Every code of the wire's own, with its exception class.
WIRE_CODES: dict[str, type[WireError]] = _all_codes()
