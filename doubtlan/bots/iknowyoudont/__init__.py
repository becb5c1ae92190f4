"""Bots for I Know You Don't: ``random`` and ``counter`` (docs/bots.md)."""

from .base import KnowBot, true_declaration
from .counter import CounterKnowBot
from .random_play import RandomKnowBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomKnowBot, CounterKnowBot)

__all__ = ["STRATEGIES", "CounterKnowBot", "KnowBot", "RandomKnowBot", "true_declaration"]
