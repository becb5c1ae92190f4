"""The engine of Liar's Deck (docs/rules-liarsdeck.md). Pure logic: no I/O, no clock.

Each round the deck is shuffled, every player still in is dealt five cards, and the table
asks for a rank, Queens, Kings or Aces. In turn, clockwise, each player puts one to three
cards face down, saying they are all of that rank (a Joker stands for any), or calls the
last cards put down a lie. A call turns those cards over: a lie costs their player, a true
claim the caller, a life (or, in the roulette, a pull of the revolver's trigger). Then a new
round is dealt. The last player standing wins.

>>> game = LiarsDeck(3, seed=1)
>>> view = game.view(0)
>>> view.round, view.rank.plural(), view.hand_sizes, view.lives
(1, 'Aces', (5, 5, 5), (3, 3, 3))
>>> game.apply(0, Put.of(view.hand[:2])) and game.view(1).count
2
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from ..base import Action, Event, Game
from ..errors import (
    BadOptions,
    CardNotInHand,
    ClaimTooLarge,
    NoWindowOpen,
)
from ..seeds import Seed, derive, seal, seed_bytes, shuffle
from ..turns import OneAtATime
from ..words import Words
from .actions import ACTIONS, LIAR, MOST, Liar, Put
from .cards import Card, Rank, deck, in_order
from .errors import CallRequired
from .events import Believed, Called, Deal, Down, Lost, Standing
from .options import Options
from .state import CHAMBERS, HAND, OVER, PLAYING, State
from .told import tell
from .view import TableView, own_facts, public_facts, redact


class LiarsDeck(OneAtATime, Game[Options, TableView]):
    """One game of Liar's Deck, from the first deal to the last player standing."""

    state: State

    name, title = "liarsdeck", "Liar's Deck"
    description = "put 1 to 3 cards down as the table's rank, or call the last ones a lie"
    actions, events = ACTIONS, (Deal, Down, Believed, Called, Lost, Standing)
    words = Words(challenge="call", challenged="called", challenges="calls",
                  challenger="caller", bluff="lie", bluffs="lies", laid="the cards laid")
    redact = staticmethod(redact)
    tell = staticmethod(tell)

    def __init__(self, players: int, options: Options | None = None, *,
                 seed: Seed | None = None, opener: int = 0) -> None:
        options = self.rules_for(players, options, opener)
        #: The secret every round's deal, rank and the revolvers are drawn from.
        self.seed = seed_bytes(seed)
        self._begin(players, options, opener)
        self._deal(opener)

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[Card] | str], rank: Rank,
                   options: Options | None = None, *, opener: int = 0) -> LiarsDeck:
        """A game whose first round is dealt by hand (for examples and tests): each hand a
        list of cards or their codes in one text ("Q Q K A J"); later rounds are dealt as
        a game of the empty seed."""
        dealt = [[Card.parse(code) for code in hand.split()] if isinstance(hand, str)
                 else list(hand) for hand in hands]
        options = cls.rules_for(len(dealt), options, opener)
        rest = Counter(deck(options.decks))
        rest.subtract(card for hand in dealt for card in hand)
        if any(count < 0 for count in rest.values()) or any(len(h) != HAND for h in dealt):
            raise BadOptions(f"each hand must be {HAND} cards of the deck")
        game = cls.__new__(cls)
        game.seed = b""
        game._begin(len(dealt), options, opener)
        game._deal(opener, hands=dealt, rank=rank)
        return game

    def _begin(self, players: int, options: Options, opener: int) -> None:
        self.players, self.options, self.opener = players, options, opener
        lives = options.lives.count or 1
        bullets = []
        for seat in range(players):  # each revolver's loaded chamber, 1 to 6
            chambers = list(range(1, CHAMBERS + 1))
            shuffle(chambers, derive(self.seed, f"revolver {seat}"))
            bullets.append(chambers[0])
        self.state = State(players, options, opener, [lives] * players, [0] * players, bullets)

    def _deal(self, first: int, *, hands: list[list[Card]] | None = None,
              rank: Rank | None = None) -> None:
        """Deal the next round to the players still in, ``first`` to move."""
        state = self.state
        state.round += 1
        drawn = derive(self.seed, f"round {state.round}")
        if rank is None:
            ranks = list(Rank)
            shuffle(ranks, derive(drawn, "rank"))
            rank = ranks[0]
        cards = deck(self.options.decks)
        shuffle(cards, derive(drawn, "cards"))
        if hands is None:
            hands = [[] for _ in range(self.players)]
            for place, seat in enumerate(self._round_from(first)):
                hands[seat] = cards[place * HAND:(place + 1) * HAND]
        state.rest = list((Counter(cards) - Counter(c for h in hands for c in h)).elements())
        state.hands = [list(in_order(hand)) for hand in hands]
        state.rank, state.active, state.last, state.down = rank, first, None, []
        state.events.append(Deal(state.round, rank, first, tuple(map(tuple, state.hands)),
                                 tuple(map(len, state.hands))))

    def _round_from(self, seat: int) -> list[int]:
        """The players still in, clockwise from ``seat`` (itself first, if still in)."""
        lives = self.state.lives
        return [number for step in range(self.players)
                if lives[number := (seat + step) % self.players] > 0]

    # -- reading ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.phase is OVER

    def must_call(self, seat: int) -> bool:
        """Whether ``seat`` is the only player holding cards: its one move is the call."""
        hands = self.state.hands
        return all(not hand for number, hand in enumerate(hands) if number != seat)

    def _only(self, seat: int) -> tuple[Action, ...] | None:
        """What ``seat`` may do when that is nothing (not its turn) or the call alone; None
        when it may put cards down."""
        state = self.state
        if state.phase is OVER or seat != state.active:
            return ()
        return (LIAR,) if self.must_call(seat) else None

    def moves(self, seat: int) -> tuple[Action, ...]:
        only = self._only(seat)
        if only is not None:
            return only
        state = self.state
        puts = dict.fromkeys(Put(cards) for size in range(1, MOST + 1)
                             for cards in itertools.combinations(state.hands[seat], size))
        return (*puts, LIAR) if state.last is not None else tuple(puts)

    def active_seat(self) -> int | None:
        return self.state.active if self.state.phase is PLAYING else None

    def timeout_actions(self, seat: int) -> tuple[Action, ...]:
        """Time's up: a call if it is the one move left, else one card put down, a true one
        if the hand holds one."""
        only = self._only(seat)
        if only is not None:
            return only
        hand, rank = self.state.hands[seat], self.state.rank
        return (Put((next((card for card in hand if card.matches(rank)), hand[0]),)),)

    def ending(self) -> str | None:
        return "standing" if self.over else None

    def own(self, seat: int) -> tuple[object, ...]:
        return own_facts(self.state, seat, self.moves(seat))

    def public_facts(self, claims: tuple[Event, ...]) -> dict[str, object]:
        return public_facts(self.state, claims)

    @classmethod
    def narrate(cls, event: Event, names: dict[int, str | None]) -> str:
        def name(seat: int) -> str:
            return names.get(seat) or f"seat {seat + 1}"

        if isinstance(event, Called):
            shown = " ".join(card.code for card in event.shown)
            verdict = "a lie" if event.lie else "true"
            said = event.rank.title if event.count == 1 else event.rank.plural()
            return (f"{name(event.caller)} called {name(event.seat)}'s {event.count} {said}: "
                    f"{shown}, {verdict}. {name(event.loser)} loses.")
        if isinstance(event, Lost) and event.out:
            return f"{name(event.seat)} is out."
        if isinstance(event, Standing):
            return f"{name(event.seat)} is the last player standing."
        return ""

    # -- changing -----------------------------------------------------------------------

    def check_turn(self, seat: int, action: Action) -> None:
        state = self.state
        if type(action) is Liar and state.last is None:
            raise NoWindowOpen("no cards have been put down this round: nothing to call")
        if type(action) is Put:
            self._check_put(seat, action.cards)

    def _check_put(self, seat: int, cards: tuple[Card, ...]) -> None:
        if not 1 <= len(cards) <= MOST:
            raise ClaimTooLarge(f"put down 1 to {MOST} cards")
        if Counter(cards) - Counter(self.state.hands[seat]):
            raise CardNotInHand("those cards are not all in your hand")
        if self.must_call(seat):
            raise CallRequired()

    def _do(self, seat: int, action: Action) -> None:
        """Apply a checked action. Never call this with an action :meth:`check` refused."""
        if type(action) is Put:
            self._put(seat, action.cards)
        else:
            self._call(seat)

    def _put(self, seat: int, cards: tuple[Card, ...]) -> None:
        state = self.state
        hand = state.hands[seat]
        for card in cards:
            hand.remove(card)
        if state.last is not None:  # the claim before stood: this player put cards on it
            claimer, laid = state.last
            self._settle(Believed(claimer, len(laid), state.rank, seat))
        state.down.extend(cards)
        state.last = (seat, cards)
        state.turns += 1
        state.events.append(Down(seat, len(cards), cards, tuple(
            seal(self.seed, f"{state.version} {seat} {place} {card}")
            for place, card in enumerate(cards))))
        state.active = next(number for number in self._round_from(seat + 1)
                            if state.hands[number])

    def _call(self, caller: int) -> None:
        state = self.state
        assert state.last is not None
        claimer, shown = state.last
        lie = not all(card.matches(state.rank) for card in shown)
        loser = claimer if lie else caller
        self._settle(Called(claimer, len(shown), state.rank, caller, shown, lie, loser))
        if state.options.lives.count is None:  # the roulette: a trigger pulled
            state.pulled[loser] += 1
            state.lives[loser] = int(state.pulled[loser] != state.bullets[loser])
        else:
            state.lives[loser] -= 1
        out = state.lives[loser] == 0
        if out:
            state.out.append(loser)
        state.events.append(Lost(loser, state.lives[loser], state.pulled[loser], out))
        standing = state.standing()
        if len(standing) == 1:
            state.phase, state.winner = OVER, standing[0]
            state.hands, state.rest = [[] for _ in range(self.players)], state.cards()
            state.down, state.last = [], None
            state.events.append(Standing(standing[0]))
        else:
            self._deal(self._round_from(loser)[0])

    def _settle(self, record: Event) -> None:
        self.state.records.append(record)
        self.state.events.append(record)
