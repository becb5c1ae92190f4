"""Bots for I Know You Don't: ``random``, ``honest``, ``counter``, ``sharp`` and ``hard``
(docs/bots.md)."""

from ...rules.iknowyoudont import true_declaration
from .base import KnowBot
from .counter import CounterKnowBot
from .hard import HardKnowBot
from .honest import HonestKnowBot
from .random_play import RandomKnowBot
from .sharp import SharpKnowBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomKnowBot, HonestKnowBot, CounterKnowBot, SharpKnowBot, HardKnowBot)
#: The strategy a seated bot plays unless told (the host's ``--strategy``; the tourney's
#: first seat).
DEFAULT = "counter"
#: The levels the app offers when a bot is seated, easiest first: level, strategy.
#: (``random`` is no level: it challenges at random and goes broke in a round.)
LEVELS = {"easy": "honest", "medium": "counter", "hard": "hard"}

__all__ = ["DEFAULT", "LEVELS", "STRATEGIES", "CounterKnowBot", "HardKnowBot", "HonestKnowBot",
           "KnowBot", "RandomKnowBot", "SharpKnowBot", "true_declaration"]
