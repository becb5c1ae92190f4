"""The cards of I Know You Don't, and what a player declares: small values that print, parse
and round-trip.

The game's own deck has Truth and Bluff cards of levels 1 to 6 (codes ``"T3"``, ``"B5"``),
Interceptions (``"I"``) and Wildcards (``"W"``); copies of a card are the same object. The
standard deck's cards keep their playing-card codes (``"7H"`` is a level 7 Truth card,
``"JS"`` an Interception, ``"KD"`` a Wildcard) and are all different.
"""

from __future__ import annotations

import enum
import operator

from .. import cards as playing
from ..base import record
from ..errors import MalformedAction
from ..interned import Interned


class Kind(enum.Enum):
    """What a card is. Only Truth and Bluff cards have a level."""

    TRUTH = "T"
    BLUFF = "B"
    INTERCEPTION = "I"
    WILDCARD = "W"

    @property
    def title(self) -> str:
        return self.name.title()


#: (Read in every check of a card shown: a name is read in some 5 ns, an enum's member in 70.)
_WILDCARD = Kind.WILDCARD


class Card(Interned):
    """One card. ``Card.parse("T3")`` is a level 3 Truth card; ``str`` gives its code back."""

    __slots__ = ("kind", "level", "face", "_order")
    called = "a card of I Know You Don't"

    kind: Kind
    level: int | None
    #: The playing card it is, for the standard deck (None for the game's own deck).
    face: playing.Card | None
    _order: int

    @classmethod
    def _make(cls, kind: Kind, level: int | None, code: str,
              face: playing.Card | None = None) -> Card:
        return cls.made(code, kind=kind, level=level, face=face,
                        _order=_KIND_ORDER[kind] * 100 + (level or 0) * 4
                        + (list(playing.Suit).index(face.suit) if face else 0))

    @classmethod
    def normal(cls, text: str) -> str:
        """Read ``"T3"``, ``"b5"``, ``"I"``, ``"W"``, or a standard card such as ``"10H"``."""
        code = text.strip().upper()
        return "T" + code[2:] if code.startswith("10") else code

    @classmethod
    def refusal(cls, text: object) -> str:
        return f"not {cls.called}: {text!r}" if isinstance(text, str) else f"not a card: {text!r}"

    def matches(self, declaration: Declaration) -> bool:
        """Whether this card, shown, bears the declaration out (rule 6)."""
        if self.kind is _WILDCARD:
            return True
        return self.level == declaration.level and self.kind is declaration.kind

    def describe(self) -> str:
        """``"a level 2 Bluff"``, ``"an Interception"``, ``"a Wildcard"``."""
        if self.level is None:
            return f"an {self.kind.title}" if self.kind is Kind.INTERCEPTION else "a Wildcard"
        return f"a level {self.level} {self.kind.title}"

    def label(self, ascii: bool = False) -> str:
        """How a player reads it: ``"T3"``; a standard card adds its face: ``"T7 7♥"``."""
        short = f"{self.kind.value}{self.level or ''}"
        return short if self.face is None else f"{short} {self.face.label(ascii)}"


_KIND_ORDER = {Kind.TRUTH: 0, Kind.BLUFF: 1, Kind.INTERCEPTION: 2, Kind.WILDCARD: 3}

#: Sorts cards as a hand shows them: ``sorted(cards, key=sort_key)``. (A card defines no
#: comparison of its own, so that ``card in hand`` compares identities in C; see
#: :class:`doubtlan.rules.cards.Card`.)
sort_key = operator.attrgetter("_order")


@record
class Declaration:
    """What the active player says their card is: ``Declaration.parse("3T")`` is "level 3
    Truth", ``"5B"`` "level 5 Bluff"."""

    level: int
    kind: Kind

    @classmethod
    def parse(cls, text: str) -> Declaration:
        if not isinstance(text, str):
            raise MalformedAction(f"not a declaration: {text!r}")
        found = _DECLARATIONS.get(text.strip().upper())
        if found is None:
            raise MalformedAction(
                f"not a declaration: {text!r} (expected a level and T or B, such as '3T')")
        return found

    @property
    def code(self) -> str:
        """Its text, which :meth:`parse` reads back (``str`` and ``repr`` say it too)."""
        return f"{self.level}{self.kind.value}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Declaration.parse({self.code!r})"

    def describe(self) -> str:
        return f"level {self.level} {self.kind.title}"


#: The highest level any deck has.
MAX_LEVEL = 10
_DECLARATIONS = {
    f"{level}{kind.value}": Declaration(level, kind)
    for level in range(1, MAX_LEVEL + 1) for kind in (Kind.TRUTH, Kind.BLUFF)
}

for _kind in (Kind.TRUTH, Kind.BLUFF):
    for _level in range(1, 7):
        Card._make(_kind, _level, f"{_kind.value}{_level}")
Card._make(Kind.INTERCEPTION, None, "I")
Card._make(Kind.WILDCARD, None, "W")
_made: tuple[Kind, int | None]
for _face in playing.DECK:
    _rank = _face.rank
    if _rank <= 10:
        _made = (Kind.TRUTH if _face.suit.red else Kind.BLUFF, int(_rank))
    elif _rank is playing.Rank.KING:
        _made = (Kind.WILDCARD, None)
    else:
        _made = (Kind.INTERCEPTION, None)
    Card._make(_made[0], _made[1], _face.code, _face)


def true_declaration(card: Card, wild_level: int = 1) -> Declaration:
    """What ``card`` truly is: a Truth or Bluff card its level and kind. A Wildcard bears
    out any declaration: it is declared at ``wild_level`` (a player's best is the deck's
    highest level). An Interception bears out none: it is called level 1 Truth.

    >>> true_declaration(Card.parse("B3")).describe()
    'level 3 Bluff'
    >>> true_declaration(Card.parse("W"), 6).describe()
    'level 6 Truth'
    """
    if card.level is None:
        return Declaration(wild_level if card.kind is Kind.WILDCARD else 1, Kind.TRUTH)
    return Declaration(card.level, card.kind)


def own_deck() -> list[Card]:
    """The game's own 54 cards, in a fixed order."""
    cards = [Card.parse(f"{kind.value}{level}") for kind in (Kind.TRUTH, Kind.BLUFF)
             for level in range(1, 7) for _ in range(3)]
    return cards + [Card.parse("I")] * 12 + [Card.parse("W")] * 6


def standard_deck() -> list[Card]:
    """The 52 cards of a standard deck, as this game reads them, in a fixed order."""
    return [Card.parse(face.code) for face in playing.DECK]
