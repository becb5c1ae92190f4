"""Each game's table lives in its own folder of the app (doubtlan/tui/games/NAME), found by
the game's name. (The import graph, for the app and all the rest: test_architecture.py.)"""

from __future__ import annotations

import pytest

from doubtlan.rules import GAMES
from doubtlan.tui.games import table_type
from doubtlan.tui.screens.help import APP_KEYS, HelpScreen
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


@pytest.mark.parametrize("game", GAMES)
def test_the_help_adds_the_apps_keys_to_the_games_table_of_keys(game: str) -> None:
    """Each game's help ends with its keys; ``?`` and ``q`` are the app's, in that table."""
    text = HelpScreen(table_type(game).rules).text()
    keys = text[text.rindex("\n| key |") + 1:].splitlines()
    assert keys[-2:] == APP_KEYS.splitlines()
    assert all(line.startswith("|") for line in keys)  # one table: no line between them
    assert text.count("| ? | this help |") == 1
