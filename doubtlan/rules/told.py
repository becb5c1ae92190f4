"""One settled claim told: what each game reads from its events (``Game.tell``) and the
story of a game is made of (rules/story.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Told:
    """One settled claim, as far as the events read show it."""

    #: Who made the claim, and the claim in words (``"two Sevens"``).
    seat: int
    claim: str
    #: The cards laid for it (None: not in the events read, which showed them face down).
    cards: tuple[Any, ...] | None
    #: Whether the claim was a lie (None: not known from the events read).
    lie: bool | None
    #: Who doubted, called or challenged it (None: it stood).
    doubter: int | None
    #: Who was right, the claimer or the doubter (None: nobody doubted, or not known).
    right: int | None
    #: The index, among the events read, of its first card's event (the claim began with
    #: the action that made it), and of the event that settled it.
    begin: int
    end: int
