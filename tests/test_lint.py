"""The code is tidy and its types check: ruff and mypy, with the settings in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True
    )


def test_ruff_finds_nothing() -> None:
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_types_check() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_the_types_check_for_windows_and_macos(platform: str) -> None:
    """What a module may use on one system only (fcntl, termios...) shows as an error when
    the types are checked as on another."""
    result = run("mypy", "--platform", platform)
    assert result.returncode == 0, result.stdout + result.stderr
