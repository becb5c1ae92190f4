"""One thing said at the table and settled, told: what each game reads from its events
(``Game.tell``), the story of a game is made of (rules/story.py), and the record of play
(the results, ``replay``, ``stats``) counts. It is every game's: a claim of cards laid, a
declaration, a bid; shown and decided as that game's rules say."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .words import Words


@dataclass(frozen=True, slots=True)
class Told:
    """One thing said and settled, as far as the events read show it."""

    #: Who said it, and what, in words (``"two Sevens"``, ``"level 3 Truth"``, ``"3"``).
    seat: int
    said: str
    #: What was shown for it: the cards laid, the discs turned (None: not in the events
    #: read, which showed them face down).
    shown: tuple[Any, ...] | None
    #: Whether what was said held: a claim true, a bid made (None: not known from the
    #: events read).
    held: bool | None
    #: Who put it to the test: who doubted, called or challenged it (None: nobody did, or
    #: the game tests it without anyone: a bid is turned by its own bidder).
    by: int | None
    #: Who was proved right, the one who said it or the one who tested it (None: not tested,
    #: or not known).
    right: int | None
    #: The index, among the events read, of the event it began with (the action that said
    #: it), and of the event that settled it.
    begin: int
    end: int


def who(seat: int | None, names: Mapping[int, str]) -> str:
    """A seat as the story names it."""
    if seat is None:
        return "nobody"
    return names.get(seat) or f"seat {seat + 1}"


def verdict(told: Told, names: Mapping[int, str], words: Words) -> tuple[str, str]:
    """Whether what was said held, and how it was tested, in a game's ``words``: ("a lie",
    "Ben doubted, and was right"), ("true", "nobody doubted: it stood"). Each game's
    ``Game.verdict`` says it; this is the shape of a claim that others may challenge."""
    true, false = words.held
    truth = "not known" if told.held is None else true if told.held else false
    if told.by is None:
        return truth, f"nobody {words.challenged}: it stood"
    tester = who(told.by, names)
    if told.right is None:
        return truth, f"{tester} {words.challenged}"
    right = "and was right" if told.right == told.by else \
        f"and {who(told.right, names)} was right"
    return truth, f"{tester} {words.challenged}, {right}"
