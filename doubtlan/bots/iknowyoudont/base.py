"""What a bot for I Know You Don't is: a strategy that sees one seat's view and nothing
else (docs/bots.md)."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import ClassVar

from ...rules import Action, IKnowYouDont
from ...rules.iknowyoudont import (
    Accept,
    Challenge,
    Intercept,
    Keep,
    Kind,
    Pass,
    Phase,
    TableView,
    Wild,
)
from ..base import SeededBot

PASS, ACCEPT, CHALLENGE, INTERCEPT, WILD, KEEP = (
    Pass(), Accept(), Challenge(), Intercept(), Wild(), Keep())
#: The phases and kinds read at every decision, as names: reading an enum's member takes
#: some 70 ns, a name some 5.
PLAYING, PRIORITY, DECIDING = Phase.PLAYING, Phase.PRIORITY, Phase.DECIDING
BLUFF, WILDCARD = Kind.BLUFF, Kind.WILDCARD


class KnowBot(SeededBot, abc.ABC):
    """A strategy for one seat of I Know You Don't, asked to act with that seat's view only.

    :meth:`act` returns what the seat does now: its play on its turn, its answer with
    priority, its Wildcard choice, or an interception (an empty answer lets that chance
    pass). A strategy says what it plays (:meth:`turn`), whether it challenges
    (:meth:`challenges`), intercepts (:meth:`intercepts`) and plays a Wildcard
    (:meth:`wild`).
    """

    game: ClassVar[str] = IKnowYouDont.name

    def act(self, view: TableView) -> Sequence[Action]:
        if not view.legal:
            return ()
        phase = view.phase
        if phase is PRIORITY:  # (asked most: a claim waits, at every seat)
            if view.seat == view.priority:
                return (CHALLENGE,) if self.challenges(view) else (PASS,)
            if view.can(Intercept) and self.intercepts(view):
                return (INTERCEPT,)
            return ()
        if phase is PLAYING:
            return self.turn(view)
        if phase is DECIDING:
            return (WILD,) if self.wild(view) else (KEEP,)
        return ()

    @abc.abstractmethod
    def turn(self, view: TableView) -> list[Action]:
        """The seat's play: one :class:`Play`."""

    @abc.abstractmethod
    def challenges(self, view: TableView) -> bool:
        """With priority: whether to challenge (otherwise pass)."""

    def intercepts(self, view: TableView) -> bool:
        """Without priority, holding an Interception: whether to intercept now."""
        return False

    def wild(self, view: TableView) -> bool:
        """Intercepted with a card that does not match: whether to play a Wildcard."""
        return True

