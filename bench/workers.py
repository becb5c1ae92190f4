"""`doubtlan tourney --workers`: the same matches in one process and in several, side by side.

    python bench/workers.py [--bots hard,counter,counter,counter] [--matches 20]
                            [--games 50] [--workers 2] [--rounds 3]

Plays `hard` against three `counter` (20 matches of 50 games, seed 1), in turn with
`--workers 1` and `--workers N`, `--rounds` times each, as `doubtlan tourney` runs them
(a new process each time, so each run pays its start-up as a person's does), checks that
the JSON is the same but for its timings, and reports each run's wall time and the ratio of
the medians. Target (issue 29): about 1.8 with two workers on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

TIMINGS = ("seconds", "games_per_second", "decisions_per_second")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", default="hard,counter,counter,counter")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    command = [sys.executable, "-m", "doubtlan", "tourney", "--bots", args.bots,
               "--games", str(args.games), "--matches",
               str(args.matches), "--seed", "1", "--json"]
    seconds: dict[int, list[float]] = {1: [], args.workers: []}
    reports: dict[int, dict[str, object]] = {}
    for _ in range(args.rounds):
        for workers in seconds:
            started = time.perf_counter()
            out = subprocess.run([*command, "--workers", str(workers)], check=True,
                                 capture_output=True, text=True).stdout
            seconds[workers].append(time.perf_counter() - started)
            report = {key: value for key, value in json.loads(out).items()
                      if key not in TIMINGS}
            assert reports.setdefault(workers, report) == report
    same = reports[1] == reports[args.workers]
    print(" ".join(command), "--workers N")
    for workers, times in seconds.items():
        print(f"--workers {workers}: " + ", ".join(f"{t:.2f} s" for t in times))
    ratio = statistics.median(seconds[1]) / statistics.median(seconds[args.workers])
    print(f"speed-up {ratio:.2f}; the same results: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
