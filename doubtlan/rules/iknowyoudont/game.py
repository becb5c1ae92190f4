"""The I Know You Don't engine: docs/rules-iknowyoudont.md, exactly (a refusal is one of
``rules.errors``, raised by :meth:`IKnowYouDont.check` before anything changes)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from .. import errors
from ..base import Action, Event, Game, check_seat
from ..seeds import Seed, seal, seed_bytes, shuffle
from ..words import Words
from . import scorepad
from .actions import ACTIONS, Accept, Challenge, Intercept, Keep, Pass, Play, Wild
from .cards import Card, Declaration, Kind, sort_key
from .events import (
    Challenged,
    Drew,
    Ended,
    Passed,
    Played,
    Reshuffled,
    Revealed,
    RoundEnded,
    Showdown,
    Started,
    Stood,
    narrate,
)
from .options import Options
from .rounds import Rounds, holds
from .state import DECIDING, OVER, PLAYING, PRIORITY, ROUND_CLAIMS, State
from .told import tell
from .view import TableView, own_facts, public_facts, redact, window_key

_PASS, _ACCEPT, _CHALLENGE, _INTERCEPT, _WILD, _KEEP = (
    Pass(), Accept(), Challenge(), Intercept(), Wild(), Keep())
_ANSWERS = (_PASS, _ACCEPT, _CHALLENGE)
_DECIDE = (_WILD, _KEEP)
_TRUTH = Kind.TRUTH



class IKnowYouDont(Rounds, Game[Options, TableView]):
    """One game of I Know You Don't.

    >>> game = IKnowYouDont(3, seed=1)
    >>> game.view(0).hand_sizes, game.view(0).tokens, game.view(0).draw
    ((5, 5, 5), (3, 3, 3), 39)
    """

    state: State

    name = "iknowyoudont"
    title = "I Know You Don't"
    description = "declare each card you play, true or not; challenge, intercept, score"
    window_label = "seconds with priority"
    words = Words(game="match", games="matches", challenge="challenge",
                  challenged="challenged", challenges="challenges", challenger="challenger",
                  laid="the cards laid")
    actions = ACTIONS
    events = (Started, Played, Passed, Challenged, Revealed, Stood, Showdown, Drew,
              Reshuffled, RoundEnded, Ended)
    redact = staticmethod(redact)
    tell = staticmethod(tell)
    opener_called = "the first active player"

    def __init__(self, players: int, options: Options | None = None, *,
                 seed: Seed | None = None, opener: int = 0) -> None:
        options = self.rules_for(players, options, opener)
        #: The secret the deal (and every later shuffle of the vault) is drawn from.
        self.seed = seed_bytes(seed)
        cards = options.cards()
        shuffle(cards, self.seed)
        self._setup(players, options, opener, scorepad.deal(cards, players, opener), cards)

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[Card] | str], options: Options | None = None,
                   *, opener: int = 0, draw: Sequence[Card] | None = None) -> IKnowYouDont:
        """A game dealt by hand (for examples and tests): each hand a list of cards or their
        codes in one text. The draw pile is ``draw`` (its top last), by default the rest of
        the deck in its fixed order."""
        dealt = [_cards(hand) for hand in hands]
        options = cls.rules_for(len(dealt), options, opener)
        rest = Counter(options.cards())
        rest.subtract(card for hand in dealt for card in hand)
        if any(count < 0 for count in rest.values()):
            raise errors.BadOptions("the hands hold cards the deck does not have")
        if draw is None:
            pile = [card for card in options.cards() if rest[card] > 0 and _take(rest, card)]
        else:
            pile = list(draw)
            if Counter(pile) != +rest:
                raise errors.BadOptions("the hands and the draw pile must hold exactly the deck")
        game = cls.__new__(cls)
        game.seed = b""
        game._setup(len(dealt), options, opener, dealt, pile)
        return game

    def _setup(self, players: int, options: Options, opener: int, hands: list[list[Card]],
               draw: list[Card]) -> None:
        self.players, self.options, self.opener = players, options, opener
        for hand in hands:
            hand.sort(key=sort_key)
        #: The whole state, secrets included: for the table's owner and for tests.
        self.state = State(players, options, opener, hands, draw, active=opener)
        state = self.state
        state.events.append(Started(opener, tuple(map(tuple, hands)), tuple(map(len, hands)),
                                    len(draw), tuple(state.tokens)))
        self._plays = {
            card: tuple(Play(card, Declaration(level, kind))
                        for level in range(1, options.max_level + 1)
                        for kind in (Kind.TRUTH, Kind.BLUFF))
            for card in set(options.cards())
        }
        #: Every seat clockwise from each seat, that seat last.
        self._round = [tuple((seat + i) % players for i in range(1, players + 1))
                       for seat in range(players)]
        #: A round's claims: whole turns round the table (rule 10).
        self._round_claims = -(-ROUND_CLAIMS // players) * players

    # -- reading ------------------------------------------------------------------------

    def awaiting(self) -> tuple[int, ...]:
        state = self.state
        if state.phase is PRIORITY:
            assert state.priority is not None
            return (state.priority,)
        if state.phase is OVER:
            return ()
        return (state.active,)

    @property
    def over(self) -> bool:
        return self.state.phase is OVER

    def may_act(self) -> tuple[int, ...]:
        awaiting = self.awaiting()
        if self.state.phase is not PRIORITY:
            return awaiting
        return awaiting + self._interceptors()

    def could_call(self) -> tuple[int, ...]:
        """Every seat that may intercept now if it holds an Interception (hands unseen)."""
        state = self.state
        if state.phase is not PRIORITY:
            return ()
        return tuple(seat for seat in self._round[state.active][:-1] if seat != state.priority)

    def _interceptors(self) -> tuple[int, ...]:
        """The seats that may intercept now, clockwise from the active player."""
        state = self.state
        return tuple(seat for seat in self._round[state.active][:-1]
                     if seat != state.priority and holds(state.hands[seat], Kind.INTERCEPTION))

    def call_order(self, seats: Iterable[int]) -> tuple[int, ...]:
        """Interceptions that reached the table together, in the order that counts them
        (rule 5): clockwise from the active player. Seats that may not intercept are left out.
        """
        callers = set(seats)
        return tuple(seat for seat in self._interceptors() if seat in callers) \
            if self.state.phase is PRIORITY else ()

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        check_seat(self.players, seat)
        return self._legal(seat)

    def _legal(self, seat: int) -> tuple[Action, ...]:
        state = self.state
        phase = state.phase
        if phase is PLAYING:
            if seat != state.active:
                return ()
            plays = self._plays
            return tuple(play for card in dict.fromkeys(state.hands[seat])
                         for play in plays[card])
        if phase is PRIORITY:
            if seat == state.priority:
                return _ANSWERS
            if seat != state.active and holds(state.hands[seat], Kind.INTERCEPTION):
                return (_INTERCEPT,)
            return ()
        if phase is DECIDING and seat == state.active:
            return _DECIDE
        return ()

    def window_key(self) -> tuple[object, ...] | None:
        state = self.state
        return window_key(state.phase, state.turns, state.priority)

    @classmethod
    def narrate(cls, event: Event, names: dict[int, str | None]) -> str:
        return narrate(event, names)

    def turn_seat(self) -> int | None:
        return self.state.active if self.state.phase is PLAYING else None

    def ending(self) -> str | None:
        last = self.state.events[-1] if self.over else None
        if not isinstance(last, Ended):
            return None
        return "tie-break" if last.tiebreak else last.reason

    def timeout_actions(self, seat: int) -> tuple[Action, ...]:
        state = self.state
        if state.phase is PLAYING and seat == state.active and state.hands[seat]:
            # A true claim (rule 9): the first Truth or Bluff card as what it is, else a
            # Wildcard (which matches any declaration), else an Interception (no declaration
            # is true of one: the only lie the timer tells, when nothing else is in hand).
            hand = state.hands[seat]
            card = next((c for c in hand if c.level is not None), None) or next(
                (c for c in hand if c.kind is Kind.WILDCARD), hand[0])
            if card.level is None:
                return (Play(card, Declaration(1, _TRUTH)),)
            return (Play(card, Declaration(card.level, card.kind)),)
        if state.phase is PRIORITY and seat == state.priority:
            return (_PASS,)
        if state.phase is DECIDING and seat == state.active:
            return (_KEEP,)
        return ()

    def own(self, seat: int) -> tuple[object, ...]:
        return own_facts(self.state, seat, self._legal(seat))

    def public_facts(self, claims: tuple[Event, ...]) -> dict[str, object]:
        return public_facts(self.state, claims, self.awaiting())

    # -- changing -----------------------------------------------------------------------

    def check_move(self, seat: int, action: Action) -> None:
        kind = type(action)
        if kind is Play:
            self._check_play(seat, action)  # type: ignore[arg-type]
        elif kind is Wild or kind is Keep:
            if self.state.phase is not DECIDING:
                raise errors.NoWildcard("a Wildcard is played only after an Interception")
            if seat != self.state.active:
                raise errors.NotYourTurn("the active player decides")
        else:
            self._check_answer(seat, action)

    def _check_play(self, seat: int, action: Play) -> None:
        """A card laid and declared: by the active player, while no claim waits."""
        state = self.state
        if state.phase is not PLAYING:
            raise errors.WindowOpen("wait until the claim is settled") if seat == state.active \
                else errors.NotYourTurn()
        if seat != state.active:
            raise errors.NotYourTurn()
        if action.card not in state.hands[seat]:
            raise errors.CardNotInHand(f"{action.card.describe()} is not in your hand")
        if action.declaration.level > self.options.max_level:
            raise errors.BadDeclaration(
                f"this deck's levels go from 1 to {self.options.max_level}")

    def _check_answer(self, seat: int, action: Action) -> None:
        """A pass, an acceptance, a challenge or an interception: while a claim waits; by
        the seat with priority, or (an interception) by another who holds one."""
        state = self.state
        if state.phase is not PRIORITY:
            raise errors.NoWindowOpen("no claim waits for an answer")
        if type(action) is Intercept:
            if seat == state.active:
                raise errors.NotAllowedInWindow("you cannot challenge your own claim")
            if seat == state.priority:
                raise errors.NotAllowedInWindow("you hold priority: challenge it plainly")
            if not holds(state.hands[seat], Kind.INTERCEPTION):
                raise errors.NoInterception()
            return
        if seat != state.priority:
            if seat == state.active:
                raise errors.NotAllowedInWindow("you cannot answer your own claim")
            raise errors.NotYourTurn(f"priority is with seat {(state.priority or 0) + 1}")

    def _do(self, seat: int, action: Action) -> None:
        """Apply a checked action. Never call this with an action :meth:`check` refused."""
        state = self.state
        kind = type(action)
        if kind is Play:
            assert isinstance(action, Play)
            state.hands[seat].remove(action.card)
            state.card, state.declaration = action.card, action.declaration
            state.turns += 1
            state.round_claims += 1
            state.phase = PRIORITY
            state.priority = self._round[seat][0]
            state.passed = []
            state.events.append(Played(seat, action.declaration, action.card, seal(
                self.seed, f"{state.version} {seat} {action.card}")))
        elif kind is Pass:
            state.passed.append(seat)
            state.events.append(Passed(seat))
            following = self._round[seat][0]
            if following == state.active:
                self._stand(None)
            else:
                state.priority = following
        elif kind is Accept:
            self._stand(seat)
        elif kind is Challenge or kind is Intercept:
            self._challenge(seat, kind is Intercept)
        else:  # Wild or Keep
            assert state.challenger is not None
            self._settle(state.challenger, kind is Wild)

    def _stand(self, by: int | None) -> None:
        state = self.state
        assert state.card is not None and state.declaration is not None
        record = Stood(state.active, state.declaration, by)
        state.events.append(record)
        state.records.append(record)
        state.score[state.active] += state.declaration.level  # scored as declared (rule 6)
        state.vault.append(state.card)
        state.card = None
        self._draw(state.active, 1)
        self._clean_up()

    def _challenge(self, seat: int, intercept: bool) -> None:
        state = self.state
        card, declaration = state.card, state.declaration
        assert card is not None and declaration is not None
        state.events.append(Challenged(seat, intercept))
        if intercept:
            self._discard(seat, Kind.INTERCEPTION)
        matches = card.matches(declaration)
        state.events.append(Revealed(state.active, card, matches))
        state.challenger, state.intercept, state.priority = seat, intercept, None
        if intercept and not matches and holds(state.hands[state.active], Kind.WILDCARD):
            state.phase = DECIDING
            return
        self._settle(seat, False)



def _cards(hand: Sequence[Card] | str) -> list[Card]:
    if isinstance(hand, str):
        return [Card.parse(code) for code in hand.replace(",", " ").split()]
    return list(hand)


def _take(rest: Counter[Card], card: Card) -> bool:
    rest[card] -= 1
    return True

