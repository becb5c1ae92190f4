"""``sharp``: an honest last claim, padded true claims, and doubts only what is certain.

What it does beyond ``counter`` (docs/bots.md, with the measurements behind each choice):

- **An exact endgame.** With :data:`ENDGAME` cards or fewer it plans every turn to its last:
  the ranks it will be asked for are known (one step round the table per claim), so it
  picks the turn whose rank it holds to be its last claim, true (a claim that empties a hand
  is always doubted by a careful player, so only a true one wins), and sheds the rest on
  the turns before with as few lies as it can: on each, the cards of that turn's rank and
  one other card at most.
- **Padding.** A true claim of one card gets a second card, of a rank it will not be asked
  for soon, when its claims of two have seldom been doubted (it learns how often each of its
  claim sizes is doubted, over the match).
- **Doubts only what is certain**: a claim that the cards it has seen make impossible, and
  a claim that would win (if it is true the game is over anyway). Doubting on the odds was
  measured to lose, whatever the odds' model (docs/bots.md).
- It counts cards as ``counter`` does, and bluffs as it does, with the card whose rank it
  will be asked for furthest in the future.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ...rules import Action, Card, Rank, TableView
from ...rules.idoubtit import ANNOUNCE, Resolved, lay
from ...rules.seeds import Seed
from .counter import CounterBot, Memory, ranks_to_come, wait_key

#: With this many cards or fewer, the turns to the last are planned (:meth:`SharpBot.plan`).
#: Measured (docs/bots.md): 3 wins 0.44 of the games against three ``counter``, 7 wins 0.51,
#: 11 wins 0.40 (the plans lie more often than the hand needs to).
ENDGAME = 7


class SharpBot(CounterBot):
    """Plans an honest last claim, pads true claims while that is safe, and doubts only
    impossible and winning claims."""

    name = "sharp"
    about = "counts cards, pads claims, ends on a true one"
    #: A claim of one card is padded when the chance that its claims of two are doubted,
    #: times the cards a doubt would cost, is below this.
    pad_risk = 2.0
    #: Of the claims that may be padded, the share that are (a bot that always pads is
    #: read sooner).
    pad_chance = 0.75
    #: In the endgame plan: what a turn with a lie in it costs, against one turn more.
    lie_cost = 2.5

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        #: This seat's own claims, and how many were doubted, by size (over the match).
        self._claims: Counter[int] = Counter()
        self._doubted: Counter[int] = Counter()

    def reading(self, memory: Memory, view: TableView, record: Resolved) -> None:
        """Learn how often this seat's claims of each size are doubted."""
        if record.seat == view.seat:
            self._claims[record.claim.count] += 1
            self._doubted[record.claim.count] += record.doubter is not None

    # -- doubting -----------------------------------------------------------------------

    def doubts(self, view: TableView) -> bool:
        """Doubt a claim that would win, and one the cards seen make impossible."""
        claim, claimer = view.claim, view.claimer
        if claim is None or claimer is None:
            return False
        return view.hand_sizes[claimer] == 0 or self.chance_true(view) == 0.0

    # -- laying -------------------------------------------------------------------------

    def turn(self, view: TableView) -> list[Action]:
        self.remember(view)
        room = view.options.max_claim - view.laid
        if view.laid or room <= 0:
            return super().turn(view)  # (a turn begun by someone else: finish it plainly)
        hand = view.hand
        if len(hand) <= ENDGAME:
            planned = self.plan(view)
            if planned is not None:
                return [*map(lay, planned), ANNOUNCE]
        true = [card for card in hand if card.rank is view.rank][:room]
        if not true:
            return [lay(self.bluff(view)), ANNOUNCE]
        if len(true) == 1 and room > 1 and len(hand) > 2 and self._pad(view) \
                and self.rng.random() < self.pad_chance:
            spare = [card for card in hand if card.rank is not view.rank]
            true.append(max(spare, key=wait_key(view)))
        return [*map(lay, true), ANNOUNCE]

    def _pad(self, view: TableView) -> bool:
        """Whether padding a claim of one card to two is worth the risk: the chance its
        claims of two are doubted (learnt), times the cards a doubt would cost."""
        doubted = (self._doubted[2] + 1.0) / (self._claims[2] + 3.0)
        return doubted * (view.pile + 2) < self.pad_risk

    def plan(self, view: TableView) -> list[Card] | None:
        """The cards to lay now on the way to a true last claim. Each turn to come whose
        rank this seat holds (no more than a claim holds) could be the last; the turns
        before it must shed every other card (:func:`_shed`). Of the plans that fit, the one
        with the fewest turns that lie (each costing ``lie_cost`` turns) wins."""
        hand, largest = view.hand, view.options.max_claim
        ranks = ranks_to_come(view)
        best: tuple[float, list[Card]] | None = None
        for last, rank in enumerate(ranks):
            keep = [card for card in hand if card.rank is rank]
            if not keep or len(keep) > largest:
                continue
            rest = [card for card in hand if card.rank is not rank]
            if last == 0:
                if not rest:
                    return keep  # out now, truly
                continue
            shed = _shed(rest, ranks[:last], largest)
            if shed is None:
                continue
            now, lies = shed
            cost = lies * self.lie_cost + last
            if best is None or cost < best[0]:
                best = (cost, now)
        return None if best is None else best[1]


def _shed(rest: list[Card], ranks: Sequence[Rank],
          largest: int) -> tuple[list[Card], int] | None:
    """Spread ``rest`` over turns asking for ``ranks``: each turn lays its own rank's cards
    and one other card at most (a lie: a bluff of one card, or a true claim padded with
    one); a turn with none of its own lays one other card. The others go to the latest turns
    first. Returns this turn's cards and how many turns lie; None when the cards do not fit
    the turns."""
    spare = list(rest)
    turns: list[list[Card]] = []
    for rank in ranks:
        own = [card for card in spare if card.rank is rank][:largest]
        for card in own:
            spare.remove(card)
        turns.append(own)
    lies = 0
    for cards in turns:
        if not cards:
            if not spare:
                return None
            cards.append(spare.pop())
            lies += 1
    for rank, cards in reversed(list(zip(ranks, turns, strict=True))):
        if spare and len(cards) < largest and all(card.rank is rank for card in cards):
            cards.append(spare.pop())
            lies += 1
    if spare:
        return None
    return turns[0], lies
