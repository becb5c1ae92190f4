"""How a claim of I Doubt It is announced and settled: the window's answers, a doubt's
showdown, the pile taken up, a game won or stalled (docs/rules.md, rules 4 to 8)."""

from __future__ import annotations

from ..cards import Rank, sort_key
from .actions import (
    Claim,
)
from .events import Resolved, Won
from .state import LAYING, OVER, WINDOW, State

_CLAIMS = {(count, rank): Claim(count, rank) for count in range(1, 9) for rank in Rank}


class Settling:
    """The part of :class:`~.game.IDoubtIt` that announces and settles claims."""

    state: State
    players: int
    #: Each seat's clockwise order of the others; whether every claim opens a window; the
    #: settled claims since the fewest cards last fell that stall a game (rule 8).
    _clockwise: tuple[tuple[int, ...], ...]
    _window_always: bool
    _stale_claims: int

    def _announce(self, seat: int) -> None:
        state = self.state
        state.claim = _CLAIMS[len(state.laid), state.rank]
        state.claimer = seat
        state.claim_cards, state.laid = state.laid, []
        state.turns += 1
        rank = state.rank
        for card in state.claim_cards:
            if card.rank is not rank:
                state.bluffs[seat] += 1
                break
        if self._window_always or not state.hands[seat]:
            # A claim that empties the hand is always answered in a window, so it cannot
            # stay open forever waiting for a lay that the next player need never make.
            state.phase = WINDOW
            state.window = self._clockwise[seat]
        else:
            state.turn = (seat + 1) % self.players

    def _settle_window(self) -> None:
        """Settle the window as soon as its outcome is certain (docs/rules.md, rule 5)."""
        answers = self.state.answers
        for seat in self.state.window:
            answer = answers.get(seat)
            if answer is None:
                return
            if answer:
                self._resolve(seat)
                return
        self._resolve(None)

    def _resolve(self, doubter: int | None) -> None:
        state = self.state
        claim, claimer, cards = state.claim, state.claimer, state.claim_cards
        assert claim is not None and claimer is not None
        honest: bool | None = None
        taker: int | None = None
        taken = 0
        if doubter is None:
            state.pile.extend(cards)
            state.pile_by_seat[claimer].extend(cards)
        else:
            honest = all(card.rank is claim.rank for card in cards)
            taker = doubter if honest else claimer
            taken = len(state.pile) + len(cards)
            hand = state.hands[taker]
            hand.extend(state.pile)
            hand.extend(cards)
            hand.sort(key=sort_key)
            state.changed[taker] = state.version + 1
            state.pile = []
            state.pile_by_seat = [[] for _ in range(self.players)]
        next_rank = state.rank.next()
        shown = None if doubter is None else tuple(cards)
        record = Resolved(claimer, claim, shown, doubter, honest, taker, taken, next_rank)
        state.events.append(record)
        state.records.append(record)
        state.claim, state.claimer, state.claim_cards, state.window = None, None, [], ()
        if state.answers:
            state.answers = {}
        if not state.hands[claimer]:
            state.winner = claimer
            state.phase = OVER
            state.events.append(Won(claimer, tuple(state.bluffs), False))
            return
        fewest = min(map(len, state.hands))
        if fewest < state.low:
            state.low, state.stale = fewest, 0
        else:
            state.stale += 1
            if state.stale >= self._stale_claims:
                self._stalemate()
                return
        state.rank = next_rank
        state.phase = LAYING
        state.turn = (claimer + 1) % self.players


    def _stalemate(self) -> None:
        """Rule 8: the game went nowhere; the fewest cards win, and of those the hand that
        has held its count longest (never the seat's number)."""
        state = self.state
        winner = min(range(self.players),
                     key=lambda seat: (len(state.hands[seat]), state.changed[seat], seat))
        state.winner = winner
        state.phase = OVER
        state.events.append(Won(winner, tuple(state.bluffs), True))
