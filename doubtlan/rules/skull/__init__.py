"""Skull: the fourth game. docs/rules-skull.md is its rule book.

(It is not yet a game a table plays: the line ``GAME = Skull`` that the registry reads
comes once its bots and table are in. Until then its tests import it by name.)
"""

from .actions import ACTIONS, PASS, Bid, Pass, Place, Turn
from .cards import DISCS, FLOWER, SKULL, Disc, in_order
from .errors import BadBid, NoSuchStack, NotNow
from .events import BidMade, Lost, Passed, Placed, Round, Settled, Turned, Won
from .game import Skull
from .options import Options
from .state import Phase, State
from .view import TableView

__all__ = [
    "ACTIONS", "DISCS", "FLOWER", "PASS", "SKULL", "BadBid", "Bid", "BidMade", "Disc", "Lost",
    "NoSuchStack", "NotNow", "Options", "Pass", "Passed", "Phase", "Place", "Placed", "Round",
    "Settled", "Skull", "State", "TableView", "Turn", "Turned", "Won", "in_order",
]
