"""Liar's Deck's answers to the contract tests' questions (tests/games.py)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games import GameSpec, Lie, Sight, replace_claim
from hypothesis import strategies as st

from doubtlan.rules import Event, View
from doubtlan.rules import liarsdeck as liar
from doubtlan.rules.fairness import Seen


class _LiarSight(Sight):
    """A seat sees the hand it was dealt in each round, and every card a call turned over
    (what it saw in an earlier round stays seen)."""

    def see(self, event: Event) -> None:
        if isinstance(event, liar.Deal):
            for seat, hand in enumerate(event.hands):
                self.known.setdefault(seat, set()).update(hand or ())
        elif isinstance(event, liar.Called):
            self.show_everyone(event.shown)


class LiarsDeckSpec(GameSpec):
    name = liar.LiarsDeck.name
    rules = liar.LiarsDeck
    card = liar.Card
    strategies = ("random", "honest", "counter")
    let_stand = ""  # (no window: a claim stands when the next player puts cards on it)
    illegal_opening = "liar"
    forged_turn = ("put", "liar")
    changed_answer = ("put Q K", "put Q")  # (any put of two or more cards: see changed)
    leak_examples = 70
    tampered_games = 600

    def windows(self, players: int) -> int:
        return 0

    def claim(self, card: Any) -> tuple[str, ...]:
        return (f"put {card.code}",)

    def changed(self, action: str) -> str | None:
        # Fewer of the cards put down: as legal, and another game from there on.
        words = action.split()
        return " ".join(words[:2]) if words[0] == "put" and len(words) > 2 else None

    def not_held(self, hand: tuple[Any, ...]) -> str:
        return "put J J J"  # (a deck has two Jokers)

    def stood(self, claim: Event) -> bool:
        return isinstance(claim, liar.Believed)

    def claimer(self, view: View) -> int | None:
        assert isinstance(view, liar.TableView)
        return view.claimer

    def shows_another_seat(self, event: Event, seat: int | None) -> bool:
        if isinstance(event, liar.Down):
            return event.seat != seat and event.cards is not None
        if isinstance(event, liar.Deal):
            return any(hand is not None for number, hand in enumerate(event.hands)
                       if number != seat)
        return False

    def sight(self) -> Sight:
        return _LiarSight()

    def labelled(self, label: str) -> set[Any]:
        return set()  # (its cards have no suits: no error names one as "Q♠")

    def odd_action(self, rng: random.Random) -> tuple[str, Any]:
        cards = rng.choices(liar.deck(1), k=rng.randint(1, 4))
        text = rng.choice(["liar", "put " + " ".join(card.code for card in cards)])
        return text, cards[0]

    def leak_table(self, draw: st.DrawFn) -> tuple[int, Any]:
        decks = draw(st.sampled_from([1, 1, 2]))
        players = draw(st.integers(2, 4 if decks == 1 else 6))
        return players, liar.Options(decks, draw(st.sampled_from(list(liar.Lives))))

    def fair_table(self, rng: random.Random) -> tuple[int, Any]:
        return rng.randint(2, 4), liar.Options(lives=rng.choice(list(liar.Lives)))

    def lies(self) -> tuple[Lie, ...]:
        return (self.shown_card_changed,)

    def shown_card_changed(self, seen: Seen, rng: random.Random) -> Seen | None:
        """The host turned over, at a call, a card that was not the one put down."""
        called = [i for i, claim in enumerate(seen.record) if isinstance(claim, liar.Called)]
        if not called:
            return None
        index = rng.choice(called)
        claim = seen.record[index]
        assert isinstance(claim, liar.Called)
        shown = list(claim.shown)
        at = rng.randrange(len(shown))
        shown[at] = rng.choice([card for card in set(liar.deck(1)) if card is not shown[at]])
        return replace_claim(seen, index, dataclasses.replace(claim, shown=tuple(shown)))

    def narrations(self) -> tuple[tuple[Event, str], ...]:
        king, queen, joker = liar.KING, liar.QUEEN, liar.JOKER
        return (
            (liar.Believed(0, 2, liar.Rank.KING, 1), ""),
            (liar.Called(0, 2, liar.Rank.KING, 1, (king, joker), False, 1),
             "Ben called Amy's 2 Kings: K J, true. Ben loses."),
            (liar.Called(2, 1, liar.Rank.ACE, 0, (queen,), True, 2),
             "Amy called Cleo's 1 Ace: Q, a lie. Cleo loses."),
            (liar.Lost(2, 0, 0, True), "Cleo is out."),
            (liar.Standing(1), "Ben is the last player standing."),
        )


SPEC = LiarsDeckSpec()


def option_words(decks: int, lives: str) -> tuple[str, str, str, str, tuple[int, int], str]:
    said = "roulette" if lives == "roulette" else f"{lives} li{'fe' if lives == '1' else 'ves'}"
    deck, most = ("one deck", 4) if decks == 1 else ("two decks", 6)
    needs = "needs" if decks == 1 else "need"
    return (f"decks={decks},lives={lives}", f"Liar's Deck · {deck} · {said}",
            f"{decks} deck{'s' if decks > 1 else ''}, {said}", "",  # (no window clock)
            (2, most), f"{deck} {needs} 2 to {most} players, not 1")


#: Every value of every option, and the words it says (tests/test_options.py): the options,
#: describe, brief, clock(10), players, and one player too few's refusal.
OPTION_WORDS = [option_words(decks, lives) for decks in (1, 2)
                for lives in ("3", "1", "2", "4", "5", "roulette")]
