"""What ``hard`` (:mod:`.hard`) knows of the cards for I Know You Don't: the deck's cards in
sorts, the cards a seat cannot place, and what each other hand is expected to hold.

Every bot at a table asks for these once a claim, so they are written for speed: lists of
floats indexed by sort, no :class:`~collections.Counter` built a claim, a declaration's sorts
looked up once (``bench/peers.py`` measures it).
"""

from __future__ import annotations

from functools import cache

from ...rules import Event
from ...rules.iknowyoudont import (
    HAND,
    Card,
    Declaration,
    Kind,
    Options,
    Showdown,
    TableView,
)
from .base import BLUFF
from .counter import Discards


class Sorts:
    """The deck's cards grouped by what they bear out: a sort is a kind and a level (the
    standard deck's four kings are one sort, the Wildcard)."""

    def __init__(self, options: Options) -> None:
        deck = options.cards()
        #: The highest level.
        self.top = options.max_level
        keys = sorted({(card.kind.value, card.level or 0) for card in deck})
        index = {key: i for i, key in enumerate(keys)}
        #: Each card's sort, and how many cards of each sort the deck has.
        self.of = {card: index[card.kind.value, card.level or 0] for card in deck}
        self.count = [0.0] * len(keys)
        for card in deck:
            self.count[self.of[card]] += 1
        self.interception = index["I", 0]
        self.wildcard = index["W", 0]
        cards = {i: card for card, i in self.of.items()}
        #: The sorts bearing out each declaration, and a declaration of each level.
        self.matching = {
            declaration: tuple(i for i, card in cards.items() if card.matches(declaration))
            for declaration in (Declaration(level, kind)
                                for level in range(1, options.max_level + 1)
                                for kind in (Kind.TRUTH, Kind.BLUFF))}
        self.level = {level: tuple(sorted({*self.matching[Declaration(level, Kind.TRUTH)],
                                           *self.matching[Declaration(level, Kind.BLUFF)]}))
                      for level in range(1, options.max_level + 1)}
        #: The same by level and whether it is Bluff (a declaration's own hash is slow):
        #: ``bearing[level][kind is Kind.BLUFF]``.
        self.bearing = [((), ())] + [
            (self.matching[Declaration(level, Kind.TRUTH)],
             self.matching[Declaration(level, Kind.BLUFF)])
            for level in range(1, options.max_level + 1)]
        #: Each level's Truth and Bluff sorts. A declaration is borne out by a card of its
        #: own sort or by the Wildcard (rule 6), so what bears out a declaration is those two
        #: sorts, and a card of a level one of three (Bluff, Truth, Wildcard, in this order):
        #: the hot paths add them up so, instead of looping over ``bearing`` or ``level``.
        self.own = [(0, 0)] + [(index["T", level], index["B", level])
                               for level in range(1, options.max_level + 1)]
        for level, (truth, bluff) in enumerate(self.own[1:], 1):
            wild = self.wildcard
            if self.bearing[level] != ((truth, wild), (bluff, wild)) or \
                    self.level[level] != (bluff, truth, wild):
                raise ValueError(f"level {level}'s cards are not borne out as rule 6 says")


@cache
def sorts_of(options: Options) -> Sorts:
    return Sorts(options)


class Unplaced:
    """How many cards of each sort a seat (``public``: everybody) cannot place: the deck
    less every scoring pile, the Interceptions and Wildcards discarded into the vault since
    it was last shuffled, and (unless ``public``) its own hand. What it worked out is kept
    from one call to the next while the piles, the hand and the discards stay as they were:
    the lists it returns are its own, to be read and not changed.

    The vault's discards are :class:`.counter.Discards`'s, as ``counter``'s are.
    """

    def __init__(self) -> None:
        self._piles: tuple[tuple[Card, ...], ...] | None = None
        self._options: Options | None = None
        self._sorts: Sorts | None = None
        self._left: list[float] = []
        self._discards = Discards()
        #: The seat's own: for which hand and discards, and the share of each sort in it.
        self._hand: tuple[Card, ...] | None = None
        self._seen = (0, 0)
        self._mine: list[float] = []
        self._pool: list[float] | None = None

    def left(self, view: TableView) -> list[float]:
        """How many cards of each sort lie in no scoring pile (kept while the piles and the
        rules stay as they were)."""
        options, sorts = view.options, self._sorts
        if options is not self._options:  # (the same rules, often the same object)
            if sorts is None or options != self._options:
                sorts, self._piles = sorts_of(options), None
            self._options, self._sorts = options, sorts
        assert sorts is not None
        if view.piles != self._piles:
            of, rest = sorts.of, list(sorts.count)
            for pile in view.piles:
                for card in pile:
                    rest[of[card]] -= 1
            self._piles, self._left, self._hand = view.piles, rest, None
        return self._left

    def __call__(self, view: TableView, public: bool) -> list[float]:
        left = self.left(view)
        sorts = self.sorts
        discards = self._discards(view)
        if not public:
            if view.hand == self._hand and discards == self._seen:
                return self._mine
            self._hand, self._seen, self._pool = view.hand, discards, None
        rest = list(left)
        if not public:
            of = sorts.of
            for card in view.hand:
                rest[of[card]] -= 1
            self._mine = rest
        rest[sorts.interception] -= discards[0]
        rest[sorts.wildcard] -= discards[1]
        return rest

    @property
    def sorts(self) -> Sorts:
        """The deck's sorts, for the rules of the last call."""
        assert self._sorts is not None
        return self._sorts

    def pool(self) -> list[float]:
        """The share of each sort among the cards the seat cannot place (as the last call
        for the seat's own found them): what a card drawn by another seat is expected to
        be."""
        pool = self._pool
        if pool is None:
            share = 1 / (sum(self._mine) or 1.0)
            pool = self._pool = [n * share for n in self._mine]
        return pool


def able(expected: list[float], sorts: tuple[int, ...], held: int) -> float:
    """The chance that a hand of ``held`` cards holds one of ``sorts`` at least, when it is
    expected to hold ``expected[i]`` of sort ``i``."""
    if held <= 0:
        return 0.0
    share = sum(map(expected.__getitem__, sorts)) / held
    return 1.0 if share >= 1 else 1.0 - (1.0 - share) ** held


class Hands:
    """What each other seat's hand is expected to hold this round: how many cards of each
    sort (this seat's own row is empty), and each hand's size."""

    def __init__(self, options: Options, players: int, me: int, unknown: list[float]) -> None:
        self.sorts = sorts_of(options)
        self.me = me
        total = sum(unknown) or 1.0
        self.expected = [[HAND * n / total for n in unknown] if seat != me
                         else [0.0] * len(unknown) for seat in range(players)]
        self.sizes = [HAND] * players
        #: Who held priority on a claim of seat ``a``, up to seat ``b`` (who took it up) or
        #: all the others (``b`` None): ``between[a][b]``.
        self.between = _between(players)

    def able(self, seat: int, sorts: tuple[int, ...], held: int) -> float:
        return able(self.expected[seat], sorts, held)

    def settle(self, claim: Event, true: float, pool: list[float]) -> None:
        """A settled claim (``true``: the chance it was true, for one that stood), and the
        cards drawn after it (rule 7), each card drawn a card of ``pool`` (a share of each
        sort: the cards this seat cannot place)."""
        sizes, expected, me, sorts = self.sizes, self.expected, self.me, self.sorts
        active = claim.seat  # type: ignore[attr-defined]
        declaration = claim.declaration  # type: ignore[attr-defined]
        size = sizes[active] - 1
        if type(claim) is Showdown:
            if active != me:
                matching = sorts.bearing[declaration.level][declaration.kind is BLUFF]
                expected[active] = _shown(expected[active], matching, claim.card.matches(
                    declaration), sorts.of[claim.card], max(1, size + 1))
            challenger = claim.challenger
            if claim.intercept:
                sizes[challenger] -= 1
                row, i = expected[challenger], sorts.interception
                row[i] = max(0.0, row[i] - 1)
            sizes[active] = size - claim.wild
            if claim.winner == active:
                sizes[challenger] += 2
                self.draw(challenger, 2, pool)
        else:
            cards = HAND - size if size < HAND - 1 else 1  # (one drawn, then up to five)
            if active != me:  # (the card laid, and those drawn, at once)
                matching = sorts.bearing[declaration.level][declaration.kind is BLUFF]
                expected[active] = stood(expected[active], matching, true, max(1, size + 1),
                                          cards, pool)
            sizes[active] = size + cards
        if min(sizes) < HAND:
            self.refill(pool)

    def refill(self, pool: list[float]) -> None:
        """Every hand of fewer than five cards draws up to five (rule 7)."""
        sizes = self.sizes
        for seat, size in enumerate(sizes):
            if size < HAND:
                sizes[seat] = HAND
                self.draw(seat, HAND - size, pool)

    def draw(self, seat: int, cards: int, pool: list[float]) -> None:
        if seat != self.me:
            row = self.expected[seat]
            self.expected[seat] = [n + cards * p for n, p in zip(row, pool, strict=False)]

    def sync(self, sizes: list[int]) -> None:
        """The hands' sizes as the view shows them (fewer drawn when the draw pile and the
        vault ran out)."""
        if sizes != self.sizes:
            for seat, row in enumerate(self.expected):
                total, size = sum(row), sizes[seat]
                if total > 0 and abs(total - size) > 1e-9:
                    self.expected[seat] = [n * size / total for n in row]
        self.sizes = sizes


@cache
def _between(players: int) -> list[dict[int | None, tuple[int, ...]]]:
    """:attr:`Hands.between` for ``players``."""
    table: list[dict[int | None, tuple[int, ...]]] = []
    for active in range(players):
        others = tuple((active + step) % players for step in range(1, players))
        ways: dict[int | None, tuple[int, ...]] = {None: others}
        for i, seat in enumerate(others):
            ways[seat] = others[:i + 1]
        table.append(ways)
    return table


def _shown(expected: list[float], matching: tuple[int, ...], true: bool, shown: int,
           held: int) -> list[float]:
    """The hand left after laying the card shown: if the claim was true, it held one
    bearing it out at least; if not, none (else it would have laid it)."""
    new = list(expected)
    if true:
        chance = able(expected, matching, held) or 1.0
        for i in matching:
            new[i] /= chance
    else:
        for i in matching:
            new[i] = 0.0
    new[shown] = max(0.0, new[shown] - 1)
    fixed = sum(map(new.__getitem__, matching))
    free = sum(new) - fixed
    if free <= 0:
        return new
    scale = max(0.0, held - 1 - fixed) / free
    scaled = [n * scale for n in new]
    for i in matching:
        scaled[i] = new[i]
    return scaled


def stood(expected: list[float], matching: tuple[int, ...], true: float, held: int,
           cards: int, pool: list[float]) -> list[float]:
    """The hand left after a claim that stood, true with chance ``true``: a card bearing it
    out laid from a hand holding one at least, or another card from a hand holding none,
    each sort scaled at once; and ``cards`` cards of ``pool`` drawn after it."""
    own, wild = matching  # (:attr:`Sorts.own`: a declaration's sort, and the Wildcard)
    matched = expected[own] + expected[wild]
    other = sum(expected) - matched
    share = matched / held  # (:func:`able`, with the sum above)
    chance = 1.0 if share >= 1 else 1.0 - (1.0 - share) ** held
    if cards != 1:
        pool = [cards * p for p in pool]
    if matched <= 0 or other <= 0 or chance <= 0:
        total = matched + other
        laid = [n * (held - 1) / total for n in expected] if total > 0 else expected
        return [n + p for n, p in zip(laid, pool, strict=False)]
    keep = true * max(0.0, matched - chance) / (matched * chance)
    fill = (true * max(0.0, held - matched / chance) + (1 - true) * (held - 1)) / other
    new = [n * fill + p for n, p in zip(expected, pool, strict=False)]
    new[own] = expected[own] * keep + pool[own]
    new[wild] = expected[wild] * keep + pool[wild]
    return new
