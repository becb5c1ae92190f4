"""I Doubt It's answers to the contract tests' questions (tests/games.py)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games import GameSpec, Lie, Sight, replace_claim
from hypothesis import strategies as st

from doubtlan.rules import Event, IDoubtIt, View
from doubtlan.rules import cards as playing
from doubtlan.rules import idoubtit as doubt
from doubtlan.rules.fairness import Seen


class _DoubtSight(Sight):
    """A seat sees the hand it was dealt, every pile it took, and every card a doubt showed."""

    def __init__(self) -> None:
        super().__init__()
        self._pile: list[playing.Card] = []
        self._laid: list[playing.Card] = []

    def see(self, event: Event) -> None:
        if isinstance(event, doubt.Dealt):
            self.known = {None: set()}
            self._pile, self._laid = [], []
            for seat, hand in enumerate(event.hands):
                self.known[seat] = set(hand or ())
        elif isinstance(event, doubt.Laid):
            assert event.card is not None
            self._laid.append(event.card)
        elif isinstance(event, doubt.Resolved):
            if event.shown is None:
                self._pile += self._laid
            else:
                self.show_everyone(event.shown)
                assert event.taker is not None
                self.known[event.taker].update(self._pile)
                self._pile = []
            self._laid = []


class IDoubtItSpec(GameSpec):
    name = IDoubtIt.name
    rules = IDoubtIt
    card = playing.Card
    strategies = ("random", "honest", "counter")
    let_stand = "stand"
    illegal_opening = "announce"
    forged_turn = ("lay", "announce")
    changed_answer = ("stand", "doubt")
    #: (100 tables of about 300 ms each through the wire, on this 2-core machine: CI must
    #: stay under 8 minutes; each run draws new ones)
    leak_examples = 70
    tampered_games = 600

    def windows(self, players: int) -> int:
        return 1

    def claim(self, card: Any) -> tuple[str, ...]:
        return (f"lay {card.code}", "announce")

    def stood(self, claim: Event) -> bool:
        assert isinstance(claim, doubt.Resolved)
        return claim.doubter is None

    def claimer(self, view: View) -> int | None:
        assert isinstance(view, doubt.TableView)
        return view.claimer

    def shows_another_seat(self, event: Event, seat: int | None) -> bool:
        return isinstance(event, doubt.Answered) and event.seat != seat \
            and event.doubt is not None

    def sight(self) -> Sight:
        return _DoubtSight()

    def labelled(self, label: str) -> set[Any]:
        return {card for card in playing.DECK if card.label() == label}

    def odd_action(self, rng: random.Random) -> tuple[str, Any]:
        card = rng.choice(playing.DECK)
        text = rng.choice(["doubt", "stand", "announce", f"lay {card.code}"])
        return text, card

    def leak_table(self, draw: st.DrawFn) -> tuple[int, Any]:
        decks = draw(st.sampled_from([1, 1, 2]))
        players = draw(st.integers(3, 5 if decks == 1 else 6))
        return players, doubt.Options(decks=decks,
                                      challenge=draw(st.sampled_from(list(doubt.ChallengeMode))))

    def fair_table(self, rng: random.Random) -> tuple[int, Any]:
        return rng.randint(3, 5), doubt.Options()

    def lies(self) -> tuple[Lie, ...]:
        return (self.shown_card_changed,)

    def shown_card_changed(self, seen: Seen, rng: random.Random) -> Seen | None:
        """The host showed a card in a doubt that was not the one laid."""
        doubted = [i for i, claim in enumerate(seen.record)
                   if isinstance(claim, doubt.Resolved) and claim.shown]
        if not doubted:
            return None
        index = rng.choice(doubted)
        claim = seen.record[index]
        assert isinstance(claim, doubt.Resolved) and claim.shown is not None
        shown = list(claim.shown)
        at = rng.randrange(len(shown))
        shown[at] = rng.choice([card for card in playing.DECK if card != shown[at]])
        return replace_claim(seen, index, dataclasses.replace(claim, shown=tuple(shown)))

    def narrations(self) -> tuple[tuple[Event, str], ...]:
        ace, two = doubt.Claim(1, playing.Rank.ACE), doubt.Claim(2, playing.Rank.TWO)
        return (
            (doubt.Resolved(0, ace, None, None, None, None, 0, playing.Rank.TWO),
             "Amy claimed one ace"),
            (doubt.Resolved(1, two, tuple(playing.parse_cards("2S 9H")), 2, False, 1, 5,
                            playing.Rank.THREE),
             "Ben claimed two 2s; Cleo doubted: a bluff"),
            (doubt.Won(0, (0, 1, 0), False), "Amy wins"),
            (doubt.Won(2, (0, 1, 0), True),
             "Cleo wins with the fewest cards: the game went nowhere (rule 8)"),
        )


SPEC = IDoubtItSpec()


#: Every value of every option, and the words it says (tests/test_options.py): the options,
#: describe, brief, clock(10), players, and one player too few's refusal.
OPTION_WORDS = [
    ("decks=1,challenge=window", "one deck", "1 deck", "10 s to doubt", (3, 8),
     "one deck needs 3 to 8 players, not 2"),
    ("decks=1,challenge=open", "one deck", "1 deck, open", "open calls", (3, 8),
     "one deck needs 3 to 8 players, not 2"),
    ("decks=2,challenge=window", "two decks", "2 decks", "10 s to doubt", (3, 10),
     "2 decks need 3 to 10 players, not 2"),
    ("decks=2,challenge=open", "two decks", "2 decks, open", "open calls", (3, 10),
     "2 decks need 3 to 10 players, not 2"),
]
