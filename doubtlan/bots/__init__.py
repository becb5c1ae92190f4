"""Bots: strategies that see only one seat's view (see :class:`~doubtlan.bots.base.Bot`
and :class:`~doubtlan.bots.iknowyoudont.KnowBot`)."""

from __future__ import annotations

from typing import Any

from ..rules.seeds import Seed
from .base import Bot
from .counter import CounterBot
from .honest import HonestBot
from .iknowyoudont import CounterKnowBot, KnowBot, RandomKnowBot
from .random_play import RandomBot

#: Every strategy of each game, by game and by its name on the command line.
STRATEGIES: dict[str, dict[str, type[Any]]] = {
    "idoubtit": {bot.name: bot for bot in (RandomBot, HonestBot, CounterBot)},
    "iknowyoudont": {bot.name: bot for bot in (RandomKnowBot, CounterKnowBot)},
}


def make_bot(name: str, seed: Seed | None = None, game: str = "idoubtit") -> Any:
    """A new bot of strategy ``name`` for ``game``; raises ValueError naming the game's
    strategies otherwise."""
    strategies = STRATEGIES.get(game, {})
    try:
        return strategies[name](seed)
    except KeyError:
        known = ", ".join(strategies)
        raise ValueError(f"no bot strategy {name!r}; choose from {known}") from None


__all__ = ["STRATEGIES", "Bot", "CounterBot", "CounterKnowBot", "HonestBot", "KnowBot",
           "RandomBot", "RandomKnowBot", "make_bot"]
