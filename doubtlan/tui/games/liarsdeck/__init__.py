"""Liar's Deck on screen: its table (the players, the round, the prompt, your hand, the
claims), its results and its keys."""

from .table import LiarTable

#: The game's table widget, which the registry (``tui.games.table_type``) looks for.
TABLE = LiarTable
