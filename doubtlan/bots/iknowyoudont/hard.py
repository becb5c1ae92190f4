"""``hard`` for I Know You Don't: ``sharp``'s claims, with challenges that earn.

Two ``sharp`` with two of it never challenging won 0.366 of the games (seed 1; 20 matches of
25): its challenges lost. Its chance that a claim is true ranked claims no better than a
coin (area under the ROC curve 0.48 over 26,000 decisions; 0.66 of those it challenged were
true): it reads the claimer's hand as a fresh draw of the cards it cannot place, but a hand
is what its owner kept after playing its best cards, and drew since.

``hard`` follows every other hand (:class:`Hands`): how many cards of each sort it is
expected to hold, from the deal and each draw, less the card each claim laid (the card
shown; for a claim that stood, a card bearing it out as often as it was likely true, else
another and none bearing it out left). That hand's chance of holding a card for the claim
alone ranks claims at 0.78. A logistic model of it and more (:meth:`HardKnowBot.features`)
gives the odds, fit by maximum likelihood to 156,000 decisions of ``hard`` at tables of
``counter``, ``sharp``, ``honest`` and itself (0.83 on 104,000 others); of the claims it
challenges as many are true as it expects (0.42 against 0.41, with two quiet twins). Each
seat's own correction (:class:`HardRecord`) comes from how its shown claims turned out: a
shift of the odds, and a scale learnt only from claims other seats showed (those it showed
were chosen by the odds), so that ``random``, true one time in six however it looks, is
read so (``hard`` won 0.50 against three of it before, 0.90 after).

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
import operator
from collections import Counter, defaultdict
from collections.abc import Iterator
from functools import cache

from ...rules import Action, Event
from ...rules.iknowyoudont import (
    HAND,
    Card,
    Declaration,
    Kind,
    Options,
    Phase,
    Play,
    Showdown,
    TableView,
    true_declaration,
)
from ...rules.seeds import Seed
from .counter import Record, _fade, _known
from .sharp import SharpKnowBot


class _Sorts:
    """The deck's cards grouped by what they bear out: a sort is a kind and a level (the
    standard deck's four kings are one sort, the Wildcard)."""

    def __init__(self, options: Options) -> None:
        deck = options.cards()
        keys = sorted({(card.kind.value, card.level or 0) for card in deck})
        index = {key: i for i, key in enumerate(keys)}
        #: Each card's sort, and how many cards of each sort the deck has.
        self.of = {card: index[card.kind.value, card.level or 0] for card in deck}
        self.count = [0.0] * len(keys)
        for card in deck:
            self.count[self.of[card]] += 1
        self.interception = index["I", 0]
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


@cache
def _sorts(options: Options) -> _Sorts:
    return _Sorts(options)


def _left(view: TableView, public: bool) -> list[float]:
    """How many cards of each sort this seat (``public``: everybody) cannot place."""
    sorts = _sorts(view.options)
    left = list(sorts.count)
    for card, n in _known(view, public).items():
        left[sorts.of[card]] -= n
    return left


def _able(expected: list[float], sorts: tuple[int, ...], held: int) -> float:
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
        self.sorts = _sorts(options)
        self.me = me
        total = sum(unknown) or 1.0
        self.expected = [[HAND * n / total for n in unknown] if seat != me
                         else [0.0] * len(unknown) for seat in range(players)]
        self.sizes = [HAND] * players

    def able(self, seat: int, sorts: tuple[int, ...], held: int) -> float:
        return _able(self.expected[seat], sorts, held)

    def settle(self, claim: Event, true: float, unknown: list[float]) -> None:
        """A settled claim (``true``: the chance it was true, for one that stood), and the
        cards drawn after it (rule 7)."""
        sorts, sizes, expected = self.sorts, self.sizes, self.expected
        active, declaration = claim.seat, claim.declaration  # type: ignore[attr-defined]
        held = max(1, sizes[active])
        drawn = [0] * len(sizes)
        if active != self.me:
            matching = sorts.matching[declaration]
            if isinstance(claim, Showdown):
                expected[active] = _shown(expected[active], matching, claim.card.matches(
                    declaration), sorts.of[claim.card], held)
            else:
                expected[active] = _stood(expected[active], matching, true, held)
        sizes[active] -= 1
        if isinstance(claim, Showdown):
            challenger = claim.challenger
            if claim.intercept:
                sizes[challenger] -= 1
                row = expected[challenger]
                row[sorts.interception] = max(0.0, row[sorts.interception] - 1)
            sizes[active] -= claim.wild
            if claim.winner == active:
                drawn[challenger] = 2
        else:
            drawn[active] = 1
        for seat, size in enumerate(sizes):
            drawn[seat] += max(0, HAND - size - drawn[seat])
            sizes[seat] = size + drawn[seat]
        rest = self.rest(unknown)
        total = sum(rest) or 1.0
        for seat, count in enumerate(drawn):
            if count and seat != self.me:
                row, share = expected[seat], count / total
                for i, n in enumerate(rest):
                    row[i] += share * n

    def rest(self, unknown: list[float]) -> list[float]:
        """What the draw pile and the vault are expected to hold: the cards this seat cannot
        place, less those the other hands are expected to hold."""
        held = [sum(column) for column in zip(*self.expected, strict=True)]
        return [n - h if n > h else 0.0 for n, h in zip(unknown, held, strict=True)]

    def sync(self, sizes: list[int], unknown: list[float]) -> None:
        """The hands' sizes as the view shows them; no more of a sort expected in the hands
        than this seat cannot place."""
        self.sizes = sizes
        expected = self.expected
        for i, held in enumerate(sum(column) for column in zip(*expected, strict=True)):
            if held > unknown[i]:
                scale = max(0.0, unknown[i]) / held
                for row in expected:
                    row[i] *= scale
        for seat, row in enumerate(expected):
            total = sum(row)
            if total > 0 and abs(total - sizes[seat]) > 1e-9:
                expected[seat] = [n * sizes[seat] / total for n in row]


def _shown(expected: list[float], matching: tuple[int, ...], true: bool, shown: int,
           held: int) -> list[float]:
    """The hand left after laying the card shown: if the claim was true, it held one
    bearing it out at least; if not, none (else it would have laid it)."""
    new = list(expected)
    chosen = set(matching)
    if true:
        able = _able(expected, matching, held)
        for i in matching:
            new[i] /= able or 1.0
    else:
        for i in matching:
            new[i] = 0.0
    new[shown] = max(0.0, new[shown] - 1)
    fixed = sum(new[i] for i in matching)
    free = sum(new) - fixed
    if free > 0:
        scale = max(0.0, held - 1 - fixed) / free
        new = [n if i in chosen else n * scale for i, n in enumerate(new)]
    return new


def _stood(expected: list[float], matching: tuple[int, ...], true: float,
           held: int) -> list[float]:
    """The hand left after a claim that stood, true with chance ``true``: a card bearing it
    out laid from a hand holding one at least, or another card from a hand holding none,
    each sort scaled at once."""
    matched = sum(expected[i] for i in matching)
    other = sum(expected) - matched
    able = _able(expected, matching, held)
    if matched <= 0 or other <= 0 or able <= 0:
        total = matched + other
        return [n * (held - 1) / total for n in expected] if total > 0 else list(expected)
    keep = true * max(0.0, matched - able) / (matched * able)
    fill = (true * max(0.0, held - matched / able) + (1 - true) * (held - 1)) / other
    chosen = set(matching)
    return [n * keep if i in chosen else n * fill for i, n in enumerate(expected)]


def _logit(p: float) -> float:
    p = min(max(p, 0.02), 0.98)
    return math.log(p / (1 - p))


class HardRecord(Record):
    """``counter``'s record, and more of each seat: how its shown claims turned out against
    the odds they were judged at, its claims of the highest level against how many of its
    claims could have been of it truthfully, and how often it challenged with priority."""

    def __init__(self, spread: float, steady: float) -> None:
        super().__init__()
        #: The priors on a seat's correction: how far its shift and its scale range.
        self.spread, self.steady = spread, steady
        #: Each seat's shown claims: the log odds judged, whether true, the weight left (less
        #: in each later game), whether this seat showed it; and its correction.
        self.odds: dict[int, list[tuple[float, float, float, bool]]] = {}
        self.bias: dict[int, tuple[float, float]] = {}
        self.top: Counter[int] = Counter()
        self.could: defaultdict[int, float] = defaultdict(float)
        self.asked: Counter[int] = Counter()
        self.called: Counter[int] = Counter()

    def fade(self, keep: float) -> None:
        super().fade(keep)
        for counts in (self.top, self.asked, self.called):
            _fade(counts, keep)
        for seat in self.could:
            self.could[seat] *= keep
        for seat, shown in self.odds.items():
            shown[:] = [(z, true, weight * keep, mine) for z, true, weight, mine in shown
                        if weight * keep > 0.1]
            self.correct(seat, 8)

    def show(self, seat: int, z: float, true: bool, mine: bool) -> None:
        self.odds.setdefault(seat, []).append((z, float(true), 1.0, mine))
        self.correct(seat, 1)  # (from where it was: a step is enough)

    def correct(self, seat: int, steps: int) -> None:
        """The correction that best explains the seat's shown claims: log odds ``z`` read as
        ``shift + scale * z``, at their most likely (Newton's method: the log likelihood is
        concave), against priors of no correction."""
        shown = self.odds.get(seat, [])
        shift, scale = self.bias.get(seat, (0.0, 1.0))
        near, steady = 1 / self.spread ** 2, 1 / self.steady ** 2
        for _ in range(steps):
            g1, g2, h11, h12, h22 = -shift * near, (1 - scale) * steady, near, 0.0, steady
            for z, true, weight, mine in shown:
                chance = 1 / (1 + math.exp(-max(-30.0, min(30.0, shift + scale * z))))
                miss, curve = weight * (true - chance), weight * chance * (1 - chance)
                g1 += miss
                h11 += curve
                if not mine:  # (what it showed itself was chosen by these odds)
                    g2 += miss * z
                    h12 += curve * z
                    h22 += curve * z * z
            det = h11 * h22 - h12 * h12
            d1, d2 = (h22 * g1 - h12 * g2) / det, (h11 * g2 - h12 * g1) / det
            size = max(abs(d1), abs(d2))
            if size > 1:  # (a step of at most 1: no overshoot)
                d1, d2 = d1 / size, d2 / size
            shift, scale = shift + d1, scale + d2
            if size < 1e-3:
                break
        self.bias[seat] = (shift, scale)

    def read(self, seat: int, z: float) -> float:
        """The chance that ``seat``'s claim judged at log odds ``z`` is true."""
        shift, scale = self.bias.get(seat, (0.0, 1.0))
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, shift + scale * z))))


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

    # -- following the table ------------------------------------------------------------

    def follow(self, view: TableView) -> tuple[Hands, list[float]]:
        """The other hands as expected now, from the claims settled since it last looked (a
        new round starts from the deal), and how many cards of each sort this seat cannot
        place."""
        assert view.seat is not None
        claims, record, top = view.claims, self.record, view.options.max_level
        waiting = view.phase is Phase.PRIORITY or view.phase is Phase.DECIDING
        start = len(claims) - (view.round_claims - waiting)
        unknown = _left(view, public=False)
        hands = self._hands
        if hands is None or self._round != (view.opener, view.round, start) \
                or not start <= self._read <= len(claims):
            hands = self._hands = Hands(view.options, view.players, view.seat, unknown)
            self._round, self._read = (view.opener, view.round, start), start
        if self._read == len(claims):
            return hands, unknown
        sorts = hands.sorts
        for number, claim in enumerate(claims[self._read:], self._read):
            true, active = 0.5, claim.seat  # type: ignore[attr-defined]
            declaration = claim.declaration  # type: ignore[attr-defined]
            if active != view.seat:
                held = max(1, hands.sizes[active])
                record.could[active] += hands.able(active, sorts.level[top], held)
                record.top[active] += declaration.level == top
                round_, judged, z = self._judged
                if round_ != self._round or judged != number:  # (else as judged waiting)
                    z = self.odds(view, hands, active, declaration, held)
                if isinstance(claim, Showdown):
                    record.show(active, z, claim.card.matches(declaration) and not claim.wild,
                                claim.challenger == view.seat)
                else:
                    true = record.read(active, z)
            self.asked_of(claim, view.players)
            hands.settle(claim, true, unknown)
        self._read = len(claims)
        sizes = list(view.hand_sizes)
        if waiting:
            sizes[view.active] += 1  # (the card laid is still its own)
        hands.sync(sizes, unknown)
        return hands, unknown

    def asked_of(self, claim: Event, players: int) -> None:
        """Who held priority on a settled claim, and who challenged with it (an
        interception tells neither)."""
        record = self.record
        if isinstance(claim, Showdown):
            if claim.intercept:
                return
            last: int | None = claim.challenger
            record.called[claim.challenger] += 1
        else:
            last = claim.by  # type: ignore[attr-defined]
        seat = claim.seat  # type: ignore[attr-defined]
        for _ in range(players - 1):
            seat = (seat + 1) % players
            record.asked[seat] += 1
            if seat == last:
                break

    def later(self, view: TableView) -> float:
        """The chance that a seat after this one challenges the waiting claim if this one
        passes (each as often as it has challenged with priority)."""
        assert view.seat is not None
        record, passes, seat = self.record, 1.0, view.seat
        while (seat := (seat + 1) % view.players) != view.active:
            passes *= 1 - (record.called[seat] + 0.2) / (record.asked[seat] + 2)
        return 1 - passes

    # -- judging a claim ----------------------------------------------------------------

    def features(self, view: TableView, hands: Hands, seat: int, declaration: Declaration,
                 held: int) -> tuple[float, ...]:
        """What ``seat``'s claim is judged by (:attr:`weights`): 1; the log odds that its
        hand of ``held`` cards holds a card bearing the claim out, and a card of its level;
        whether the level is the highest; whether the claimer holds its last token; how
        often the table challenges the level (as far as 0.3, as far as the fit saw); the log
        of the share of its claims of that level; its hand's size; the level, and how far
        the round has gone, as a share; the rate and the first chance again for the
        highest level; and, for the highest level and for any, the log of its claims of the
        highest level over how many could have been (a player who claims it more often
        than it could is lying)."""
        sorts, record = hands.sorts, self.record
        level, top = declaration.level, view.options.max_level
        # (Before a record says much, the typical share and rate of the games fit.)
        often = (record.declared[seat, level] + 3) / (record.claims[seat] + 10)
        rate = min((record.challenged[level] + 1.3) / (record.made[level] + 10), 0.3)
        highest = float(level == top)
        able = _logit(hands.able(seat, sorts.matching[declaration], held))
        excess = math.log((record.top[seat] + 1) / (record.could[seat] + 1))
        return (1.0, able, _logit(hands.able(seat, sorts.level[level], held)), highest,
                float(view.tokens[seat] == 1), rate, math.log(often), min(held - 1, 7),
                level / top, view.round_claims / 32, highest * rate, highest * able,
                highest * excess, excess)

    def odds(self, view: TableView, hands: Hands, seat: int, declaration: Declaration,
             held: int) -> float:
        """The log odds that ``seat``'s claim is true, before the seat's own correction."""
        return math.fsum(map(operator.mul, self.weights, self.features(
            view, hands, seat, declaration, held)))

    def chance_true(self, view: TableView) -> float:
        assert view.declaration is not None and view.seat is not None
        # (Asked of one claim to intercept and then with priority: worked out once.)
        moment = (view.opener, view.round, view.turns, len(view.claims), view.tokens)
        if moment == self._moment:
            return self._chance
        self.remember(view)
        hands, unknown = self.follow(view)
        active, declaration = view.active, view.declaration
        if sum(unknown[i] for i in hands.sorts.matching[declaration]) <= 0:
            chance = 0.0  # every card that would bear it out is placed elsewhere
        else:
            z = self.odds(view, hands, active, declaration, view.hand_sizes[active] + 1)
            self._judged = (self._round, len(view.claims), z)
            chance = self.record.read(active, z)
        self._moment, self._chance = moment, chance
        return chance

    def worth(self, view: TableView, lie: float, cost: float = 0.0) -> float:
        """What challenging the waiting claim is worth to this seat against passing, when it
        is a lie with chance ``lie`` (``cost``: what the challenge spends)."""
        me, active = view.seat, view.active
        assert me is not None and view.declaration is not None
        level, later, rivals = view.declaration.level, self.later(view), self.rivals
        caught = level + self.gain
        wrong = self.token_worth(view, me) - 2 * self.card
        # What it keeps the claimer from, unless a later seat would (and score it).
        caught += rivals * ((1 - later) * (level + self.token_worth(view, active))
                            + later * (level + self.gain))
        wrong += rivals * (1 - later) * self.gain
        return lie * caught - (1 - lie) * wrong - cost

    def challenges(self, view: TableView) -> bool:
        return self.worth(view, 1 - self.chance_true(view)) > self.margin

    # -- its own turn -------------------------------------------------------------------

    def turn(self, view: TableView) -> list[Action]:
        """``sharp``'s choice (:meth:`CounterKnowBot.turn`), with less work: what each play
        is worth first, the kind to declare for the one chosen only."""
        assert view.seat is not None
        self.remember(view)
        top, rate, hand = view.options.max_level, self.challenge_rate, view.hand
        lose = self.token_worth(view, view.seat) + self.others * 2.0
        plain = [card for card in hand if card.level is not None]
        wildcard = next((card for card in hand if card.kind is Kind.WILDCARD), None)
        interceptions = [card for card in hand if card.kind is Kind.INTERCEPTION]
        spare = min(plain, key=lambda c: c.level or 0) if plain else \
            interceptions[0] if len(interceptions) > 1 or wildcard is None else None

        def choices(spare: Card | None) -> Iterator[tuple[float, Card, int | None]]:
            for card in plain:  # true: challenged, it wins a token too
                yield (card.level or 1) + rate(card.level or 1) * 2.0, card, None
            if wildcard is not None:
                yield top + rate(top) * 2.0, wildcard, top
            if spare is None:
                return
            for level in range(1, top + 1):
                chance = rate(level)  # a lie: caught, it gives the level away
                yield ((1 - chance) * level - chance * (lose + self.others * level)
                       - (self.interception if spare.level is None else 0.0)), spare, level

        # (worth, card, level to declare: the first of the best, as ``max`` gives it)
        best = max(choices(spare), key=operator.itemgetter(0))
        _, card, declared = best
        if declared is None:
            return [Play(card, true_declaration(card))]
        return [Play(card, self.believed(view, declared))]

    def believed(self, view: TableView, level: int) -> Declaration:
        """The kind of ``level`` with more cards bearing it out that nobody can place yet
        (Truth when even)."""
        sorts, left = _sorts(view.options), _left(view, public=True)
        truth, bluff = Declaration(level, Kind.TRUTH), Declaration(level, Kind.BLUFF)
        if sum(left[i] for i in sorts.matching[bluff]) > \
                sum(left[i] for i in sorts.matching[truth]):
            return bluff
        return truth
