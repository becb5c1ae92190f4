"""The shape of the code: pure rules, dependencies that point one way, a light CLI."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "doubtlan"

#: What each part of doubtlan may import from the others (tui -> net -> rules, bots -> rules).
ALLOWED = {
    "rules": {"rules"},
    "bots": {"bots", "rules"},
    "tourney": {"tourney", "bots", "rules"},
    "net": {"net", "bots", "rules"},
    "tui": {"tui", "net", "bots", "rules"},
}

#: The standard library the rules may use: no I/O, clocks, threads or event loops.
RULES_STDLIB = {
    "__future__", "abc", "collections", "dataclasses", "enum", "functools", "hashlib",
    "hmac", "itertools", "math", "operator", "secrets", "struct", "typing",
}
FORBIDDEN_CALLS = {"open", "print", "input", "breakpoint", "__import__", "compile", "eval", "exec"}
#: The one exception: @record generates a fast __init__ (as dataclasses itself does).
ALLOWED_CALLS = {("base.py", "exec")}


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


def test_the_rules_use_only_pure_parts_of_the_standard_library() -> None:
    for path in modules("rules"):
        for module, line in imports(path):
            if part_of(module) == "rules":
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


HEAVY = {"textual", "rich", "msgpack", "zeroconf", "asyncio", "socket"}


def test_importing_the_rules_bots_and_tourney_loads_nothing_heavy() -> None:
    loaded = loaded_after("import doubtlan.rules, doubtlan.bots, doubtlan.tourney")
    assert not loaded & HEAVY


@pytest.mark.parametrize("argv", [["--help"], ["tourney", "--help"], ["--version"]])
def test_the_cli_starts_without_heavy_imports(argv: list[str]) -> None:
    code = (
        "from doubtlan.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass"
    )
    assert not loaded_after(code) & HEAVY
