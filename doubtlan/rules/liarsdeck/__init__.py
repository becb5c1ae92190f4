"""Liar's Deck: the third game. docs/rules-liarsdeck.md is its rule book."""

from .actions import ACTIONS, LIAR, Liar, Put
from .cards import ACE, JOKER, KING, QUEEN, Card, Rank, deck, in_order
from .errors import CallRequired
from .events import Believed, Called, Deal, Down, Lost, Settled, Standing
from .game import LiarsDeck
from .options import Lives, Options
from .state import CHAMBERS, HAND, Phase, State
from .view import TableView

__all__ = [
    "ACE", "ACTIONS", "CHAMBERS", "HAND", "JOKER", "KING", "LIAR", "QUEEN", "Believed",
    "CallRequired", "Called", "Card", "Deal", "Down", "Liar", "LiarsDeck", "Lives", "Lost",
    "Options", "Phase", "Put", "Rank", "Settled", "Standing", "State", "TableView", "deck",
    "in_order",
]

#: The game these rules are: the registry's line for it (``rules.GAMES`` finds it here, by
#: this folder's name).
GAME = LiarsDeck
