"""What a bot is: a strategy that sees one seat's view and nothing else."""

from __future__ import annotations

import abc
import random
from typing import ClassVar

from collections.abc import Sequence

from ..rules import Action, TableView
from ..rules.seeds import Seed, seed_bytes


class Bot(abc.ABC):
    """A strategy for one seat. It is asked to act with that seat's view only.

    :meth:`act` returns what the seat does now, in order: a whole turn (the cards to lay one
    by one, then the announcement), an answer to a challenge window, or a call. Each action
    must be legal when its turn to be applied comes; the first is one of ``view.legal``.
    When the game waits for the seat (``view.seat in view.awaiting``) the answer must not be
    empty; otherwise an empty answer lets the chance pass (an optional call in the open
    challenge mode). A bot may keep notes between calls, but must also play sensibly when it
    first sees a game half-way through: it may take over the seat of a player who has gone.
    """

    #: The strategy's name on the command line.
    name: ClassVar[str]
    #: The game it plays.
    game: ClassVar[str] = "idoubtit"

    def __init__(self, seed: Seed | None = None) -> None:
        self.rng = random.Random(seed_bytes(seed))

    @abc.abstractmethod
    def act(self, view: TableView) -> Sequence[Action]:
        """Choose what the seat does now."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
