"""Bots for Skull: ``random``, ``honest``, ``counter`` and ``hard`` (docs/bots.md)."""

from .base import SkullBot
from .counter import CounterSkullBot
from .hard import HardSkullBot
from .honest import HonestSkullBot
from .random_play import RandomSkullBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomSkullBot, HonestSkullBot, CounterSkullBot, HardSkullBot)
#: The strategy a seated bot plays unless told (the host's ``--strategy``; the tourney's
#: first seat).
DEFAULT = "counter"
#: The levels the app offers when a bot is seated, easiest first: level, strategy.
LEVELS = {"easy": "honest", "medium": "counter", "hard": "hard"}

__all__ = ["DEFAULT", "LEVELS", "STRATEGIES", "CounterSkullBot", "HardSkullBot",
           "HonestSkullBot", "RandomSkullBot", "SkullBot"]
