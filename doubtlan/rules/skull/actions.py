"""What a seat can do in Skull: lay a disc on its stack, bid, pass, or turn a stack's top
disc over.

>>> Place(FLOWER).text, Bid.from_args(["3"]), Turn(2).text
('place F', Bid(count=3), 'turn 3')
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Action, record, word
from ..errors import MalformedAction
from ..kinds import OneValue
from .cards import FLOWER, SKULL, Disc


@record
class Place(OneValue):
    """Lay a disc from the hand face down on top of this seat's stack: ``"place F"``."""

    kind = "place"
    of, called, example = Disc, "disc", "F"
    disc: Disc


def _number(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 2:
        raise MalformedAction(f"'{what}' takes a number, such as '{what} 2', not {text!r}")
    return int(text)


@record
class Bid(Action):
    """Say how many discs this seat will turn over, all Flowers: ``"bid 3"``."""

    kind = "bid"
    count: int

    def args(self) -> tuple[str, ...]:
        return (str(self.count),)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Bid:
        if len(args) != 1:
            raise MalformedAction("'bid' takes one number, such as 'bid 2'")
        return cls(_number(args[0], "bid"))

    def malformed(self) -> str | None:
        return None if type(self.count) is int else f"not a bid: {self!r}"


@record
class Turn(Action):
    """Turn over the top disc face down of ``seat``'s stack (a seat number from 0; its text
    counts from 1, as players do): ``"turn 2"``."""

    kind = "turn"
    seat: int

    def args(self) -> tuple[str, ...]:
        return (str(self.seat + 1),)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Turn:
        if len(args) != 1:
            raise MalformedAction("'turn' takes one seat, such as 'turn 2'")
        number = _number(args[0], "turn")
        if number < 1:
            raise MalformedAction("seats count from 1")
        return cls(number - 1)

    def malformed(self) -> str | None:
        return None if type(self.seat) is int else f"not a seat: {self!r}"


Pass = word("Pass", "pass", "Drop out of the bidding for this round.")

#: Every action of Skull, by its name.
ACTIONS: dict[str, type[Action]] = {Place.kind: Place, Bid.kind: Bid, Pass.kind: Pass,
                                    Turn.kind: Turn}
#: The pass, and each disc laid, as the game's legal lists hold them.
PASS = Pass()
PLACE = {FLOWER: Place(FLOWER), SKULL: Place(SKULL)}
