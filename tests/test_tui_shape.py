"""Each game's table lives in its own folder of the app (doubtlan/tui/games/NAME), found by
the game's name. (The import graph, for the app and all the rest: test_architecture.py.)"""

from __future__ import annotations

import pytest

from doubtlan.rules import GAMES
from doubtlan.tui.games import table_type
from doubtlan.tui.widgets.gametable import GameTable


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_table_in_its_folder(game: str) -> None:
    table = table_type(game)
    assert issubclass(table, GameTable) and table.game == game
    assert table.__module__.startswith(f"doubtlan.tui.games.{game}.")


@pytest.mark.parametrize("game", ["poker", "", "..app", "games"])
def test_a_game_this_app_does_not_know_is_refused(game: str) -> None:
    with pytest.raises(ValueError, match="this app cannot show the game"):
        table_type(game)
