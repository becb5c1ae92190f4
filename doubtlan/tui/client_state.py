"""What the app knows of its table besides the client's mirror (``net.mirror.Mirror``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..net.messages import Said
from ..net.record import Yours


@dataclass
class ClientState:
    """What this player's app knows besides what the host sent, as the screens draw it: the
    connection, when the clock of the current decision started on this screen, and what the
    game's table keeps of this game's events. Made afresh for each connection."""

    #: ``HOST:PORT`` the client connects to ("" before it knows).
    address: str = ""
    connected: bool = False
    reconnecting: bool = False
    #: The fingerprint of the key the host presented to this client (b"" before the
    #: welcome): the lobby and the help show it in words, never what the host says it is.
    key: bytes = b""
    #: The game of the match being drawn (``State.game_number``).
    game_number: int = 0
    #: The current window's key, the game's number and the view's ``window_key``; and when
    #: (on the app's clock) this screen first saw it: a countdown runs from then.
    window_key: tuple[object, ...] | None = None
    window_since: float = 0.0
    #: What the game's table keeps of this game's events, of the table's own type
    #: (``GameTable.note``); None again when a new game starts.
    notes: object = None
    #: The seats the host played for in this game, a player being away (its ``away``
    #: notes): the results say so.
    stood_in: frozenset[int] = frozenset()
    #: The windows (their ``window_key``) this app answered itself: an answer the table
    #: shows for this seat in another was played for the player (the window's clock, or a
    #: bot while they were away), and the screen says so.
    answered: set[tuple[object, ...]] = field(default_factory=set)
    #: The claims of this game in which the host played for this seat (``State.played_for``):
    #: the claims list marks them.
    played_for: frozenset[int] = frozenset()
    #: The table's talk as the mirror has it (``Mirror.talk``): the claims list shows the
    #: lines said in the game drawn, where they were said.
    talk: tuple[Said, ...] = ()
    #: The player's figures in the last game recorded, against their average
    #: (``Record.note``): the results show them.
    yours: Yours | None = None
