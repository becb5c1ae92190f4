"""The rules: pure game logic, the single source of truth for what is legal and who sees what.

Nothing in this package does I/O, reads a clock, or imports asyncio, textual, msgpack or
zeroconf (tests/test_architecture.py checks it).
"""

from typing import Any

from .base import Action, Event, Game, View
from .cards import DECK, Card, Rank, Suit, deck, parse_cards
from .errors import ERROR_CODES, BadOptions, IllegalAction, MalformedAction, RulesError
from .idoubtit import (
    Announce,
    Challenge,
    Claim,
    Doubt,
    IDoubtIt,
    Lay,
    LetStand,
    Options,
    Phase,
    TableView,
)
from .match import Match

#: Every game a table can play, by name.
GAMES: dict[str, type[Game[Any, Any]]] = {IDoubtIt.name: IDoubtIt}

__all__ = [
    "DECK",
    "ERROR_CODES",
    "GAMES",
    "Action",
    "Announce",
    "BadOptions",
    "Card",
    "Challenge",
    "Claim",
    "Doubt",
    "Event",
    "Game",
    "IDoubtIt",
    "IllegalAction",
    "Lay",
    "LetStand",
    "MalformedAction",
    "Match",
    "Options",
    "Phase",
    "Rank",
    "RulesError",
    "Suit",
    "TableView",
    "View",
    "deck",
    "parse_cards",
]
