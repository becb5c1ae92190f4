"""The rule options of I Doubt It: how many decks, and how claims are challenged."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from ..base import OptionField
from ..errors import BadOptions, option_choice, option_number, option_pairs


class ChallengeMode(enum.Enum):
    """How a claim is challenged (docs/rules.md, "Variants")."""

    #: Every other player answers once; the first doubter clockwise from the claimer counts.
    WINDOW = "window"
    #: The "Cheat" form: anyone may call until the next player lays their first card.
    OPEN = "open"


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options. ``Options.parse("decks=2,challenge=open")`` round-trips with ``text``."""

    decks: int = 1
    challenge: ChallengeMode = ChallengeMode.WINDOW

    fields: ClassVar[tuple[OptionField, ...]] = (
        OptionField("decks", "Decks", "decks in play",
                    (("1", "one deck: 3 to 8"), ("2", "two decks: 3 to 10"))),
        OptionField("challenge", "Challenges", "how claims are challenged (docs/rules.md)",
                    (("window", "a window per claim"), ("open", "open calls (Cheat)"))),
    )

    def __post_init__(self) -> None:
        if type(self.decks) is not int or self.decks not in (1, 2):
            raise BadOptions(f"decks must be 1 or 2, not {self.decks!r}")
        if not isinstance(self.challenge, ChallengeMode):
            raise BadOptions(f"challenge must be a ChallengeMode, not {self.challenge!r}")

    @property
    def max_claim(self) -> int:
        """The most cards one claim may hold: 4 with one deck, 8 with two."""
        return 4 * self.decks

    @property
    def min_players(self) -> int:
        return 3

    @property
    def max_players(self) -> int:
        return 8 if self.decks == 1 else 10

    def check_players(self, players: int) -> None:
        """Raise :class:`BadOptions` unless ``players`` may sit at a table with these rules."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise BadOptions(
                f"{'one deck needs' if self.decks == 1 else f'{self.decks} decks need'} "
                f"{self.min_players} to {self.max_players} players, not {players!r}"
            )

    @property
    def text(self) -> str:
        return f"decks={self.decks},challenge={self.challenge.value}"

    @classmethod
    def parse(cls, text: str) -> Options:
        """Read ``"decks=2,challenge=open"``; options left out keep their defaults."""
        values: dict[str, object] = {}
        for key, value in option_pairs(text):
            if key == "decks":
                values["decks"] = option_number(key, value, "1 or 2")
            elif key == "challenge":
                values["challenge"] = option_choice(key, value, ChallengeMode)
            else:
                raise BadOptions(f"unknown rule option {key!r}")
        return cls(**values)  # type: ignore[arg-type]

    def describe(self) -> str:
        return "two decks" if self.decks == 2 else "one deck"

    def brief(self) -> str:
        return f"{self.decks} deck{'s' if self.decks > 1 else ''}" + (
            ", open" if self.challenge is ChallengeMode.OPEN else "")

    def clock(self, window: float) -> str:
        return "open calls" if self.challenge is ChallengeMode.OPEN else f"{window:g} s to doubt"

    def __str__(self) -> str:
        return self.text
