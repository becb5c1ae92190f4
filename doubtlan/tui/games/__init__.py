"""Each game on screen, one folder each, named as the game is in ``rules.GAMES``.

A game's folder holds its table widget (a
:class:`~doubtlan.tui.widgets.gametable.GameTable`), exposed as ``TABLE`` by the folder's
``__init__``, and the widgets only that table uses. :func:`table_type` finds the folder by
the game's name, so a new game needs its folder here and its rules' folder; no
list of games is kept in the app.
"""

from __future__ import annotations

import importlib

from ...rules import GAMES
from ..widgets.gametable import GameTable


def table_type(game: str) -> type[GameTable]:
    """The table widget of ``game`` (``"idoubtit"``, ``"iknowyoudont"``); ValueError for a
    game this app cannot show."""
    table = None
    if game in GAMES:  # (a name from the wire: only the registry's names are looked for)
        folder = f"{__name__}.{game}"
        try:
            table = getattr(importlib.import_module(folder), "TABLE", None)
        except ModuleNotFoundError as error:
            if error.name != folder:
                raise  # the folder is there, but something it imports is not
    if not (isinstance(table, type) and issubclass(table, GameTable) and table.game == game):
        raise ValueError(f"this app cannot show the game {game!r}")
    return table
