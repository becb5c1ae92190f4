"""The match itself: seats, tokens, clocks, the bot that plays for an absent seat, and who is
sent what.

Nothing here touches a socket or an event loop. The host tells the table about connections,
the messages they send and the time (``now``, in seconds on any steady clock); the table
answers by putting messages in :attr:`Table.outbox` and connections to close in
:attr:`Table.closing`. Every action reaches the game through ``game.apply`` in one
synchronous call, so nothing can slip in between checking an action and applying it. Clocks
are deadlines: the host calls :meth:`Table.tick` when :meth:`Table.next_deadline` comes.

:class:`Table` is one object made of a part for each job, one module each:

- ``config``: how a table is set up (:class:`TableConfig`), and the host's refusals
- ``base``: what the parts share (:class:`Seat`, :class:`Conn`, the table's state)
- ``seats``: connections, joining (PIN, token), leaving
- ``names``: the seats' names: unique, no look-alikes, the bots' names
- ``arranging``: the host's changes: bots seated and removed, seats given away, rules and
  seats before the match
- ``clocks``: the deadlines, and what happens when one passes (:meth:`Table.tick`)
- ``standins``: the bots, seated or playing for an absent player
- ``talk``: table talk: lines checked, rated, relayed and journaled; mutes; bots' remarks
- ``sending``: what is sent to whom: views, events, history in chunks, reveals
- ``replay``: the seats written to the journal, and a table resumed from it
- ``table``: :class:`Table`, and the match played at it: deals, actions, a game's end

Each constant is read in the module that defines it (``sending.CHUNK``); change it there.
"""

from .base import Conn, Seat
from .config import LEAST_WINDOW, Refused, TableConfig, TableState
from .seats import PIN_LOCK_MAX, PIN_TRIES
from .sending import CHUNK, REVEAL_CHUNK
from .table import Table

__all__ = [
    "CHUNK",
    "LEAST_WINDOW",
    "PIN_LOCK_MAX",
    "PIN_TRIES",
    "REVEAL_CHUNK",
    "Conn",
    "Refused",
    "Seat",
    "Table",
    "TableConfig",
    "TableState",
]
