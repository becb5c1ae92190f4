"""What the contract tests ask of each game, and the shared part of the answers.

The contract tests (in tests/test_leaks.py, test_fairness.py, test_table.py, test_journal.py
and test_host.py) run once for every game of :data:`doubtlan.rules.GAMES`: they take the
game's :class:`GameSpec` (the ``spec`` fixture of tests/conftest.py) and ask it for whatever
differs between the games: a turn's actions, which cards a seat has been shown, how to lie
about a played game, a typical action, a line a spectator reads. What can be read from the
game itself (its deck, its hands as dealt, what only a seat sees: its view's ``unseen``
fields) is answered here for every game. Each game answers the rest in its own tests file,
``tests/spec_NAME.py``, whose ``SPEC`` :func:`spec_of` finds: a game added to the registry
without one fails every contract test, naming the file.
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
from owned import Owned

from doubtlan.bots import make_bot
from doubtlan.rules import GAMES, Event, Game, View
from doubtlan.rules.fairness import Seen
from doubtlan.rules.told import Told

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

    def refused_turn(self, hand: tuple[Any, ...]) -> tuple[str, str]:
        """An action that the opening seat, holding ``hand`` as dealt, may not take, and the
        code the rules refuse it with: by default, a turn with cards it does not hold."""
        return self.not_held(hand), "card_not_in_hand"

    def towards_record(self, view: View) -> tuple[str, ...]:
        """What the view's seat, on turn, sends to bring the next settled claim nearer: by
        default, a claim with the first card of its hand (the claim before it settles then,
        or when its window closes)."""
        return self.claim(view.hand[0])

    def hand_not_given(self, seen: Seen) -> tuple[Any, ...]:
        """A hand for ``seen``'s seat, as last shown, that the deal and the actions cannot
        give it: by default, its hand as dealt (the first event's) one card short."""
        assert seen.seat is not None
        return tuple(seen.events[0].hands[seen.seat][:-1])  # type: ignore[attr-defined]

    def deck(self, options: Any) -> list[Any]:
        """Every card a game with ``options`` is played with: by default, every card of a
        game just dealt (its state's ``cards()``)."""
        return list(self.rules(options.min_players, options, seed=0).state.cards())

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        """Each seat's hand as dealt for ``players`` seats with the default options (seat 0
        opening): read from a game dealt here."""
        game = self.rules(players, self.options, seed=0)
        return tuple(len(game.view(seat).hand) for seat in range(players))

    def held(self, view: View) -> tuple[int, ...]:
        """How many cards each seat holds, as ``view`` tells every seat alike: by default
        its ``hand_sizes``."""
        return tuple(view.hand_sizes)  # type: ignore[attr-defined]

    @abc.abstractmethod
    def windows(self, players: int) -> int:
        """How many runs of the window clock a claim that nobody answers waits."""

    @abc.abstractmethod
    def claim(self, card: Any) -> tuple[str, ...]:
        """The actions that make a claim with ``card`` (the seat on turn sends them)."""

    @abc.abstractmethod
    def stood(self, claim: Event) -> bool:
        """Whether a settled claim (of a view's ``claims``) stood, unchallenged."""

    def face_down(self, told: Told) -> bool:
        """Whether what was shown for ``told`` (a settled claim, as the host's whole log
        tells it) stays face down to the table: by default, a claim that stood, nobody
        testing it."""
        return told.by is None

    @abc.abstractmethod
    def claimer(self, view: View) -> int | None:
        """The seat whose claim is being made or waits for answers."""

    def private(self, view: View) -> tuple[object, ...]:
        """What only the view's seat is shown: its view's :attr:`~View.unseen` fields (a
        spectator's hold what ``unseen`` says)."""
        return tuple(getattr(view, name) for name in view.unseen)

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


def replace_claim(seen: Seen, index: int, lie: Event,
                   event: Callable[[Event], Event] = lambda e: e) -> Seen:
    """``seen`` with settled claim ``index`` replaced by ``lie`` in the claims and events
    (and each other event passed through ``event``)."""
    claim = seen.record[index]
    claims = (*seen.record[:index], lie, *seen.record[index + 1:])
    events = tuple(lie if e == claim else event(e) for e in seen.events)
    return dataclasses.replace(seen, record=claims, events=events)


#: The games whose claims wait for answers on a window clock (Liar's Deck's wait for the next
#: player's turn alone): the contracts of the window run for these.
WINDOWED = [name for name, game in GAMES.items() if game.window_label is not None]

#: Every game's spec, by the game's name (each from its own tests file, spec_NAME.py).
SPECS: Owned[GameSpec] = Owned("spec", "SPEC", "the contract tests' answers for")


def spec_of(name: str) -> GameSpec:
    """The spec of the game called ``name``; a KeyError naming its file if it has none yet."""
    return SPECS[name]
