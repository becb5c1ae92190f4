"""I Doubt It (also Cheat or BS): the default game. docs/rules.md is its rule book."""

from .actions import ACTIONS, ANNOUNCE, DOUBT, LET_STAND, Announce, Claim, Doubt, Lay, LetStand, lay
from .events import Announced, Answered, Dealt, Laid, Resolved, Won
from .game import IDoubtIt
from .options import ChallengeMode, Options
from .state import Phase, State
from .stats import Figures, figures, hand_sizes
from .view import TableView

#: The game these rules are: the registry's line for it (``rules.GAMES`` finds it here, by
#: this folder's name).
GAME = IDoubtIt

__all__ = [
    "GAME",
    "ACTIONS",
    "ANNOUNCE",
    "DOUBT",
    "LET_STAND",
    "Announce",
    "Announced",
    "Answered",
    "ChallengeMode",
    "Claim",
    "Dealt",
    "Doubt",
    "Figures",
    "IDoubtIt",
    "Laid",
    "Lay",
    "LetStand",
    "Options",
    "Phase",
    "Resolved",
    "State",
    "TableView",
    "Won",
    "figures",
    "hand_sizes",
    "lay",
]
