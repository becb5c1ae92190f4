"""How a claim's end moves an I Know You Don't match on: a showdown settled, hands filled,
a round scored and the next one dealt, the vault shuffled into a new draw pile, the match
ended (docs/rules-iknowyoudont.md, rules 7, 8 and 10)."""

from __future__ import annotations

from ..seeds import derive, shuffle
from . import scorepad
from .cards import Card, Kind, sort_key
from .events import (
    Drew,
    Ended,
    Reshuffled,
    RoundEnded,
    Showdown,
    Started,
)
from .options import Options
from .state import HAND, OVER, PLAYING, State


class Rounds:
    """The part of :class:`~.game.IKnowYouDont` that moves a match on once a claim ends."""

    state: State
    players: int
    opener: int
    options: Options
    #: The secret every shuffle is drawn from; each seat's clockwise order of the others,
    #: ending with itself; the claims a round lasts at least (rule 10).
    seed: bytes
    _round: list[tuple[int, ...]]
    _round_claims: int

    def _settle(self, challenger: int, wild: bool) -> None:
        state = self.state
        active, card, declaration = state.active, state.card, state.declaration
        assert card is not None and declaration is not None
        if wild:
            self._discard(active, Kind.WILDCARD)
        if wild or card.matches(declaration):
            winner, loser = active, challenger
        else:
            winner, loser = challenger, active
        state.piles[winner].append(card)
        state.score[winner] += declaration.level
        state.card = None
        state.tokens[loser] -= 1
        state.pot += 1
        if winner == active:
            self._draw(challenger, 2)
        if state.pot:
            state.pot -= 1
            state.tokens[winner] += 1
        record = Showdown(active, declaration, card, challenger, state.intercept, wild,
                          winner, loser)
        state.events.append(record)
        state.records.append(record)
        if state.tokens[loser] == 0:
            self._end_round(broke=True)
        else:
            self._clean_up()


    def _clean_up(self) -> None:
        """Rule 7: fill every hand up to 5, then the active role passes on."""
        state = self.state
        order = self._round[state.active]
        for seat in (order[-1], *order[:-1]):  # the active player first
            missing = HAND - len(state.hands[seat])
            if missing > 0:
                self._draw(seat, missing)
        state.card = state.declaration = state.priority = state.challenger = None
        state.passed, state.intercept = [], False
        following = next((seat for seat in order if state.hands[seat]), None)
        if following is None or state.round_claims >= self._round_claims:
            self._end_round()
            return
        state.active, state.phase = following, PLAYING

    def _end_round(self, broke: bool = False) -> None:
        """Rule 10: the round's round points give victory points; the match ends (``broke``:
        a player lost their last token), or the next round is dealt."""
        state = self.state
        points = tuple(state.score)
        state.pad.append(points)
        state.awards.append(scorepad.awards(points))
        state.score = [0] * self.players
        state.events.append(RoundEnded(state.round, points, state.awards[-1], state.victory))
        reason = scorepad.ending(state, self.options.rounds, broke)
        if reason is not None:
            self._end(reason)
            return
        # The next round: the whole deck shuffled again, dealt from the seat after the last
        # round's first active player; tokens and the scorepad carry over.
        state.round += 1
        state.round_claims = 0
        cards = self.options.cards()
        shuffle(cards, derive(self.seed, f"round {state.round}"))
        opener = (self.opener + state.round - 1) % self.players
        hands = scorepad.deal(cards, self.players, opener)
        state.hands, state.draw, state.vault = hands, cards, []
        state.piles = [[] for _ in range(self.players)]
        state.active, state.phase = opener, PLAYING
        state.events.append(Started(opener, tuple(map(tuple, hands)), tuple(map(len, hands)),
                                    len(cards), tuple(state.tokens)))

    def _draw(self, seat: int, count: int) -> None:
        state = self.state
        drawn: list[Card] = []
        for _ in range(count):
            if not state.draw:
                if not state.vault:
                    break
                state.reshuffles += 1
                state.draw, state.vault = state.vault, []
                shuffle(state.draw, derive(self.seed, f"vault {state.reshuffles}"))
                state.events.append(Reshuffled(len(state.draw)))
            drawn.append(state.draw.pop())
        if drawn:
            hand = state.hands[seat]
            hand.extend(drawn)
            hand.sort(key=sort_key)
            state.events.append(Drew(seat, len(drawn), tuple(drawn)))

    def _discard(self, seat: int, kind: Kind) -> None:
        hand = self.state.hands[seat]
        card = next(card for card in hand if card.kind is kind)
        hand.remove(card)
        self.state.vault.append(card)

    def _end(self, reason: str) -> None:
        """The match is over (rule 8)."""
        state = self.state
        winner, state.tiebreak = scorepad.winner(state, self._round[state.active])
        state.winner, state.reason, state.phase = winner, reason, OVER
        state.card = state.declaration = state.priority = state.challenger = None
        state.passed, state.intercept = [], False
        state.events.append(Ended(winner, reason, state.victory, tuple(state.tokens),
                                  state.tiebreak))


def holds(hand: list[Card], kind: Kind) -> bool:
    """Whether ``hand`` holds a card of ``kind``."""
    return any(card.kind is kind for card in hand)
