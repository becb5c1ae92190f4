"""``hard`` for Liar's Deck: plays each turn for the smaller chance of losing the round, with
what it learns of each player over the match.

A round costs one player a life: a lie's player when it is called, or the caller of a true
claim. A player whose hand is empty is safe for the rest of the round, and the last player
holding cards must call the claim before it. So a hand's danger is its false cards, each to
go down in a lie the next player may call, and being the last to empty it. ``hard`` learns
of every player, from every claim of the match (:class:`Tally`):

- how often it calls a claim of one, two or three cards when it need not, by the cards the
  claimer held, and of ``hard``'s own claims apart (every answer is seen);
- how often its called claims of each size proved true, by the cards it held (a claim no
  hand can hold is a lie for certain; the chance that a hand held it counts as two calls);
- how many cards it puts down a turn, holding each number of cards: how soon its hand is
  likely to be empty (:meth:`HardLiarBot.emptied`).

On its turn it weighs each way through the round that is left (:func:`_danger`): true cards
down and the false kept for later, a bluff of one to three false cards (padded with true ones
to empty its hand sooner), the truth kept for the last claim, or a call at a later turn. A
bluff is caught as often as the next player calls such claims; the round may end between its
turns when another player calls; once every other hand is empty it must call, and the last
player holding cards must call its own last claim. It takes the way least likely to cost it
the life, and calls the claim waiting when that claim is less likely true than that.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import cache, lru_cache

from ...rules.liarsdeck import HAND, Believed, Called, Card, TableView
from ...rules.seeds import Seed
from .base import LiarBot, held, this_round, truthful

#: The most cards a claim holds.
MOST = 3


class Tally:
    """Counts of chances and of what came of them, keyed by what is known of each; a chance
    is read from the most precise key, each key's count weighed against the one before."""

    def __init__(self) -> None:
        self.tried: Counter[tuple[object, ...]] = Counter()
        self.hits: Counter[tuple[object, ...]] = Counter()

    def add(self, keys: list[tuple[object, ...]], hit: bool) -> None:
        for key in keys:
            self.tried[key] += 1
            self.hits[key] += hit

    def chance(self, prior: float, weight: float, keys: list[tuple[object, ...]]) -> float:
        """The chance read from ``keys`` (broad to precise), starting from ``prior``, each
        estimate worth ``weight`` counts against the next key's."""
        for key in keys:
            tried = self.tried.get(key, 0)
            if tried:
                prior = (self.hits[key] + weight * prior) / (tried + weight)
        return prior


class HardLiarBot(LiarBot):
    """Learns each player's calls and lies; plays for the smaller chance of losing."""

    name = "hard"
    about = "learns each player's calls and lies, plays the safer way"
    #: A player's chance to call a claim it need not, before it has been seen to answer any
    #: (worth ``call_weight`` answers); a claim's chance to be true is the chance a hand held
    #: it, worth ``true_weight`` calls against the claimer's record.
    call_prior, call_weight = 0.2, 3.0
    true_weight = 2.0
    #: What calling at a later turn costs, on average (a claim it would call is true this
    #: often), and what the call it must make when it is the last holding cards costs.
    later, last = 0.45, 0.8
    #: How likely a player puts down one, two or three cards, before it has been seen to put
    #: any (worth ``size_weight`` claims).
    size_prior, size_weight = (0.5, 0.3, 0.2), 3.0

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        #: Each seat's answers to claims it need not call (keyed by the claim's size; its size
        #: and the cards its claimer held; and those again for this seat's claims), and how
        #: many were calls.
        self.answers = Tally()
        #: Each seat's called claims (keyed by size; size and the cards it held), and how many
        #: were true.
        self.shown = Tally()
        #: Each seat's claims by their size, and by the cards it held and their size.
        self.sizes: Counter[tuple[int, ...]] = Counter()
        #: The moment :meth:`danger` last answered for, and its answer.
        self._last: tuple[object, tuple[float, tuple[int, int]]] | None = None
        #: How many of this game's claims it has read, and what it keeps while it reads them:
        #: each seat's cards in the round being read, and each seat's losses this game.
        self._done = 0
        self._held: dict[int, int] = {}
        self._losses: defaultdict[int, int] = defaultdict(int)

    # -- following the game -----------------------------------------------------------------

    def follow(self, view: TableView) -> None:
        """Read the claims settled since it last looked (a new game's from its first)."""
        list(self.calls_since(view))  # (a new round: its own cards put down are forgotten)
        claims = view.record
        if self._done > len(claims) or not self._held:
            self._done, self._losses = 0, defaultdict(int)
            self._held = self._dealt(view)
        lives = view.options.lives.count
        for number in range(self._done, len(claims)):
            claim = claims[number]
            assert isinstance(claim, Believed | Called)
            held_by, seat, size = self._held, claim.seat, claim.count
            before = held_by.get(seat, HAND)  # (a claim is read by the cards held before it)
            held_by[seat] = before - size
            self.sizes[seat, size] += 1
            self.sizes[seat, before, size] += 1
            called = isinstance(claim, Called)
            answerer = claim.caller if isinstance(claim, Called) else claim.by  # (for mypy)
            if any(cards > 0 for other, cards in held_by.items() if other != answerer):
                # (else the answerer was the last holding cards: its call was no choice)
                keys: list[tuple[object, ...]] = [(answerer, size), (answerer, size, before)]
                if seat == view.seat:
                    keys.append((answerer, size, before, "mine"))
                self.answers.add(keys, called)
            if isinstance(claim, Called):
                self.shown.add([(seat, size), (seat, size, before)], not claim.lie)
                self._losses[claim.loser] += 1
                gone = (self._losses[claim.loser] == lives if lives is not None
                        else claim.loser in view.out and not any(
                            isinstance(later, Called) and later.loser == claim.loser
                            for later in claims[number + 1:]))
                self._held = {player: HAND for player in held_by
                              if not (gone and player == claim.loser)}
        self._done = len(claims)

    @staticmethod
    def _dealt(view: TableView) -> dict[int, int]:
        """Each seat's cards at this game's first deal (every seat is in it)."""
        return dict.fromkeys(range(len(view.lives)), HAND)

    def call_chance(self, seat: int, size: int, cards: int) -> float:
        """How likely ``seat`` calls a claim of ``size`` cards this seat puts down holding
        ``cards``, when it need not call."""
        return self.answers.chance(self.call_prior, self.call_weight, [
            (seat, size), (seat, size, cards), (seat, size, cards, "mine")])

    def emptied(self, seat: int, cards: int) -> tuple[float, ...]:
        """How likely ``seat``, holding ``cards``, has put them all down within each number
        of its turns (0 to :data:`HAND`), if nobody calls: by the sizes of its claims, at
        each number of cards it held."""
        sizes, weight = self.sizes, self.size_weight
        overall = [sizes[seat, size] + weight * prior for size, prior in
                   enumerate(self.size_prior, 1)]
        # ways[h]: how likely it puts down 1, 2 or 3 cards holding h
        ways = []
        for held_now in range(1, cards + 1):
            fits = overall[:min(MOST, held_now)]
            total = sum(fits)
            seen = [sizes[seat, held_now, size] for size in range(1, len(fits) + 1)]
            counted = sum(seen) + weight
            ways.append(tuple(_step((count + weight * fit / total) / counted)
                              for fit, count in zip(fits, seen, strict=True)))
        return _emptied(tuple(ways))

    # -- judging a claim ------------------------------------------------------------------

    def true_chance(self, view: TableView) -> float:
        """How likely the claim waiting is true."""
        assert view.claimer is not None
        claimer, count = view.claimer, view.count
        before = sum(claim.count for claim in this_round(view) if claim.seat == claimer)
        could = held(view, [*view.hand, *self.mine], before + count)
        if could == 0:
            return 0.0
        before = view.hand_sizes[claimer] + count
        return self.shown.chance(could, self.true_weight,
                                 [(claimer, count), (claimer, count, before)])

    def danger(self, view: TableView) -> tuple[float, tuple[int, int]]:
        """The chance that it loses this round if it plays on (puts cards down now), and the
        true and false cards to put down for that."""
        assert view.seat is not None
        moment = (view.decision, view.record, view.hand)
        if self._last is not None and self._last[0] == moment:
            return self._last[1]  # (asked again for the same moment: whether to call, then what)
        me, players = view.seat, len(view.hand_sizes)
        true = len(truthful(view.hand, view))
        others = [seat for step in range(1, players)
                  if view.hand_sizes[seat := (me + step) % players] > 0]
        # How likely every other hand is empty at each of its turns from now, and every one
        # but one.
        empty = [self.emptied(seat, view.hand_sizes[seat]) for seat in others]
        forced, alone = [], []
        for turn in range(HAND + 1):
            each = [chances[turn] for chances in empty]
            every = 1.0
            for chance in each:
                every *= chance
            forced.append(_step(every))
            one = 0.0
            for index, chance in enumerate(each):
                one += (1 - chance) * every / chance if chance else \
                    (1 - chance) * _product(each[:index] + each[index + 1:])
            alone.append(_step(one))
        nxt = others[0] if others else me
        catch = tuple(tuple(self.call_chance(nxt, size, cards) for size in range(1, MOST + 1))
                      for cards in range(len(view.hand) + 1))
        between = 1.0
        for seat in others[1:]:
            between *= 1 - self.answers.chance(self.call_prior, self.call_weight, [(seat, 1)])
        catch = tuple(tuple(_step(chance) for chance in row) for row in catch)
        result = _danger(true, len(view.hand) - true, catch, _step(between), tuple(forced),
                         tuple(alone), self.later, self.last)
        self._last = (moment, result)
        return result

    def calls(self, view: TableView) -> bool:
        self.follow(view)
        return self.true_chance(view) <= self.danger(view)[0]  # (a sure lie: called)

    # -- its turn ---------------------------------------------------------------------------

    def put(self, view: TableView) -> list[Card]:
        self.follow(view)
        true, false = self.danger(view)[1]
        hand = truthful(view.hand, view)
        chosen = hand[:true] + [card for card in view.hand if card not in hand][:false]
        self.mine.extend(chosen)
        return chosen


def _step(chance: float) -> float:
    """``chance`` to the nearest twentieth: near enough for a reading, and the same reading
    met again finds its answer kept (:func:`_danger`, :func:`_emptied`)."""
    return round(chance * 20) / 20


@lru_cache(maxsize=4096)
def _emptied(ways: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
    """How likely a hand of ``len(ways)`` cards is empty within each number of turns (0 to
    :data:`HAND`), ``ways[h - 1]`` the chances to put down 1, 2 or 3 cards holding h."""
    cards = len(ways)
    chance = [1.0] + [0.0] * cards  # by cards held: emptied within the turns so far
    within = []
    for _ in range(HAND + 1):
        within.append(chance[cards])
        chance = [1.0] + [sum(way * chance[held - size] for size, way in
                              enumerate(ways[held - 1], 1))
                          for held in range(1, cards + 1)]
    return tuple(within)


def _product(values: list[float]) -> float:
    result = 1.0
    for value in values:
        result *= value
    return result


@lru_cache(maxsize=8192)
def _danger(true: int, false: int, catch: tuple[tuple[float, ...], ...], between: float,
            forced: tuple[float, ...], alone: tuple[float, ...], later: float,
            last: float) -> tuple[float, tuple[int, int]]:
    """The chance of losing the round for a player who holds ``true`` and ``false`` cards and
    must put some down now, and which to put down (true, false) for it.

    ``catch``: how likely the next player calls a claim of one, two or three cards put
    down from a hand of each size; ``between``: how likely the round reaches its next turn
    once its claim stood (nobody between calls another); ``forced`` and ``alone``: how likely
    every other hand is empty at each of its turns from now, and every one but one. At a
    later turn it may call instead (losing ``later`` of the time); once every other hand is
    empty it must call (losing ``last`` of the time)."""

    @cache
    def now(turn: int, true: int, false: int) -> tuple[float, tuple[int, int]]:
        # (given that some other hand still holds cards at this turn)
        held = 1 - forced[turn]
        lone = min(1.0, alone[turn] / held) if held > 0 else 1.0
        best: tuple[float, tuple[int, int]] = (2.0, (0, 0))
        for lies in range(min(MOST, false) + 1):
            top = min(true, MOST - lies)
            # (at equal risk: the fewest true cards, kept for the turns to come, but all of
            # them soonest when every card is true)
            for padding in range(top, 0, -1) if not false else range(not lies, top + 1):
                size = lies + padding
                left = true - padding + false - lies
                # (a call of a lie costs it the life; a call of the truth ends the round
                # with the caller's)
                caught = catch[true + false][size - 1]
                if not left:  # its last cards: the next player must call them if alone
                    risk = (lone + (1 - lone) * caught) if lies else 0.0
                else:
                    risk = (caught if lies else 0.0) + (1 - caught) * between * on(
                        turn + 1, true - padding, false - lies)
                if risk < best[0] - 1e-9:
                    best = (risk, (padding, lies))
        return best

    def on(turn: int, true: int, false: int) -> float:
        """At a later turn: the call it must make when every other hand is empty; otherwise
        the call, if it is safer than playing on."""
        if turn > HAND:
            return last
        before = forced[turn - 1]
        must = (forced[turn] - before) / (1 - before) if before < 1 else 1.0
        return must * last + (1 - must) * min(later, now(turn, true, false)[0])

    return now(0, true, false)
