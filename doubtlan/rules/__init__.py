"""The rules: pure game logic, the single source of truth for what is legal and who sees what.

Nothing in this package does I/O, reads a clock, or imports asyncio, textual, msgpack or
zeroconf (tests/test_architecture.py checks it).
"""

from importlib import import_module
from itertools import product
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

#: Every game a table can play, one line each: the name of its folders (``rules/NAME``, whose
#: ``GAME`` is its :class:`Game`, ``bots/NAME`` and ``tui/games/NAME``); the first is the
#: default.
NAMES = (
    "idoubtit",
    "iknowyoudont",
)


def _registered(name: str) -> type[Game[Any, Any]]:
    game: type[Game[Any, Any]] = import_module(f"{__name__}.{name}").GAME
    if game.name != name:
        raise TypeError(f"rules/{name}'s GAME calls itself {game.name!r}")
    return game


#: Every game a table can play, by name, in the order of :data:`NAMES`.
GAMES: dict[str, type[Game[Any, Any]]] = {name: _registered(name) for name in NAMES}


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
#: The game a table plays unless told otherwise (the registry's first).
DEFAULT_GAME: str = next(iter(GAMES))


def game_named(name: str) -> type[Game[Any, Any]]:
    """The game called ``name`` (``"idoubtit"``, ``"iknowyoudont"``); :class:`BadOptions`
    naming the games otherwise."""
    found = GAMES.get(name)
    if found is None:
        raise BadOptions(f"no game {name!r}; choose from {', '.join(GAMES)}")
    return found


def parse_any_action(text: str) -> Action:
    """Read the text form of an action of any game (their kinds differ)."""
    kind = text.split(maxsplit=1)[0].lower() if isinstance(text, str) and text.split() else ""
    for game in GAMES.values():
        if kind in game.actions:
            return game.parse_action(text)
    raise MalformedAction(f"not an action: {text[:40] if isinstance(text, str) else text!r}")

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
    "parse_any_action",
    "parse_cards",
]
