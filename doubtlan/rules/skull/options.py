"""The rule options of Skull: how many made bids win the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..options import Choice, FieldOptions, OptionField


def _points(points: int) -> Choice:
    said = f"{points} bid{'s' if points > 1 else ''} to win"
    return Choice(str(points), said, said=said, brief=said)


@dataclass(frozen=True, slots=True)
class Options(FieldOptions):
    """Rule options. ``Options.parse("points=3")`` round-trips with ``text``."""

    points: int = 2

    fields: ClassVar[tuple[OptionField, ...]] = (
        OptionField("points", "Points", "bids a player must make to win the game",
                    tuple(map(_points, (2, 1, 3)))),
    )
    seats = (3, 6, "Skull needs")
    # (The lobby names this game: it is not the one a table plays unless told.)
    title = "Skull"
    clock_words = None  # (no window clock: every move is one seat's, on its turn)
