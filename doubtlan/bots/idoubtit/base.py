"""What a bot is: a strategy that sees one seat's view and nothing else."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import ClassVar

from ...rules import Action, Card, IDoubtIt, Phase, TableView
from ...rules.idoubtit import ANNOUNCE, DOUBT, LET_STAND, lay
from ..base import SeededBot

STAND = LET_STAND  # (the rules' own objects: see rules.idoubtit.lay)
_WINDOW = Phase.WINDOW  # read once: an enum member read through its class is slow


class Bot(SeededBot, abc.ABC):
    """A strategy for one seat of I Doubt It. It is asked to act with that seat's view only.

    :meth:`act` returns what the seat does now, in order: a whole turn (the cards to lay one
    by one, then the announcement), an answer to a challenge window, or a call. Each action
    must be legal when its turn to be applied comes; the first is one of ``view.legal``.
    When the game waits for the seat (``view.seat in view.awaiting``) the answer is never
    empty; otherwise an empty answer lets the chance pass (an optional call in the open
    challenge mode). A bot may keep notes between calls, but must also play sensibly when it
    first sees a game half-way through: it may take over the seat of a player who has gone.

    A strategy says when it doubts (:meth:`doubts`) and what it lays (:meth:`turn`).
    """

    #: The game it plays.
    game: ClassVar[str] = IDoubtIt.name

    def act(self, view: TableView) -> Sequence[Action]:
        """Choose what the seat does now."""
        legal = view.legal
        if not legal:
            return ()
        if view.claim is not None:  # a claim waits: answer it, or perhaps call it
            if DOUBT in legal and self.doubts(view):  # (the rules' own DOUBT: see lay)
                return (DOUBT,)
            if view.phase is _WINDOW:
                return (STAND,)
        if not view.my_turn:
            return ()  # an open-mode call let pass
        return self.turn(view)

    @abc.abstractmethod
    def doubts(self, view: TableView) -> bool:
        """Whether to doubt (or call) ``view.claim``, made by ``view.claimer``."""

    @abc.abstractmethod
    def turn(self, view: TableView) -> list[Action]:
        """The cards to lay, one by one, then :class:`Announce` (the seat's turn)."""



class TruthTeller(Bot):
    """Tells the truth whenever it can: lays every card of the required rank it holds (up
    to the most a claim may hold); with none, bluffs with one card, :meth:`bluff`."""

    def turn(self, view: TableView) -> list[Action]:
        room = view.options.max_claim - view.laid
        truthful = [card for card in view.hand if card.rank is view.rank][:room]
        turn: list[Action] = [lay(card) for card in truthful]
        if not turn and not view.laid:
            turn.append(lay(self.bluff(view)))
        turn.append(ANNOUNCE)
        return turn

    @abc.abstractmethod
    def bluff(self, view: TableView) -> Card:
        """The card to lay when the seat holds none of the required rank."""
