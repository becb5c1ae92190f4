"""Skull on screen: its table (the players and their stacks, the prompt, your discs, the
bids), its results and its keys."""

from .table import SkullTable

#: The game's table widget, which the registry (``tui.games.table_type``) looks for.
TABLE = SkullTable
