"""``hard`` for Liar's Deck: reads each hand from the claims its player made this round, and
calls where the call is the safer way through the round.

A claim is judged by what the claimer's hand could have been. Each player is read as one who
puts down true cards while it holds them, keeping some for its next turns (:data:`KEEPS`:
none, one, two or three; which way each player keeps them is learnt from its called claims),
and, holding none, bluffs with as many cards as its called bluffs had (one, to start). Over
the hands the claimer could have been dealt (five of the cards this seat cannot place), and
the ways of keeping, those whose claims this round would have come as they did say how
likely the claim waiting is a lie (so a claim more true cards than are left is a lie for
certain). That reading is corrected by the claimer's called claims of that size.

It calls a claim less likely true than what not calling costs it: next to nothing while it
holds a true card to answer with (:attr:`answer`), about two in five when it could only
bluff (:attr:`bluffing`). On its turn it puts down one true card while it holds up to four
(two of five), saving the rest for its next turns, so that it has the truth to put down for
as long as the round lasts; holding none, one card. (Measured with the tourney, docs/bots.md:
putting every true card down at once won 0.30 of the games against three ``counter``;
keeping one 0.30, two 0.52, three 0.59.)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from math import comb

from ...rules import Event
from ...rules.liarsdeck import HAND, Believed, Called, Card, TableView, deck
from ...rules.seeds import Seed
from .base import LiarBot, this_round, truthful

#: The most cards a claim holds.
MOST = 3


class HardLiarBot(LiarBot):
    """Reads each hand from the round's claims; calls when the call is the safer way."""

    name = "hard"
    about = "reads each hand from its claims, calls when it is safer"
    #: What not calling costs it: while it holds true cards (it answers with one), and when
    #: it holds none (it must bluff): it calls a claim less likely true than that.
    answer, bluffing = 0.02, 0.42
    #: How many of its true cards it keeps for its next turns (:func:`planned`).
    keep = 3
    #: How many calls the reading is worth against a claimer's record, and how many bluffs
    #: the first guess at a bluff's size (one card: ``sizes``).
    prior, size_weight = 3.0, 2.0
    sizes = (0.0, 0.8, 0.15, 0.05)

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        #: Each seat's called claims of each size, how many were lies, and the sizes of its
        #: bluffs (called lies of no true card).
        self.called: Counter[tuple[int, int]] = Counter()
        self.lied: Counter[tuple[int, int]] = Counter()
        self.bluffs: Counter[tuple[int, int]] = Counter()
        #: Each seat's way of keeping true cards for its next turn (how many of :data:`KEEPS`),
        #: as likely as its called claims say.
        self.keeping: defaultdict[int, list[float]] = defaultdict(
            lambda: [1 / len(KEEPS)] * len(KEEPS))

    # -- following the game -----------------------------------------------------------------

    def follow(self, view: TableView) -> None:
        claims = view.claims
        for number, claim in self.calls_since(view):
            key = (claim.seat, claim.count)
            self.called[key] += 1
            self.lied[key] += claim.lie
            if claim.lie and not any(card.matches(claim.rank) for card in claim.shown):
                self.bluffs[key] += 1
            # Which way of keeping true cards the claimer's claims this round fit.
            sizes = [*_round_sizes(claims, number, claim.seat), claim.count]
            weights = self.keeping[claim.seat]
            fits = [_fit(sizes, keep, DEALT[view.options.decks], self.bluff_size, claim.seat,
                         claim.lie) for keep in KEEPS]
            total = sum(w * f for w, f in zip(weights, fits, strict=True))
            if total > 0:  # (else no way fits: the reading stays as it was)
                self.keeping[claim.seat] = [w * f / total for w, f in zip(weights, fits,
                                                                         strict=True)]

    def bluff_size(self, seat: int, size: int) -> float:
        """How likely ``seat``, holding no true card, bluffs with ``size`` cards."""
        seen = sum(self.bluffs[seat, n] for n in range(1, MOST + 1))
        return (self.bluffs[seat, size] + self.size_weight * self.sizes[size]) \
            / (seen + self.size_weight)

    # -- judging a claim ------------------------------------------------------------------

    def lie_chance(self, view: TableView) -> float:
        """How likely the claim waiting is a lie."""
        assert view.claimer is not None
        claimer, count = view.claimer, view.count
        made = [claim.count for claim in this_round(view) if claim.seat == claimer]
        known = [*view.hand, *self.mine]
        cards = deck(view.options.decks)
        unseen = len(cards) - len(known)
        true = sum(card.matches(view.rank) for card in cards) - len(truthful(known, view))
        dealt = [(n, comb(true, n) * comb(unseen - true, HAND - n)) for n in range(HAND + 1)]
        sizes = [*made, count]
        lie = honest = 0.0
        for weight, keep in zip(self.keeping[claimer], KEEPS, strict=True):
            lying = _fit(sizes, keep, dealt, self.bluff_size, claimer, True)
            lie += weight * lying
            honest += weight * _fit(sizes, keep, dealt, self.bluff_size, claimer, False)
        reading = lie / (lie + honest) if lie + honest else 1.0
        key = (claimer, count)
        return (self.lied[key] + self.prior * reading) / (self.called[key] + self.prior)

    def calls(self, view: TableView) -> bool:
        self.follow(view)
        lie = self.lie_chance(view)
        if truthful(view.hand, view):
            return 1 - lie < self.answer
        return 1 - lie < self.bluffing

    # -- its turn ---------------------------------------------------------------------------

    def put(self, view: TableView) -> list[Card]:
        self.follow(view)
        true = truthful(view.hand, view)
        chosen = true[:planned(len(true), self.keep)] if true else [view.hand[0]]
        self.mine.extend(chosen)
        return chosen


#: The ways of keeping true cards for the next turns it reads players by: how many it keeps.
KEEPS = (0, 1, 2, 3)
#: The true cards a hand is dealt, and how many hands of each, from a whole deck or two.
DEALT = {decks: [(n, comb(8 * decks, n) * comb(12 * decks, HAND - n)) for n in range(HAND + 1)]
         for decks in (1, 2)}


def planned(true: int, keep: int) -> int:
    """How many of its ``true`` cards a player keeping ``keep`` for its next turns puts down
    (one at least, three at most)."""
    return min(MOST, max(1, true - keep))


def _round_sizes(claims: Sequence[Event], called: int, seat: int) -> list[int]:
    """The sizes of ``seat``'s claims that stood in the round of the call at ``called``."""
    sizes = []
    for claim in reversed(claims[:called]):
        if isinstance(claim, Called):
            break
        if isinstance(claim, Believed) and claim.seat == seat:
            sizes.append(claim.count)
    return sizes[::-1]


def _fit(sizes: Sequence[int], keep: int, dealt: Sequence[tuple[int, int]],
         bluff: Callable[[int, int], float], seat: int, lie: bool) -> float:
    """How likely a player keeping ``keep`` true cards, dealt as ``dealt`` says, made claims
    of ``sizes`` this round, the last a lie (``lie``) or true."""
    total = 0.0
    for true, hands in dealt:
        left, weight = true, float(hands)
        for size in sizes[:-1]:
            weight *= (size == planned(left, keep)) if left else bluff(seat, size)
            left -= size if left else 0
            if not weight:
                break
        if weight and (not left) == lie:
            total += weight * ((sizes[-1] == planned(left, keep)) if left
                               else bluff(seat, sizes[-1]))
    return total
