"""Skull: the fourth game. docs/rules-skull.md is its rule book."""

from .actions import ACTIONS, PASS, Bid, Pass, Place, Turn
from .cards import DISCS, FLOWER, SKULL, Disc, in_order
from .errors import BadBid, NoSuchStack, NotNow
from .events import BidMade, Lost, Passed, Placed, Round, Settled, Turned, Won
from .game import Skull
from .options import Options
from .state import Phase, State
from .view import TableView

#: The game these rules are: the registry's line for it.
GAME = Skull

__all__ = [
    "ACTIONS", "DISCS", "FLOWER", "GAME", "PASS", "SKULL", "BadBid", "Bid", "BidMade", "Disc",
    "Lost", "NoSuchStack", "NotNow", "Options", "Pass", "Passed", "Phase", "Place", "Placed",
    "Round", "Settled", "Skull", "State", "TableView", "Turn", "Turned", "Won", "in_order",
]
