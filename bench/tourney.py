"""Benchmarks for the rules engine and the bots, run through `doubtlan tourney`.

    python bench/tourney.py            # speed (5 runs) and strength (2,000 games each)
    python bench/tourney.py speed      # only the speed of four `random` bots
    python bench/tourney.py strength   # only the win rates of `counter`
    python bench/tourney.py know       # I Know You Don't: speed and `counter`'s strength

Speed: games per second of four `random` bots over 2,000 games, on one core (the process
is pinned to CPU 0 where `taskset` exists). Target: at least 500. The median of the runs is
the figure; the spread shows how noisy the machine is.

Strength: `counter` against three `random` (target: win rate at least 0.60) and against
three `honest` (at least 0.35), 2,000 seat-rotated games each.

I Know You Don't (`know`): games per second of four `random` bots over 2,000 games (no
target is set; reported) and `counter`'s win rate against three `random` over 2,000 games
(target: at least 0.60, as for I Doubt It).
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys

SPEED = [
    "--players", "4", "--bots", "random,random,random,random", "--games", "2000", "--seed", "1"
]
STRENGTH = {
    "counter vs 3 random": (["--bots", "counter,random,random,random"], 0.60),
    "counter vs 3 honest": (["--bots", "counter,honest,honest,honest"], 0.35),
}


def tourney(args: list[str]) -> dict:  # type: ignore[type-arg]
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    command = [*pin, sys.executable, "-m", "doubtlan", "tourney", *args, "--json"]
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def speed(runs: int = 5) -> bool:
    rates = [tourney(SPEED)["games_per_second"] for _ in range(runs)]
    median = statistics.median(rates)
    print(
        f"speed: {median:.0f} games/s median of {runs} runs "
        f"(min {min(rates):.0f}, max {max(rates):.0f}); target 500"
    )
    print(f"  command: doubtlan tourney {' '.join(SPEED)}")
    return median >= 500


def strength() -> bool:
    met = True
    for name, (args, target) in STRENGTH.items():
        report = tourney([*args, "--games", "2000", "--seed", "1"])
        rate = report["win_rate"]["counter"]
        low, high = report["win_rate_95"]["counter"]
        met &= rate >= target
        print(f"{name}: win rate {rate:.3f} (95% {low:.3f} to {high:.3f}); target {target:.2f}")
        print(f"  command: doubtlan tourney {' '.join(args)} --games 2000 --seed 1")
    return met


KNOW = ["--game", "iknowyoudont", "--players", "4", "--games", "2000", "--seed", "1"]


def know(runs: int = 3) -> bool:
    args = [*KNOW, "--bots", "random,random,random,random"]
    rates = [tourney(args)["games_per_second"] for _ in range(runs)]
    print(f"I Know You Don't speed: {statistics.median(rates):.0f} games/s median of {runs} "
          f"runs (min {min(rates):.0f}, max {max(rates):.0f}); no target")
    print(f"  command: doubtlan tourney {' '.join(args)}")
    args = [*KNOW, "--bots", "counter,random,random,random"]
    report = tourney(args)
    rate = report["win_rate"]["counter"]
    low, high = report["win_rate_95"]["counter"]
    print(f"I Know You Don't, counter vs 3 random: win rate {rate:.3f} (95% {low:.3f} to "
          f"{high:.3f}); target 0.60")
    print(f"  command: doubtlan tourney {' '.join(args)}")
    return rate >= 0.60


def main() -> int:
    which = sys.argv[1:] or ["speed", "strength", "know"]
    results = [{"speed": speed, "strength": strength, "know": know}[name]() for name in which]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
