"""The docs are true: their examples run, and the README's commands are the ones CI runs."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import doubtlan

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text())


def test_the_readme_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    play, test = readme_commands()[:2]
    assert text.index(play) < text.index(test) < text.index("## ")
    assert "pip install ." in play and play.endswith(".venv/bin/doubtlan play")
    assert "pip install -e '.[test]'" in test and test.endswith("pytest")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test = readme_commands()[1]
    script = (ROOT / ".ci" / "run").read_text()
    commands = [line for line in script.splitlines() if line and not line.startswith("#")]
    assert commands[-1] == test


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_examples_in_the_docs_run(path: Path) -> None:
    failures, _ = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False
    )
    assert failures == 0


def all_modules() -> list[str]:
    return sorted(
        info.name for info in pkgutil.walk_packages(doubtlan.__path__, "doubtlan.")
        if not info.name.endswith("__main__")
    )


@pytest.mark.parametrize("name", all_modules())
def test_examples_in_the_code_run(name: str) -> None:
    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_every_error_code_is_documented() -> None:
    from doubtlan.rules import ERROR_CODES

    text = (ROOT / "docs" / "architecture.md").read_text()
    for code in ERROR_CODES:
        assert f"`{code}`" in text, code
