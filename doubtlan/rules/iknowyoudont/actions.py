"""What a seat can do in I Know You Don't."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..base import Action, record
from ..errors import MalformedAction
from .cards import Card, Declaration


@record
class Play(Action):
    """The active player lays ``card`` face down and declares ``declaration``:
    ``Play.parse`` reads ``"play B2 4T"`` (a level 2 Bluff card, said to be level 4 Truth)."""

    kind = "play"
    card: Card
    declaration: Declaration

    def args(self) -> tuple[str, ...]:
        return (self.card.code, self.declaration.code)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Play:
        if len(args) != 2:
            raise MalformedAction("'play' takes a card and a declaration, such as 'play B2 4T'")
        return cls(Card.parse(args[0]), Declaration.parse(args[1]))

    def __repr__(self) -> str:
        return f"Play({self.card!r}, {self.declaration!r})"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """With priority: let priority move on."""

    kind = "pass"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """With priority: the claim stands at once."""

    kind = "accept"


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """With priority: challenge the claim; the card is shown."""

    kind = "challenge"


@dataclass(frozen=True, slots=True)
class Intercept(Action):
    """Without priority: discard an Interception card and challenge, ahead of the player
    with priority."""

    kind = "intercept"
    call = True


@dataclass(frozen=True, slots=True)
class Wild(Action):
    """The active player, challenged through an Interception with a card that does not
    match: discard a Wildcard so that the claim counts as matching."""

    kind = "wild"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """The active player keeps their Wildcard and loses the showdown."""

    kind = "keep"


ACTIONS: dict[str, type[Action]] = {
    a.kind: a for a in (Play, Pass, Accept, Challenge, Intercept, Wild, Keep)
}
