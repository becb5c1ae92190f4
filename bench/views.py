"""An experiment, not a target: how much of the speed run the views of I Doubt It cost.

    python bench/views.py   # (about a minute)

The speed run (four `random`, 2,000 games, seed 1; `bench/tourney.py speed`) is played in
this process, pinned to one core where `taskset` exists, five times in each of four ways,
and the median time of a game is printed for each:

- ``main``: the engine as it is.
- ``lazy``: the engine's views replaced by lazy ones. The facts every seat shares are taken
  once per version into one tuple (the hand sizes, which change in place, copied; the
  settled claims and the seat's pile kept as a list and a length, since they only grow);
  a seat's view holds that tuple, its seat and its hand, and works out every other field,
  its legal list included, when it is read. It is a sound view (it never shows a later
  moment) with every field of :class:`TableView`, though not one the network could send.
- ``lazy, bots skip legal``: the same, with a ``Bot.act`` that asks whether a claim waits
  and whose turn it is before it reads ``legal``, so that a turn's legal list (its 13
  ``Lay``s) is never built.
- ``bare``: views of only the eight fields ``random`` reads, with a legal list that is not
  the real one: no view could be cheaper. A lower bound on the time, not a design.

Each way must play the same games (the decisions and the seats' wins are compared); the
ratios against ``main`` show what each would add to the side-by-side figure of
``bench/tourney.py speed 4a52750``. docs/architecture.md (Speed) has the figures.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doubtlan.bots.idoubtit import base as bots  # noqa: E402
from doubtlan.rules.idoubtit import DOUBT, LET_STAND, lay  # noqa: E402
from doubtlan.rules.idoubtit.actions import ANNOUNCE  # noqa: E402
from doubtlan.rules.idoubtit.game import IDoubtIt  # noqa: E402
from doubtlan.rules.idoubtit.state import LAYING, WINDOW  # noqa: E402
from doubtlan.tourney import run  # noqa: E402

ANSWERS = (DOUBT, LET_STAND)
#: The facts of a lazy view's moment, in the order of its snapshot tuple: the fields every
#: seat sees alike, then what the private fields are worked out from (lists that only grow
#: while they are the state's, with their lengths at the moment).
SHARED = ("players", "options", "opener", "version", "decision", "phase", "turn", "rank", "laid",
          "hand_sizes", "pile", "claim", "claimer", "winner")
PHASE, TURN, RANK, LAID, CLAIM, CLAIMER = 5, 6, 7, 8, 11, 12
WINDOW_SEATS, ANSWERS_GIVEN, RECORDS, SETTLED, LAID_CARDS, CLAIM_CARDS = range(14, 20)


class LazyView:
    """A seat's view that works out its fields when they are read (see the module)."""

    __slots__ = ("seat", "hand", "_moment", "_pile", "_piled", "_legal")

    def __init__(self, seat: int, moment: tuple[Any, ...], hand: tuple[Any, ...],
                 pile: list[Any]) -> None:
        self.seat, self.hand, self._moment = seat, hand, moment
        self._pile, self._piled = pile, len(pile)
        self._legal: tuple[Any, ...] | None = None

    @property
    def rank(self) -> Any:
        moment = self._moment
        rank = moment[RANK]
        return rank.next() if moment[CLAIM] is not None and moment[PHASE] is LAYING else rank

    @property
    def awaiting(self) -> tuple[int, ...]:
        moment = self._moment
        if moment[PHASE] is LAYING:
            return (moment[TURN],)
        if moment[PHASE] is WINDOW:
            return tuple(s for s in moment[WINDOW_SEATS] if s not in moment[ANSWERS_GIVEN])
        return ()

    @property
    def answered(self) -> tuple[int, ...]:
        moment = self._moment
        return tuple(s for s in moment[WINDOW_SEATS] if s in moment[ANSWERS_GIVEN])

    @property
    def record(self) -> tuple[Any, ...]:
        return tuple(self._moment[RECORDS][:self._moment[SETTLED]])

    @property
    def my_laid(self) -> tuple[Any, ...]:
        moment, seat = self._moment, self.seat
        if seat == moment[CLAIMER]:
            cards, count = moment[CLAIM_CARDS]
            return tuple(cards[:count])
        if seat == moment[TURN]:
            return tuple(moment[LAID_CARDS][:moment[LAID]])
        return ()

    @property
    def my_pile(self) -> tuple[Any, ...]:
        return tuple(self._pile[:self._piled])

    @property
    def my_answer(self) -> bool | None:
        return self._moment[ANSWERS_GIVEN].get(self.seat)

    @property
    def my_turn(self) -> bool:
        return self.seat == self._moment[TURN] and self._moment[PHASE] is LAYING

    @property
    def legal(self) -> tuple[Any, ...]:
        legal = self._legal
        if legal is None:
            moment, seat = self._moment, self.seat
            if moment[PHASE] is WINDOW:
                legal = ANSWERS if seat in moment[WINDOW_SEATS] \
                    and seat not in moment[ANSWERS_GIVEN] else ()
            elif moment[PHASE] is not LAYING:
                legal = ()
            else:
                legal = ()
                if seat == moment[TURN]:
                    if moment[LAID] < moment[1].max_claim:
                        legal = tuple(map(lay, self.hand if moment[1].decks == 1
                                          else dict.fromkeys(self.hand)))
                    if moment[LAID]:
                        legal += (ANNOUNCE,)
                if moment[CLAIM] is not None and seat != moment[CLAIMER]:
                    legal += (DOUBT,)
            self._legal = legal
        return legal


for _index, _name in enumerate(SHARED):
    if _name != "rank":
        setattr(LazyView, _name, property(lambda self, i=_index: self._moment[i]))

_NO_ANSWERS: dict[int, bool] = {}


def lazy_view(game: IDoubtIt, seat: int) -> LazyView:
    state = game.state
    version, moment = game._public
    if version != state.version:  # (the game's cache of its shared facts, borrowed)
        moment = (state.players, state.options, state.opener, state.version, state.turns,
                  state.phase, state.turn, state.rank, len(state.laid),
                  tuple(map(len, state.hands)), len(state.pile), state.claim, state.claimer,
                  state.winner, state.window,
                  dict(state.answers) if state.answers else _NO_ANSWERS,
                  state.records, len(state.records), state.laid,
                  (state.claim_cards, len(state.claim_cards)))
        game._public = (state.version, moment)
    return LazyView(seat, moment, tuple(state.hands[seat]), state.pile_by_seat[seat])


class BareView:
    __slots__ = ("seat", "legal", "claim", "phase", "turn", "hand", "laid", "options")

    @property
    def my_turn(self) -> bool:
        return self.seat == self.turn and self.phase is LAYING


def bare_view(game: IDoubtIt, seat: int) -> BareView:
    state = game.state
    view = BareView()
    view.seat, view.claim, view.phase, view.turn = seat, state.claim, state.phase, state.turn
    view.hand, view.laid, view.options = tuple(state.hands[seat]), len(state.laid), state.options
    view.legal = ANSWERS if state.phase is WINDOW else (ANNOUNCE,)
    return view


def act_skipping_legal(self: Any, view: Any) -> Any:
    """``Bot.act`` that reads ``legal`` only when a claim waits (a window's is short)."""
    if view.claim is not None:
        legal = view.legal
        if DOUBT in legal and self.doubts(view):
            return (DOUBT,)
        if view.phase is WINDOW:
            return (LET_STAND,) if legal else ()
    if not view.my_turn:
        return ()
    return self.turn(view)


def measure(runs: int = 5) -> tuple[float, tuple[int, list[int]]]:
    times, outcome = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = run(["random"] * 4, 2000, seed=1)
        times.append((time.perf_counter() - started) / result.games)
        outcome = (result.decisions, result.seat_wins)
    assert outcome is not None
    return statistics.median(times), outcome


def main() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    view, act = IDoubtIt.view, bots.Bot.act
    ways = {
        "main": (view, act),
        "lazy": (lazy_view, act),
        "lazy, bots skip legal": (lazy_view, act_skipping_legal),
        "bare": (bare_view, act),
    }
    figures = {}
    for name, (make, decide) in ways.items():
        IDoubtIt.view, bots.Bot.act = make, decide  # type: ignore[assignment,method-assign]
        figures[name] = measure()
    IDoubtIt.view, bots.Bot.act = view, act  # type: ignore[method-assign]
    base, outcome = figures["main"]
    for name, (seconds, played) in figures.items():
        same = "same games" if played == outcome else "OTHER GAMES"
        print(f"{name:<24}{seconds * 1e6:6.0f} µs a game  {base / seconds:5.2f} times main  "
              f"({same})")


if __name__ == "__main__":
    main()
