"""What the contract tests need to know of each game, in one place per game.

The contract tests (in tests/test_leaks.py, test_fairness.py, test_table.py, test_journal.py
and test_host.py) run once for every game of :data:`doubtlan.rules.GAMES`: they take the
game's :class:`GameSpec` (the ``spec`` fixture of tests/conftest.py) and ask it for whatever
differs between the games: how to make a claim, which cards a seat has been shown, how to
lie about a played game, a typical action, a line a spectator reads. Everything else they
check the same way for every game. A game added to the registry needs a spec here (the
fixture fails without one).
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import random
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from hypothesis import strategies as st

from doubtlan.bots import make_bot
from doubtlan.rules import GAMES, Event, Game, IDoubtIt, IKnowYouDont, View
from doubtlan.rules import cards as playing
from doubtlan.rules import idoubtit as doubt
from doubtlan.rules import iknowyoudont as know
from doubtlan.rules import liarsdeck as liar
from doubtlan.rules.fairness import Seen

#: A lie in what one seat was shown of a played game (None: the game gives no chance of it).
Lie = Callable[[Seen, random.Random], Seen | None]


class Sight(abc.ABC):
    """Which cards each seat (and a spectator, seat None) has legitimately been shown of one
    game, learnt from the host's full log one event at a time."""

    def __init__(self) -> None:
        self.known: dict[int | None, set[Any]] = {None: set()}

    @abc.abstractmethod
    def see(self, event: Event) -> None:
        """Learn from ``event``, as the host stored it (unredacted)."""

    def show_everyone(self, cards: Iterable[Any]) -> None:
        shown = set(cards)
        for seen in self.known.values():
            seen.update(shown)


class GameSpec(abc.ABC):
    """One game's specifics for the contract tests."""

    #: The game's name in :data:`~doubtlan.rules.GAMES` and its rules.
    name: ClassVar[str]
    rules: ClassVar[type[Game[Any, Any]]]
    #: The class of the game's cards (for :func:`helpers.cards_in`).
    card: ClassVar[type]
    #: The game's bot strategies.
    strategies: ClassVar[tuple[str, ...]]
    #: The answer to a claim that lets it stand (a game with a window clock).
    let_stand: ClassVar[str]
    #: An action that no seat may take as the first of a game.
    illegal_opening: ClassVar[str]
    #: In a journal: a turn's action (its first word) and an illegal action put in its place.
    forged_turn: ClassVar[tuple[str, str]]
    #: In a journal: an answer to a claim and another answer, as legal, put in its place
    #: (:meth:`changed`).
    changed_answer: ClassVar[tuple[str, str]]
    #: Networked games the leak property plays, and played games the fairness test tampers.
    leak_examples: ClassVar[int]
    tampered_games: ClassVar[int]

    @property
    def options(self) -> Any:
        """The game's default rule options."""
        return self.rules.options_type()

    def bot(self, strategy: str, seed: Any) -> Any:
        return make_bot(strategy, seed, self.name)

    def conserved(self, game: Game[Any, Any]) -> bool:
        """Whether every card of ``game`` (and anything else a game keeps count of) is
        somewhere, once."""
        return Counter(game.state.cards()) == self._full(game.options)

    @functools.cache  # noqa: B019  (two specs, a few options each: they live as long)
    def _full(self, options: Any) -> Counter[Any]:
        return Counter(self.deck(options))

    def changed(self, action: str) -> str | None:
        """Another action, as legal as the journal's ``action`` where it was played, that
        makes the game go otherwise (None: not one this changes)."""
        answer, other = self.changed_answer
        return other if action == answer else None

    def not_held(self, hand: tuple[Any, ...]) -> str:
        """A turn's first action with cards that ``hand`` does not hold (every one of them
        in the deck)."""
        return self.claim(next(card for card in self.deck(self.options) if card not in hand))[0]

    @abc.abstractmethod
    def deck(self, options: Any) -> list[Any]:
        """Every card a game with ``options`` is played with."""

    @abc.abstractmethod
    def hand_sizes(self, players: int) -> tuple[int, ...]:
        """Each seat's hand as dealt for ``players`` seats with the default options (seat 0
        opening)."""

    @abc.abstractmethod
    def windows(self, players: int) -> int:
        """How many runs of the window clock a claim that nobody answers waits."""

    @abc.abstractmethod
    def claim(self, card: Any) -> tuple[str, ...]:
        """The actions that make a claim with ``card`` (the seat on turn sends them)."""

    @abc.abstractmethod
    def stood(self, claim: Event) -> bool:
        """Whether a settled claim (of a view's ``claims``) stood, unchallenged."""

    @abc.abstractmethod
    def claimer(self, view: View) -> int | None:
        """The seat whose claim is being made or waits for answers."""

    @abc.abstractmethod
    def private(self, view: View) -> tuple[object, ...]:
        """What only the view's seat is shown (all empty for a spectator)."""

    @abc.abstractmethod
    def shows_another_seat(self, event: Event, seat: int | None) -> bool:
        """Whether ``event``, as sent to ``seat``, shows something that only another seat
        may see (beyond cards, which the leak test follows itself)."""

    @abc.abstractmethod
    def sight(self) -> Sight:
        """A fresh :class:`Sight` for one game."""

    @abc.abstractmethod
    def labelled(self, label: str) -> set[Any]:
        """The cards that a playing card's label in a text (``"Q♠"``) names."""

    @abc.abstractmethod
    def odd_action(self, rng: random.Random) -> tuple[str, Any]:
        """An action a client might send at any moment (often out of turn), and the card
        it names (None if none)."""

    @abc.abstractmethod
    def leak_table(self, draw: st.DrawFn) -> tuple[int, Any]:
        """Players and rule options for a table of the leak property."""

    @abc.abstractmethod
    def fair_table(self, rng: random.Random) -> tuple[int, Any]:
        """Players and rule options for a game the fairness tests play and check."""

    @abc.abstractmethod
    def lies(self) -> tuple[Lie, ...]:
        """Ways a host may lie in what it showed a seat of this game, the first showing a
        challenged claim's card as another."""

    @abc.abstractmethod
    def narrations(self) -> tuple[tuple[Event, str], ...]:
        """Events and the line a spectator reads for each (Amy, Ben, Cleo at seats 0-2)."""


def _replace_claim(seen: Seen, index: int, lie: Event,
                   event: Callable[[Event], Event] = lambda e: e) -> Seen:
    """``seen`` with settled claim ``index`` replaced by ``lie`` in the claims and events
    (and each other event passed through ``event``)."""
    claim = seen.claims[index]
    claims = (*seen.claims[:index], lie, *seen.claims[index + 1:])
    events = tuple(lie if e == claim else event(e) for e in seen.events)
    return dataclasses.replace(seen, claims=claims, events=events)


# -- I Doubt It -----------------------------------------------------------------------------


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
    leak_examples = 100
    tampered_games = 600

    def deck(self, options: Any) -> list[Any]:
        return playing.deck(options.decks)

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        share, extra = divmod(52, players)
        return tuple(share + (seat < extra) for seat in range(players))

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

    def private(self, view: View) -> tuple[object, ...]:
        assert isinstance(view, doubt.TableView)
        return (view.hand, view.my_laid, view.my_pile, view.my_answer, view.legal)

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
        doubted = [i for i, claim in enumerate(seen.claims)
                   if isinstance(claim, doubt.Resolved) and claim.shown]
        if not doubted:
            return None
        index = rng.choice(doubted)
        claim = seen.claims[index]
        assert isinstance(claim, doubt.Resolved) and claim.shown is not None
        shown = list(claim.shown)
        at = rng.randrange(len(shown))
        shown[at] = rng.choice([card for card in playing.DECK if card != shown[at]])
        return _replace_claim(seen, index, dataclasses.replace(claim, shown=tuple(shown)))

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


# -- I Know You Don't -----------------------------------------------------------------------


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
    leak_examples = 150
    tampered_games = 240

    def conserved(self, game: Game[Any, Any]) -> bool:
        state = game.state
        return super().conserved(game) and \
            sum(state.tokens) + state.pot == know.TOKENS * game.players

    def deck(self, options: Any) -> list[Any]:
        assert isinstance(options, know.Options)
        return options.cards()

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        return (know.HAND,) * players

    def windows(self, players: int) -> int:
        return players - 1  # priority passes round the other seats, each on its own clock

    def claim(self, card: Any) -> tuple[str, ...]:
        return (f"play {card.code} 3T",)

    def stood(self, claim: Event) -> bool:
        return isinstance(claim, know.Stood)

    def claimer(self, view: View) -> int | None:
        assert isinstance(view, know.TableView)
        return view.active

    def private(self, view: View) -> tuple[object, ...]:
        assert isinstance(view, know.TableView)
        return (view.hand, view.my_card, view.legal)

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
        shown = [i for i, claim in enumerate(seen.claims) if isinstance(claim, know.Showdown)]
        if not shown:
            return None
        index = rng.choice(shown)
        claim = seen.claims[index]
        assert isinstance(claim, know.Showdown)
        lie = dataclasses.replace(claim, card=_other_card(claim.card, rng))

        def revealed(event: Event) -> Event:
            if isinstance(event, know.Revealed) and event.card == claim.card:
                return dataclasses.replace(event, card=lie.card)
            return event

        return _replace_claim(seen, index, lie, revealed)

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


# -- Liar's Deck -----------------------------------------------------------------------------


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
    leak_examples = 150
    tampered_games = 600

    def deck(self, options: Any) -> list[Any]:
        return liar.deck(options.decks)

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        return (liar.HAND,) * players

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

    def private(self, view: View) -> tuple[object, ...]:
        assert isinstance(view, liar.TableView)
        return (view.hand, view.my_claim, view.legal)

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
        called = [i for i, claim in enumerate(seen.claims) if isinstance(claim, liar.Called)]
        if not called:
            return None
        index = rng.choice(called)
        claim = seen.claims[index]
        assert isinstance(claim, liar.Called)
        shown = list(claim.shown)
        at = rng.randrange(len(shown))
        shown[at] = rng.choice([card for card in set(liar.deck(1)) if card is not shown[at]])
        return _replace_claim(seen, index, dataclasses.replace(claim, shown=tuple(shown)))

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


#: The games whose claims wait for answers on a window clock (Liar's Deck's wait for the next
#: player's turn alone): the contracts of the window run for these.
WINDOWED = [name for name, game in GAMES.items() if game.window_label is not None]

#: Every game's spec, by the game's name.
SPECS: dict[str, GameSpec] = {spec.name: spec for spec in (IDoubtItSpec(), IKnowYouDontSpec(),
                                                           LiarsDeckSpec())}


def spec_of(name: str) -> GameSpec:
    """The spec of the game called ``name``; a KeyError for a game that has none yet."""
    if name not in SPECS:
        raise KeyError(f"tests/games.py has no spec for the game {name!r} ({GAMES[name].title})")
    return SPECS[name]
