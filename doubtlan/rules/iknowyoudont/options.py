"""The rule options of I Know You Don't: which deck it is played with."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from ..options import Choice, FieldOptions, OptionField
from .cards import Card, own_deck, standard_deck

#: The most rounds a match may have.
MAX_ROUNDS = 9


class Deck(enum.Enum):
    #: The game's own 54 cards: levels 1 to 6.
    OWN = "own"
    #: A standard 52-card deck: levels 1 to 10 (docs/rules-iknowyoudont.md, rule 1).
    STANDARD = "standard"


def _rounds(rounds: int) -> Choice:
    said = f"{rounds} round{'s' if rounds > 1 else ''}"
    return Choice(str(rounds), said, said=said, brief=said)


@dataclass(frozen=True, slots=True)
class Options(FieldOptions):
    """Rule options. ``Options.parse("deck=standard")`` round-trips with ``text``."""

    deck: Deck = Deck.OWN
    #: Rounds in a match, before the rounds a tie plays on (rules 8 and 10).
    rounds: int = 5

    fields: ClassVar[tuple[OptionField, ...]] = (
        OptionField("deck", "Deck", "its own 54 cards, or a standard 52-card deck", (
            Choice("own", "own: levels 1 to 6", said="its own deck", brief="own deck"),
            Choice("standard", "standard: 1 to 10", said="standard deck", brief="standard"))),
        OptionField("rounds", "Rounds", "rounds in a match (a tie after them plays up to 3 more)",
                    tuple(map(_rounds, (5, *(n for n in range(1, MAX_ROUNDS + 1) if n != 5))))),
    )
    # (The lobby names this game: it is not the one a table plays unless told.)
    title = "I Know You Don't"
    seats = (3, 6, "I Know You Don't needs")
    clock_words = "{window:g} s with priority"

    @property
    def max_level(self) -> int:
        """The highest level a card has, and a declaration may name."""
        return 6 if self.deck is Deck.OWN else 10

    def cards(self) -> list[Card]:
        """The deck, unshuffled."""
        return own_deck() if self.deck is Deck.OWN else standard_deck()
