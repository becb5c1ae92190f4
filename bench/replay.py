"""An I Know You Don't bot's decisions, recorded once and replayed: how fast it decides, and
whether a change of its code changed any decision.

    python bench/replay.py record FILE [--decisions 30000] [--seeds 1,2] [--level hard]
    python bench/replay.py FILE [--rounds 5]

``record`` plays whole four-player games of four bots of the level (the tables of
``bench/peers.py``: seed N deals as its seed N) until each seed has made ``--decisions``
decisions, and writes every view a bot was asked to act on, with the actions it chose, to
FILE (pickle: read only files you made). Without ``record`` the views of FILE are given, in
order, to fresh bots of the level, made from the same seeds: each ``act`` is timed, and each
answer compared with the recorded one. Record with one commit's code and replay with
another's: the replay's time is the other code's, and "changed" counts the decisions it
makes otherwise (the recorded games go on as recorded, so one change does not carry into
the next).

The views were built before the replay, so this times the bots alone and warmer than a
game does (``bench/peers.py``, which builds each view between decisions, gives some 15%
more a decision): use it to compare two versions of a bot, and ``bench/peers.py`` for the
figure. Garbage collection is off while the decisions are timed; the best round counts.
"""

from __future__ import annotations

import argparse
import gc
import pickle
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doubtlan import tourney  # noqa: E402
from doubtlan.bots import LEVELS, make_bot  # noqa: E402
from doubtlan.rules import Match, game_named  # noqa: E402
from doubtlan.rules.seeds import derive, seed_bytes  # noqa: E402

GAME = "iknowyoudont"
PLAYERS = 4


class Recording:
    """A seat's bot whose every decision is noted: the view and the actions chosen."""

    def __init__(self, seat: int, bot: Any, log: list[tuple[int, Any, tuple[Any, ...]]]) -> None:
        self.seat, self.bot, self.log = seat, bot, log

    def act(self, view: Any) -> Any:
        actions = self.bot.act(view)
        self.log.append((self.seat, view, tuple(actions)))
        return actions


def record(level: str, seed: int, decisions: int) -> list[tuple[int, Any, tuple[Any, ...]]]:
    """The decisions of four bots of ``level`` in the games of ``seed``."""
    kind = game_named(GAME)
    master = seed_bytes(f"peers {seed}")
    match = Match(PLAYERS, kind.options_type(), seed=derive(master, "deal"), game=kind)
    log: list[tuple[int, Any, tuple[Any, ...]]] = []
    strategy = LEVELS[GAME][level]
    bots = [Recording(seat, make_bot(strategy, derive(master, f"seat {seat}"), GAME), log)
            for seat in range(PLAYERS)]
    while len(log) < decisions:
        tourney.play(match.new_game(), bots)
    return log


def replay(level: str, seed: int, log: list[tuple[int, Any, tuple[Any, ...]]]
           ) -> tuple[float, int]:
    """µs a decision, and how many decisions differ from the recorded ones."""
    master = seed_bytes(f"peers {seed}")
    strategy = LEVELS[GAME][level]
    bots = [make_bot(strategy, derive(master, f"seat {seat}"), GAME) for seat in range(PLAYERS)]
    clock, spent, changed = time.perf_counter_ns, 0, 0
    gc.collect()
    gc.disable()
    try:
        for seat, view, recorded in log:
            act = bots[seat].act
            started = clock()
            actions = act(view)
            spent += clock() - started
            changed += tuple(actions) != recorded
    finally:
        gc.enable()
    return spent / len(log) / 1000, changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", nargs="+", help="record FILE, or FILE")
    parser.add_argument("--decisions", type=int, default=30_000)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.what[0] == "record":
        if len(args.what) != 2:
            parser.error("record takes one FILE")
        runs = {int(seed): record(args.level, int(seed), args.decisions)
                for seed in args.seeds.split(",")}
        with open(args.what[1], "wb") as file:
            pickle.dump({"level": args.level, "runs": runs}, file)
        print(f"recorded {', '.join(f'seed {s}: {len(log)}' for s, log in runs.items())} "
              f"decisions of {args.level} into {args.what[1]}")
        return 0
    if len(args.what) != 1:
        parser.error("give one FILE to replay, or: record FILE")
    with open(args.what[0], "rb") as file:
        recorded = pickle.load(file)
    level, runs = recorded["level"], recorded["runs"]
    best: dict[int, float] = {}
    changed: dict[int, int] = {}
    for _ in range(args.rounds):
        for seed, log in runs.items():
            us, changed[seed] = replay(level, seed, log)
            best[seed] = min(best.get(seed, us), us)
    for seed, log in runs.items():
        print(f"seed {seed}: {len(log)} decisions of {level}, {best[seed]:.2f} µs each "
              f"(best of {args.rounds}), {changed[seed]} changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
