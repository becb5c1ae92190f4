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
        rank = view.rank
        true = [card for card in hand if card.rank is rank][:room]
        if not true:
            return [lay(self.bluff(view)), ANNOUNCE]
        if len(true) == 1 and room > 1 and len(hand) > 2 and self._pad(view) \
                and self.rng.random() < self.pad_chance:
            spare = [card for card in hand if card.rank is not rank]
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
        before it must shed every other card (:func:`_first_turn`). Of the plans that fit,
        the one with the fewest turns that lie (each costing ``lie_cost`` turns) wins."""
        hand, largest, lie_cost = view.hand, view.options.max_claim, self.lie_cost
        ranks = ranks_to_come(view)
        held: dict[Rank, list[Card]] = {}
        for card in hand:
            held.setdefault(card.rank, []).append(card)
        # How the turns before the last would go (counted, not laid out: :func:`_first_turn`):
        # how many have none of their own rank (each lays one other card, a lie), how many
        # could take one other card with their own (a lie too), and how many cards of
        # their own ranks they lay.
        empty = padded = owned = 0
        best: tuple[float, int, bool] | None = None
        for last, rank in enumerate(ranks):
            if best is not None and last >= best[0]:
                break  # (a plan this long costs at least what the best so far does)
            keep = held.get(rank)
            if keep and len(keep) <= largest:
                if last == 0:
                    if len(keep) == len(hand):
                        return keep  # out now, truly
                else:
                    spare = len(hand) - len(keep) - owned - empty  # (the others, still)
                    if 0 <= spare <= padded:
                        cost = (empty + spare) * lie_cost + last
                        if best is None or cost < best[0]:
                            best = (cost, last, spare == padded)
            own = len(keep) if keep else 0
            if own == 0:
                empty += 1
            else:
                padded += own < largest
                owned += min(own, largest)
        if best is None:
            return None
        _, last, every = best
        return _first_turn(hand, held, ranks[: last + 1], largest, every)


def _first_turn(hand: Sequence[Card], held: dict[Rank, list[Card]], ranks: Sequence[Rank],
                largest: int, every: bool) -> list[Card]:
    """This turn's cards in a plan whose turns ask for ``ranks``, the last one kept for the
    true last claim: the other cards are spread over the turns before it, each laying its
    own rank's cards (at most a claim's worth) and one other card at most, a turn with none
    of its own one other card. The others are what is left of the hand, in its order; the
    turns with none of their own take them from its end, first turn first, and then the
    turns with room take them from the end too, the latest turn first, so this turn's
    own cards get one other card only when ``every`` turn with room does, and then the
    first of the others."""
    own = held.get(ranks[0], [])[:largest]
    before, kept = set(ranks[:-1]), ranks[-1]
    laid: dict[Rank, int] = {}
    others = []
    for card in hand:
        rank = card.rank
        if rank is kept:
            continue
        if rank in before:
            count = laid.get(rank, 0)
            laid[rank] = count + 1
            if count < largest:
                continue  # (its turn's own card)
        others.append(card)
    if not own:
        return [others[-1]]
    return own + others[:1] if every and len(own) < largest else own
