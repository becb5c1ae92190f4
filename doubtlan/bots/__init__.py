"""Bots: strategies that see only one seat's view (see :class:`~doubtlan.bots.base.Bot`)."""

from __future__ import annotations

from ..rules.seeds import Seed
from .base import Bot
from .counter import CounterBot
from .honest import HonestBot
from .random_play import RandomBot

#: Every strategy, by its name on the command line.
STRATEGIES: dict[str, type[Bot]] = {bot.name: bot for bot in (RandomBot, HonestBot, CounterBot)}


def make_bot(name: str, seed: Seed | None = None) -> Bot:
    """A new bot of strategy ``name``; raises ValueError naming the strategies otherwise."""
    try:
        return STRATEGIES[name](seed)
    except KeyError:
        known = ", ".join(STRATEGIES)
        raise ValueError(f"no bot strategy {name!r}; choose from {known}") from None


__all__ = ["STRATEGIES", "Bot", "CounterBot", "HonestBot", "RandomBot", "make_bot"]
