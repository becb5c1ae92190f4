"""``counter``: counts cards, weighs every claim, bluffs with what it will not need soon."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from math import comb
from operator import attrgetter

from ...rules import Action, Card, Rank, TableView
from ...rules.idoubtit import Resolved
from ...rules.seeds import Seed
from .base import TruthTeller


class Record:
    """How honest each seat's shown claims have been, over every game of a match: claims of
    one card and claims of several are counted apart."""

    def __init__(self) -> None:
        self.shown: Counter[tuple[int, bool]] = Counter()
        self.honest: Counter[tuple[int, bool]] = Counter()

    def add(self, seat: int, wide: bool, honest: bool) -> None:
        self.shown[seat, wide] += 1
        self.honest[seat, wide] += honest


class Memory:
    """What one seat has learnt from the settled claims it has seen.

    Counts are per rank (with two decks a card exists twice): how many cards of each rank
    are known to lie in the pile (those this seat put there), and known to be in each other
    seat's hand (cards seen going there with a pile).
    """

    def __init__(self, players: int, first: Resolved | None, record: Record) -> None:
        #: The game's first settled claim, to tell one game from the next.
        self.first = first
        self.seen = 0
        self.pile: Counter[Rank] = Counter()
        #: The cards ``pile`` was counted from (the view's ``my_pile``).
        self.pile_cards: tuple[Card, ...] | None = None
        self.held: list[Counter[Rank]] = [Counter() for _ in range(players)]
        self.record = record

    def learn(self, me: int, record: Resolved) -> None:
        seat, claim = record.seat, record.claim
        if record.shown is None:
            held = self.held[seat]
            if held and seat != me:  # any card we knew they held may be among those laid
                count = claim.count
                for rank, known in list(held.items()):
                    if known > count:
                        held[rank] = known - count
                    else:
                        del held[rank]  # (none known: as good as 0, and quicker to count)
            return
        assert record.taker is not None
        self.record.add(seat, claim.count > 1, bool(record.honest))
        if seat != me:
            held = self.held[seat]
            for card in record.shown:
                if held[card.rank]:
                    held[card.rank] -= 1
        if record.taker != me:  # the cards we knew of in the pile went with it
            taker = self.held[record.taker]
            taker.update(self.pile)
            taker.update(card.rank for card in record.shown)
        self.pile.clear()
        self.pile_cards = None


class CounterBot(TruthTeller):
    """Counts cards.

    It doubts every claim that is impossible given what it holds and has seen, and every
    claim that would win the game. Otherwise it estimates the chance that the claim is true
    (from how many cards of the rank the claimer can hold, given everything it knows, and
    how honest the claimer's shown claims have been) and doubts when that is low enough.
    It tells the truth when it can; when it must bluff it lays one card, of the rank that it
    would need furthest in the future.
    """

    name = "counter"
    about = "counts cards; doubts what they make unlikely"
    #: How much less likely a truth-teller is to bluff with several cards than with one.
    wide_bluffs = 0.005
    #: How many shown claims the truth-teller reading is worth.
    prior_weight = 2.0
    #: What cards put on another player are worth to this seat, against cards it takes.
    #: Measured with ``doubtlan tourney`` (docs/bots.md): higher doubts more, and loses more.
    weight = 0.15

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        self._memory: Memory | None = None
        self._record = Record()
        #: The view the memory was last brought up to date with: a decision asks for it
        #: several times (its turn, its doubt, the chance a claim is true), once is enough.
        self._remembered: TableView | None = None

    # -- doubting -----------------------------------------------------------------------

    def act(self, view: TableView) -> Sequence[Action]:
        if view.seat is not None:
            self.remember(view)  # every view it sees, so that no pile it knew of is missed
        return super().act(view)

    def remember(self, view: TableView) -> Memory:
        """Bring the memory up to date with the view (starting afresh in a new game)."""
        assert view.seat is not None
        memory = self._memory
        if view is self._remembered and memory is not None:
            return memory  # (the same decision's view: nothing new in it)
        claims = view.record
        first = claims[0] if claims else None
        if memory is None or memory.seen > len(claims) or (memory.first is not first
                                                           and memory.first != first):
            memory = self._memory = Memory(view.players, first, self._record)
        if memory.seen < len(claims):
            for record in claims[memory.seen :]:
                self.reading(memory, view, record)
                memory.learn(view.seat, record)
            memory.seen = len(claims)
        pile, before = view.my_pile, memory.pile_cards
        if pile != before:  # (its cards joined the pile, or the pile was taken)
            if before is not None and pile[:len(before)] == before:
                memory.pile.update(map(_rank_of, pile[len(before):]))
            else:
                memory.pile = Counter(map(_rank_of, pile))
            memory.pile_cards = pile
        self._remembered = view
        return memory

    def reading(self, memory: Memory, view: TableView, record: Resolved) -> None:
        """Called with each settled claim before the memory learns it (for a strategy that
        reads more into the claims than the cards seen)."""

    def chance_true(self, view: TableView) -> float:
        """The chance that the claim waiting to be settled is true.

        It starts from a reading of the claimer as a truth-teller (who lays every card of
        the rank it holds and bluffs with one card when it has none), weighing how many
        cards of the rank the claimer can hold given this seat's hand and what it has seen.
        That reading is then corrected by how honest the claimer's claims of that size
        (one card, or several) turned out to be when they were shown.
        """
        claim, claimer, me = view.claim, view.claimer, view.seat
        assert claim is not None and claimer is not None and me is not None
        memory = self.remember(view)
        count = claim.count
        odds = holding(memory, view.hand, me, claimer, claim.rank,
                       view.hand_sizes[claimer] + count, 4 * view.options.decks)
        if count >= len(odds):
            return 0.0  # impossible
        truthful = sum(odds[count:]) if count >= view.options.max_claim else odds[count]
        bluff = odds[0] * (1.0 if count == 1 else self.wide_bluffs)
        teller = truthful / (truthful + bluff) if truthful + bluff > 0 else 0.0
        key = (claimer, count > 1)
        honest, shown = self._record.honest[key], self._record.shown[key]
        return (honest + self.prior_weight * teller) / (shown + self.prior_weight)

    def doubts(self, view: TableView) -> bool:
        """Doubt a claim that is impossible or would win; otherwise when doubting pays.

        Doubting wrongly costs this seat the pile and the laid cards. Doubting rightly puts
        them on the claimer instead, which helps this seat only ``weight`` as much: the other
        players keep racing. Letting a claim stand lets the claimer shed its cards, worth
        ``weight`` of them to this seat.
        """
        claim, claimer = view.claim, view.claimer
        if claim is None or claimer is None:
            return False
        if view.hand_sizes[claimer] == 0:
            return True  # the claim would win: doubting costs nothing that matters
        chance = self.chance_true(view)
        if chance == 0.0:
            return True
        stake = view.pile + claim.count
        gain = (1 - chance) * stake * self.weight
        loss = chance * stake
        return gain - loss > -claim.count * self.weight

    # -- bluffing -----------------------------------------------------------------------

    def bluff(self, view: TableView) -> Card:
        """The card whose rank this seat will be asked for furthest in the future."""
        waits = _waits(view.rank, view.players).__getitem__
        furthest = max(set(map(_rank_of, view.hand)), key=waits)
        return next(card for card in view.hand if card.rank is furthest)


_RANKS = tuple(sorted(Rank))
_rank_of = attrgetter("rank")


def ranks_to_come(view: TableView) -> list[Rank]:
    """The ranks this seat will be asked for on its turns, this one first (the rank moves
    one step for every claim, and the turn comes round once for every player)."""
    return list(_ranks_to_come(view.rank, view.players))


@cache
def _ranks_to_come(rank: Rank, players: int) -> tuple[Rank, ...]:
    return tuple(_RANKS[(rank - 1 + players * turn) % 13] for turn in range(13))


@cache
def _waits(rank: Rank, players: int) -> dict[Rank, int]:
    """For each rank, the turns until a seat asked for ``rank`` now is asked for it."""
    return {rank: turn for turn, rank in reversed(list(enumerate(_ranks_to_come(rank,
                                                                                players))))}


def wait_key(view: TableView) -> Callable[[Card], int]:
    """A card's key for a bluff or a padding card (``max(hand, key=wait_key(view))``): the
    turns until this seat is asked for its rank (the longest last). (Every rank comes in
    13 turns, at a different turn, since 13 is prime: no two ranks wait alike.)"""
    waits = _waits(view.rank, view.players)
    return lambda card: waits[card.rank]


def holding(memory: Memory, hand: Sequence[Card], me: int, seat: int, rank: Rank, before: int,
            copies: int) -> list[float]:
    """The chance that ``seat``, holding ``before`` cards, holds exactly n of ``rank``: the
    list's item n, up to the most it can hold (by the hypergeometric distribution over the
    cards ``me`` cannot account for, from its own ``hand`` and ``memory``)."""
    known, unknown, pool, drawn = unknowns(memory, hand, me, seat, rank, before, copies)
    return [exactly(n - known, pool, unknown, drawn) for n in range(known + unknown + 1)]


def at_most(memory: Memory, mine: int, me: int, seat: int, rank: Rank, copies: int) -> int:
    """The most cards of ``rank`` that ``seat`` can hold, as far as ``me`` knows, holding
    ``mine`` of them."""
    left = copies - mine - memory.pile.get(rank, 0)  # (get: a Counter's [] of a missing
    for other, held in enumerate(memory.held):      # key calls Python code)
        if other != me and other != seat:
            left -= held.get(rank, 0)
    known = memory.held[seat].get(rank, 0)
    return known if known > left else left


def unknowns(memory: Memory, hand: Sequence[Card], me: int, seat: int, rank: Rank, before: int,
             copies: int) -> tuple[int, int, int, int]:
    """What ``me`` knows of ``seat``'s cards of ``rank``: how many it is known to hold, how
    many more it may hold, among how many cards ``me`` cannot account for, of which it holds
    how many."""
    mine = sum(1 for card in hand if card.rank is rank)
    held = memory.held
    known_elsewhere = sum(held[s][rank] for s in range(len(held)) if s not in (me, seat))
    known = held[seat][rank]
    unknown = max(0, copies - mine - memory.pile[rank] - known_elsewhere - known)
    known_total = sum(sum(held[s].values()) for s in range(len(held)) if s != me)
    pool = copies * 13 - len(hand) - sum(memory.pile.values()) - known_total
    return known, unknown, pool, max(0, before - sum(held[seat].values()))


@cache
def exactly(k: int, pool: int, good: int, drawn: int) -> float:
    """The chance of exactly ``k`` good cards among ``drawn`` from ``pool`` (hypergeometric)."""
    drawn = min(drawn, pool)
    if k < 0 or k > good or k > drawn or drawn - k > pool - good:
        return 0.0
    return comb(good, k) * comb(pool - good, drawn - k) / comb(pool, drawn)
