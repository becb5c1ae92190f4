"""The ``doubtlan`` command.

Only the standard library is imported at start-up; each subcommand imports what it needs
when it runs, so ``doubtlan --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__

PROG = "doubtlan"


def _strategies(text: str) -> list[str]:
    from .bots import STRATEGIES

    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in STRATEGIES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot strategy {unknown[0]!r}; choose from {', '.join(STRATEGIES)}"
        )
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot strategy")
    return names


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="I Doubt It (Cheat, BS) for the people on your network, in a terminal.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    tourney = commands.add_parser(
        "tourney",
        help="play bot-only games in this process and report each strategy's win rate",
        description=(
            "Play bot-only games of I Doubt It in this process, with no network. The opening "
            "seat moves round the table from game to game. Prints each strategy's win rate "
            "with a 95%% interval, games per second and turns (claims) per game."
        ),
    )
    tourney.add_argument(
        "--players", type=_positive, default=None,
        help="seats at the table (default: one per strategy named in --bots, or 4)",
    )
    tourney.add_argument(
        "--bots", type=_strategies, default=None, metavar="S1,S2,...",
        help="a strategy for each seat in order: random, honest or counter; a shorter list "
        "is repeated round the table (default: counter, then random in every other seat)",
    )
    tourney.add_argument(
        "--games", type=_positive, default=1000, help="games to play (default 1000)"
    )
    tourney.add_argument(
        "--seed", type=_seed, default=None, help="seed for a set of games that replays exactly"
    )
    tourney.add_argument(
        "--decks", type=int, choices=(1, 2), default=1, help="decks in play (default 1)"
    )
    tourney.add_argument(
        "--challenge", choices=("window", "open"), default="window",
        help="how claims are challenged (default window; see docs/rules.md)",
    )
    tourney.add_argument(
        "--max-turns", type=_positive, default=None, metavar="N",
        help="stop a game after N claims and count it unfinished (default 2000)",
    )
    tourney.add_argument("--json", action="store_true", help="print one JSON object")
    tourney.set_defaults(run=_tourney)
    return parser


def _tourney(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json

    from . import tourney
    from .rules import Challenge, Options, RulesError

    players = args.players or (len(args.bots) if args.bots else 4)
    bots: list[str] = args.bots or ["counter"] + ["random"] * (players - 1)
    if len(bots) > players:
        parser.error(f"--bots names {len(bots)} strategies for {players} players")
    bots = [bots[i % len(bots)] for i in range(players)]
    try:
        options = Options(decks=args.decks, challenge=Challenge(args.challenge))
        options.check_players(players)
    except RulesError as error:
        parser.error(str(error))
    result = tourney.run(
        bots, args.games, options=options, seed=args.seed,
        max_turns=args.max_turns or tourney.MAX_TURNS,
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.report())
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args, parser))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
