"""Bots for I Know You Don't: ``random``, ``honest`` and ``counter`` (docs/bots.md)."""

from .base import KnowBot, true_declaration
from .counter import CounterKnowBot
from .honest import HonestKnowBot
from .random_play import RandomKnowBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomKnowBot, HonestKnowBot, CounterKnowBot)

__all__ = ["STRATEGIES", "CounterKnowBot", "HonestKnowBot", "KnowBot", "RandomKnowBot",
           "true_declaration"]
