"""Bots for I Doubt It: ``random``, ``honest``, ``counter``, ``sharp`` and ``hard``
(docs/bots.md)."""

from .base import Bot, TruthTeller
from .counter import CounterBot
from .hard import HardBot
from .honest import HonestBot
from .random_play import RandomBot
from .sharp import SharpBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomBot, HonestBot, CounterBot, SharpBot, HardBot)
#: The strategy a seated bot plays unless told (the host's ``--strategy``; the tourney's
#: first seat).
DEFAULT = "counter"
#: The levels the app offers when a bot is seated, easiest first: level, strategy.
LEVELS = {"easy": "random", "medium": "counter", "hard": "hard"}

__all__ = ["DEFAULT", "LEVELS", "STRATEGIES", "Bot", "CounterBot", "HardBot", "HonestBot",
           "RandomBot", "SharpBot", "TruthTeller"]
