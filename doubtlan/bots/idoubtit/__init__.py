"""Bots for I Doubt It: ``random``, ``honest`` and ``counter`` (docs/bots.md)."""

from .base import Bot, TruthTeller
from .counter import CounterBot
from .honest import HonestBot
from .random_play import RandomBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomBot, HonestBot, CounterBot)

__all__ = ["STRATEGIES", "Bot", "CounterBot", "HonestBot", "RandomBot", "TruthTeller"]
