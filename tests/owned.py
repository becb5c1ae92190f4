"""What each game keeps in its own tests files: one object per game, in
``tests/PREFIX_NAME.py`` under a fixed name (its contract answers ``spec_NAME.SPEC``, its
app driver ``drive_NAME.DRIVER``), found by the game's name when first asked for."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

from doubtlan.rules import GAMES

T = TypeVar("T")


class Owned(Mapping[str, T], Generic[T]):
    """Every game's object of one kind, by the game's name: a KeyError naming the file a
    game has not written yet. Found when first asked for: a game's tests file imports the
    module that holds this mapping before its own object is made."""

    def __init__(self, prefix: str, attribute: str, what: str) -> None:
        self.prefix, self.attribute, self.what = prefix, attribute, what

    def __getitem__(self, name: str) -> T:
        try:
            module = importlib.import_module(f"{self.prefix}_{name}")
        except ModuleNotFoundError:
            title = GAMES[name].title if name in GAMES else name
            raise KeyError(f"no tests/{self.prefix}_{name}.py: {self.what} {title}") from None
        found: T = getattr(module, self.attribute)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)
