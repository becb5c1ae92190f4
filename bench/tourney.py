"""Benchmarks for the rules engine and the bots, run through `doubtlan tourney`.

    python bench/tourney.py            # speed (5 runs) and strength (2,000 games each)
    python bench/tourney.py speed      # only the speed of four `random` bots
    python bench/tourney.py speed COMMIT  # ... side by side with the engine at COMMIT
    python bench/tourney.py strength   # only the win rates of `sharp` and `counter`
    python bench/tourney.py know       # I Know You Don't: speed and `counter`'s strength
    python bench/tourney.py stalemate  # I Doubt It's rule 8: who it ends, who it leaves
    python bench/tourney.py table GAME [RULES]  # any game among equals: seats, length

Speed: games per second of four `random` bots over 2,000 games, on one core (the process
is pinned to CPU 0 where `taskset` exists), and decisions per second (a decision is a claim,
or an answer to a window: a doubt or a let-stand). The median of the runs is the figure;
the spread shows how noisy the machine is. Given a commit (`speed 4a52750`), the same games
are played by that commit's code too (a `git worktree` in a temporary folder), the runs of
the two taking turns, and the ratio of their medians is printed. Target: 3 times the
engine of 4a52750 (the last before the fast path), and at least 500 games per second.

Strength (docs/bots.md): `sharp` against three `counter` (target: win rate at least 0.45),
against three `honest` (at least 0.75), and two `sharp` with two `counter` (the `sharp`s
together at least 0.60), each over 20 independent matches of 50 games with the interval
from the matches; `counter` against three `honest` (at least 0.55) over 2,000 games.

I Know You Don't (`know`): matches per second of four `random` bots (no target; reported),
each seat's share among four and six `counter`, `sharp` against three `counter` (target: at
least 0.40) and two `sharp` with two `counter` (together at least 0.60), over 20 matches of
25, and `honest` against three `counter` (at most 0.25).

Stalemate (`stalemate`): I Doubt It's rule 8 ends a game after STALE_ROUNDS rounds of
claims in which no hand became smaller than the smallest so far. It plays 300 games of four
players who always doubt and 300 of four who always lay four cards (tests/helpers.py; every
one must end, by rule 8), and 2,000 ordinary games each of four `counter`, four `random`
and `counter` against three `random` with the rule switched off, reporting the most rounds
any of them went without progress (it must stay under STALE_ROUNDS, so that rule 8 never
decides an ordinary game).

A game's table among equals (`table GAME [RULES]`, such as `table liarsdeck decks=2`): for
every number of players the rules allow, 20 matches of 50 games each of all `random` and all
of the game's default bot (the opener moves one seat a game; the bots learn afresh each
match), each seat's and each place's (from the game's opener) share of the wins, how the
games ended and the claims a game. No target: the figures a game's rule book gives.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SPEED = [
    "--players", "4", "--bots", "random,random,random,random", "--games", "2000", "--seed", "1"
]
MATCHES = ["--games", "50", "--matches", "20", "--seed", "1"]
#: name: (arguments, the strategy measured, the least win rate)
STRENGTH = {
    "hard vs 3 counter": (["--bots", "hard,counter,counter,counter", *MATCHES], "hard", 0.45),
    "hard vs 3 honest": (["--bots", "hard,honest,honest,honest", *MATCHES], "hard", 0.80),
    "2 hard vs 2 counter": (["--bots", "hard,hard,counter,counter", *MATCHES], "hard", 0.60),
    "sharp vs 3 counter": (["--bots", "sharp,counter,counter,counter", *MATCHES], "sharp", 0.45),
    "sharp vs 3 honest": (["--bots", "sharp,honest,honest,honest", *MATCHES], "sharp", 0.75),
    "2 sharp vs 2 counter": (["--bots", "sharp,sharp,counter,counter", *MATCHES], "sharp", 0.60),
    "counter vs 3 honest": (["--bots", "counter,honest,honest,honest", "--games", "2000",
                             "--seed", "1"], "counter", 0.55),
}


def tourney(args: list[str], root: Path = ROOT) -> dict:  # type: ignore[type-arg]
    """``doubtlan tourney ARGS --json`` with the code at ``root``, on one core."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    command = [*pin, sys.executable, "-c", "import sys; from doubtlan.cli import main; "
               "sys.exit(main(sys.argv[1:]))", "tourney", *args, "--json"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return json.loads(subprocess.run(command, capture_output=True, text=True, check=True,
                                     env=env, cwd=root).stdout)


def speed(against: str | None = None, runs: int = 5) -> bool:
    if against is None:
        return _speed({"this": ROOT}, runs)
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        against], check=True, capture_output=True)
        try:
            return _speed({"this": ROOT, against: old}, runs)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)


def _speed(roots: dict[str, Path], runs: int) -> bool:
    rates: dict[str, list[float]] = {name: [] for name in roots}
    decisions: dict[str, list[float]] = {name: [] for name in roots}
    for _ in range(runs):
        for name, root in roots.items():  # taking turns: a busy moment slows both alike
            report = tourney(SPEED, root)
            rates[name].append(report["games_per_second"])
            decisions[name].append(report.get("decisions_per_second", 0.0))
    for name in roots:
        median = statistics.median(rates[name])
        print(f"speed ({name}): {median:.0f} games/s median of {runs} runs (min "
              f"{min(rates[name]):.0f}, max {max(rates[name]):.0f}); "
              f"{statistics.median(decisions[name]):.0f} decisions/s")
    print(f"  command: doubtlan tourney {' '.join(SPEED)}")
    this = statistics.median(rates["this"])
    met = this >= 500
    if len(roots) > 1:
        other = next(name for name in roots if name != "this")
        ratio = this / statistics.median(rates[other])
        print(f"ratio: {ratio:.2f} times the speed of {other} (target 3)")
        met &= ratio >= 3
    return met


def strength() -> bool:
    met = True
    for name, (args, who, target) in STRENGTH.items():
        report = tourney(args)
        rate = report["win_rate"][who]
        low, high = report["win_rate_95"][who]
        met &= rate >= target
        print(f"{name}: {who} win rate {rate:.3f} (95% {low:.3f} to {high:.3f}); target "
              f"{target:.2f}{'' if rate >= target else ' MISSED'}")
        print(f"  command: doubtlan tourney {' '.join(args)}")
    return met


KNOW = ["--game", "iknowyoudont", "--games", "1000", "--seed", "1"]


def know(runs: int = 3) -> bool:
    """I Know You Don't in rounds (issue: rounds on a scorepad): speed, each seat's share
    among equals, how matches end, and who wins; docs/bots.md has the figures."""
    args = [*KNOW, "--players", "4", "--bots", "random"]
    rates = [tourney(args)["games_per_second"] for _ in range(runs)]
    print(f"I Know You Don't speed: {statistics.median(rates):.0f} matches/s median of {runs} "
          f"runs (min {min(rates):.0f}, max {max(rates):.0f}); no target")
    print(f"  command: doubtlan tourney {' '.join(args)}")
    met = True
    for players in (4, 6):
        args = [*KNOW, "--players", str(players), "--bots", "counter"]
        report = tourney(args)
        fair = 1 / players
        seats = report["seat_win_rate"]
        ties = report["endings"].get("tie-break", 0) / report["games"]
        claims = report["turns_per_game"]
        ok = all(abs(rate - fair) <= 0.05 for rate in seats) and ties <= 0.10
        if players == 4:
            ok &= 100 <= claims <= 300
        met &= ok
        print(f"{players} counter: by seat {', '.join(f'{r:.3f}' for r in seats)} (target "
              f"{fair:.3f} +- 0.05); endings {report['endings']} (tie-break at most 10%); "
              f"{claims:.1f} claims a match{' (target 100 to 300)' if players == 4 else ''}"
              f"{'' if ok else ' MISSED'}")
        print(f"  command: doubtlan tourney {' '.join(args)} --json")
    matches = ["--game", "iknowyoudont", "--games", "25", "--matches", "20", "--seed", "1"]
    for bots, who, target, better, base in (
            ("sharp,counter,counter,counter", "sharp", 0.40, True, matches),
            ("sharp,sharp,counter,counter", "sharp", 0.60, True, matches),
            ("honest,counter,counter,counter", "honest", 0.25, False, KNOW)):
        args = [*base, "--players", "4", "--bots", bots]
        report = tourney(args)
        rate = report["win_rate"][who]
        low, high = report["win_rate_95"][who]
        ok = rate >= target if better else rate <= target
        met &= ok
        print(f"{who} in {bots}: win rate {rate:.3f} (95% {low:.3f} to {high:.3f}); target "
              f"{'at least' if better else 'at most'} {target:.2f}{'' if ok else ' MISSED'}")
        print(f"  command: doubtlan tourney {' '.join(args)}")
    return met


def stalemate() -> bool:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from helpers import AlwaysDoubts, LaysFour

    from doubtlan.bots import make_bot
    from doubtlan.rules import IDoubtIt
    from doubtlan.rules.idoubtit.state import STALE_ROUNDS
    from doubtlan.tourney import play

    ok = True
    for strategy in (AlwaysDoubts, LaysFour):
        endings: dict[str, int] = {}
        claims = []
        for seed in range(300):
            game = IDoubtIt(4, seed=seed, opener=seed % 4)
            finished = play(game, [strategy() for _ in range(4)], max_turns=100_000)
            ending = game.ending() if finished else "unfinished"
            endings[ending or "?"] = endings.get(ending or "?", 0) + 1
            claims.append(game.turns)
        claims.sort()
        print(f"four who {strategy.name}: {endings}, claims median {claims[150]}, "
              f"most {claims[-1]}")
        ok = ok and endings == {"stalemate": 300}
    for label, names in (("four counter", ["counter"] * 4), ("four random", ["random"] * 4),
                         ("counter vs 3 random", ["counter"] + ["random"] * 3)):
        most = 0.0
        for seed in range(2000):
            game = IDoubtIt(4, seed=seed, opener=seed % 4)
            game._stale_claims = 1 << 30  # rule 8 off: how far would an ordinary game go?
            resolve = game._resolve

            def watched(doubter: int | None, resolve=resolve, game=game) -> None:  # type: ignore[no-untyped-def]
                nonlocal most
                resolve(doubter)
                most = max(most, game.state.stale / 4)

            game._resolve = watched  # type: ignore[method-assign]
            play(game, [make_bot(n, bytes([s, seed % 256, seed // 256]))
                        for s, n in enumerate(names)], max_turns=5000)
        print(f"{label}, 2,000 games: at most {most:.1f} rounds without progress "
              f"(rule 8 at {STALE_ROUNDS})")
        ok = ok and most < STALE_ROUNDS
    return ok


def table(game: str, rules: str = "") -> bool:
    """``game`` among equals, at every table size its ``rules`` allow."""
    sys.path.insert(0, str(ROOT))
    from doubtlan.bots import DEFAULTS
    from doubtlan.rules import game_named

    options = game_named(game).options_type.parse(rules)
    for strategy in ("random", DEFAULTS[game]):
        for players in range(options.min_players, options.max_players + 1):
            rule_args = [arg for part in options.text.split(",")
                         for arg in (f"--{part.partition('=')[0]}", part.partition("=")[2])]
            args = ["--game", game, *rule_args, "--bots", ",".join([strategy] * players),
                    "--games", "50", "--matches", "20", "--seed", "1"]
            report = tourney(args)

            def shares(rates: list[float]) -> str:
                return " ".join(f"{rate:.3f}" for rate in rates)

            print(f"{players} {strategy}: by seat {shares(report['seat_win_rate'])}; by place "
                  f"from the opener {shares(report['place_win_rate'])} (each "
                  f"{1 / players:.3f} if fair); {report['turns_per_game']:.1f} claims a game; "
                  f"endings {report['endings']}")
            print(f"  command: doubtlan tourney {' '.join(args)} --json")
    return True


def main() -> int:
    which = sys.argv[1:] or ["speed", "strength", "know"]
    if which[0] == "speed" and len(which) == 2:
        return 0 if speed(which[1]) else 1
    if which[0] == "table" and len(which) in (2, 3):
        return 0 if table(*which[1:]) else 1
    runs = {"speed": speed, "strength": strength, "know": know, "stalemate": stalemate}
    results = [runs[name]() for name in which]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
