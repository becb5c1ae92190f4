"""A shape of game to opt into: one seat at a time.

In such a game exactly one seat may act at any moment (Liar's Deck, Skull): nobody answers
out of turn, so the seat on the turn clock is the seat the game waits for, it alone has
legal actions, and every accepted action asks the table for a new decision. A game says
who that seat is (:meth:`OneAtATime.active_seat`) and what it may do
(:meth:`OneAtATime.moves`); the rest of :class:`~doubtlan.rules.base.Game`'s questions about
turns are answered here.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable
from typing import Any

from .base import Action, check_seat
from .errors import NotYourTurn


class OneAtATime(abc.ABC):
    """Mix in before :class:`~doubtlan.rules.base.Game`:
    ``class LiarsDeck(OneAtATime, Game[Options, TableView])``."""

    players: int
    state: Any

    @abc.abstractmethod
    def active_seat(self) -> int | None:
        """The one seat that may act now; None once the game is over."""

    @abc.abstractmethod
    def moves(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` (a seat at the table) may do now: nothing unless it is the
        :meth:`active_seat`."""

    @abc.abstractmethod
    def check_turn(self, seat: int, action: Action) -> None:
        """Raise the rules' refusal of ``action`` by the seat on turn now, or return None."""

    def check_move(self, seat: int, action: Action) -> None:
        """Only the seat on turn moves; then what the game says of the move
        (:meth:`check_turn`)."""
        if seat != self.active_seat():
            raise NotYourTurn()
        self.check_turn(seat, action)

    @property
    def decision(self) -> int:
        """Every accepted action asks the next seat for a new decision: the version."""
        return self.state.version  # type: ignore[no-any-return]

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        check_seat(self.players, seat)
        return self.moves(seat)

    def awaiting(self) -> tuple[int, ...]:
        active = self.active_seat()
        return () if active is None else (active,)

    def may_act(self) -> tuple[int, ...]:
        return self.awaiting()

    def call_order(self, seats: Iterable[int]) -> tuple[int, ...]:
        return tuple(seat for seat in self.awaiting() if seat in set(seats))

    def turn_seat(self) -> int | None:
        return self.active_seat()
