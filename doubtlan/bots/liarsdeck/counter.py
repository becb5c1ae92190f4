"""``counter`` for Liar's Deck: counts the true cards, remembers who lied."""

from __future__ import annotations

from collections import Counter

from ...rules.liarsdeck import Card, TableView
from ...rules.seeds import Seed
from .base import LiarBot, held, this_round, truthful


class CounterLiarBot(LiarBot):
    """Counts cards and reads players.

    A claim of ``count`` cards is none of the claimer's hand could have held: more true cards
    (of the rank, or Jokers) than it has put down this round, with these, than the cards
    this seat cannot place leave. Otherwise it is as likely true as the claimer's called
    claims of that size were, over the game, the chance that such a hand held them
    counting for two calls (``prior``). It calls when that is unlikely enough: below one in
    ten while it holds true cards of its own (it can answer with the truth), below two in
    five when it could only lie. On its turn it puts down its true cards but one (up to 3),
    keeping that one for its next turn, or one card, a bluff, when it holds none. (Measured:
    0.91 of its games against three ``honest``, 0.96 against three ``random``; with every
    true card put down at once 0.74 and 0.91, and a call below one in three, or one in five,
    wins less.)
    """

    name = "counter"
    about = "counts the true cards, calls the unlikely claims"
    #: How unlikely a claim must be to be called: while it holds true cards, and when not.
    doubt, desperate = 0.1, 0.4
    #: How many calls the chance that a hand held the cards is worth, against the claimer's
    #: record.
    prior = 2.0

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        #: Each seat's called claims of each size, and how many were true.
        self.called: Counter[tuple[int, int]] = Counter()
        self.true: Counter[tuple[int, int]] = Counter()

    def follow(self, view: TableView) -> None:
        """Read the calls settled since it last looked."""
        for _, claim in self.calls_since(view):
            self.called[claim.seat, claim.count] += 1
            self.true[claim.seat, claim.count] += not claim.lie

    def chance_true(self, view: TableView) -> float:
        """How likely the claim waiting is true, as far as this seat can tell."""
        assert view.claimer is not None
        claimer = view.claimer
        before = sum(claim.count for claim in this_round(view) if claim.seat == claimer)
        could = held(view, [*view.hand, *self.mine], before + view.count)
        if could == 0:
            return 0.0
        size = (claimer, view.count)
        return (self.true[size] + self.prior * could) / (self.called[size] + self.prior)

    def calls(self, view: TableView) -> bool:
        self.follow(view)
        bar = self.doubt if truthful(view.hand, view) else self.desperate
        return self.chance_true(view) < bar

    #: How many of its true cards it keeps for its next turn.
    keep = 1

    def put(self, view: TableView) -> list[Card]:
        self.follow(view)
        true = truthful(view.hand, view)
        if len(true) > 1:
            true = true[:max(1, min(3, len(true) - self.keep))]
        chosen = true or [view.hand[0]]
        self.mine.extend(chosen)
        return chosen
