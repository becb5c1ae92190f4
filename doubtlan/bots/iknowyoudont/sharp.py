"""``sharp`` for I Know You Don't: ``counter``'s reading of the cards and the players, set
to play its own race.

``counter`` weighs every other player's gain at 0.3 of its own: it challenges a claim to
stop the claimer scoring, and gives up a bluff that would hand the challenger a level. In a
race for places (5, 3 and 1 victory points a round), what one rival gains matters less than
what this seat gains itself, so ``sharp`` weighs it at nothing, and keeps more of each
game's record in the next (``fade`` 0.8: players change their ways slowly). Measured with
the tourney (docs/bots.md): against three ``counter`` it wins about 0.45 to 0.5 of the
matches; each change alone wins less.
"""

from __future__ import annotations

from .counter import CounterKnowBot


class SharpKnowBot(CounterKnowBot):
    """Counts cards and reads players as ``counter`` does, for its own race only."""

    name = "sharp"
    about = "counts cards, reads players, races for itself"
    others = 0.0
    fade = 0.8
