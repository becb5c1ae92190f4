"""I Doubt It on screen: its table (the others, the required rank, the prompt, your hand,
the claims), its results and its keys."""

from .table import DoubtTable

#: The game's table widget, which the registry (``tui.games.table_type``) looks for.
TABLE = DoubtTable
