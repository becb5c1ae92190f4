"""Bots for I Know You Don't: ``random``, ``honest`` and ``counter`` (docs/bots.md)."""

from .base import KnowBot, true_declaration
from .counter import CounterKnowBot
from .honest import HonestKnowBot
from .random_play import RandomKnowBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomKnowBot, HonestKnowBot, CounterKnowBot)
#: The levels the app offers when a bot is seated, easiest first: level, strategy.
#: (``random`` is no level: it challenges at random and goes broke in a round.)
LEVELS = {"easy": "honest", "hard": "counter"}

__all__ = ["LEVELS", "STRATEGIES", "CounterKnowBot", "HonestKnowBot", "KnowBot", "RandomKnowBot",
           "true_declaration"]
