"""What a seat can do in I Doubt It, and the claim a turn ends with."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter as _itemgetter

from ..base import Action, record, word
from ..cards import DECK, Card, Rank
from ..errors import MalformedAction
from ..kinds import OneValue

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


@record
class Claim:
    """"N cards of rank R". Its code, ``"3x7"``, round-trips: ``Claim.parse("3x7")``."""

    count: int
    rank: Rank

    @property
    def code(self) -> str:
        return f"{self.count}x{self.rank.symbol}"

    @classmethod
    def parse(cls, text: str) -> Claim:
        count, sep, rank = text.strip().partition("x")
        if not sep or not (count.isascii() and count.isdigit()) or int(count) < 1:
            raise MalformedAction(f"not a claim: {text!r} (expected a form such as '3x7')")
        return cls(int(count), Rank.parse(rank))

    def describe(self) -> str:
        """How a player says it: ``"one ace"``, ``"three 7s"``."""
        number = _NUMBERS[self.count] if self.count < len(_NUMBERS) else str(self.count)
        rank = self.rank.singular() if self.count == 1 else self.rank.plural()
        return f"{number} {rank}"

    def __repr__(self) -> str:
        return f"Claim.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code


@record
class Lay(OneValue):
    """Lay one card face down on your turn. A laid card is committed."""

    kind = "lay"
    of, called, example = Card, "card", "QS"
    card: Card

    def __repr__(self) -> str:
        return f"Lay(Card.parse({self.card.code!r}))"


Announce = word("Announce", "announce",
                "End your turn: claim that every card you laid is of the required rank.")
Doubt = word("Doubt", "doubt", "Say the claim is a lie (in the open mode: call it).", call=True)
LetStand = word("LetStand", "stand", "Let the claim stand (in a challenge window).")


ACTIONS: dict[str, type[Action]] = {a.kind: a for a in (Lay, Announce, Doubt, LetStand)}

#: One action of each kind that has no arguments, and one :class:`Lay` for each card
#: (:func:`lay`): the game's legal lists hold these, so an in-process player that answers
#: with them is recognised at once (``action in view.legal`` finds it by identity).
ANNOUNCE, DOUBT, LET_STAND = Announce(), Doubt(), LetStand()

#: ``lay(card)``: the :class:`Lay` of ``card``, one object for each card, made once (a
#: dictionary's lookup: bots call it for every card they lay). A KeyError for a non-card.
_LAYS = {card: Lay(card) for card in DECK}
lay: Callable[[Card], Lay] = _LAYS.__getitem__


def lays(cards: Sequence[Card]) -> tuple[Lay, ...]:
    """``tuple(map(lay, cards))``, made in half the time (the cards are looked up in C)."""
    return _itemgetter(*cards)(_LAYS) if len(cards) > 1 else tuple(map(lay, cards))
