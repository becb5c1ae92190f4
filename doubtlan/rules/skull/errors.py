"""The refusals only Skull's rules make (the others are every game's:
:mod:`doubtlan.rules.errors`)."""

from __future__ import annotations

from ..errors import IllegalAction


class BadBid(IllegalAction):
    """A bid not above the last one, or above the discs on the table."""

    code = "bad_bid"
    default_message = "bid more than the last bid, and no more than the discs on the table"


class NoSuchStack(IllegalAction):
    """A stack turned that is the bidder's own (turned already), or has no disc face down."""

    code = "no_such_stack"
    default_message = "turn the top disc of another player's stack that has one face down"


class NotNow(IllegalAction):
    """A move of another phase: a bid while every player lays their first disc, a disc laid
    or a pass once the bidding is over, a stack turned before it ends."""

    code = "not_now"
    default_message = "that is not a move now"
