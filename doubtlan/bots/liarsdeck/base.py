"""What a bot for Liar's Deck is: a strategy that sees one seat's view and nothing else, and
what every one of them reads in it."""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from math import comb
from typing import ClassVar

from ...rules import Action
from ...rules.liarsdeck import HAND, LIAR, Believed, Called, Card, Put, TableView, deck
from ...rules.seeds import Seed
from ..base import SeededBot


class LiarBot(SeededBot, abc.ABC):
    """A strategy for one seat of Liar's Deck. On its turn it answers with one action: cards
    put down (:meth:`put`) or the call; :meth:`calls` says whether it calls the cards waiting
    (never asked when nothing waits, always answered for it when the call is the one move
    left)."""

    game: ClassVar[str] = "liarsdeck"

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        #: The cards it put down this round (known to it alone), the round they were in, and
        #: how many of this game's settled claims it has read.
        self.mine: list[Card] = []
        self._round = (-1, -1)
        self._read = 0

    def calls_since(self, view: TableView) -> Iterator[tuple[int, Called]]:
        """Forget the cards it put down in an earlier round; the calls settled since it
        last looked (a new game's from its first claim), each with its place among the
        claims."""
        now = (view.opener, view.round)
        if now != self._round:
            self._round, self.mine = now, []
        claims = view.record
        start = self._read if self._read <= len(claims) else 0  # (another game: anew)
        self._read = len(claims)
        return ((number, claim) for number, claim in enumerate(claims[start:], start)
                if isinstance(claim, Called))

    def act(self, view: TableView) -> Sequence[Action]:
        legal = view.legal
        if not legal:
            return ()
        if legal == (LIAR,) or (view.claimer is not None and self.calls(view)):
            return (LIAR,)
        return (Put.of(self.put(view)),)

    @abc.abstractmethod
    def calls(self, view: TableView) -> bool:
        """Whether to call the ``view.count`` cards ``view.claimer`` put down a lie."""

    @abc.abstractmethod
    def put(self, view: TableView) -> list[Card]:
        """The 1 to 3 cards of its hand to put down."""


def truthful(hand: Sequence[Card], view: TableView) -> list[Card]:
    """The cards of ``hand`` that are true at this table (of its rank, or Jokers)."""
    return [card for card in hand if card.matches(view.rank)]


def this_round(view: TableView) -> list[Believed]:
    """The claims settled this round (every one stood: a call ends a round)."""
    claims = view.record
    start = len(claims)
    while start and not isinstance(claims[start - 1], Called):
        start -= 1
    return [claim for claim in claims[start:] if isinstance(claim, Believed)]


def held(view: TableView, known: Sequence[Card], need: int) -> float:
    """The chance that a hand dealt this round from the cards this seat cannot place held
    ``need`` true cards at least (a card of the rank or a Joker). ``known``: the cards this
    seat knows of: its hand, and what it put down this round."""
    if need > HAND:
        return 0.0
    cards = deck(view.options.decks)
    unseen = len(cards) - len(known)
    true = sum(card.matches(view.rank) for card in cards) - len(truthful(known, view))
    if need <= 0:
        return 1.0
    tail = sum(comb(true, k) * comb(unseen - true, HAND - k)
               for k in range(need, min(true, HAND) + 1))
    return tail / comb(unseen, HAND)
