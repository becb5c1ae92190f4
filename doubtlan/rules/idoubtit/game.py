"""The I Doubt It engine: docs/rules.md, exactly.

``apply`` is the only public way to change a game. It checks the action with :meth:`check`
and only then runs the unchecked ``_do``, so a refused action changes nothing.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from ..base import Action, Event, Game, check_seat
from ..cards import Card, Rank, deck, sort_key
from ..errors import (
    BadOptions,
    CardNotInHand,
    ClaimTooLarge,
    NotAllowedInWindow,
    NothingLaid,
    NotYourTurn,
    NoWindowOpen,
    WindowOpen,
)
from ..seeds import Seed, seal, seed_bytes, shuffle
from ..words import Words
from .actions import (
    ACTIONS,
    ANNOUNCE,
    DOUBT,
    LET_STAND,
    Announce,
    Doubt,
    Lay,
    LetStand,
    lay,
    lays,
)
from .events import Announced, Answered, Dealt, Laid, Resolved, Won
from .fast import play_out
from .options import ChallengeMode, Options
from .settle import Settling
from .state import LAYING, OVER, STALE_ROUNDS, WINDOW, State
from .told import tell
from .view import TableView, make_view, public_facts, redact, window_key

_ANNOUNCE, _DOUBT, _STAND = ANNOUNCE, DOUBT, LET_STAND
_ANSWERS = (_DOUBT, _STAND)


class IDoubtIt(Settling, Game[Options, TableView]):
    """One game of I Doubt It.

    >>> game = IDoubtIt(4, seed=1)
    >>> game.view(0).hand_sizes
    (13, 13, 13, 13)
    >>> game.view(0).rank
    <Rank.ACE: 1>
    """

    state: State

    name = "idoubtit"
    title = "I Doubt It"
    description = "lay cards face down as the next rank, and doubt the liars (Cheat, BS)"
    window_label = "seconds to doubt"
    actions = ACTIONS
    events = (Dealt, Laid, Announced, Answered, Resolved, Won)
    words = Words(game="game", challenge="doubt", challenged="doubted", challenges="doubts",
                  challenger="doubter", bluff="bluff", bluffs="bluffs",
                  laid="the cards laid")
    redact = staticmethod(redact)
    tell = staticmethod(tell)

    def __init__(
        self,
        players: int,
        options: Options | None = None,
        *,
        seed: Seed | None = None,
        opener: int = 0,
    ) -> None:
        options = self.rules_for(players, options, opener)
        #: The secret the deal was shuffled with (the host's secret).
        self.seed = seed_bytes(seed)
        cards = deck(options.decks)
        shuffle(cards, self.seed)
        # Dealt one at a time round the table from the opener: card i to seat opener + i.
        hands = [cards[(seat - opener) % players::players] for seat in range(players)]
        self._setup(players, options, opener, hands, Rank.ACE)

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[Sequence[Card]],
        options: Options | None = None,
        *,
        opener: int = 0,
        rank: Rank = Rank.ACE,
    ) -> IDoubtIt:
        """A game dealt by hand (for tests and puzzles). The hands must hold the whole deck."""
        options = cls.rules_for(len(hands), options, opener)
        if Counter(card for hand in hands for card in hand) != Counter(deck(options.decks)):
            raise BadOptions("the hands must hold exactly the cards of the deck")
        game = cls.__new__(cls)
        game.seed = b""
        game._setup(len(hands), options, opener, [list(hand) for hand in hands], rank)
        return game

    def _setup(
        self, players: int, options: Options, opener: int, hands: list[list[Card]], rank: Rank
    ) -> None:
        self.players = players
        self.options = options
        self.opener = opener
        #: The whole state, secrets included: for the table's owner and for tests.
        for hand in hands:
            hand.sort(key=sort_key)
        self.state = State(players, options, opener, hands, rank, turn=opener)
        self.state.events.append(
            Dealt(
                opener,
                rank,
                tuple(len(hand) for hand in hands),
                tuple(tuple(hand) for hand in hands),
            )
        )
        self._claims_copy: tuple[Resolved, ...] = ()
        self._public: tuple[int, tuple[object, ...]] = (-1, ())
        self._max_claim = options.max_claim
        self._window_always = options.challenge is ChallengeMode.WINDOW
        self._stale_claims = STALE_ROUNDS * players
        # The other seats, clockwise from each seat.
        self._clockwise = _clockwise(players)

    # -- reading ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.phase is OVER

    def awaiting(self) -> tuple[int, ...]:
        state = self.state
        if state.phase is LAYING:
            return (state.turn,)
        if state.phase is WINDOW:
            answers = state.answers
            return tuple([s for s in state.window if s not in answers]) if answers else state.window
        return ()

    def may_act(self) -> tuple[int, ...]:
        state = self.state
        if state.claimer is not None and state.phase is LAYING:  # an open claim
            return self._clockwise[state.claimer]
        return self.awaiting()

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        if type(seat) is not int or not 0 <= seat < self.players:
            check_seat(self.players, seat)  # raises
        return self._legal(seat, tuple(self.state.hands[seat]))

    def call_order(self, seats: Iterable[int]) -> tuple[int, ...]:
        """The seats whose calls (doubts) reached the table together, in the order that
        decides between them: nearest clockwise after the claimer first.

        In the open mode the first call counts, so calls received together are applied in
        this order (docs/rules.md). Seats that may not call are left out.

        >>> game = IDoubtIt(5, seed=1)
        >>> game.call_order([4, 1, 3])  # no claim waits: nobody may call
        ()
        """
        claimer = self.state.claimer
        if claimer is None:
            return ()
        callers = set(seats)
        return tuple(seat for seat in self._clockwise[claimer] if seat in callers)

    def _legal(self, seat: int, hand: tuple[Card, ...]) -> tuple[Action, ...]:
        state = self.state
        if state.phase is WINDOW:
            if seat in state.window and seat not in state.answers:
                return _ANSWERS
            return ()
        if state.phase is OVER:
            return ()
        found: tuple[Action, ...] = ()
        if seat == state.turn:
            if len(state.laid) < self._max_claim:
                # With two decks a hand can hold a card twice; laying either is one action.
                distinct = hand if self.options.decks == 1 else tuple(dict.fromkeys(hand))
                found = lays(distinct)
            if state.laid:
                found += (_ANNOUNCE,)
        if state.claim is not None and seat != state.claimer:  # an open-mode call
            found += (_DOUBT,)
        return found

    def window_key(self) -> tuple[object, ...] | None:
        # One clock for the whole window: every seat answers at once (rule 5). (In the open
        # mode there is no window: the next player's turn clock runs.)
        return window_key(self.state.turns) if self.state.phase is WINDOW else None

    @classmethod
    def narrate(cls, event: Event, names: dict[int, str | None]) -> str:
        def who(seat: int) -> str:
            return names.get(seat) or f"seat {seat + 1}"

        if isinstance(event, Resolved):
            line = f"{who(event.seat)} claimed {event.claim.describe()}"
            if event.doubter is not None:
                line += f"; {who(event.doubter)} doubted: {'true' if event.honest else 'a bluff'}"
            return line
        if isinstance(event, Won) and event.stalemate:
            return f"{who(event.seat)} wins with the fewest cards: the game went nowhere (rule 8)"
        if isinstance(event, Won):
            return f"{who(event.seat)} wins"
        return ""

    def turn_seat(self) -> int | None:
        return self.state.turn if self.state.phase is LAYING else None

    def ending(self) -> str | None:
        if self.state.phase is not OVER:
            return None
        won = next(e for e in reversed(self.state.events) if isinstance(e, Won))
        return "stalemate" if won.stalemate else "out"

    def timeout_actions(self, seat: int) -> tuple[Action, ...]:
        """The turn timer: lay one card (a true one if the seat has one) and announce. The
        window's clock: let the claim stand."""
        state = self.state
        if state.phase is WINDOW:
            return (_STAND,) if seat in state.window and seat not in state.answers else ()
        if state.phase is not LAYING or seat != state.turn:
            return ()
        if state.laid:
            return (_ANNOUNCE,)
        hand = state.hands[seat]
        rank = state.required_rank  # (an open claim waiting: the rank after its rank)
        true = [card for card in hand if card.rank is rank]
        return (lay((true or hand)[0]), _ANNOUNCE)

    def view(self, seat: int | None) -> TableView:
        state = self.state
        version, public = self._public
        if version != state.version:  # the seats' shared facts, made once per version
            public = public_facts(state, self._claims(), self.awaiting())
            self._public = (state.version, public)
        if seat is None:
            return make_view(state, None, (), (), public)
        if type(seat) is not int or not 0 <= seat < self.players:
            check_seat(self.players, seat)  # raises
        hand = tuple(state.hands[seat])
        return make_view(state, seat, hand, self._legal(seat, hand), public)

    def _claims(self) -> tuple[Resolved, ...]:
        # Settled claims are public, so every seat shares one copy, made anew when one is added.
        if len(self._claims_copy) != len(self.state.records):
            self._claims_copy = tuple(self.state.records)
        return self._claims_copy

    # -- changing -----------------------------------------------------------------------

    def check_move(self, seat: int, action: Action) -> None:
        if type(action) is Lay or type(action) is Announce:
            self._check_turn(seat, action)
        else:
            self._check_answer(seat, action)

    def _check_turn(self, seat: int, action: Action) -> None:
        """A card laid or a claim announced: only by the seat on turn, outside a window."""
        state = self.state
        if state.phase is WINDOW:
            assert state.claimer is not None
            if seat == (state.claimer + 1) % self.players or seat == state.claimer:
                raise WindowOpen()
            raise NotYourTurn()
        if seat != state.turn:
            raise NotYourTurn()
        if type(action) is Announce:
            if not state.laid:
                raise NothingLaid()
            return
        if len(state.laid) >= self._max_claim:
            raise ClaimTooLarge(f"a claim holds at most {self._max_claim} cards; announce it")
        if action.card not in state.hands[seat]:  # type: ignore[attr-defined]
            raise CardNotInHand(f"{action.card.label()} is not in your hand")  # type: ignore[attr-defined]

    def _check_answer(self, seat: int, action: Action) -> None:
        """A doubt or a let-stand: in a window, once by each other seat; in the open mode,
        a doubt by anyone but the claimer."""
        state = self.state
        if state.phase is WINDOW:
            if seat == state.claimer:
                raise NotAllowedInWindow("you cannot answer your own claim")
            if seat in state.answers:
                raise NotAllowedInWindow("you have answered this claim already")
            return
        if state.open_claim:
            if seat == state.claimer:
                raise NotAllowedInWindow("you cannot call your own claim")
            if type(action) is LetStand:
                raise NotAllowedInWindow(
                    "in the open mode a claim stands once the next player lays a card"
                )
            return
        raise NoWindowOpen()

    def _do(self, seat: int, action: Action) -> None:
        """Apply a checked action. Never call this with an action :meth:`check` refused."""
        state = self.state
        kind = type(action)
        if kind is Lay:
            if state.claim is not None:  # the first card laid lets an open claim stand
                self._resolve(None)
                if state.phase is OVER:  # (which may end the game: rule 8's stalemate)
                    return
            card: Card = action.card  # type: ignore[attr-defined]
            state.hands[seat].remove(card)
            state.laid.append(card)
            state.changed[seat] = state.version + 1
            state.events.append(Laid(seat, len(state.laid), card,
                                     seal(self.seed, f"{state.version} {seat} {card}")))
        elif kind is Announce:
            self._announce(seat)
            state.events.append(Announced(seat, state.claim, state.phase is WINDOW))  # type: ignore[arg-type]
        elif state.phase is WINDOW:
            doubt = kind is Doubt
            state.answers[seat] = doubt
            state.events.append(Answered(seat, doubt))
            self._settle_window()
        else:  # a call in the open mode
            self._resolve(seat)

    def play_out(
        self, players: Sequence[Callable[[TableView], Sequence[Action]]], max_turns: int
    ) -> int | None:
        """:meth:`Game.play_out`: :func:`.fast.play_out`. In the open mode, None: who calls
        first is ordered step by step (``tourney.play``); None too in a window that some
        seats have answered already."""
        if not self._window_always or self.state.answers:
            return None  # (a window some seats have answered: stepped through)
        return play_out(self, self.state, self._announce, self._resolve, players, max_turns)


@functools.cache
def _clockwise(players: int) -> tuple[tuple[int, ...], ...]:
    """The other seats of a table of ``players``, clockwise from each seat (made once for
    each size and shared by its games)."""
    return tuple(tuple((seat + i) % players for i in range(1, players))
                 for seat in range(players))
