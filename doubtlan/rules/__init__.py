"""The rules: pure game logic, the single source of truth for what is legal and who sees what.

Nothing in this package does I/O, reads a clock, or imports asyncio, textual, msgpack or
zeroconf (tests/test_architecture.py checks it).
"""

from importlib import import_module
from itertools import product
from pkgutil import iter_modules
from typing import Any

from .base import Action, Event, Game, Misplay, View
from .cards import DECK, Card, Rank, Suit, deck, parse_cards
from .errors import BadOptions, IllegalAction, MalformedAction, RulesError, error_codes
from .idoubtit import (
    Announce,
    ChallengeMode,
    Claim,
    Doubt,
    IDoubtIt,
    Lay,
    LetStand,
    Options,
    Phase,
    TableView,
)
from .iknowyoudont import IKnowYouDont
from .match import Match

#: The game a table plays unless told otherwise.
DEFAULT_GAME = "idoubtit"


def _games() -> dict[str, type[Game[Any, Any]]]:
    """Every game: each folder of the rules whose ``__init__`` names its :class:`Game` in the
    line ``GAME = ...`` (the folder's name is the game's, and its bots' and table's
    folders'), the default first, then by name."""
    found: dict[str, type[Game[Any, Any]]] = {}
    folders = sorted(module.name for module in iter_modules(__path__) if module.ispkg)
    for name in sorted(folders, key=lambda folder: folder != DEFAULT_GAME):
        game = getattr(import_module(f"{__name__}.{name}"), "GAME", None)
        if game is None:
            continue  # (a folder of the rules that is not a game)
        if not (isinstance(game, type) and issubclass(game, Game)) or game.name != name:
            raise TypeError(f"rules/{name}'s GAME is not the Game called {name!r}")
        found[name] = game
    return found


#: Every game a table can play, by name: the default first, then the others by name. A new
#: game is its folders, ``rules/NAME`` (with its ``GAME``), ``bots/NAME`` and
#: ``tui/games/NAME``, found here by that name: no list of games is kept anywhere.
GAMES: dict[str, type[Game[Any, Any]]] = _games()


def _player_bounds() -> tuple[int, int]:
    """The fewest and the most players of any game, with any of its rules."""
    counts: set[int] = set()
    for game in GAMES.values():
        fields = game.options_type.fields
        for values in product(*(field.values for field in fields)):
            text = ",".join(f"{field.name}={value}" for field, value in zip(fields, values,
                                                                             strict=True))
            options = game.options_type.parse(text)
            counts.update((options.min_players, options.max_players))
    return min(counts), max(counts)


#: Every stable error code of the rules (the shared ones and every game's own), with the
#: exception class that carries it.
ERROR_CODES = error_codes()

#: The fewest and the most players a table of any game may have (the wire's limits).
FEWEST_PLAYERS, MOST_PLAYERS = _player_bounds()


def game_named(name: str) -> type[Game[Any, Any]]:
    """The game called ``name`` (``"idoubtit"``, ``"iknowyoudont"``); :class:`BadOptions`
    naming the games otherwise."""
    found = GAMES.get(name)
    if found is None:
        raise BadOptions(f"no game {name!r}; choose from {', '.join(GAMES)}")
    return found


__all__ = [
    "DECK",
    "DEFAULT_GAME",
    "ERROR_CODES",
    "FEWEST_PLAYERS",
    "GAMES",
    "Action",
    "Announce",
    "BadOptions",
    "Card",
    "ChallengeMode",
    "Claim",
    "Doubt",
    "Event",
    "Game",
    "IDoubtIt",
    "IKnowYouDont",
    "IllegalAction",
    "Lay",
    "LetStand",
    "MalformedAction",
    "Match",
    "MOST_PLAYERS",
    "Misplay",
    "Options",
    "Phase",
    "Rank",
    "RulesError",
    "Suit",
    "TableView",
    "View",
    "deck",
    "game_named",
    "parse_cards",
]
