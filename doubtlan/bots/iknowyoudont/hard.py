"""``hard`` for I Know You Don't: ``sharp``'s claims, with challenges that earn.

Two ``sharp`` with two of it never challenging won 0.366 of the games (seed 1; 20 matches of
25): its challenges lost. Its chance that a claim is true ranked claims no better than a
coin (area under the ROC curve 0.48 over 26,000 decisions; 0.66 of those it challenged were
true): it reads the claimer's hand as a fresh draw of the cards it cannot place, but a hand
is what its owner kept after playing its best cards, and drew since.

``hard`` follows every other hand (:class:`.hands.Hands`): how many cards of each sort it
is expected to hold, from the deal and each draw (a card of those this seat cannot place),
less the card each claim laid (the card shown; for a claim that stood, a card bearing it out
as often as it was likely true, else another and none bearing it out left). That hand's
chance of holding a card for the claim alone ranks claims at 0.78. A logistic model of it
and more (:meth:`HardKnowBot.odds`) gives the odds, fit by maximum likelihood to 156,000
decisions of ``hard`` at tables of ``counter``, ``sharp``, ``honest`` and itself (0.83 on
104,000 others); of the claims it challenges as many are true as it expects (0.42 against
0.41, with two quiet twins, before its draws and correction were made cheaper). Each
seat's own correction (:class:`HardRecord`) comes from how its shown claims turned out: a
shift of the odds, and a scale learnt only from claims other seats showed (those it showed
were chosen by the odds), so that ``random``, true one time in six however it looks, is
read so (``hard`` won 0.50 against three of it before, 0.90 after). Each shown claim is read
once, a Newton step from where the claims before left the correction.

It challenges when that pays against passing, in round points (:meth:`worth`): a lie caught
scores its level and takes a token; a wrong challenge loses a token (5 round points, 8 with
two left, 40 for a last one, which is the match) for two cards drawn; a rival's gain counts a
quarter, and passing lets a later seat catch the lie instead (as often as each has
challenged with priority). Only above a margin of 3 round points: with an earlier fit, the
pair against two quiet twins won 0.89 at no margin, 0.95 at 1, 0.98 at 2 to 4, one alone 0.67,
0.79, 0.83 to 0.90; against three ``counter`` 0.78 to 0.86 (10 matches of 25, seeds 3, 4).
"""

from __future__ import annotations

import math
from functools import cache

from ...rules import Action
from ...rules.iknowyoudont import (
    HAND,
    Card,
    Declaration,
    Kind,
    Play,
    Showdown,
    Stood,
    TableView,
    true_declaration,
)
from ...rules.seeds import Seed
from .base import BLUFF, DECIDING, PRIORITY, WILDCARD
from .counter import SEATS, Record, counts, fade
from .hands import Hands, Unplaced, able, stood
from .sharp import SharpKnowBot


def _log_able(some: float, held: int) -> float:
    """The log odds of :func:`.hands.able` for a hand of ``held`` cards (at least 1)
    expected to hold ``some`` of the cards asked for, kept within 0.02 and 0.98."""
    share = some / held
    p = 1.0 if share >= 1 else 1.0 - (1.0 - share) ** held
    p = 0.02 if p < 0.02 else 0.98 if p > 0.98 else p
    return math.log(p / (1 - p))


class HardRecord(Record):
    """``counter``'s record, and more of each seat: how its shown claims turned out against
    the odds they were judged at, its claims of the highest level against how many of its
    claims could have been of it truthfully, and how often it challenged with priority."""

    def __init__(self, spread: float, steady: float) -> None:
        super().__init__()
        #: The priors on a seat's correction: how far its shift and its scale range.
        self.spread, self.steady = spread, steady
        #: Each seat's correction, and how sure of it its shown claims make it (their part
        #: of the log likelihood's curvature: shift, shift and scale, scale).
        self.bias: dict[int, tuple[float, float]] = {}
        self.sure: dict[int, tuple[float, float, float]] = {}
        self.top, self.could = counts(SEATS), counts(SEATS)
        self.asked, self.called = counts(SEATS), counts(SEATS)

    def fade(self, keep: float) -> None:
        """What came before counts ``keep`` of what it did; each correction moves towards
        none as far as its claims, counting less, now hold it (a Newton step)."""
        super().fade(keep)
        fade((self.top, self.could, self.asked, self.called), keep)
        near, steady = 1 / self.spread ** 2, 1 / self.steady ** 2
        for seat, (h11, h12, h22) in self.sure.items():
            h11, h12, h22 = h11 * keep, h12 * keep, h22 * keep
            self.sure[seat] = (h11, h12, h22)
            shift, scale = self.bias[seat]
            # At the correction before, the claims' pull matched the priors'; now they pull
            # ``keep`` of that, and the priors' pull is left over by the rest.
            g1, g2 = -shift * near * (1 - keep), (1 - scale) * steady * (1 - keep)
            self.bias[seat] = _step(shift, scale, g1, g2, h11 + near, h12, h22 + steady)

    def show(self, seat: int, z: float, true: bool, mine: bool) -> None:
        """A shown claim of ``seat``'s, judged at log odds ``z``; ``mine``: this seat showed
        it, chosen by these odds, so it tells the seat's shift only. The correction takes a
        Newton step on it, from where the claims before left it (online: each claim is
        read once)."""
        shift, scale = self.bias.get(seat, (0.0, 1.0))
        h11, h12, h22 = self.sure.get(seat, (0.0, 0.0, 0.0))
        chance = self.read(seat, z)
        miss, curve = float(true) - chance, chance * (1 - chance)
        h11 += curve
        g1, g2 = miss, 0.0
        if not mine:
            g2 = miss * z
            h12 += curve * z
            h22 += curve * z * z
        self.sure[seat] = (h11, h12, h22)
        near, steady = 1 / self.spread ** 2, 1 / self.steady ** 2
        # (the priors' own pull is met at the correction before: only the new claim pulls)
        self.bias[seat] = _step(shift, scale, g1, g2, h11 + near, h12, h22 + steady)

    def read(self, seat: int, z: float) -> float:
        """The chance that ``seat``'s claim judged at log odds ``z`` is true."""
        shift, scale = self.bias.get(seat, (0.0, 1.0))
        x = shift + scale * z
        return 1 / (1 + math.exp(-(30.0 if x > 30.0 else -30.0 if x < -30.0 else x)))


def _step(shift: float, scale: float, g1: float, g2: float, h11: float, h12: float,
          h22: float) -> tuple[float, float]:
    """A Newton step on (shift, scale) for gradient ``g`` and curvature ``h``, of at most 1
    (no overshoot)."""
    det = h11 * h22 - h12 * h12
    d1, d2 = (h22 * g1 - h12 * g2) / det, (h11 * g2 - h12 * g1) / det
    size = max(abs(d1), abs(d2))
    if size > 1:
        d1, d2 = d1 / size, d2 / size
    return shift + d1, scale + d2


class HardKnowBot(SharpKnowBot):
    """``sharp``'s claims; it judges a claim by what the claimer's hand is expected to hold,
    and challenges when that pays."""

    name = "hard"
    about = "follows every hand, challenges when it pays"
    record: HardRecord
    #: The log odds that a claim is true, from :meth:`features` (fit by maximum likelihood
    #: over tourney games of ``hard`` against ``counter``, ``sharp``, ``honest`` and itself).
    weights = (0.226, 2.099, -0.566, 2.124, 1.125, 10.076, -1.922, 0.219, -2.982, -1.882,
               -6.583, -0.501, -1.074, -0.761)
    #: The priors on each seat's correction (:class:`HardRecord`), in log odds.
    spread, steady = 2.0, 0.5
    #: A challenge's stakes, in round points: a token taken (worth less than one kept), each
    #: card drawn after a wrong challenge, a rival's gain; and the least a challenge must be
    #: worth.
    gain, card, rivals, margin = 2.0, 0.5, 0.25, 3.0

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        self.record = HardRecord(self.spread, self.steady)
        self._hands: Hands | None = None
        #: The round followed (opener, number, its first claim's place), the claims read.
        self._round = (-1, -1, -1)
        self._read = 0
        #: The waiting claim last judged: its moment and chance; its round, place, log odds.
        self._moment: tuple[object, ...] = ()
        self._chance = 0.0
        self._judged = ((-1, -1, -1), -1, 0.0)
        self._judged_chance = 0.0
        self._unplaced = Unplaced()

    # -- following the table ------------------------------------------------------------

    def follow(self, view: TableView) -> tuple[Hands, list[float]]:
        """The other hands as expected now, from the claims settled since it last looked (a
        new round starts from the deal), and how many cards of each sort this seat cannot
        place. It reads each claim once, for the hands and the record alike: who claimed,
        how it turned out against its odds, and who held priority on it."""
        me = view.seat
        assert me is not None
        claims, phase = view.record, view.phase
        count = len(claims)
        waiting = phase is PRIORITY or phase is DECIDING
        start = count - (view.round_claims - waiting)
        unknown = self._unplaced(view, public=False)
        hands, read, key = self._hands, self._read, (view.opener, view.round, start)
        if hands is None or key != self._round or not start <= read <= count:
            hands = self._hands = Hands(view.options, view.players, me, unknown)
            self._round, self._read = key, start
            read = start
        if read == count:
            return hands, unknown
        pool, sizes, between, asked = self._unplaced.pool(), hands.sizes, hands.between, \
            self.record.asked
        judged_round, judged, judged_z = self._judged
        if judged_round != key:
            judged = -1
        for number, claim in enumerate(claims[read:], read):
            active = claim.seat  # type: ignore[attr-defined]
            if type(claim) is Showdown:
                z = judged_z if judged == number else None
                self._showdown(view, hands, claim, z, pool)
                continue
            # A claim that stood. Who held priority on it:
            for seat in between[active][claim.by]:  # type: ignore[attr-defined]
                asked[seat] += 1
            if active == me:  # (its own: laid one, drew)
                size = sizes[me] - 1
                sizes[me] = size + (HAND - size if size < HAND - 1 else 1)
                if min(sizes) < HAND:
                    hands.refill(pool)
                continue
            self._stood(view, hands, claim, judged == number, pool)  # type: ignore[arg-type]
        self._read = count
        sizes = list(view.hand_sizes)
        if waiting:
            sizes[view.active] += 1  # (the card laid is still its own)
        if sizes != hands.sizes:
            hands.sync(sizes)
        return hands, unknown

    def _stood(self, view: TableView, hands: Hands, claim: Stood, judged: bool,
               pool: list[float]) -> None:
        """Another seat's claim stood: its hand laid a card and drew. How likely it was
        true (``judged``: this bot judged it while it waited), and the hand expected now."""
        record, sorts, sizes, expected = self.record, hands.sorts, hands.sizes, hands.expected
        (high_truth, high_bluff), wildcard = sorts.own[sorts.top], sorts.wildcard
        active, declaration = claim.seat, claim.declaration
        level, size = declaration.level, sizes[active]
        held = size if size > 1 else 1
        row = expected[active]
        if level == sorts.top:
            record.top[active] += 1
        share = (row[high_bluff] + row[high_truth] + row[wildcard]) / held
        record.could[active] += 1.0 if share >= 1 else 1.0 - (1.0 - share) ** held
        if judged:
            true = self._judged_chance
        else:
            true = record.read(active, self.odds(view, hands, active, declaration, held))
        size -= 1
        cards = HAND - size if size < HAND - 1 else 1  # (one drawn, then up to five)
        expected[active] = stood(row, sorts.bearing[level][declaration.kind is BLUFF], true,
                                 held, cards, pool)
        sizes[active] = size + cards
        if min(sizes) < HAND:
            hands.refill(pool)

    def _showdown(self, view: TableView, hands: Hands, claim: Showdown, z: float | None,
                  pool: list[float]) -> None:
        """A claim that was challenged (judged at log odds ``z``, if it was): how it turned
        out against its odds, who held priority on it and who challenged (an interception
        tells neither), and its player's hand."""
        me, active, declaration, record = view.seat, claim.seat, claim.declaration, self.record
        if active != me:
            held = max(1, hands.sizes[active])
            top = hands.sorts.top
            record.could[active] += able(hands.expected[active], hands.sorts.level[top], held)
            if declaration.level == top:
                record.top[active] += 1
            if z is None:
                z = self.odds(view, hands, active, declaration, held)
            record.show(active, z, claim.card.matches(declaration) and not claim.wild,
                        claim.challenger == me)
        if not claim.intercept:
            last = claim.challenger
            record.called[last] += 1
            for seat in hands.between[active][last]:
                record.asked[seat] += 1
        hands.settle(claim, 0.5, pool)

    def later(self, view: TableView) -> float:
        """The chance that a seat after this one challenges the waiting claim if this one
        passes (each as often as it has challenged with priority)."""
        assert view.seat is not None
        called, asked, passes = self.record.called, self.record.asked, 1.0
        seat, players, active = view.seat, view.players, view.active
        while (seat := (seat + 1) % players) != active:
            passes *= 1 - (called[seat] + 0.2) / (asked[seat] + 2)
        return 1 - passes

    # -- judging a claim ----------------------------------------------------------------

    def odds(self, view: TableView, hands: Hands, seat: int, declaration: Declaration,
             held: int) -> float:
        """The log odds that ``seat``'s claim is true, before the seat's own correction: the
        readings below, each by its weight (:attr:`weights`, in this order), added up.

        The readings: 1; the log odds that its hand of ``held`` cards holds a card bearing
        the claim out, and a card of its level; whether the level is the highest; whether
        the claimer holds its last token; how often the table challenges the level (as far
        as 0.3, as far as the fit saw); the log of the share of its claims of that level;
        its hand's size; the level, and how far the round has gone, as a share; the rate and
        the first chance again for the highest level; and, for the highest level and for
        any, the log of its claims of the highest level over how many could have been (a
        player who claims it more often than it could is lying). The readings for the
        highest level alone are left out below it (a weight times 0 adds nothing)."""
        sorts, record, row, log = hands.sorts, self.record, hands.expected[seat], math.log
        w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13 = self.weights
        level, top = declaration.level, sorts.top
        # (Before a record says much, the typical share and rate of the games fit.)
        often = (record.declared[seat][level] + 3) / (record.claims[seat] + 10)
        rate = (record.challenged[level] + 1.3) / (record.made[level] + 10)
        if rate > 0.3:
            rate = 0.3
        truth, bluff = sorts.own[level]
        wild = row[sorts.wildcard]
        bears = _log_able(row[bluff if declaration.kind is BLUFF else truth] + wild, held)
        excess = log((record.top[seat] + 1) / (record.could[seat] + 1))
        z = (w0 + w1 * bears + w2 * _log_able(row[bluff] + row[truth] + wild, held) + w5 * rate
             + w6 * log(often) + w7 * (held - 1 if held < 8 else 7) + w8 * (level / top)
             + w9 * (view.round_claims / 32) + w13 * excess)
        if view.tokens[seat] == 1:
            z += w4
        if level == top:
            z += w3 + w10 * rate + w11 * bears + w12 * excess
        return z

    def chance_true(self, view: TableView) -> float:
        # (Asked of one claim to intercept and then with priority: worked out once.)
        moment = (view.opener, view.round, view.decision, len(view.record), view.tokens)
        if moment == self._moment:
            return self._chance
        assert view.declaration is not None and view.seat is not None
        self.remember(view)
        hands, unknown = self.follow(view)
        active, declaration = view.active, view.declaration
        sorts = hands.sorts
        truth, bluff = sorts.own[declaration.level]
        if unknown[bluff if declaration.kind is BLUFF else truth] \
                + unknown[sorts.wildcard] <= 0:
            chance = 0.0  # every card that would bear it out is placed elsewhere
        else:
            z = self.odds(view, hands, active, declaration, view.hand_sizes[active] + 1)
            chance = self.record.read(active, z)
            self._judged, self._judged_chance = (self._round, len(view.record), z), chance
        self._moment, self._chance = moment, chance
        return chance

    def worth(self, view: TableView, lie: float, cost: float = 0.0) -> float:
        """What challenging the waiting claim is worth to this seat against passing, when it
        is a lie with chance ``lie`` (``cost``: what the challenge spends)."""
        me, active, declaration = view.seat, view.active, view.declaration
        assert me is not None and declaration is not None
        level, later, rivals, gain = declaration.level, self.later(view), self.rivals, self.gain
        worths, tokens, token = self.tokens, view.tokens, self.token  # (:meth:`token_worth`)
        caught = level + gain
        wrong = worths.get(tokens[me], token) - 2 * self.card
        # What it keeps the claimer from, unless a later seat would (and score it).
        caught += rivals * ((1 - later) * (level + worths.get(tokens[active], token))
                            + later * (level + gain))
        wrong += rivals * (1 - later) * gain
        return lie * caught - (1 - lie) * wrong - cost

    def wildcards_unknown(self, view: TableView) -> tuple[int, int]:
        unknown = self._unplaced(view, public=False)  # (counts of cards: whole numbers)
        return int(unknown[self._unplaced.sorts.wildcard]), int(sum(unknown))

    def challenges(self, view: TableView) -> bool:
        return self.worth(view, 1 - self.chance_true(view)) > self.margin

    # -- its own turn -------------------------------------------------------------------

    def turn(self, view: TableView) -> list[Action]:
        """``sharp``'s choice (:meth:`CounterKnowBot.turn`), with less work: what each play
        is worth first (each level's challenge rate worked out once), the kind to declare
        for the one chosen only."""
        assert view.seat is not None
        self.remember(view)
        hand, record, weight, others = view.hand, self.record, self.rate_weight, self.others
        top, made, challenged, third = view.options.max_level, record.made, \
            record.challenged, weight / 3
        rates = [(challenged[level] + third) / (made[level] + weight)
                 for level in range(top + 1)]
        # (worth, card, level to declare: the first of the best, as ``max`` would give it)
        best, card, declared = -math.inf, hand[0], None
        spare = wildcard = interception = None
        interceptions, lowest = 0, math.inf
        for each in hand:
            level = each.level
            if level is not None:  # true: challenged, it wins a token too
                if (worth := level + rates[level] * 2.0) > best:
                    best, card = worth, each
                if level < lowest:  # (the first of the lowest)
                    spare, lowest = each, level
            elif each.kind is WILDCARD:
                wildcard = wildcard or each
            else:
                interception, interceptions = interception or each, interceptions + 1
        if wildcard is not None and (worth := top + rates[top] * 2.0) > best:
            best, card, declared = worth, wildcard, top
        if spare is None and (interceptions > 1 or wildcard is None):
            spare = interception
        if spare is not None:
            lose = self.tokens.get(view.tokens[view.seat], self.token) + others * 2.0
            spent = self.interception if spare.level is None else 0.0
            for level in range(1, top + 1):
                chance = rates[level]  # a lie: caught, it gives the level away
                worth = (1 - chance) * level - chance * (lose + others * level) - spent
                if worth > best:
                    best, card, declared = worth, spare, level
        if declared is None:
            return [_play(card, None, False)]
        return [_play(card, declared, self.believed(view, declared))]

    def believed(self, view: TableView, level: int) -> bool:
        """Whether to declare ``level`` a Bluff: when more cards bearing that out than
        bearing out a Truth are such that nobody can place them yet. (The Wildcards bear out
        both alike, and the vault's discards are Wildcards and Interceptions: the scoring
        piles alone decide.)"""
        left = self._unplaced.left(view)
        truth, bluff = self._unplaced.sorts.own[level]
        return left[bluff] > left[truth]


@cache
def _play(card: Card, level: int | None, bluff: bool) -> Play:
    """Laying ``card`` declared as what it is (``level`` None), or as ``level`` of Bluff
    (else Truth). (Plays are values: one of each is enough.)"""
    if level is None:
        return Play(card, true_declaration(card))
    return Play(card, Declaration(level, Kind.BLUFF if bluff else Kind.TRUTH))
