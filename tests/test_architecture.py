"""The shape of the code: pure rules, dependencies that point one way, a light CLI."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "doubtlan"

#: What each part of doubtlan may import from the others (tui -> net -> rules, bots -> rules;
#: the host's stand-ins make net -> bots; the command reaches every part, lazily).
ALLOWED = {
    "rules": {"rules"},
    "bots": {"bots", "rules"},
    "tourney": {"tourney", "bots", "rules"},
    "net": {"net", "bots", "rules"},
    "tui": {"tui", "net", "bots", "rules"},
    "cli_values": {"cli_values", "net", "bots", "rules"},
    "cli_table": {"cli_table", "cli_values", "tui", "net", "bots", "rules"},
    "cli_record": {"cli_record", "tui", "net", "bots", "rules"},
    "cli_seats": {"cli_seats", "cli", "cli_table", "tui", "net", "bots", "rules"},
    "cli": {"cli", "cli_table", "cli_values", "cli_record", "tui", "net", "bots", "rules",
            "tourney"},
}

#: The standard library the rules may use: no I/O, clocks, threads or event loops.
RULES_STDLIB = {
    "__future__", "abc", "bisect", "collections", "dataclasses", "enum", "functools", "hashlib",
    "hmac", "itertools", "math", "operator", "secrets", "struct", "typing",
}
FORBIDDEN_CALLS = {"open", "print", "input", "breakpoint", "__import__", "compile", "eval", "exec"}
#: The one exception: @record generates a fast __init__ (as dataclasses itself does).
ALLOWED_CALLS = {("kinds.py", "exec")}
#: And the registry (rules/__init__.py) lists the rules' folders and imports each game's.
ALLOWED_IMPORTS = {(("doubtlan", "rules", "__init__.py"), module)
                   for module in ("importlib", "pkgutil")} | {
    # (sys._getframe alone: the module a one-word action is made in, as namedtuple finds it)
    (("doubtlan", "rules", "kinds.py"), "sys")}


def modules(part: str) -> list[Path]:
    path = PACKAGE / part
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


def imports(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports, as absolute names, with its line."""
    tree = ast.parse(path.read_text(), str(path))
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((name, node.lineno))
    return found


def part_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "doubtlan" and len(parts) > 1 else None


@pytest.mark.parametrize("part", sorted(ALLOWED))
def test_dependencies_point_one_way(part: str) -> None:
    for path in modules(part):
        if not path.exists():
            continue
        for module, line in imports(path):
            target = part_of(module)
            if module == "doubtlan":
                target = "__init__"
            if target is not None and target != "__init__":
                assert target in ALLOWED[part], f"{path.name}:{line} imports {module}"


def test_every_module_belongs_to_a_part() -> None:
    parts = {path.relative_to(PACKAGE).parts[0].removesuffix(".py")
             for path in PACKAGE.rglob("*.py")}
    assert parts - {"__init__", "__main__"} <= set(ALLOWED)


def import_graph() -> dict[str, set[str]]:
    """Each module of doubtlan and the modules of doubtlan it imports anywhere (at the top,
    in a function, or for the type checker alone)."""
    names = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = _absolute(node, name, path.name == "__init__.py")
                # ``from package import module`` imports that module (the package is imported
                # before any of its modules anyway, so it is no edge of its own).
                found = [f"{module}.{alias.name}" if f"{module}.{alias.name}" in names else module
                         for alias in node.names]
            else:
                continue
            graph[name] |= {module for module in found if module in names and module != name}
    return graph


def _absolute(node: ast.ImportFrom, importer: str, package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    base = base[: len(base) - node.level + (1 if package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected parts of more than one module."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in graph[module]:
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            part = stack[stack.index(module):]
            del stack[stack.index(module):]
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    assert circles(import_graph()) == []


def test_the_graph_counts_every_import_statement() -> None:
    graph = import_graph()
    # in a function (the play screen opens the options dialog when asked) ...
    assert "doubtlan.tui.screens.options" in graph["doubtlan.tui.screens.play"]
    # ... and ``from package import module``
    assert "doubtlan.rules.cards" in graph["doubtlan.rules.iknowyoudont.cards"]


def test_the_app_is_imported_by_the_command_alone() -> None:
    """Screens, widgets and game tables ask the app through messages (tui/messages.py)."""
    graph = import_graph()
    assert sorted(name for name, targets in graph.items() if "doubtlan.tui.app" in targets) \
        == ["doubtlan.cli_table"]


def test_a_circle_would_be_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_is_over_500_lines() -> None:
    long = {str(path.relative_to(PACKAGE)): n for path in PACKAGE.rglob("*.py")
            if (n := len(path.read_text().splitlines())) > 500}
    assert long == {}


def test_no_function_is_more_complex_than_20() -> None:
    """radon's cyclomatic complexity: a function above 20 is split into named steps (the
    verifiers read as lists of checks run in order)."""
    from radon.complexity import cc_visit

    tangled = {f"{path.relative_to(PACKAGE)}:{block.fullname}": block.complexity
               for path in PACKAGE.rglob("*.py") for block in cc_visit(path.read_text())
               if block.complexity > 20}
    assert tangled == {}


def test_no_class_is_over_300_lines() -> None:
    """A class that grows past 300 lines is made of parts of its own (as the table is)."""
    long = {f"{path.relative_to(PACKAGE)}:{node.name}": size
            for path in PACKAGE.rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ClassDef)
            and (size := (node.end_lineno or node.lineno) - node.lineno + 1) > 300}
    assert long == {}


def test_game_names_appear_only_in_their_games_folders() -> None:
    """Adding a game touches its own folders and one line of the registry: nothing else may
    name a game (or compare with its name)."""
    from doubtlan.rules import GAMES

    for path in PACKAGE.rglob("*.py"):
        where = path.relative_to(PACKAGE).parts
        if where[0] == "rules" or any(part in GAMES for part in where[:-1]):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in GAMES, f"{'/'.join(where)}:{node.lineno} names a game"


def test_the_rules_use_only_pure_parts_of_the_standard_library() -> None:
    for path in modules("rules"):
        for module, line in imports(path):
            if part_of(module) == "rules" or (path.parts[-3:], module) in ALLOWED_IMPORTS:
                continue
            assert module.split(".")[0] in RULES_STDLIB, f"{path.name}:{line} imports {module}"


def test_the_rules_call_nothing_that_does_io() -> None:
    for path in modules("rules"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if (path.name, node.func.id) in ALLOWED_CALLS:
                    continue
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno}"


def loaded_after(code: str) -> set[str]:
    """The top-level modules loaded after running ``code`` in a fresh interpreter."""
    script = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True,
        cwd=PACKAGE.parent,
    ).stdout
    return {name.split(".")[0] for name in json.loads(out.splitlines()[-1])}


HEAVY = {"textual", "rich", "msgpack", "zeroconf", "asyncio", "socket", "ssl", "cryptography",
         "spake2"}


def test_importing_the_rules_bots_and_tourney_loads_nothing_heavy() -> None:
    loaded = loaded_after("import doubtlan.rules, doubtlan.bots, doubtlan.tourney")
    assert not loaded & HEAVY


@pytest.mark.parametrize("argv", [["--help"], ["tourney", "--help"], ["host", "--help"],
                                  ["play", "--help"], ["--version"]])
def test_the_cli_starts_without_heavy_imports(argv: list[str]) -> None:
    code = (
        "from doubtlan.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass"
    )
    assert not loaded_after(code) & HEAVY


def test_no_formatted_text_is_read_as_markup() -> None:
    """In the app, a text made with an f-string (a name, a message, a number: as often as not
    from the network) is never handed to Textual as markup: ``Static(f"...")`` says
    ``markup=False`` and ``.update(f"...")`` takes a ``Text``. A table or player named "[/]"
    stopped the screens that did (tests/test_app_names.py)."""
    found = []
    for path in sorted((PACKAGE / "tui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args \
                    or not isinstance(node.args[0], ast.JoinedStr):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else \
                func.attr if isinstance(func, ast.Attribute) else ""
            plain = any(k.arg == "markup" and isinstance(k.value, ast.Constant)
                        and k.value.value is False for k in node.keywords)
            if name in ("Static", "Label", "update") and not plain:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}(f\"...\")")
    assert not found, found
