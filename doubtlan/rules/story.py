"""The story of a game: each settled claim told with the cards really laid, who lied, who
doubted and who was right, and every hand as it was when the claim began (docs/story.md).

A story is made from a game's reveal (its secret, the seats' seeds and every action: a
:class:`~doubtlan.rules.fairness.Disclosure`), so it is only as true as the deal: tell the
story of a game whose deal verified. Each game reads its own events into :class:`Told`
claims (``Game.tell``); the rest is shared. The same reading of the events a spectator sees
gives what the whole table knows of each claim (the bots' table talk uses that, never more).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .base import Game
from .fairness import Disclosure, deal_seed
from .told import Told, verdict, who

__all__ = ["Figures", "Step", "Story", "Told", "figures", "tell", "verdict", "who"]


@dataclass(frozen=True, slots=True)
class Step:
    """One claim of the story: ``number`` from 1, the claim told whole, and every seat's
    hand as the claim began (after the claim before it was settled)."""

    number: int
    told: Told
    hands: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True, slots=True)
class Story:
    """A whole game told claim by claim."""

    game: str
    number: int
    players: int
    #: Every seat's hand as dealt.
    dealt: tuple[tuple[Any, ...], ...]
    steps: tuple[Step, ...]
    winner: int | None
    #: Whether the actions played the game to its end.
    over: bool = True


@dataclass(frozen=True, slots=True)
class Figures:
    """What one seat did in a game, from its story."""

    claims: int = 0
    bluffs: int = 0
    #: Bluffs of the seat that were doubted, the doubter right (caught).
    caught: int = 0
    doubts_right: int = 0
    doubts_wrong: int = 0


def tell(kind: type[Game[Any, Any]], players: int, options: Any,
         reveal: Disclosure) -> Story:
    """The story of the game ``reveal`` discloses, dealt again and played through the rules
    (a RulesError if an action breaks them: the deal did not verify)."""
    game = kind(players, options, seed=deal_seed(reveal.secret, reveal.game,
                                                  reveal.contributions), opener=reveal.opener)

    def hands() -> tuple[tuple[Any, ...], ...]:
        return tuple(tuple(game.view(seat).hand) for seat in range(players))

    dealt = hands()
    counts, seen = [game.event_count], [dealt]
    for played in reveal.actions:
        game.apply(played.seat, game.parse_action(played.action))
        counts.append(game.event_count)
        seen.append(hands())
    # Each claim began with the action that made its first card's event: the hands are
    # those before that action.
    steps = tuple(Step(number, told, seen[min(bisect_right(counts, told.begin), len(seen)) - 1])
                  for number, told in enumerate(kind.tell(game.state.events), 1))
    return Story(kind.name, reveal.game, players, dealt, steps, game.winner, game.over)


def figures(steps: Iterable[Told], seat: int) -> Figures:
    """What ``seat`` did in ``steps``: what it said and what of it did not hold (its claims
    and bluffs), its bluffs caught, and its tests of others (doubts), right and wrong (only
    what the steps show: a lie not known is none)."""
    claims = bluffs = caught = right = wrong = 0
    for told in steps:
        if told.seat == seat:
            claims += 1
            if told.held is False:
                bluffs += 1
                # (doubted and the doubter right: a Wildcard that saves a lie is no catch)
                caught += told.by is not None and told.right == told.by
        elif told.by == seat and told.right is not None:
            if told.right == seat:
                right += 1
            else:
                wrong += 1
    return Figures(claims, bluffs, caught, right, wrong)
