"""Bots for Liar's Deck: ``random``, ``honest``, ``counter`` and ``hard`` (docs/bots.md)."""

from .base import LiarBot
from .counter import CounterLiarBot
from .hard import HardLiarBot
from .honest import HonestLiarBot
from .random_play import RandomLiarBot

#: This game's strategies, in the order the command line lists them.
STRATEGIES = (RandomLiarBot, HonestLiarBot, CounterLiarBot, HardLiarBot)
#: The strategy a seated bot plays unless told (the host's ``--strategy``; the tourney's
#: first seat).
DEFAULT = "counter"
#: The levels the app offers when a bot is seated, easiest first: level, strategy.
LEVELS = {"easy": "honest", "medium": "counter", "hard": "hard"}

__all__ = ["DEFAULT", "LEVELS", "STRATEGIES", "CounterLiarBot", "HardLiarBot", "HonestLiarBot",
           "LiarBot", "RandomLiarBot"]
