"""What every game's state keeps besides its own facts: who sits and with which rules, and
the bookkeeping that :class:`~doubtlan.rules.base.Game` reads (the version, the turns, the
winner, the events and the record of play).

A game's ``State`` subclasses :class:`GameState` as a slotted dataclass and adds its own
fields after ``players``, ``options`` and ``opener``; the bookkeeping fields are keyword-only
and come last, so a game's constructor reads ``State(players, options, opener, hands, ...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import Event


@dataclass(slots=True)
class GameState:
    """The facts every game has. Only the table's owner holds a game's whole state."""

    players: int
    options: Any
    #: The seat that opened the game.
    opener: int
    #: Accepted actions (every one bumps it), and turns taken (the game's own count of
    #: what was said: claims, bids).
    version: int = field(default=0, kw_only=True)
    turns: int = field(default=0, kw_only=True)
    winner: int | None = field(default=None, kw_only=True)
    #: Every event, whole, in order.
    events: list[Event] = field(default_factory=list, kw_only=True)
    #: The game's record of play: each settled thing that was said (also in ``events``).
    records: list[Any] = field(default_factory=list, kw_only=True)
