"""What a bot says at the table: now and then a short remark on a claim the whole table saw
settled (doubted; or, a bid, turned by its bidder). It reads only the claim as the table saw
it (a :class:`~doubtlan.rules.told.Told` from a spectator's events: who claimed, who doubted,
who was right), never its hand nor a card the table did not see, so a remark gives nothing
away (docs/talk.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules.told import Told

#: What a bot may say, by what the claim was to it.
REMARKS: dict[str, tuple[str, ...]] = {
    # its bluff was caught
    "caught": ("Worth a try.", "Fair enough.", "You got me.", "Hm. Next time."),
    # it was doubted, and its claim was true
    "honest": ("Honest!", "Told you so.", "Every word true.", "Sure I do."),
    # it was doubted, its claim a lie, and it was right all the same (I Know You Don't's
    # Wildcard)
    "saved": ("Saved!", "Not today.", "Close one."),
    # it doubted, and was right (or what it laid proved the claim wrong: a bid's Skull)
    "right": ("Knew it.", "Nice try.", "Caught you!", "Not this time."),
    # it doubted, and was wrong
    "wrong": ("Oops.", "I'll trust you next time.", "Fine, fine.", "Hm."),
    # someone else's claim, settled
    "watching": ("Nice one.", "Ha!", "Saw that coming.", "Ooh."),
}
#: How often a bot says something: when the claim was its own or its doubt, and otherwise.
CHANCE_INVOLVED, CHANCE_WATCHING = 0.35, 0.08


def mood(told: Told, seat: int) -> str | None:
    """What ``told`` was to ``seat`` (a key of :data:`REMARKS`); None: nothing to say (it
    stood, so the table never saw whether it was true)."""
    if told.held is None or told.right is None:
        return None
    if told.seat == seat:
        if told.right != seat:
            return "caught"
        # (right though it did not hold: against who tested it, a Wildcard; untested, its
        # own Skull turned: caught all the same)
        return "honest" if told.held else "saved" if told.by is not None else "caught"
    if seat in (told.by, told.right):
        return "right" if told.right == seat else "wrong"
    return "watching"


def remark(told: Told, bots: Sequence[int], rng: random.Random) -> tuple[int, str] | None:
    """At most one remark on ``told`` from the seats ``bots``: (seat, line), or None. Those
    in the claim speak first, and more often."""
    involved = [seat for seat in bots if seat in (told.seat, told.by, told.right)]
    others = [seat for seat in bots if seat not in involved]
    for seats, chance in ((involved, CHANCE_INVOLVED), (others, CHANCE_WATCHING)):
        for seat in seats:
            said = mood(told, seat)
            if said is not None and rng.random() < chance:
                return seat, rng.choice(REMARKS[said])
    return None
