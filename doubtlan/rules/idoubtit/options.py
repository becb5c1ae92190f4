"""The rule options of I Doubt It: how many decks, and how claims are challenged."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from ..options import Choice, FieldOptions, OptionField, decks_option


class ChallengeMode(enum.Enum):
    """How a claim is challenged (docs/rules.md, "Variants")."""

    #: Every other player answers once; the first doubter clockwise from the claimer counts.
    WINDOW = "window"
    #: The "Cheat" form: anyone may call until the next player lays their first card.
    OPEN = "open"


@dataclass(frozen=True, slots=True)
class Options(FieldOptions):
    """Rule options. ``Options.parse("decks=2,challenge=open")`` round-trips with ``text``."""

    decks: int = 1
    challenge: ChallengeMode = ChallengeMode.WINDOW

    fields: ClassVar[tuple[OptionField, ...]] = (
        decks_option("decks in play", (3, 8), (3, 10), two_need="2 decks need"),
        OptionField("challenge", "Challenges", "how claims are challenged (docs/rules.md)", (
            Choice("window", "a window per claim"),
            Choice("open", "open calls (Cheat)", brief="open", clock="open calls"))),
    )
    clock_words = "{window:g} s to doubt"

    @property
    def max_claim(self) -> int:
        """The most cards one claim may hold: 4 with one deck, 8 with two."""
        return 4 * self.decks
