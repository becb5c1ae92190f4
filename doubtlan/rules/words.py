"""What a game calls its things (:class:`Words`), for the screens and commands every game
shares: the results, the story, ``replay`` and ``stats``. Each game says its own in its
folder (``Game.words``); a shared screen writes none of them itself (tests/test_words.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Words:
    """A game's words: I Doubt It's are the defaults."""

    #: One game, dealt and played to its end: a "game" of I Doubt It, a "match" of I Know
    #: You Don't's rounds; and more than one.
    game: str = "game"
    games: str = "games"
    #: Saying that a claim is a lie, as a verb ("Ben doubted"), a noun and its plural
    #: ("doubts: right  wrong"), and who did it.
    challenge: str = "doubt"
    challenged: str = "doubted"
    challenges: str = "doubts"
    challenger: str = "doubter"
    #: A claim that was a lie, one and more than one ("1 bluff", "3 bluffs").
    bluff: str = "bluff"
    bluffs: str = "bluffs"
    #: What a player says, one and more than one, and saying it ("Amy claimed two 7s").
    claim: str = "claim"
    claims: str = "claims"
    claimed: str = "claimed"
    #: What is said of it once shown: it held, or it did not; and of several that did not
    #: ("3 of them lies").
    held: tuple[str, str] = ("true", "a lie")
    unheld: str = "lies"
    #: What the story marks in the hand of the player who said it: what was shown for it,
    #: laid from that hand ("the cards laid"); empty where what is shown was never in that
    #: hand (Skull's discs, turned on the stacks), and the story marks nothing.
    laid: str = "the cards laid"

    def count(self, number: int, one: str, many: str) -> str:
        """``number`` and the word for that many: "1 bluff", "2 bluffs"."""
        return f"{number} {one if number == 1 else many}"

    def figures(self, figure: Callable[[str], float], *, whole: bool = True) -> str:
        """A player's figures (``figure(name)``: "claims", "bluffs", "caught",
        "doubts_right", "doubts_wrong", as a story counts them) in a sentence: "12 claims,
        1 bluff (0 caught), doubts 2 right, 1 wrong." ``whole``: counts; otherwise
        averages, to a tenth ("1.0 bluffs")."""
        def said(name: str, one: str = "", many: str = "") -> str:
            value = figure(name)
            number = f"{int(value)}" if whole else f"{value:.1f}"
            return f"{number} {one if whole and value == 1 else many}".rstrip()

        made = f"{said('claims', self.claim, self.claims)}, " \
            f"{said('bluffs', self.bluff, self.bluffs)}"
        if not self.challenge:  # (nobody tests what is said but its own player)
            return f"{made}."
        return (f"{made} ({said('caught')} caught), {self.challenges} "
                f"{said('doubts_right')} right, {said('doubts_wrong')} wrong.")
