"""The engine of Skull (docs/rules-skull.md). Pure logic: no I/O, no clock.

Every player has three Flowers and a Skull. A round opens with each player laying a disc
face down on their own stack; then, in turn, a player lays another or bids how many discs
they will turn over, all Flowers. The others raise or pass until one bidder is left, who
turns their own stack first, then the top discs of the stacks they choose. All Flowers: a
point, and two win. A Skull: the bidder loses one of their discs at random, for good, and
a player with none left is out. The last player with discs wins too.

>>> game = Skull(3, seed=1)
>>> for seat in range(3):
...     _ = game.apply(seat, Place(FLOWER))
>>> game.view(0).phase.value, game.view(0).stacks, [a.text for a in game.view(0).legal][:3]
('laying', (1, 1, 1), ['place F', 'place S', 'bid 1'])
"""

from __future__ import annotations

from collections.abc import Mapping

from ..base import Action, Event, Game
from ..errors import CardNotInHand
from ..seeds import Seed, derive, seal, seed_bytes, shuffle
from ..told import Told, who
from ..turns import OneAtATime
from ..words import Words
from .actions import ACTIONS, PASS, PLACE, Bid, Pass, Place, Turn
from .cards import DISCS, FLOWER, SKULL, Disc, in_order
from .errors import BadBid, NoSuchStack, NotNow
from .events import BidMade, Lost, Passed, Placed, Round, Settled, Turned, Won
from .options import Options
from .state import BIDDING, LAYING, OPENING, OVER, TURNING, State
from .told import tell, verdict
from .view import TableView, redact


class Skull(OneAtATime, Game[Options, TableView]):
    """One game of Skull, from the first disc laid to the winner."""

    state: State

    name, title = "skull", "Skull"
    description = "lay Flowers or your Skull face down, bid to turn Flowers, and don't " \
        "find a Skull"
    actions = ACTIONS
    events = (Round, Placed, BidMade, Passed, Turned, Settled, Lost, Won)
    words = Words(challenge="", challenged="", challenges="", challenger="",
                  bluff="failed bid", bluffs="failed bids", claim="bid", claims="bids",
                  claimed="bid", held=("made", "failed"), unheld="failed", laid="")
    redact = staticmethod(redact)
    tell = staticmethod(tell)

    @classmethod
    def verdict(cls, told: Told, names: Mapping[int, str]) -> tuple[str, str]:
        return verdict(told, names)

    def __init__(self, players: int, options: Options | None = None, *,
                 seed: Seed | None = None, opener: int = 0) -> None:
        options = self.rules_for(players, options, opener)
        self.players, self.options, self.opener = players, options, opener
        #: The secret every lost disc is drawn with, and every laid disc sealed with.
        self.seed = seed_bytes(seed)
        self.state = State(players, options, opener, [list(DISCS) for _ in range(players)],
                           [[] for _ in range(players)], [0] * players, [0] * players)
        self._begin_round(opener)

    # -- reading ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.phase is OVER

    def active_seat(self) -> int | None:
        return None if self.state.phase is OVER else self.state.active

    def moves(self, seat: int) -> tuple[Action, ...]:
        state = self.state
        if state.phase is OVER or seat != state.active:
            return ()
        phase = state.phase
        if phase is TURNING:
            return tuple(Turn(owner) for owner in self._stacks_to_turn())
        if phase is BIDDING:
            return (*map(Bid, range(state.bid + 1, state.on_table() + 1)), PASS)
        places = tuple(PLACE[disc] for disc in dict.fromkeys(in_order(state.hands[seat])))
        if phase is OPENING:
            return places
        return (*places, *map(Bid, range(1, state.on_table() + 1)))

    def _stacks_to_turn(self) -> list[int]:
        """The stacks the bidder may turn a disc of: the others' that have one face down."""
        state = self.state
        return [owner for owner in range(self.players) if owner != state.bidder
                and len(state.turned[owner]) < len(state.stacks[owner])]

    def timeout_actions(self, seat: int) -> tuple[Action, ...]:
        """Time's up: a Flower laid if the hand holds one (else the Skull, else the least
        bid), a pass in the bidding, the first stack clockwise turned."""
        moves = self.moves(seat)
        if not moves:
            return ()
        if self.state.phase is BIDDING:
            return (PASS,)
        return (PLACE[FLOWER],) if PLACE[FLOWER] in moves else moves[:1]

    def ending(self) -> str | None:
        if not self.over:
            return None
        return "points" if self.state.points[self.state.winner or 0] >= \
            self.options.points else "standing"

    def own(self, seat: int) -> tuple[object, ...]:
        state = self.state
        return in_order(state.hands[seat]), tuple(state.stacks[seat]), self.moves(seat)

    def public_facts(self, claims: tuple[Event, ...]) -> dict[str, object]:
        state = self.state
        return dict(
            phase=state.phase, round=state.round, first=state.first, active=state.active,
            stacks=tuple(map(len, state.stacks)),
            discs=tuple(state.discs(seat) for seat in range(self.players)),
            points=tuple(state.points), bid=state.bid, bidder=state.bidder,
            passed=tuple(state.passed), turned=tuple(map(tuple, state.turned)),
            winner=state.winner, record=claims, awaiting=self.awaiting())

    @classmethod
    def narrate(cls, event: Event, names: dict[int, str | None]) -> str:
        named = {seat: name for seat, name in names.items() if name}
        if isinstance(event, Settled):
            bidder = who(event.seat, named)
            if event.made:
                return f"{bidder} turned {event.count} Flowers: a point."
            owner = "their own" if event.skull == event.seat else f"{who(event.skull, named)}'s"
            return f"{bidder} bid {event.count} and turned {owner} Skull: a disc lost."
        if isinstance(event, Lost) and event.left == 0:
            return f"{who(event.seat, named)} is out."
        return f"{who(event.seat, named)} wins." if isinstance(event, Won) else ""

    # -- changing -----------------------------------------------------------------------

    def check_turn(self, seat: int, action: Action) -> None:
        kind, state = type(action), self.state
        phase = state.phase
        if kind is Place:
            if phase not in (OPENING, LAYING):
                raise NotNow("the discs are laid: bid, pass or turn")
            if action.disc not in state.hands[seat]:  # type: ignore[attr-defined]
                raise CardNotInHand(f"you have no {action.disc.title} in hand")  # type: ignore[attr-defined]
        elif kind is Bid:
            self._check_bid(action.count)  # type: ignore[attr-defined]
        elif kind is Pass:
            if phase is not BIDDING:
                raise NotNow("nobody is bidding: there is nothing to pass")
        elif phase is not TURNING:
            raise NotNow("turn discs over once you win the bidding")
        elif action.seat not in self._stacks_to_turn():  # type: ignore[attr-defined]
            raise NoSuchStack()

    def _check_bid(self, count: int) -> None:
        state = self.state
        if state.phase not in (LAYING, BIDDING):
            raise NotNow("every player lays a disc before anyone bids" if state.phase is
                         OPENING else "the bidding is over")
        most = state.on_table()
        if not state.bid < count <= most:
            raise BadBid(f"bid {state.bid + 1} to {most}" if state.bid < most else None)

    def _do(self, seat: int, action: Action) -> None:
        """Apply a checked action. Never call this with an action :meth:`check` refused."""
        kind = type(action)
        if kind is Place:
            self._place(seat, action.disc)  # type: ignore[attr-defined]
        elif kind is Bid:
            self._bid(seat, action.count)  # type: ignore[attr-defined]
        elif kind is Pass:
            self._pass(seat)
        else:
            self._turn(action.seat)  # type: ignore[attr-defined]

    def _begin_round(self, first: int) -> None:
        """Every disc back in its player's hand; ``first`` lays first."""
        state = self.state
        state.round += 1
        for seat in range(self.players):
            state.hands[seat] = list(in_order(state.hands[seat] + state.stacks[seat]))
            state.stacks[seat] = []
        state.turned = [[] for _ in range(self.players)]
        state.phase, state.first, state.active = OPENING, first, first
        state.bid, state.bidder, state.passed = 0, None, []
        state.events.append(Round(state.round, first, tuple(
            state.discs(seat) for seat in range(self.players))))

    def _next(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that is still in the game and, while the
        bidding goes on, has not passed."""
        state = self.state
        skip = state.passed if state.phase is BIDDING else ()
        for step in range(1, self.players + 1):
            number = (seat + step) % self.players
            if state.discs(number) and number not in skip:
                return number
        return seat

    def _place(self, seat: int, disc: Disc) -> None:
        state = self.state
        state.hands[seat].remove(disc)
        state.stacks[seat].append(disc)
        state.turns += 1
        state.events.append(Placed(seat, disc, seal(
            self.seed, f"{state.version} {seat} {len(state.stacks[seat])} {disc}")))
        following = self._next(seat)
        if state.phase is OPENING and following == state.first:
            state.phase = LAYING  # (every player has laid their first disc)
        state.active = following

    def _bid(self, seat: int, count: int) -> None:
        state = self.state
        state.phase, state.bid, state.bidder = BIDDING, count, seat
        state.turns += 1
        state.events.append(BidMade(seat, count))
        if count == state.on_table() or self._next(seat) == seat:
            self._start_turning()
        else:
            state.active = self._next(seat)

    def _pass(self, seat: int) -> None:
        state = self.state
        state.passed.append(seat)
        state.events.append(Passed(seat))
        if self._next(seat) == state.bidder and len(self._bidding()) == 1:
            self._start_turning()
        else:
            state.active = self._next(seat)

    def _bidding(self) -> list[int]:
        """The seats still in the bidding."""
        state = self.state
        return [seat for seat in state.in_game() if seat not in state.passed]

    def _start_turning(self) -> None:
        """The bidding is won: the bidder turns their own stack first, top down, as far as
        the bid goes, then chooses."""
        state = self.state
        assert state.bidder is not None
        state.phase, state.active = TURNING, state.bidder
        for _ in range(min(state.bid, len(state.stacks[state.bidder]))):
            if self._turned(state.bidder):
                return

    def _turn(self, owner: int) -> None:
        self._turned(owner)

    def _turned(self, owner: int) -> bool:
        """The bidder turns ``owner``'s top face-down disc; True once the bid is settled."""
        state = self.state
        bidder = state.bidder
        assert bidder is not None
        stack, turned = state.stacks[owner], state.turned[owner]
        disc = stack[len(stack) - 1 - len(turned)]
        turned.append(disc)
        state.events.append(Turned(bidder, owner, disc))
        if disc is SKULL:
            self._settle(made=False, skull=owner)
            return True
        if sum(map(len, state.turned)) == state.bid:
            self._settle(made=True, skull=None)
            return True
        return False

    def _settle(self, made: bool, skull: int | None) -> None:
        state = self.state
        bidder = state.bidder
        assert bidder is not None
        if made:
            state.points[bidder] += 1
        record = Settled(bidder, state.bid, tuple(map(tuple, state.turned)), made, skull,
                         state.points[bidder])
        state.records.append(record)
        state.events.append(record)
        if made:
            if state.points[bidder] >= self.options.points:
                self._win(bidder)
            else:
                self._begin_round(bidder)
            return
        self._lose_disc(bidder)
        standing = state.in_game()
        if len(standing) == 1:
            self._win(standing[0])
        elif state.discs(bidder):
            self._begin_round(bidder)
        else:  # (out: the Skull's owner lays first, or the next in after an own Skull)
            self._begin_round(skull if skull != bidder and skull is not None
                              else self._next(bidder))

    def _lose_disc(self, seat: int) -> None:
        """``seat`` loses one of its discs, drawn at random, for good."""
        state = self.state
        discs = list(in_order(state.hands[seat] + state.stacks[seat]))
        shuffle(discs, derive(self.seed, f"lost {state.round}"))
        lost = discs.pop()
        state.hands[seat], state.stacks[seat] = discs, []
        state.lost[seat] += 1
        state.events.append(Lost(seat, lost, len(discs)))

    def _win(self, seat: int) -> None:
        state = self.state
        state.phase, state.winner = OVER, seat
        state.events.append(Won(seat, state.points[seat]))
