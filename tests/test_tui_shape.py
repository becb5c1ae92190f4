"""The shape of the app's code (doubtlan/tui): no import loops, the screens and widgets ask the
app through messages rather than importing it, and each game lives in its own folder."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from doubtlan.rules import GAMES
from doubtlan.tui.games import table_type
from doubtlan.tui.widgets.gametable import GameTable

TUI = Path(__file__).resolve().parent.parent / "doubtlan" / "tui"
PACKAGE = "doubtlan.tui"


def module_name(path: Path) -> str:
    parts = path.relative_to(TUI).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def tui_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(TUI.rglob("*.py"))}


def imported(path: Path, known: set[str]) -> set[str]:
    """The modules of doubtlan.tui that ``path`` imports anywhere: at the top, in functions
    and under TYPE_CHECKING (every import statement counts)."""
    here = module_name(path)
    # A package's own name is where its relative imports start; a module's, its package.
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            # ``from package import module`` imports the module too.
            names = [source, *(f"{source}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {name for name in names if name in known}
    return found - {here}


def import_graph() -> dict[str, set[str]]:
    modules = tui_modules()
    return {name: imported(path, set(modules)) for name, path in modules.items()}


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import loop of ``graph`` (its modules in order, the first again last), if any."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node):], node]
        if node in done:
            return None
        for target in sorted(graph[node]):
            loop = visit(target, [*path, node])
            if loop:
                return loop
        done.add(node)
        return None

    for node in sorted(graph):
        loop = visit(node, [])
        if loop:
            return loop
    return None


def test_the_graph_is_read_whole() -> None:
    graph = import_graph()
    assert f"{PACKAGE}.app" in graph and f"{PACKAGE}.games.idoubtit.table" in graph
    # Imports in functions count (the play screen opens the options dialog lazily).
    assert f"{PACKAGE}.screens.options" in graph[f"{PACKAGE}.screens.play"]
    assert f"{PACKAGE}.games" in graph[f"{PACKAGE}.app"]


def test_the_app_has_no_import_loops() -> None:
    assert a_cycle(import_graph()) is None, " -> ".join(a_cycle(import_graph()) or ())


def test_the_loop_finder_finds_a_loop() -> None:
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert a_cycle({"a": {"b"}, "b": set()}) is None


def test_screens_widgets_and_games_do_not_import_the_app() -> None:
    graph = import_graph()
    app = f"{PACKAGE}.app"
    users = sorted(name for name, targets in graph.items() if app in targets)
    assert users == [], users


def test_game_names_are_written_only_in_the_games_folders() -> None:
    for name, path in tui_modules().items():
        if name.startswith(f"{PACKAGE}.games."):
            continue
        literals = {node.value for node in ast.walk(ast.parse(path.read_text()))
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        assert not literals & set(GAMES), (name, literals & set(GAMES))


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_a_table_in_its_folder(game: str) -> None:
    table = table_type(game)
    assert issubclass(table, GameTable) and table.game == game
    assert table.__module__.startswith(f"{PACKAGE}.games.{game}.")


@pytest.mark.parametrize("game", ["poker", "", "..app", "games"])
def test_a_game_this_app_does_not_know_is_refused(game: str) -> None:
    with pytest.raises(ValueError, match="this app cannot show the game"):
        table_type(game)
