"""I Know You Don't's `hard` against its targets, with the figures docs/bots.md gives.

    python bench/ikyd_hard.py [--matches 20] [--games 25] [--seeds 1,2] [--json]

Each match-up is one `doubtlan tourney --game iknowyoudont --games 25 --matches 20 --seed S`
(one process), for each seed; a figure is a strategy's share of the games with the
matches' 95% interval. Two strategies are registered for this run only, as bench/
exploiters.py registers its exploiters, and are not strategies doubtlan offers:

- `hardquiet`: `hard` that never challenges nor intercepts (its claims are `hard`'s);
- `sharpcopy`: `sharp` under another name, so that one `sharp` against three is measured
  (its fair share is 0.25).

Targets: two `hard` and two `hardquiet`, the `hard`s together at least 0.55; `hard` alone
against three `counter` at least 0.45. Checks: `hard` does at least as well as `sharp`
against three `sharp` and against three `honest`. The match-up that showed the problem
(two `sharp` and two of `sharp` with its challenges off) is measured too. The exit status
is 0 only when both targets are met on every seed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from exploiters import quiet  # noqa: E402

from doubtlan import tourney  # noqa: E402
from doubtlan.bots import STRATEGIES  # noqa: E402
from doubtlan.bots.iknowyoudont import HardKnowBot, SharpKnowBot  # noqa: E402

GAME = "iknowyoudont"


HardQuiet, SharpQuiet = quiet(HardKnowBot), quiet(SharpKnowBot)


class SharpCopy(SharpKnowBot):
    name = "sharpcopy"


#: (label, bots, the strategy whose share is reported, target or None)
MATCHUPS = [
    ("two hard, two hardquiet", ["hard", "hard", "hardquiet", "hardquiet"], "hard", 0.55),
    ("hard against three counter", ["hard", "counter", "counter", "counter"], "hard", 0.45),
    ("hard against three sharp", ["hard", "sharp", "sharp", "sharp"], "hard", None),
    ("sharp against three sharp", ["sharpcopy", "sharp", "sharp", "sharp"], "sharpcopy", None),
    ("hard against three honest", ["hard", "honest", "honest", "honest"], "hard", None),
    ("sharp against three honest", ["sharp", "honest", "honest", "honest"], "sharp", None),
    ("two sharp, two sharpquiet", ["sharp", "sharp", "sharpquiet", "sharpquiet"], "sharp", None),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for bot in (HardQuiet, SharpQuiet, SharpCopy):
        STRATEGIES[GAME][bot.name] = bot  # (for this run only)
    rows = []
    for label, bots, strategy, target in MATCHUPS:
        for seed in map(int, args.seeds.split(",")):
            result = tourney.run(bots, args.games, seed=seed, matches=args.matches,
                                 workers=1, game=GAME)
            standing = result.standings[strategy]
            low, high = standing.interval(result.games)
            rows.append({"match-up": label, "bots": ",".join(bots), "strategy": strategy,
                         "seed": seed, "win_rate": round(standing.rate(result.games), 3),
                         "interval": [round(low, 3), round(high, 3)], "target": target,
                         "decisions_per_second": round(result.decisions_per_second)})
            if not args.json:
                met = "" if target is None else \
                    "  met" if standing.rate(result.games) >= target else "  NOT met"
                print(f"{label:<28} seed {seed}: {strategy} {rows[-1]['win_rate']:.3f} "
                      f"({low:.3f} to {high:.3f}){met}", flush=True)
    if args.json:
        print(json.dumps(rows))
    else:
        print(f"\n{args.matches} matches of {args.games} games each: doubtlan tourney --game "
              f"{GAME} --bots BOTS --games {args.games} --matches {args.matches} --seed S "
              "(hardquiet, sharpquiet and sharpcopy exist only in this script)")
    return 0 if all(row["win_rate"] >= row["target"] for row in rows
                    if row["target"] is not None) else 1


if __name__ == "__main__":
    raise SystemExit(main())
