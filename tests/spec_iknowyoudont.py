"""I Know You Don't's answers to the contract tests' questions (tests/games.py)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games import GameSpec, Lie, Sight, replace_claim
from hypothesis import strategies as st

from doubtlan.rules import Event, Game, IKnowYouDont, View
from doubtlan.rules import iknowyoudont as know
from doubtlan.rules.fairness import Seen


class _KnowSight(Sight):
    """A seat sees the hand it was dealt in each round, every card it drew, and every card a
    showdown revealed (what it saw in an earlier round stays seen)."""

    def see(self, event: Event) -> None:
        if isinstance(event, know.Started):
            for seat, hand in enumerate(event.hands):
                self.known.setdefault(seat, set()).update(hand or ())
        elif isinstance(event, know.Drew):
            self.known[event.seat].update(event.cards or ())
        elif isinstance(event, know.Revealed):
            self.show_everyone((event.card,))


def _other_card(card: know.Card, rng: random.Random) -> know.Card:
    return rng.choice([c for c in set(know.own_deck()) | set(know.standard_deck())
                       if c != card])


class IKnowYouDontSpec(GameSpec):
    name = IKnowYouDont.name
    rules = IKnowYouDont
    card = know.Card
    strategies = ("random", "counter")
    let_stand = "accept"
    illegal_opening = "accept"
    forged_turn = ("play", "accept")
    changed_answer = ("pass", "challenge")
    leak_examples = 70
    tampered_games = 240

    def conserved(self, game: Game[Any, Any]) -> bool:
        state = game.state
        return super().conserved(game) and \
            sum(state.tokens) + state.pot == know.TOKENS * game.players

    def windows(self, players: int) -> int:
        return players - 1  # priority passes round the other seats, each on its own clock

    def claim(self, card: Any) -> tuple[str, ...]:
        return (f"play {card.code} 3T",)

    def stood(self, claim: Event) -> bool:
        return isinstance(claim, know.Stood)

    def claimer(self, view: View) -> int | None:
        assert isinstance(view, know.TableView)
        return view.active

    def shows_another_seat(self, event: Event, seat: int | None) -> bool:
        if isinstance(event, know.Played):
            return event.seat != seat and event.card is not None
        if isinstance(event, know.Drew):
            return event.seat != seat and event.cards is not None
        return False

    def sight(self) -> Sight:
        return _KnowSight()

    def labelled(self, label: str) -> set[Any]:
        return {card for card in know.standard_deck()
                if card.face is not None and card.face.label() == label}

    def odd_action(self, rng: random.Random) -> tuple[str, Any]:
        card = rng.choice(know.standard_deck())
        text = rng.choice(["pass", "accept", "challenge", "intercept", "wild", "keep",
                           f"play {card.code} 3T"])
        return text, card

    @property
    def options(self) -> Any:
        # Two rounds: the second round's deal is played and checked, in less time than five.
        return know.Options(rounds=2)

    def leak_table(self, draw: st.DrawFn) -> tuple[int, Any]:
        # The standard deck's cards are all different: a card names one copy.
        return draw(st.integers(3, 6)), know.Options(know.Deck.STANDARD,
                                                     draw(st.integers(1, 2)))

    def fair_table(self, rng: random.Random) -> tuple[int, Any]:
        return rng.randint(3, 6), know.Options(rng.choice(list(know.Deck)), rng.choice((1, 2)))

    def lies(self) -> tuple[Lie, ...]:
        return (self.shown_card_changed, self.drawn_card_changed)

    def shown_card_changed(self, seen: Seen, rng: random.Random) -> Seen | None:
        """The host showed a card in a showdown that was not the one laid."""
        shown = [i for i, claim in enumerate(seen.record) if isinstance(claim, know.Showdown)]
        if not shown:
            return None
        index = rng.choice(shown)
        claim = seen.record[index]
        assert isinstance(claim, know.Showdown)
        lie = dataclasses.replace(claim, card=_other_card(claim.card, rng))

        def revealed(event: Event) -> Event:
            if isinstance(event, know.Revealed) and event.card == claim.card:
                return dataclasses.replace(event, card=lie.card)
            return event

        return replace_claim(seen, index, lie, revealed)

    def drawn_card_changed(self, seen: Seen, rng: random.Random) -> Seen | None:
        """The host told the seat it drew a card it did not draw."""
        mine = [i for i, e in enumerate(seen.events)
                if isinstance(e, know.Drew) and e.cards is not None]
        if not mine:
            return None
        at = rng.choice(mine)
        drew = seen.events[at]
        assert isinstance(drew, know.Drew) and drew.cards is not None
        cards = (_other_card(drew.cards[0], rng), *drew.cards[1:])
        events = list(seen.events)
        events[at] = dataclasses.replace(drew, cards=cards)
        return dataclasses.replace(seen, events=tuple(events))

    def narrations(self) -> tuple[tuple[Event, str], ...]:
        three, four = know.Declaration.parse("3T"), know.Declaration.parse("4T")
        return (
            (know.Stood(0, three, None), "Amy declared level 3 Truth: it stood"),
            (know.Showdown(0, four, know.Card.parse("B2"), 2, True, False, 2, 0),
             "Amy declared level 4 Truth; Cleo intercepted: a level 2 Bluff, a lie"),
            (know.RoundEnded(2, (12, 30, 30), (0, 5, 5), (3, 10, 6)),
             "round 2 ends: Ben and Cleo scored most (30 round points)"),
            (know.Ended(2, "tokens", (0, 0, 1), (0, 3, 6), False),
             "Cleo wins when a player lost their last token"),
            (know.Ended(1, "rounds", (8, 8, 1), (3, 3, 3), True),
             "Ben wins on victory points after the last round (on the tie-break)"),
        )


SPEC = IKnowYouDontSpec()


def option_words(deck: str, rounds: int) -> tuple[str, str, str, str, tuple[int, int], str]:
    """The words of one value of the options (below)."""
    said = f"{rounds} round{'s' if rounds > 1 else ''}"
    long, short = ("its own deck", "own deck") if deck == "own" else \
        ("standard deck", "standard")
    return (f"deck={deck},rounds={rounds}", f"I Know You Don't · {long} · {said}",
            f"{short}, {said}", "10 s with priority", (3, 6),
            "I Know You Don't needs 3 to 6 players, not 2")


#: Every value of every option, and the words it says (tests/test_options.py): the options,
#: describe, brief, clock(10), players, and one player too few's refusal.
OPTION_WORDS = [option_words(deck, rounds) for deck in ("own", "standard")
                for rounds in range(1, 10)]
