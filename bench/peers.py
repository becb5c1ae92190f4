"""doubtlan's `hard` bot beside games-collection's Hard bot: decisions per second, side by side.

    python bench/peers.py [--decisions 30000] [--rounds 9] [--seed 1] [--decks 1] [--json]

Issue 29 asks that `hard` decide at least as fast as the Hard bot of the PyPI package
games-collection (MIT; version 1.6.1, pinned below, installed with pip into this Python when
it cannot be imported: a bench-only install, not a dependency of doubtlan). The strategy
measured is looked up when the script runs: ``doubtlan.bots.LEVELS[game]["hard"]``, for I
Doubt It and for I Know You Don't. Liar's Deck's is timed the same way after them, in rounds
of its own (issue 41: under 1 ms a decision); games-collection has no game to set beside it.

games-collection has no I Know You Don't: its one game of claims and challenges is Bluff
(``card_games/bluff/bluff.py``: "Bluff (also known as Cheat or I Doubt It)"). So I Doubt It's
`hard` is measured against its Hard bot in its own game, and I Know You Don't's `hard`
against that same figure, the only Hard bot there is to be measured against.

Each side plays whole games in its own engine, four players, all four seats bots of the
level measured, until it has made at least ``--decisions`` decisions; a clock
(``time.perf_counter_ns``) runs around each decision call and nothing else, and the time
per decision is the sum of those spans over the decisions made:

- doubtlan: every call of ``bot.act(view)``, the bots driven by ``tourney.play`` as the
  tourney drives them (a turn is one call, each seat's answer to a claim one, an I Know You
  Don't chance to intercept one even when the bot lets it pass). The view is built by the
  engine before the call and the actions are applied after it: neither is timed. The bots
  of a round are made afresh and keep their memory from game to game, as in a tourney match.
  A bot's learning (`remember`) happens inside ``act`` and is timed.
- games-collection: Hard is a ``DifficultyLevel`` (honesty 0.55, boldness 0.4, challenge
  0.35, two decks) that sets the profiles of ``BluffGame``'s bots; one code plays every
  level. Its bots decide in two methods of the engine, driven as its own
  ``BluffTournament.play_match`` drives them: ``play_bot_turn()`` (a turn: one card and a
  claimed rank) and ``bot_should_challenge(challenger)`` (each seat asked, clockwise, until
  one challenges). ``play_bot_turn`` ends by handing its choice to the engine's
  ``_play_turn`` (take the card from the hand, add it to the pile, open the challenge):
  while it is timed that call only notes the choice, and the real one runs after the clock
  stops. The engine also keeps, in ``_play_turn``, the patterns its bots read when they
  decide to challenge (``PlayerPattern.update_bluff_pattern``, once a claim): that is the
  bots' learning, as ``remember`` is doubtlan's, so it is timed too (its own span) and
  counted in the figure; the JSON gives it apart (``learning_us``). Its game is the Hard
  table (four players, two decks) played to its end (``rounds`` set high enough: with the
  default 5 rounds of claims a game is 20 claims and ends by counting cards). doubtlan's
  I Doubt It is played with its default rules, one deck (``--decks 2``: two, as that table);
  I Know You Don't with its own.

So each figure is what one bot costs a decision, its own reading of the state and its
learning included, in positions of whole four-player games. Both engines give their bots the
position ready to read (doubtlan a view; games-collection its state, which its bots read
directly), so neither side times any making of the position. The unit differs as the games
do: a games-collection turn lays one card, a doubtlan turn one to four (all chosen in one
call). A clock span itself costs some 0.05 µs (measured each run: ``clock_us``), once a
decision on either side, and once a claim more for games-collection's learning.

The sides take turns round by round (A, B, C, then B, C, A, ...), each round the same
seeded games, after one untimed round of warming up, so that other work on the machine
(2 cores; a tourney may be running) falls on all sides alike. Reported: each side's median
over the rounds of µs a decision, the lowest and highest round, and the median's decisions
a second (1e6 / µs).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib
import importlib.metadata
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from doubtlan import tourney  # noqa: E402
from doubtlan.bots import LEVELS, make_bot  # noqa: E402
from doubtlan.rules import Action, Match, game_named  # noqa: E402
from doubtlan.rules.seeds import derive, seed_bytes  # noqa: E402

#: The games-collection release measured (the newest on the package index when written).
COLLECTION_VERSION = "1.6.1"
COLLECTION_MODULE = "card_games.bluff.bluff"
PLAYERS = 4
#: Rounds of claims (a claim a seat each) games-collection's game is given: enough to end
#: by an emptied hand (300 of its Hard games, seed 1: 747 claims on average, at most 1,978,
#: every one ended so).
COLLECTION_ROUNDS = 2_000


@dataclasses.dataclass
class Tally:
    """One side's round: the decisions made, the nanoseconds spent in them, and (for
    games-collection) in its bots' learning."""

    decisions: int = 0
    ns: int = 0
    learning_ns: int = 0
    games: int = 0

    @property
    def us(self) -> float:
        return (self.ns + self.learning_ns) / self.decisions / 1000


def clock_us() -> float:
    """What one timed span costs with nothing in it (the best of 5 runs of 100,000)."""
    clock, best = time.perf_counter_ns, float("inf")
    for _ in range(5):
        spent = 0
        for _ in range(100_000):
            started = clock()
            spent += clock() - started
        best = min(best, spent / 100_000 / 1000)
    return best


def games_collection() -> Any:
    """games-collection's Bluff module, installed first (pinned) if it cannot be imported."""
    if importlib.util.find_spec("card_games") is None:
        command = [sys.executable, "-m", "pip", "install",
                   f"games-collection=={COLLECTION_VERSION}"]
        print("games-collection is not installed; installing it for this benchmark:",
              " ".join(command), file=sys.stderr)
        subprocess.run(command, check=True, stdout=sys.stderr)
        importlib.invalidate_caches()
    return importlib.import_module(COLLECTION_MODULE)


class Timed:
    """A doubtlan bot whose ``act`` calls are timed."""

    def __init__(self, bot: Any, tally: Tally) -> None:
        self.bot, self.tally = bot, tally

    def act(self, view: Any) -> Sequence[Action]:
        act = self.bot.act
        started = time.perf_counter_ns()
        actions: Sequence[Action] = act(view)
        self.tally.ns += time.perf_counter_ns() - started
        self.tally.decisions += 1
        return actions

    def __repr__(self) -> str:
        return repr(self.bot)


def doubtlan_side(game: str, decisions: int, seed: int, rules: str = "") -> Callable[[], Tally]:
    """A round of doubtlan's hard bot at ``game``: a match of four, new bots, until
    ``decisions``."""
    kind = game_named(game)
    options = kind.options_type.parse(rules) if rules else kind.options_type()
    master = seed_bytes(f"peers {seed}")

    def one_round() -> Tally:
        tally = Tally()
        hard = LEVELS[game]["hard"]
        match = Match(PLAYERS, options, seed=derive(master, "deal"), game=kind)
        bots = [Timed(make_bot(hard, derive(master, f"seat {seat}"), game), tally)
                for seat in range(PLAYERS)]
        while tally.decisions < decisions:
            tourney.play(match.new_game(), bots)
            tally.games += 1
        return tally

    return one_round


def collection_side(bluff: Any, decisions: int, seed: int) -> Callable[[], Tally]:
    """A round of games-collection's Hard bots, four of them, until ``decisions``."""
    hard = bluff.DIFFICULTIES["Hard"]
    assert hard.bot_count + 1 == PLAYERS  # (its Hard table: you and three bots)
    challenge_phase = bluff.Phase.CHALLENGE
    real_play_turn = bluff.BluffGame._play_turn

    def new_game(number: int) -> Any:
        # Its own table makes seat 0 "You", a person; ask it for one bot more and leave
        # that seat out, so that every seat is a Hard bot made by its own code.
        level = dataclasses.replace(hard, bot_count=PLAYERS)
        game = bluff.BluffGame(level, rounds=COLLECTION_ROUNDS,
                               rng=random.Random(f"peers {seed} game {number}"))
        game.players = game.players[1:]
        for player in game.players:
            player.hand.clear()
        game._deal_initial_hands()
        game.max_turns = COLLECTION_ROUNDS * PLAYERS
        return game

    def one_round() -> Tally:
        tally = Tally()
        clock = time.perf_counter_ns

        def timed_learning(learn: Callable[..., None]) -> Callable[..., None]:
            def learning(*args: Any) -> None:
                started = clock()
                learn(*args)
                tally.learning_ns += clock() - started
            return learning

        chosen: list[tuple[Any, ...]] = []
        while tally.decisions < decisions:
            game = new_game(tally.games)
            for player in game.players:
                player.pattern.update_bluff_pattern = timed_learning(
                    player.pattern.update_bluff_pattern)
            game._play_turn = lambda *choice: chosen.append(choice)  # notes the choice only
            while not game.finished:
                started = clock()
                game.play_bot_turn()
                tally.ns += clock() - started
                tally.decisions += 1
                real_play_turn(game, *chosen.pop())
                while game.phase is challenge_phase:
                    challenger = game.current_challenger
                    started = clock()
                    decision = game.bot_should_challenge(challenger)
                    tally.ns += clock() - started
                    tally.decisions += 1
                    game.evaluate_challenge(decision)
            tally.games += 1
        return tally

    return one_round


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--decisions", type=int, default=30_000,
                        help="decisions each side makes a round, at least (whole games)")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", type=int, choices=(1, 2), default=1,
                        help="decks in doubtlan's I Doubt It (games-collection's Hard: 2)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bluff = games_collection()
    collection_version = importlib.metadata.version("games-collection")
    if collection_version != COLLECTION_VERSION:
        print(f"note: games-collection {collection_version} is installed; the figures kept are for "
              f"{COLLECTION_VERSION}", file=sys.stderr)
    hard = {game: LEVELS[game]["hard"] for game in ("idoubtit", "iknowyoudont", "liarsdeck")}
    sides: dict[str, Callable[[], Tally]] = {
        f"doubtlan idoubtit {hard['idoubtit']}":
            doubtlan_side("idoubtit", args.decisions, args.seed, f"decks={args.decks}"),
        "games-collection bluff Hard": collection_side(bluff, args.decisions, args.seed),
        f"doubtlan iknowyoudont {hard['iknowyoudont']}":
            doubtlan_side("iknowyoudont", args.decisions, args.seed),
    }
    names = list(sides)
    for name in names:  # warming up: imports, caches, the first allocations
        sides[name]()
    rounds: dict[str, list[Tally]] = {name: [] for name in names}
    started = time.perf_counter()
    for number in range(args.rounds):
        for name in names[number % len(names):] + names[:number % len(names)]:
            gc.collect()  # (no side pays for the garbage of the one before)
            rounds[name].append(sides[name]())
    # Liar's Deck's hard is timed after, in rounds of its own: games-collection has no game
    # to set beside it (issue 41 asks under 1 ms a decision), and its caches would sit in
    # the memory of the sides compared.
    alone = f"doubtlan liarsdeck {hard['liarsdeck']}"
    liars = doubtlan_side("liarsdeck", args.decisions, args.seed)
    liars()
    rounds[alone] = []
    for _ in range(args.rounds):
        gc.collect()
        rounds[alone].append(liars())
    seconds = time.perf_counter() - started
    rows: list[dict[str, Any]] = []
    for name, tallies in rounds.items():
        us = [tally.us for tally in tallies]
        median = statistics.median(us)
        rows.append({
            "side": name,
            "decisions": tallies[0].decisions,
            "games": tallies[0].games,
            "us_per_decision": round(median, 3),
            "us_low": round(min(us), 3),
            "us_high": round(max(us), 3),
            "decisions_per_second": round(1e6 / median),
            "rounds_us": [round(x, 3) for x in us],
        })
        if any(tally.learning_ns for tally in tallies):  # (doubtlan's is inside act)
            rows[-1]["learning_us"] = round(statistics.median(
                tally.learning_ns / tally.decisions / 1000 for tally in tallies), 3)
    bar = rows[1]["us_per_decision"]
    for row in rows:
        row["speed_vs_collection_hard"] = round(bar / row["us_per_decision"], 3)
    report = {"games_collection": collection_version, "seed": args.seed, "rounds": args.rounds,
              "players": PLAYERS, "doubtlan_idoubtit_rules": f"decks={args.decks}",
              "collection_rules": "Hard: 2 decks", "seconds": round(seconds, 2),
              "clock_us": round(clock_us(), 3), "sides": rows}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"hard's decisions against games-collection {collection_version}'s Hard, "
          f"{PLAYERS} players, {args.rounds} rounds taking turns, seed {args.seed} "
          f"({seconds:.1f} s)")
    print(f"{'side':<34}{'decisions':>10}{'µs each (low-high)':>26}{'a second':>10}"
          f"{'vs Hard':>9}")
    for row in rows:
        spread = f"{row['us_per_decision']:.2f} ({row['us_low']:.2f}-{row['us_high']:.2f})"
        print(f"{row['side']:<34}{row['decisions']:>10}{spread:>26}"
              f"{row['decisions_per_second']:>10}{row['speed_vs_collection_hard']:>9.2f}")
    print(f"(in games-collection's figure, its bots' learning: {rows[1]['learning_us']:.2f} µs "
          f"a decision; a clock span alone: {report['clock_us']:.2f} µs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
