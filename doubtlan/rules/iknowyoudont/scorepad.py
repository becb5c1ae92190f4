"""The scorepad's arithmetic (docs/rules-iknowyoudont.md, rules 8 and 10): what a round's
round points give in victory points, whether the match is over, and who wins it."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, sort_key
from .state import AWARDS, HAND, OVERTIME, TARGET, State


def deal(cards: list[Card], players: int, opener: int) -> list[list[Card]]:
    """Five cards each from the top of ``cards`` (taken from it), one at a time clockwise
    from ``opener``; each hand sorted."""
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(HAND * players):
        hands[(opener + i) % players].append(cards.pop())
    for hand in hands:
        hand.sort(key=sort_key)
    return hands


def awards(points: Sequence[int]) -> tuple[int, ...]:
    """The victory points a round's ``points`` give each seat: 5, 3 and 1 by place, a
    place shared by equal points given to each, none for no points (rule 10)."""
    ranked = sorted(set(points), reverse=True)
    return tuple(AWARDS[place] if score and (place := ranked.index(score)) < len(AWARDS)
                 else 0 for score in points)


def ending(state: State, rounds: int, broke: bool) -> str | None:
    """How the match ends after a round was scored (``broke``: a player lost their last
    token), or None when another round is dealt (rule 8)."""
    victory = sorted(state.victory, reverse=True)
    ahead = victory[0] > victory[1]
    if broke:
        return "tokens"
    if victory[0] >= TARGET and ahead:  # (a tie plays on)
        return "points"
    if state.round >= rounds and (ahead or state.round >= rounds + OVERTIME):
        return "rounds"
    return None


def winner(state: State, order: Sequence[int]) -> tuple[int, bool]:
    """The match's winner, and whether the tie-break chose them (rule 8): the most victory
    points, of a player with tokens left; among equals the most round points over the match,
    then the most tokens, then the most round points in the latest round where they differ;
    only then the first in ``order`` (clockwise from the seat after the active player)."""
    victory, points = state.victory, state.match_points
    rounds = [tuple(state.score), *state.pad[::-1]]
    able = [seat for seat in order if state.tokens[seat] > 0]
    best = max(victory[seat] for seat in able)
    tied = [seat for seat in able if victory[seat] == best]
    first = max(tied, key=lambda s: (points[s], state.tokens[s], tuple(r[s] for r in rounds)))
    return first, len(tied) > 1
