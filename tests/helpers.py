"""Shared helpers for the tests: deals chosen by hand, finding cards inside anything, and
two I Doubt It strategies that would never end a game without rule 8 (bench/tourney.py's
``stalemate`` plays them too)."""

from __future__ import annotations

import dataclasses
import enum
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from doubtlan.rules import (
    Action,
    Announce,
    Card,
    Doubt,
    IDoubtIt,
    Lay,
    Options,
    Rank,
    TableView,
    deck,
    parse_cards,
)
from doubtlan.rules.cards import sort_key
from doubtlan.rules.iknowyoudont import Card as KnowCard


def deal(
    *hands: str,
    players: int | None = None,
    options: Options | None = None,
    opener: int = 0,
    rank: Rank = Rank.ACE,
    only: Sequence[int] = (),
) -> IDoubtIt:
    """A game whose seats hold the given cards (``"AS AH 4C"``), the rest of the deck dealt
    round the other seats so that every card is somewhere. Seats in ``only`` get nothing more."""
    options = options or Options()
    players = players or len(hands)
    chosen = [parse_cards(text) for text in hands] + [[] for _ in range(players - len(hands))]
    rest = Counter(deck(options.decks)) - Counter(card for hand in chosen for card in hand)
    spare = sorted(rest.elements(), key=sort_key)
    seat = 0
    cap = 52 * options.decks // (players - len(only)) + 1
    for card in spare:
        while seat in only or len(chosen[seat]) >= cap:
            seat = (seat + 1) % players
        chosen[seat].append(card)
        seat = (seat + 1) % players
    return IDoubtIt.from_hands(chosen, options, opener=opener, rank=rank)


_LEAVES: set[type] = {int, str, bytes, float, bool, type(None), Card, KnowCard}
#: Each dataclass's fields' values, as a tuple (its class last, a leaf).
_FIELDS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _values_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the values of these fields of an object, as a tuple."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda item: tuple(getattr(item, name) for name in names)


def cards_in(thing: object, card: type[Any] = Card) -> list[Any]:
    """Every card (of the class ``card``: I Doubt It's, or I Know You Don't's) anywhere
    inside ``thing``: dataclass fields, tuples, lists, dicts. (The leak properties search
    every frame of thousands of games: the cards of a hand are taken in one loop rather
    than one at a time through the stack.)"""
    found: list[Any] = []
    pending = [thing]
    leaves = _LEAVES
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is card:
            found.append(item)
            continue
        if kind in leaves:
            continue
        if kind is tuple or kind is list or kind is set or kind is frozenset:
            inside: Iterable[Any] = item  # type: ignore[assignment]
        elif kind is dict:
            pending.extend(item.keys())  # type: ignore[attr-defined]
            pending.extend(item.values())  # type: ignore[attr-defined]
            continue
        else:
            fields = _FIELDS.get(kind)
            if fields is None:
                if isinstance(item, enum.Enum):
                    leaves.add(kind)
                    continue
                if not dataclasses.is_dataclass(item):
                    raise TypeError(f"cards_in does not know how to look inside "
                                    f"{kind.__name__}")
                fields = _FIELDS[kind] = _values_of(
                    tuple(f.name for f in dataclasses.fields(item)))
            inside = fields(item)
        for inner in inside:
            inner_kind = type(inner)
            if inner_kind is card:
                found.append(inner)
            elif inner_kind not in leaves:
                pending.append(inner)
    return found


def hand_codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


class AlwaysDoubts:
    """Lays one card, a true one when it can, and doubts every claim."""

    name, game = "always doubts", "idoubtit"

    def act(self, view: TableView) -> list[Action]:
        kinds = [type(action) for action in view.legal]
        if Doubt in kinds:
            return [Doubt()]
        card = next((c for c in view.hand if c.rank is view.rank), view.hand[0])
        return [Lay(card), Announce()]


class LaysFour(AlwaysDoubts):
    """Lays four cards every turn (or all it holds), and doubts every claim."""

    name = "lays four"

    def act(self, view: TableView) -> list[Action]:
        if Doubt in [type(action) for action in view.legal]:
            return [Doubt()]
        return [*(Lay(card) for card in view.hand[:4]), Announce()]
