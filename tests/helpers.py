"""Shared helpers for the tests: deals chosen by hand, and finding cards inside anything."""

from __future__ import annotations

import dataclasses
import enum
from collections import Counter
from collections.abc import Iterator, Sequence

from doubtlan.rules import Card, IDoubtIt, Options, Rank, deck, parse_cards


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
    spare = sorted(rest.elements())
    seat = 0
    cap = 52 * options.decks // (players - len(only)) + 1
    for card in spare:
        while seat in only or len(chosen[seat]) >= cap:
            seat = (seat + 1) % players
        chosen[seat].append(card)
        seat = (seat + 1) % players
    return IDoubtIt.from_hands(chosen, options, opener=opener, rank=rank)


_LEAVES = (int, str, bytes, float, type(None), enum.Enum)
_NAMES: dict[type, tuple[str, ...]] = {}


def cards_in(thing: object) -> Iterator[Card]:
    """Every card anywhere inside ``thing``: dataclass fields, tuples, lists, dicts."""
    if isinstance(thing, Card):
        yield thing
    elif isinstance(thing, _LEAVES):
        return
    elif isinstance(thing, (tuple, list, set, frozenset)):
        for item in thing:
            yield from cards_in(item)
    elif isinstance(thing, dict):
        for key, value in thing.items():
            yield from cards_in(key)
            yield from cards_in(value)
    elif dataclasses.is_dataclass(thing) and not isinstance(thing, type):
        names = _NAMES.get(type(thing))
        if names is None:
            names = _NAMES[type(thing)] = tuple(f.name for f in dataclasses.fields(thing))
        for name in names:
            yield from cards_in(getattr(thing, name))
    else:
        raise TypeError(f"cards_in does not know how to look inside {type(thing).__name__}")


def hand_codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]
