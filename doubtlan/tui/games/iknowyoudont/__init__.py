"""I Know You Don't on screen: its table (the players, the centre, the prompt, your hand,
the claims), its results and its keys."""

from .table import KnowTable

#: The game's table widget, which the registry (``tui.games.table_type``) looks for.
TABLE = KnowTable
