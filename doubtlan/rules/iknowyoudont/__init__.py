"""I Know You Don't: the second game. docs/rules-iknowyoudont.md is its rule book."""

from .actions import ACTIONS, Accept, Challenge, Intercept, Keep, Pass, Play, Wild
from .cards import Card, Declaration, Kind, own_deck, standard_deck, true_declaration
from .events import (
    Challenged,
    Drew,
    Ended,
    Passed,
    Played,
    Reshuffled,
    Revealed,
    RoundEnded,
    Settled,
    Showdown,
    Started,
    Stood,
)
from .game import IKnowYouDont
from .options import Deck, Options
from .state import AWARDS, HAND, ROUND_CLAIMS, TARGET, TOKENS, Phase, State
from .view import TableView

#: The game these rules are: the registry's line for it (``rules.GAMES`` finds it here, by
#: this folder's name).
GAME = IKnowYouDont

__all__ = [
    "GAME",
    "ACTIONS", "AWARDS", "HAND", "ROUND_CLAIMS", "TARGET", "TOKENS", "Accept", "Card",
    "Challenge", "Challenged", "Declaration", "Deck", "Drew", "Ended", "IKnowYouDont",
    "Intercept", "Keep", "Kind", "Options", "Pass", "Passed", "Phase", "Play", "Played",
    "Reshuffled", "Revealed", "RoundEnded", "Settled", "Showdown", "Started", "State", "Stood",
    "TableView", "Wild", "own_deck", "standard_deck", "true_declaration",
]
