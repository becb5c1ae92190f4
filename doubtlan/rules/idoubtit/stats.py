"""What a finished (or running) game adds up to, from its public record: each player's
figures and the size of each hand claim by claim. The results screen shows these."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import DECK
from .events import Resolved
from .options import Options


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's game. ``bluffs`` is None until the game is won (it is told only then)."""

    claims: int = 0
    bluffs: int | None = None
    #: Their bluffs that were doubted (they took the pile).
    caught: int = 0
    #: Their doubts that caught a bluff, and those of honest claims (they took the pile).
    doubts_right: int = 0
    doubts_wrong: int = 0


def figures(
    players: int, claims: Sequence[Resolved], bluffs: Sequence[int] | None = None
) -> list[Figures]:
    """Each seat's figures from the settled ``claims`` (and the ``bluffs`` of the won event).

    >>> from doubtlan.rules import Claim, Rank
    >>> bluff = Resolved(0, Claim(2, Rank.ACE), (), 1, False, 0, 2, Rank.TWO)
    >>> figures(3, [bluff])[0]
    Figures(claims=1, bluffs=None, caught=1, doubts_right=0, doubts_wrong=0)
    """
    counts = [[0, 0, 0, 0] for _ in range(players)]
    for record in claims:
        counts[record.seat][0] += 1
        if record.doubter is not None:
            if record.honest:
                counts[record.doubter][3] += 1
            else:
                counts[record.seat][1] += 1
                counts[record.doubter][2] += 1
    return [
        Figures(c[0], None if bluffs is None else bluffs[seat], c[1], c[2], c[3])
        for seat, c in enumerate(counts)
    ]


def hand_sizes(
    players: int, options: Options, opener: int, claims: Sequence[Resolved]
) -> list[tuple[int, ...]]:
    """Every hand's size after the deal and after each settled claim (rules 1 and 6).

    >>> hand_sizes(3, Options(), 0, [])
    [(18, 17, 17)]
    """
    cards = len(DECK) * options.decks
    sizes = [cards // players] * players
    for i in range(cards % players):  # dealt one at a time, starting with the opener
        sizes[(opener + i) % players] += 1
    series = [tuple(sizes)]
    for record in claims:
        sizes[record.seat] -= record.claim.count
        if record.taker is not None:
            sizes[record.taker] += record.taken
        series.append(tuple(sizes))
    return series
