"""What a bot for Skull is: a strategy that sees one seat's view and nothing else, and what
every one of them reads in it."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import ClassVar

from ...rules import Action
from ...rules.skull import FLOWER, PASS, SKULL, Bid, Disc, Phase, Place, Settled, TableView, Turn
from ..base import SeededBot


class SkullBot(SeededBot, abc.ABC):
    """A strategy for one seat of Skull. It answers each decision with one action: the disc
    it opens a round with (:meth:`opening`), a disc laid or a bid (:meth:`lay_or_bid`), a
    raise or a pass (:meth:`raise_to`), and the stack it turns (:meth:`turn`)."""

    game: ClassVar[str] = "skull"

    def act(self, view: TableView) -> Sequence[Action]:
        legal = view.legal
        if not legal:
            return ()
        phase = view.phase
        if phase is Phase.TURNING:
            chosen: Action = Turn(self.turn(view, [move.seat for move in legal
                                                   if isinstance(move, Turn)]))
        elif phase is Phase.BIDDING:
            count = self.raise_to(view)
            chosen = Bid(count) if count is not None else PASS
        elif phase is Phase.OPENING:
            chosen = Place(self.opening(view))
        else:
            chosen = self.lay_or_bid(view)
        return (chosen if chosen in legal else legal[0],)

    @abc.abstractmethod
    def opening(self, view: TableView) -> Disc:
        """The disc (:data:`FLOWER` or :data:`SKULL`, one its hand holds) it opens with."""

    @abc.abstractmethod
    def lay_or_bid(self, view: TableView) -> Action:
        """Another disc laid (``Place``), or the bidding opened (``Bid``)."""

    @abc.abstractmethod
    def raise_to(self, view: TableView) -> int | None:
        """The bid it raises to (above ``view.bid``), or None to pass."""

    @abc.abstractmethod
    def turn(self, view: TableView, stacks: list[int]) -> int:
        """Which of ``stacks`` (seats) it turns the top disc of."""


def clean(view: TableView) -> bool:
    """Whether this seat's own stack is all Flowers (it would turn it safely)."""
    return SKULL not in view.stack


def safe_own(view: TableView) -> int:
    """The discs of this seat's own stack it would turn before its Skull (all of them when
    the Skull is not there): its own stack is turned first, from the top."""
    stack = view.stack
    return len(stack) - 1 - stack.index(SKULL) if SKULL in stack else len(stack)


def holds(view: TableView, disc: Disc) -> bool:
    return disc in view.hand


def lay(view: TableView, disc: Disc) -> Action:
    """``disc`` laid if the hand holds it, else the other."""
    return Place(disc if holds(view, disc) else
                 (SKULL if disc is FLOWER else FLOWER))


def face_down(view: TableView) -> dict[int, int]:
    """Each other seat's discs still face down, where it has any."""
    me = view.seat
    return {seat: view.face_down(seat) for seat in range(view.players)
            if seat != me and view.face_down(seat) > 0}


def skulls_shown(view: TableView) -> list[int]:
    """How many times each seat's Skull was turned by a bidder, over the game so far."""
    shown = [0] * view.players
    for claim in view.record:
        if isinstance(claim, Settled) and claim.skull is not None:
            shown[claim.skull] += 1
    return shown
