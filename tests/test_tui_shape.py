"""Each game's table lives in its own folder of the app (doubtlan/tui/games/NAME), found by
the game's name. (The import graph, for the app and all the rest: test_architecture.py.)"""

from __future__ import annotations

import pytest
from textual.binding import Binding

from doubtlan.rules import GAMES
from doubtlan.tui.games import table_type
from doubtlan.tui.screens.help import APP_KEYS, HelpScreen
from doubtlan.tui.screens.play import PlayScreen
from doubtlan.tui.widgets.gametable import GameTable
from doubtlan.tui.widgets.talk import QUICK


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
    """Each game's help ends with its keys; the talk's, ``?`` and ``q`` are the app's, in
    that table."""
    text = HelpScreen(table_type(game).rules).text()
    keys = text[text.rindex("\n| key |") + 1:].splitlines()
    app_keys = APP_KEYS.splitlines()
    assert keys[-len(app_keys):] == app_keys
    assert all(line.startswith("|") for line in keys)  # one table: no line between them
    assert text.count("| ? | this help |") == 1


@pytest.mark.parametrize("game", GAMES)
def test_no_game_takes_a_key_of_the_table_talk(game: str) -> None:
    """The talk's keys are the play screen's, in every game: a game's table that bound one
    would take it (the focused widget's keys come first) and its players could not talk."""
    talk = {"t", "m", *(key for key, _ in QUICK)}
    bound = {key.strip() for binding in table_type(game).BINDINGS
             if isinstance(binding, Binding) for key in binding.key.split(",")}
    assert not bound & talk
    screen_keys = {binding.key for binding in PlayScreen.BINDINGS if isinstance(binding, Binding)}
    assert talk <= screen_keys
