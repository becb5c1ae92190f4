"""``hard``: ``sharp``'s play, and doubts on what each player's claims give away.

``sharp`` doubts only the impossible and the winning, so a player who always claims two
cards sheds twice as fast as anyone and is never caught. ``hard`` reads each player
(docs/bots.md, with the measurements behind each choice):

- **How they claim.** For every claim a player makes, it adds up what a truth-teller
  holding as many cards would have claimed (:func:`_truths`). Of a player's claims of a
  size, the share its hands allowed is the chance that such a claim of its is true: a
  player who pads to two cards claims two far more often than a hand holds two. (A claim of
  one card: as often as its hands held one, less the claims it padded from one to two.)
- **Who doubts after it.** Each player's doubts against the claims it could doubt: a lie
  that a later seat will likely doubt can be left to it.

It doubts when the doubt is worth more than letting the claim stand, weighing each outcome
by the chance it gives this seat to win, read from the hands' sizes (:func:`_weights`):
putting the pile on the player about to win is worth much more than putting it on one far
behind, and taking it is worth least of all. And it doubts, as ``sharp`` does, every claim
that is impossible by the cards it has seen, and every claim that would win.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import exp
from operator import add

from ...rules import Action, TableView
from ...rules.idoubtit import DOUBT, LET_STAND, Phase, Resolved
from ...rules.seeds import Seed
from .counter import Memory, at_most, exactly
from .sharp import SharpBot

STAND = LET_STAND
_WINDOW = Phase.WINDOW  # (read once: an enum member read through its class is slow)


class HardBot(SharpBot):
    """Plays its turns as ``sharp`` does; doubts where each player's way of claiming says
    the claim is likely a lie and the doubt pays (module docstring)."""

    name = "hard"
    about = "reads how each player claims; doubts where it pays"
    #: How sharply a seat's chance to win falls with each card more it holds (:func:`_weights`).
    steep = 0.25
    #: How many claims the first reading of a player is worth: that it tells the truth (a
    #: claim of one card: true ``one`` of the time).
    first_weight, one = 8.0, 0.6
    #: How much of a game's reading is kept for the next: players change their ways.
    keep = 0.8
    #: It never doubts a claim likelier true than this (unless it would win).
    doubt_cap = 0.4
    #: How many claims the reading of a player over all its claims is worth against its
    #: claims made standing where it stands now (leading, or not).
    standing_weight = 4.0
    #: How much likelier a player is to hold each card more of the rank it is asked for
    #: than a random hand (:func:`_truths`).
    lean = 1.5

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        #: Each seat's style, over the match: for each claim size, how many claims of that
        #: size it made, and how many a truth-teller would have made (:func:`_truths`).
        self._made: list[list[float]] = []
        self._told: list[list[float]] = []
        #: The same, apart by the seat's standing when it claimed: item ``seat * 2`` while no
        #: other hand was smaller than the one it claimed from (it led), ``seat * 2 + 1``
        #: otherwise.
        self._made_at: list[list[float]] = []
        self._told_at: list[list[float]] = []
        #: Each seat's claims of two shown to be lies: with one true card (padded), and
        #: with none (a bluff of two).
        self._padded: list[float] = []
        self._bare: list[float] = []
        #: How many claims each seat made, and how many it doubted.
        self._claims_by: list[float] = []
        self._doubted_by: list[float] = []
        self._all_claims = 0.0
        self._game: Memory | None = None
        self._sizes: list[int] = []
        self._truths: tuple[tuple[float, ...], ...] = ()
        self._weigh: tuple[float, ...] = _weights(self.steep, 217)

    def act(self, view: TableView) -> Sequence[Action]:
        legal = view.legal
        if not legal or view.seat is None:
            return ()
        memory = self.remember(view)
        if view.claim is not None:
            if DOUBT in legal and self._doubts(view, memory):
                return (DOUBT,)
            if view.phase is _WINDOW:
                return (STAND,)
        if not view.my_turn:
            return ()
        return self.turn(view)

    # -- reading the claims ---------------------------------------------------------------

    def reading(self, memory: Memory, view: TableView, record: Resolved) -> None:
        """Read the claim into its player's style, and who doubted it."""
        seat, count = record.seat, record.claim.count
        me, sizes = view.seat, self._sizes
        if memory is not self._game:
            self._new_game(memory, view)
            sizes = self._sizes
        if seat == me:  # (sharp's own reading: how often its claims are doubted)
            self._claims[count] += 1
            self._doubted[count] += record.doubter is not None
        else:
            truths = self._truths[sizes[seat]]
            self._made[seat][count] += 1
            self._told[seat] = list(map(add, self._told[seat], truths))
            at = seat * 2 + (min(sizes) < sizes[seat])  # (its standing: a smaller hand?)
            self._made_at[at][count] += 1
            self._told_at[at] = list(map(add, self._told_at[at], truths))
            if record.doubter is not None and count == 2 and not record.honest \
                    and record.shown is not None:
                if any(card.rank is record.claim.rank for card in record.shown):
                    self._padded[seat] += 1
                else:
                    self._bare[seat] += 1
        self._claims_by[seat] += 1
        self._all_claims += 1
        if record.doubter is not None:
            self._doubted_by[record.doubter] += 1
        sizes[seat] -= count
        if record.taker is not None:
            sizes[record.taker] += record.taken

    def _new_game(self, memory: Memory, view: TableView) -> None:
        """Start reading a new game (or the first seen): the hands as dealt, and what the
        match's games before have shown, faded by ``keep``."""
        players, largest, keep = view.players, view.options.max_claim, self.keep
        self._game = memory
        total = 52 * view.options.decks
        self._sizes = [len(range((seat - view.opener) % players, total, players))
                       for seat in range(players)]
        self._truths = _truths(view.options.decks, largest, self.lean)
        self._weigh = _weights(self.steep, 104 * view.options.decks + 9)
        if len(self._made) != players or len(self._made[0]) != largest + 1:
            self._made = [[0.0] * (largest + 1) for _ in range(players)]
            self._told = [[0.0] * (largest + 1) for _ in range(players)]
            self._made_at = [[0.0] * (largest + 1) for _ in range(2 * players)]
            self._told_at = [[0.0] * (largest + 1) for _ in range(2 * players)]
            self._claims_by, self._doubted_by = [0.0] * players, [0.0] * players
            self._padded, self._bare = [0.0] * players, [0.0] * players
            self._all_claims = 0.0
            return
        for counts in (*self._made, *self._told, *self._made_at, *self._told_at,
                       self._claims_by, self._doubted_by, self._padded, self._bare):
            counts[:] = [count * keep for count in counts]
        self._all_claims *= keep

    def chance_true(self, view: TableView) -> float:
        """The chance that the waiting claim is true: 0 when the cards seen make it
        impossible; otherwise, of the claimer's claims of that size so far, the share its
        hands allowed (for claims of one card, less those its claims of two were padded
        from)."""
        return self._chance_true(view, self.remember(view))

    def _chance_true(self, view: TableView, memory: Memory) -> float:
        claim, claimer, me = view.claim, view.claimer, view.seat
        assert claim is not None and claimer is not None and me is not None
        count, weight, rank = claim.count, self.first_weight, claim.rank
        mine = [card.rank for card in view.hand].count(rank)
        if count > at_most(memory, mine, me, claimer, rank, 4 * view.options.decks):
            return 0.0
        if not self._made:
            return self.one if count == 1 else 1.0
        # Of its claims of that size, the share its hands allowed; of its claims of one,
        # less those padded to two (as its lies of two shown had one true card or none).
        if count == 1:
            padded = self._padded[claimer]
            padding = (padded + 1) / (padded + self._bare[claimer] + 2)
            chance = _share(self._made[claimer], self._told[claimer], 1, self.one, weight,
                            padding)
        else:
            made, told = self._made[claimer][count], self._told[claimer][count]
            chance = (told + weight) / (made + weight)
            chance, padding = 1.0 if chance > 1.0 else chance, 0.0
        # ... then of its claims made standing where it stands now (leading or not).
        sizes = view.hand_sizes
        at = claimer * 2 + (min(sizes[:claimer] + sizes[claimer + 1:])
                            < sizes[claimer] + count)  # (its standing, as it claimed)
        return _share(self._made_at[at], self._told_at[at], count, chance,
                      self.standing_weight, padding)

    # -- doubting -------------------------------------------------------------------------

    def doubts(self, view: TableView) -> bool:
        """Doubt when the doubt gives this seat a better chance to win than letting the
        claim stand, a later seat perhaps doubting it instead."""
        return self._doubts(view, self.remember(view))

    def _doubts(self, view: TableView, memory: Memory) -> bool:
        claim, claimer, me = view.claim, view.claimer, view.seat
        if claim is None or claimer is None or me is None:
            return False
        sizes = view.hand_sizes
        if sizes[claimer] == 0:
            return True  # the claim would win: doubting costs nothing that matters
        chance = self._chance_true(view, memory)
        if chance == 0.0:
            return True
        if chance > self.doubt_cap:
            return False
        players, stake, weigh = view.players, view.pile + claim.count, self._weigh
        weights = [weigh[size] for size in sizes]
        total, mine = sum(weights), weights[me]
        # This seat's chance to win, by the hands' sizes: as things stand, with the pile on
        # the claimer (caught), and with it on this seat (wrong).
        caught = mine / (total - weights[claimer] + weigh[sizes[claimer] + stake])
        took = weigh[sizes[me] + stake]
        doubt = (1 - chance) * caught + chance * took / (total - mine + took)
        seat = me + 1 if me + 1 < players else 0
        if seat == claimer:  # the last asked
            return doubt > mine / total
        let_pass = 1.0  # the chance the seats asked after this one let it stand too
        claims_by, doubted_by, answered = self._claims_by, self._doubted_by, self._all_claims
        rival = mine / (total - weights[seat] + weigh[sizes[seat] + stake])
        while seat != claimer:
            if claims_by:  # (each seat's doubts, of the claims others made)
                let_pass *= 1 - (doubted_by[seat] + 0.2) / (answered - claims_by[seat] + 1.2)
            else:
                let_pass /= 1.2
            seat = seat + 1 if seat + 1 < players else 0
        stand = let_pass * mine / total \
            + (1 - let_pass) * ((1 - chance) * caught + chance * rival)
        return doubt > stand


def _share(made: Sequence[float], told: Sequence[float], count: int, prior: float,
           weight: float, padding: float) -> float:
    """The chance that a claim of ``count`` is true, of claims ``made`` of which ``told``
    were what a truth-teller would have claimed, ``prior`` worth ``weight`` claims. (Claims
    of one: true ones less those padded to two, ``padding`` of the claims of two beyond a
    truth-teller's; a claim holds 4 or 8.)"""
    if count == 1:
        padded = (made[2] - told[2]) * padding if made[2] > told[2] else 0.0
        true = told[1] - padded if told[1] > padded else 0.0
        chance = (true + prior * weight) / (made[1] + weight)
        return 0.02 if chance < 0.02 else 1.0 if chance > 1.0 else chance
    chance = (told[count] + prior * weight) / (made[count] + weight)
    return 1.0 if chance > 1.0 else chance


@cache
def _truths(decks: int, largest: int, lean: float) -> tuple[tuple[float, ...], ...]:
    """By the cards a player holds (item h: h cards), for each claim size (item n), the
    chance that the player would make that claim truthfully (it holds exactly that many of
    the rank; the largest: that many or more; item 0: it holds none), as anyone at the
    table can count it (h cards of the whole deck), with each card more of the rank
    ``lean`` times likelier than a random draw makes it: players keep the cards they will
    be asked for soon."""
    copies, pool = 4 * decks, 52 * decks
    table = []
    for held in range(pool + 1):
        odds = [0.0] * (largest + 1)
        weight = 1.0
        for n in range(copies + 1):
            odds[min(n, largest)] += exactly(n, pool, copies, held) * weight
            weight *= lean
        total = sum(odds) or 1.0
        table.append(tuple(chance / total for chance in odds))
    return tuple(table)


@cache
def _weights(steep: float, most: int) -> tuple[float, ...]:
    """A hand's weight by its size, up to ``most`` cards: a seat's chance to win is read as
    its weight's share of all the seats' weights, each card more making it ``exp(-steep)``
    times as large."""
    return tuple(exp(-steep * size) for size in range(most + 1))
