"""The rule options of I Know You Don't: which deck it is played with."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from ..base import OptionField
from ..errors import BadOptions, option_choice, option_number, option_pairs
from .cards import Card, own_deck, standard_deck

#: The most rounds a match may have.
MAX_ROUNDS = 9


class Deck(enum.Enum):
    #: The game's own 54 cards: levels 1 to 6.
    OWN = "own"
    #: A standard 52-card deck: levels 1 to 10 (docs/rules-iknowyoudont.md, rule 1).
    STANDARD = "standard"


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options. ``Options.parse("deck=standard")`` round-trips with ``text``."""

    deck: Deck = Deck.OWN
    #: Rounds in a match, before the rounds a tie plays on (rules 8 and 10).
    rounds: int = 5

    fields: ClassVar[tuple[OptionField, ...]] = (
        OptionField("deck", "Deck", "its own 54 cards, or a standard 52-card deck",
                    (("own", "own: levels 1 to 6"), ("standard", "standard: 1 to 10"))),
        OptionField("rounds", "Rounds",
                    "rounds in a match (a tie after them plays up to 3 more)",
                    tuple((str(n), f"{n} round{'s' if n > 1 else ''}")  # the default first
                          for n in (5, *(n for n in range(1, MAX_ROUNDS + 1) if n != 5)))),
    )

    def __post_init__(self) -> None:
        if not isinstance(self.deck, Deck):
            raise BadOptions(f"deck must be a Deck, not {self.deck!r}")
        if type(self.rounds) is not int or not 1 <= self.rounds <= MAX_ROUNDS:
            raise BadOptions(f"rounds must be 1 to {MAX_ROUNDS}, not {self.rounds!r}")

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
        return f"deck={self.deck.value},rounds={self.rounds}"

    @classmethod
    def parse(cls, text: str) -> Options:
        """Read ``"deck=standard,rounds=3"``; options left out keep their defaults."""
        values: dict[str, object] = {}
        for key, value in option_pairs(text):
            if key == "deck":
                values["deck"] = option_choice(key, value, Deck)
            elif key == "rounds":
                values["rounds"] = option_number(key, value, f"1 to {MAX_ROUNDS}")
            else:
                raise BadOptions(f"unknown rule option {key!r}")
        return cls(**values)  # type: ignore[arg-type]

    def describe(self) -> str:
        # The lobby names this game: it is not the one a table plays unless told.
        deck = "standard deck" if self.deck is Deck.STANDARD else "its own deck"
        return f"I Know You Don't · {deck} · {self._rounds()}"

    def brief(self) -> str:
        deck = "standard" if self.deck is Deck.STANDARD else "own deck"
        return f"{deck}, {self._rounds()}"

    def _rounds(self) -> str:
        return f"{self.rounds} round{'s' if self.rounds > 1 else ''}"

    def clock(self, window: float) -> str:
        return f"{window:g} s with priority"

    def __str__(self) -> str:
        return self.text
