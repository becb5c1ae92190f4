"""Bots: strategies that see only one seat's view (:class:`~doubtlan.bots.base.Strategy`).

Each game's strategies live in the folder named as the game (``bots/idoubtit/``); this
module finds them from :data:`doubtlan.rules.GAMES`, so a new game's bots need no line here.
"""

from __future__ import annotations

from importlib import import_module

from ..rules import DEFAULT_GAME, GAMES
from ..rules.seeds import Seed
from .base import Strategy

#: Every strategy of each game, by game and by its name on the command line.
STRATEGIES: dict[str, dict[str, type[Strategy]]] = {
    game: {bot.name: bot for bot in import_module(f"{__name__}.{game}").STRATEGIES}
    for game in GAMES
}


#: The strategy a seated bot plays unless told, by game (each game's ``DEFAULT``).
DEFAULTS: dict[str, str] = {game: import_module(f"{__name__}.{game}").DEFAULT for game in GAMES}
for _game, _default in DEFAULTS.items():
    if _default not in STRATEGIES[_game]:
        raise TypeError(f"bots/{_game}'s DEFAULT {_default!r} is none of its STRATEGIES")

#: The levels the app offers when a bot is seated, by game, easiest first: level, strategy.
LEVELS: dict[str, dict[str, str]] = {
    game: dict(import_module(f"{__name__}.{game}").LEVELS) for game in GAMES
}


def level_of(game: str, strategy: str | None) -> str | None:
    """The level (``"hard"``) at which ``strategy`` plays ``game``, if it is one."""
    return next((level for level, name in LEVELS.get(game, {}).items() if name == strategy),
                None)


def make_bot(name: str, seed: Seed | None = None, game: str = DEFAULT_GAME) -> Strategy:
    """A new bot of strategy ``name`` for ``game``; raises ValueError naming the game's
    strategies otherwise."""
    strategies = STRATEGIES.get(game, {})
    try:
        return strategies[name](seed)
    except KeyError:
        known = ", ".join(strategies)
        raise ValueError(f"no bot strategy {name!r}; choose from {known}") from None


__all__ = ["DEFAULTS", "LEVELS", "STRATEGIES", "Strategy", "level_of", "make_bot"]
