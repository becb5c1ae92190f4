"""Skull's discs: each player holds three Flowers and one Skull, the same four for every
player. Each kind of disc is one object, so discs compare by identity, and a disc prints
and parses as its code.

>>> Disc.parse("f"), str(SKULL), FLOWER.title
(Disc.parse('F'), 'S', 'Flower')
"""

from __future__ import annotations

from ..interned import Interned


class Disc(Interned):
    """One disc: a Flower (``"F"``) or the Skull (``"S"``)."""

    __slots__ = ("title",)
    called = "a disc of Skull"

    #: Its name for people: ``"Flower"``, ``"Skull"``.
    title: str

    @classmethod
    def refusal(cls, text: object) -> str:
        return f"not {cls.called}: {text!r} (F, a Flower, or S, the Skull)"


FLOWER = Disc.made("F", title="Flower")
SKULL = Disc.made("S", title="Skull")
#: What each player starts the game with: three Flowers and the Skull, in a hand's order.
DISCS = (FLOWER, FLOWER, FLOWER, SKULL)


def in_order(discs: list[Disc] | tuple[Disc, ...]) -> tuple[Disc, ...]:
    """``discs`` as a hand shows them: Flowers first."""
    return tuple(sorted(discs, key=lambda disc: disc is SKULL))
