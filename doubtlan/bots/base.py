"""What every bot is, whatever its game: a strategy that sees one seat's view and nothing else.

Each game keeps its strategies in its own folder (``bots/idoubtit/``, ``bots/iknowyoudont/``),
named as the game is in :data:`doubtlan.rules.GAMES`; its ``STRATEGIES`` lists them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from ..rules import Action
from ..rules.seeds import Seed, seed_bytes


class Strategy(Protocol):
    """A bot for one seat. :meth:`act` is asked with that seat's view only (the game's own
    view type) and returns what the seat does now, in order; an empty answer lets a chance
    pass, but never when the game waits for the seat (``view.seat in view.awaiting``)."""

    #: The strategy's name on the command line (``"counter"``).
    name: ClassVar[str]
    #: The game it plays (``"idoubtit"``).
    game: ClassVar[str]
    #: How it plays, in a few words (the app shows them when a bot is seated).
    about: ClassVar[str]

    def __init__(self, seed: Seed | None = None) -> None: ...

    def act(self, view: Any) -> Sequence[Action]: ...


class SeededBot:
    """What every game's bots share: a random generator seeded from the bot's seed (so that a
    seeded table's bots play the same each time), and a ``repr`` naming the strategy. A
    game's bot base is this and the game's own ``act``."""

    name: ClassVar[str]
    game: ClassVar[str]

    def __init__(self, seed: Seed | None = None) -> None:
        self.rng = random.Random(seed_bytes(seed))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
