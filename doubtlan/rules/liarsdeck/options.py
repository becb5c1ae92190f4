"""The rule options of Liar's Deck: one deck or two, and what a lost call costs."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from ..options import Choice, FieldOptions, OptionField, decks_option


class Lives(enum.Enum):
    """What a player may lose before they are out: a number of lives, or (Liar's Bar's
    roulette) a revolver of six chambers with one bullet, a trigger pulled for each lost
    call."""

    THREE = "3"
    ONE = "1"
    TWO = "2"
    FOUR = "4"
    FIVE = "5"
    ROULETTE = "roulette"

    @property
    def count(self) -> int | None:
        """How many lost calls a player has before they are out (None: the roulette's)."""
        return None if self is Lives.ROULETTE else int(self.value)


def _lives(lives: Lives) -> Choice:
    if lives is Lives.ROULETTE:
        return Choice("roulette", "roulette: a chamber a lost call", said="roulette",
                      brief="roulette")
    said = f"{lives.value} li{'fe' if lives is Lives.ONE else 'ves'}"
    return Choice(lives.value, said, said=said, brief=said)


@dataclass(frozen=True, slots=True)
class Options(FieldOptions):
    """Rule options. ``Options.parse("decks=2,lives=roulette")`` round-trips with ``text``."""

    decks: int = 1
    lives: Lives = Lives.THREE

    fields: ClassVar[tuple[OptionField, ...]] = (
        decks_option("decks in play: one for 2 to 4 players, two for up to 6", (2, 4), (2, 6)),
        OptionField("lives", "Lives", "lost calls a player may take before they are out, or "
                    "roulette (each lost call pulls a trigger: 1 chamber in 6 is loaded)",
                    tuple(map(_lives, Lives))),
    )
    # (The lobby names this game: it is not the one a table plays unless told.)
    title = "Liar's Deck"
    clock_words = None  # (no window clock: a claim waits for the next player's turn alone)
