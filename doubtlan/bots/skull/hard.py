"""``hard`` for Skull: weighs each stack's chance of hiding a Skull (a player's discs left,
the Skulls they have shown, whether they bid this round) and bids, raises and turns where
the chance of turning only Flowers is best; it hides its own Skull under Flowers, so that
its stack bites the players who outbid it."""

from __future__ import annotations

from functools import lru_cache

from ...rules import Action
from ...rules.seeds import Seed
from ...rules.skull import FLOWER, SKULL, Bid, Disc, TableView
from .base import SkullBot, face_down, holds, lay, safe_own, skulls_shown

#: The chance it wants of turning only Flowers, to bid or raise.
NERVE = 0.55


class HardSkullBot(SkullBot):
    """Skull's hardest bot (docs/bots.md)."""

    name, about = "hard", "weighs every stack's chance of a Skull, and hides its own"

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        #: The seats seen bidding this round (a bid says its stack is likely clean).
        self._bidders: set[int] = set()
        self._round = (-1, -1)

    def _follow(self, view: TableView) -> None:
        key = (view.opener, view.round)
        if key != self._round:
            self._round, self._bidders = key, set()
        if view.bidder is not None:
            self._bidders.add(view.bidder)

    def act(self, view: TableView) -> tuple[Action, ...]:
        self._follow(view)
        return tuple(super().act(view))

    # -- what it reads ------------------------------------------------------------------

    def _skull_chance(self, view: TableView, seat: int) -> float:
        """How likely ``seat``'s stack hides its Skull."""
        shown = skulls_shown(view)[seat]
        kept = view.discs[seat] / 4  # (each disc lost, drawn at random, may be the Skull)
        laid = min(0.9, 0.3 + 0.15 * (view.stacks[seat] - 1) + 0.1 * shown)
        if seat in self._bidders:
            laid *= 0.25
        return kept * laid

    def _chance(self, view: TableView, need: int) -> float:
        """The chance of turning ``need`` discs of the others' stacks, all Flowers, in the
        best order."""
        if need <= 0:
            return 1.0
        stacks = face_down(view)
        seats = sorted(stacks)
        rows = tuple((stacks[seat], round(self._skull_chance(view, seat), 3))
                     for seat in seats)
        return _best(rows, need)[0]

    def _plan(self, view: TableView, stacks: list[int], need: int) -> int:
        down = face_down(view)
        seats = sorted(seat for seat in down if seat in stacks)
        rows = tuple((down[seat], round(self._skull_chance(view, seat), 3))
                     for seat in seats)
        _, taken = _best(rows, need)
        for seat, count in zip(seats, taken, strict=True):
            if count:
                return seat
        return seats[0]

    def _reach(self, view: TableView) -> tuple[int, float]:
        """The highest bid worth making now, and its chance."""
        own = safe_own(view)
        if own < len(view.stack):  # (its Skull: it bids only what it turns of its own)
            return own, 1.0
        best = (0, 0.0)
        for bid in range(max(1, view.bid + 1), view.on_table + 1):
            chance = self._chance(view, bid - own)
            if chance >= NERVE:
                best = (bid, chance)
        return best

    # -- what it does -------------------------------------------------------------------

    def opening(self, view: TableView) -> Disc:
        return SKULL if holds(view, SKULL) and self.rng.random() < 0.45 else FLOWER

    def lay_or_bid(self, view: TableView) -> Action:
        bid, _ = self._reach(view)
        flowers = holds(view, FLOWER)
        if bid and (not flowers or len(view.stack) >= 2 or self.rng.random() < 0.4):
            return Bid(bid)
        if view.hand:
            return lay(view, FLOWER if flowers else SKULL)
        return Bid(1)

    def raise_to(self, view: TableView) -> int | None:
        bid, _ = self._reach(view)
        return view.bid + 1 if bid > view.bid else None

    def turn(self, view: TableView, stacks: list[int]) -> int:
        need = view.bid - sum(map(len, view.turned))
        return self._plan(view, stacks, need)


@lru_cache(maxsize=4096)
def _best(rows: tuple[tuple[int, float], ...], need: int) -> tuple[float, tuple[int, ...]]:
    """The best chance of turning ``need`` discs, all Flowers, from stacks of ``rows``
    (each: discs face down, chance of its Skull among them, anywhere alike), and how many
    of each stack to turn."""
    if not rows:
        return (1.0 if need == 0 else 0.0), ()
    (size, skull), rest = rows[0], rows[1:]
    best: tuple[float, tuple[int, ...]] = (0.0, (0,) * len(rows))
    for take in range(min(size, need) + 1):
        chance, taken = _best(rest, need - take)
        chance *= 1 - skull * take / size
        if chance > best[0]:
            best = (chance, (take, *taken))
    return best
