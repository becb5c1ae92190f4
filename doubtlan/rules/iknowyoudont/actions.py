"""What a seat can do in I Know You Don't."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import Action, record, word
from ..errors import MalformedAction
from .cards import Card, Declaration


@record
class Play(Action):
    """The active player lays ``card`` face down and declares ``declaration``:
    ``Play.parse`` reads ``"play B2 4T"`` (a level 2 Bluff card, said to be level 4 Truth)."""

    kind = "play"
    card: Card
    declaration: Declaration

    def malformed(self) -> str | None:
        if type(self.card) is Card and type(self.declaration) is Declaration:
            return None
        return f"not a play: {self!r}"

    def args(self) -> tuple[str, ...]:
        return (self.card.code, self.declaration.code)

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Play:
        if len(args) != 2:
            raise MalformedAction("'play' takes a card and a declaration, such as 'play B2 4T'")
        return cls(Card.parse(args[0]), Declaration.parse(args[1]))

    def __repr__(self) -> str:
        return f"Play({self.card!r}, {self.declaration!r})"


Pass = word("Pass", "pass", "With priority: let priority move on.")
Accept = word("Accept", "accept", "With priority: the claim stands at once.")
Challenge = word("Challenge", "challenge", "With priority: challenge the claim; the card is shown.")
Intercept = word("Intercept", "intercept", "Without priority: discard an Interception card and "
                 "challenge, ahead of the player with priority.", call=True)
Wild = word("Wild", "wild", "The active player, challenged through an Interception with a card "
            "that does not match: discard a Wildcard so that the claim counts as matching.")
Keep = word("Keep", "keep", "The active player keeps their Wildcard and loses the showdown.")


ACTIONS: dict[str, type[Action]] = {
    a.kind: a for a in (Play, Pass, Accept, Challenge, Intercept, Wild, Keep)
}
