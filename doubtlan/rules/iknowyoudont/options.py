"""The rule options of I Know You Don't: which deck it is played with."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from ..base import OptionField
from ..errors import BadOptions, option_pairs
from .cards import Card, own_deck, standard_deck


class Deck(enum.Enum):
    #: The game's own 54 cards: levels 1 to 6.
    OWN = "own"
    #: A standard 52-card deck: levels 1 to 10 (docs/rules-iknowyoudont.md, rule 1).
    STANDARD = "standard"


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options. ``Options.parse("deck=standard")`` round-trips with ``text``."""

    deck: Deck = Deck.OWN

    fields: ClassVar[tuple[OptionField, ...]] = (
        OptionField("deck", "Deck", "its own 54 cards, or a standard 52-card deck",
                    (("own", "own: levels 1 to 6"), ("standard", "standard: 1 to 10"))),
    )

    def __post_init__(self) -> None:
        if not isinstance(self.deck, Deck):
            raise BadOptions(f"deck must be a Deck, not {self.deck!r}")

    @property
    def max_level(self) -> int:
        """The highest level a card has, and a declaration may name."""
        return 6 if self.deck is Deck.OWN else 10

    @property
    def min_players(self) -> int:
        return 3

    @property
    def max_players(self) -> int:
        return 6

    def cards(self) -> list[Card]:
        """The deck, unshuffled."""
        return own_deck() if self.deck is Deck.OWN else standard_deck()

    def check_players(self, players: int) -> None:
        """Raise :class:`BadOptions` unless ``players`` may sit at a table with these rules."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise BadOptions(f"I Know You Don't needs {self.min_players} to "
                             f"{self.max_players} players, not {players!r}")

    @property
    def text(self) -> str:
        return f"deck={self.deck.value}"

    @classmethod
    def parse(cls, text: str) -> Options:
        """Read ``"deck=standard"``; options left out keep their defaults."""
        values: dict[str, object] = {}
        for key, value in option_pairs(text):
            if key != "deck":
                raise BadOptions(f"unknown rule option {key!r}")
            try:
                values["deck"] = Deck(value)
            except ValueError:
                decks = ", ".join(d.value for d in Deck)
                raise BadOptions(f"deck must be one of {decks}, not {value!r}") from None
        return cls(**values)  # type: ignore[arg-type]

    def describe(self) -> str:
        # The lobby names this game: it is not the one a table plays unless told.
        return "I Know You Don't · " + (
            "standard deck" if self.deck is Deck.STANDARD else "its own deck")

    def brief(self) -> str:
        return "standard" if self.deck is Deck.STANDARD else "own deck"

    def clock(self, window: float) -> str:
        return f"{window:g} s with priority"

    def __str__(self) -> str:
        return self.text
