"""The ``doubtlan`` command.

Only the standard library is imported at start-up; each subcommand imports what it needs
when it runs, so ``doubtlan --help`` stays fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from . import __version__, cli_record
from . import cli_values as values

PROG = "doubtlan"

if TYPE_CHECKING:
    #: What ``add_subparsers`` returns.
    Subcommands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


def _strategy_names() -> list[str]:
    """Every bot strategy of any game (each game's own are checked once the game is known)."""
    from .bots import STRATEGIES

    return list(dict.fromkeys(name for game in STRATEGIES.values() for name in game))


def _strategies_only() -> str:
    """The strategies that some game lacks, said for the help ("sharp plays I Doubt It only");
    empty when every game has every strategy."""
    from .bots import STRATEGIES
    from .rules import game_named

    everywhere = set.intersection(*(set(names) for names in STRATEGIES.values()))
    said = []
    for name in _strategy_names():
        if name not in everywhere:
            games = [game_named(game).title for game, names in STRATEGIES.items() if name in names]
            said.append(f"{name} plays {' and '.join(games)} only")
    return "; ".join(said)


def _defaults() -> str:
    """Each game's default strategy, said for the help ("counter", or "counter for I Doubt
    It, ... for ...")."""
    from .bots import DEFAULTS
    from .rules import game_named

    if len(set(DEFAULTS.values())) == 1:
        return next(iter(DEFAULTS.values()))
    return ", ".join(f"{name} for {game_named(game).title}" for game, name in DEFAULTS.items())


def _add_level(command: argparse.ArgumentParser, default: str | None) -> None:
    """``--level`` or ``--strategy``, for the bots ``host`` and ``play`` seat alike."""
    level = command.add_mutually_exclusive_group()
    level.add_argument("--level", choices=LEVELS, default=default,
                       help=f"how well the bots play (default {default or 'medium'}; "
                       "docs/bots.md)")
    level.add_argument("--strategy", default=None, choices=_strategy_names(),
                       help="the bots' strategy, in place of a level"
                       + "".join(f" ({only})" for only in [_strategies_only()] if only))


def _window_help() -> str:
    from .rules import GAMES

    return "seconds on the window clock: " + "; ".join(
        f"{game.window_label} ({game.title})" for game in GAMES.values() if game.window_label)


def _strategies(text: str) -> list[str]:
    if text.strip().isdigit():
        raise argparse.ArgumentTypeError(
            f"tourney's --bots names a strategy for each seat, such as counter,random,random "
            f"(host's --bots counts bots); for {text.strip()} seats, give --players "
            f"{text.strip()}")
    names = [part.strip() for part in text.split(",") if part.strip()]
    known = _strategy_names()
    unknown = [name for name in names if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot strategy \"{unknown[0]}\"; choose from {', '.join(known)}"
        )
    if not names:
        raise argparse.ArgumentTypeError("name at least one bot strategy")
    return names


#: The port a host listens on unless told otherwise (as in doubtlan.net.address).
DEFAULT_PORT = 47474
#: Each command's line in ``doubtlan --help``, in the order listed there.
_SUMMARY = {
    "play": "play against bots on this machine, off the network",
    "host": "host a table on this network and play at it",
    "join": "join a table on this network",
    "tourney": "play bot-only games in this process and report each strategy's win rate",
    "tables": "list the tables on the network and exit",
    "verify": cli_record.VERIFY,
    "replay": cli_record.REPLAY,
    "stats": cli_record.STATS,
}


def game_titles() -> str:
    """Every game's title, from the first words of its rules folder's docstring (up to the
    colon), for the games the registry has (a folder with its ``GAME =`` line): read, not
    imported, as ``doubtlan --help`` need not import the rules. "I Doubt It (also Cheat or
    BS), I Know You Don't and Liar's Deck"."""
    titles = []
    for init in sorted((Path(__file__).parent / "rules").glob("*/__init__.py")):
        text = init.read_text(encoding="utf-8")
        if "\nGAME = " in text:
            titles.append(text.lstrip('"').split(":", 1)[0])
    return " and ".join(filter(None, (", ".join(titles[:-1]), *titles[-1:])))


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``chosen`` (a command's name), only that command's
    options are made (the others' need the rules and the bots to list their choices, which
    ``doubtlan --help`` need not import)."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Bluffing card games for the people on your network, in a terminal: "
        f"{game_titles()}.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    for name, summary in _SUMMARY.items():
        if chosen is None or name == chosen:
            _COMMANDS[name](commands)
        else:  # (listed with its line: its options are made only when it is run)
            commands.add_parser(name, help=summary)
    return parser


def _add_tourney(commands: Subcommands) -> None:
    tourney = commands.add_parser(
        "tourney",
        help=_SUMMARY["tourney"],
        description=(
            "Play bot-only games (of I Doubt It unless --game) in this process, with no "
            "network. The opening seat moves round the table from game to game. Prints each "
            "strategy's win rate with a 95% interval, games per second and turns per game "
            "(the moves each game asked its seats for)."
        ),
    )
    tourney.add_argument(
        "--players", type=values.positive, default=None,
        help="seats at the table (default: one per strategy named in --bots, or 4)",
    )
    tourney.add_argument(
        "--bots", type=_strategies, default=None, metavar="S1,S2,...",
        help=f"a strategy for each seat in order (names, where host's --bots is a number): "
        f"{', '.join(_strategy_names())}; a shorter list is repeated round the table "
        f"(default: {_defaults()}, then each game's first, random, in every other seat)",
    )
    tourney.add_argument(
        "--games", type=values.positive, default=1000,
        help="games to play (default 1000); with --matches, games in each match",
    )
    tourney.add_argument(
        "--matches", type=values.positive, default=1, metavar="M",
        help="play M independent matches, with new bots each, and give intervals from the "
        "matches' win rates (default 1)",
    )
    tourney.add_argument(
        "--seed", type=values.seed, default=None,
        help="seed for a set of games that replays exactly",
    )
    _add_rules(tourney)
    tourney.add_argument(
        "--max-turns", type=values.positive, default=None, metavar="N",
        help="stop a game after N turns (moves the game asked its seats for) and count it "
        "unfinished (default 2000)",
    )
    tourney.add_argument(
        "--workers", type=values.positive, default=None, metavar="N",
        help="play the matches in N processes side by side, with the same results as one "
        "(default: this machine's cores; one match is one process's)",
    )
    tourney.add_argument("--json", action="store_true", help="print one JSON object")
    tourney.set_defaults(run=_tourney, parser=tourney)


def _add_tables(commands: Subcommands) -> None:
    tables = commands.add_parser(
        "tables", help=_SUMMARY["tables"],
        description="Look for doubtlan tables on the local network (mDNS) and list them.",
    )
    tables.add_argument("--timeout", type=values.seconds(0.1, 60), default=3.0,
                        help="seconds to look (default 3)")
    tables.add_argument("--json", action="store_true", help="print one JSON list")
    tables.set_defaults(run=_tables, parser=tables)


def _table_command(name: str) -> Callable[[argparse.Namespace, argparse.ArgumentParser], int]:
    """What runs ``host``, ``play`` or ``join``: ``cli_table``'s, imported once it runs."""
    def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
        from . import cli_table

        command: Callable[[argparse.Namespace, argparse.ArgumentParser], int] = \
            getattr(cli_table, name)
        return command(args, parser)

    return run


def _add_host(commands: Subcommands) -> None:
    host = commands.add_parser(
        "host", help=_SUMMARY["host"],
        description="Host a table: start the game server, advertise it on the network, seat "
        "bots, and play in the table app. With --headless nobody sits for the host: it waits "
        "for the seats, plays the match and prints each winner. To play alone, on this "
        "machine only, use `doubtlan play`.",
    )
    host.add_argument("--headless", action="store_true",
                      help="no screen: wait for the seats, play the match, print each winner")
    host.add_argument("--players", type=values.positive, default=None,
                      help="seats at the table (default: 4 with --headless; otherwise as many "
                      "as the rules allow, and s starts the match once as many are seated as "
                      "the rules need)")
    host.add_argument("--bots", type=values.count, default=0,
                      help="how many seats bots fill, a number (default 0; tourney's --bots "
                      "names strategies instead)")
    _add_level(host, default=None)
    _add_match(host, headless=True)
    host.add_argument("--name", type=values.printable("name", 24), default=None,
                      help="your name at the table (without it, the app asks, starting from the "
                      "one you last played under); with --headless, where nobody sits for "
                      "the host, the table's name")
    host.add_argument("--table", type=values.table_name, default=None, metavar="NAME",
                      help="the table's name (default: NAME's table)")
    host.add_argument("--ascii", action="store_true",
                      help="write suits as letters (C D H S), for terminals without symbols")
    host.add_argument("--port", type=values.port, default=DEFAULT_PORT,
                      help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)")
    host.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                      help="address to listen on (default: all)")
    host.add_argument("--pin", type=values.printable("PIN", 64), default=None,
                      help="players must give this PIN to join")
    host.add_argument("--web", nargs="?", type=values.port, const=-1, default=None,
                      metavar="PORT",
                      help="also seat players from their browsers, over HTTPS on PORT "
                      "(default: the table's port + 1; 0 picks a free one)")
    _add_rules(host)
    _add_clocks(host)
    host.add_argument("--grace", type=values.seconds(0, 3600), default=15.0,
                      help="seconds an absent player's seat waits before a bot plays it "
                      "(default 15)")
    kept = host.add_mutually_exclusive_group()
    kept.add_argument("--journal", type=Path, default=None, metavar="PATH",
                      help="write the table's journal here (default: a new file in "
                      f"{_journals_folder()})")
    kept.add_argument("--no-journal", action="store_true",
                      help="keep no journal (the table cannot be resumed)")
    _add_resume(kept)
    where = host.add_mutually_exclusive_group()
    where.add_argument("--advertise", action="append", type=values.lan_address, metavar="ADDR",
                       default=[],
                       help="advertise the table on this address (repeatable; default: every "
                       "LAN address)")
    where.add_argument("--no-advertise", action="store_true",
                       help="a private table: no multicast at all; join it by address")
    host.set_defaults(run=_table_command("host"), parser=host)


def _add_play(commands: Subcommands) -> None:
    play = commands.add_parser(
        "play", help=_SUMMARY["play"],
        description="Play against bots in this terminal. The table is on this machine only: "
        "it listens on loopback, is never advertised, and nobody else can join or see it. It "
        "keeps no journal unless --journal names one. For a table others join, use "
        "`doubtlan host`.",
    )
    play.add_argument("--bots", type=values.positive, default=3,
                      help="bots at the table (default 3)")
    _add_level(play, default="medium")
    play.add_argument("--players", type=values.positive, default=None,
                      help="seats at the table (default: one more than --bots)")
    _add_match(play, headless=False)
    play.add_argument("--name", type=values.printable("name", 24), default=None,
                      help="your name at the table (default: the one you last played under, or "
                      "your login name)")
    play.add_argument("--ascii", action="store_true",
                      help="write suits as letters (C D H S), for terminals without symbols")
    _add_rules(play)
    _add_clocks(play)
    kept = play.add_mutually_exclusive_group()
    kept.add_argument("--journal", type=Path, default=None, metavar="PATH",
                      help="keep the table's journal here, to resume it later (default: none)")
    _add_resume(kept)
    play.set_defaults(run=_table_command("play"), parser=play)


#: The bots' levels, easiest first (each game says which strategy plays each).
LEVELS = ("easy", "medium", "hard")


def _add_match(command: argparse.ArgumentParser, *, headless: bool) -> None:
    """The match's length, its deals' seed and the bots' pace."""
    alone = " (default: 1 with --headless, otherwise 0)" if headless else " (default 0)"
    command.add_argument("--games", type=values.games, default=None,
                         help=f"games in the match; 0 plays on until stopped{alone}")
    command.add_argument("--seed", type=values.seed, default=None, help="seed for the deals")
    command.add_argument("--bot-delay", type=values.seconds(0, 60), default=None,
                         metavar="SECONDS",
                         help="seconds between two moves of a bot, so that people can follow "
                         "(default: 1" + (", or 0 with --headless)" if headless else ")"))
    command.add_argument("--quiet-bots", action="store_true",
                         help="the seated bots make no remarks at the table (docs/talk.md)")


def _add_clocks(command: argparse.ArgumentParser) -> None:
    command.add_argument("--window", type=values.seconds(0.1, 3600), default=10.0,
                         help=f"{_window_help()} (default 10)")
    command.add_argument("--turn-timeout", type=values.seconds(0, 3600), default=60.0,
                         help="seconds for a turn before the host plays for the player; 0: "
                         "none (default 60)")


def _add_resume(group: argparse._MutuallyExclusiveGroup) -> None:
    group.add_argument("--resume", nargs="?", type=Path, const=values.LATEST, default=None,
                       metavar="PATH",
                       help="go on with the table of this journal (default: the newest) after "
                       "a crash; its rules, seats and match come from the journal")


def _journals_folder() -> str:
    """The folder journals go to on this machine, for the help."""
    from .net.folder import journals_folder

    return str(journals_folder())


def _add_join(commands: Subcommands) -> None:
    join = commands.add_parser(
        "join", help=_SUMMARY["join"],
        description="Join a table at HOST[:PORT], or pick one of the tables found on the "
        "network. With --bot a bot plays the seat; with --watch you watch without a seat.",
    )
    join.add_argument("address", nargs="?", type=values.address, metavar="HOST[:PORT]",
                      help=f"the host's address (default port {DEFAULT_PORT}); without it, the "
                      "table is found on the network")
    join.add_argument("--table", type=values.printable("table name", 64), default=None,
                      help="join the table of this name found on the network")
    join.add_argument("--bot", choices=_strategy_names(), default=None,
                      help="let a bot of this strategy play the seat (no screen"
                      + "".join(f"; {only}" for only in [_strategies_only()] if only) + ")")
    join.add_argument("--watch", action="store_true", help="watch without a seat")
    join.add_argument("--headless", action="store_true",
                      help="with --watch: no screen, print one line per claim")
    join.add_argument("--ascii", action="store_true",
                      help="write suits as letters (C D H S), for terminals without symbols")
    join.add_argument("--name", type=values.printable("name", 24), default=None,
                      help="your name at the table (default: the one you last played under, or "
                      "your login name)")
    join.add_argument("--pin", type=values.printable("PIN", 64), default=None,
                      help="the table's PIN")
    join.add_argument("--timeout", type=values.seconds(0.1, 120), default=10.0,
                      help="seconds to look for the table on the network (default 10)")
    join.add_argument("--accept-new-key", action="store_true",
                      help="join a table whose key is not the one a table of its name had "
                      "when you last joined it (the host made a new key): without it, such "
                      "a table is refused")
    join.add_argument("--fingerprint", type=values.fingerprint, default=None, metavar="HEX",
                      help="join only a table whose key has this SHA-256 fingerprint")
    join.add_argument("--touch", action="store_true",
                      help="cards and buttons three lines tall, for a finger on a touch "
                      "screen (a browser seat on a phone or a tablet is drawn so)")
    # For the browser seats' apps (net/web): the name asked on the screen, the host's
    # player named in the title, and an end after this long with nobody playing.
    join.add_argument("--ask-name", action="store_true", help=argparse.SUPPRESS)
    join.add_argument("--through", type=values.printable("name", 24), default=None,
                      help=argparse.SUPPRESS)
    join.add_argument("--idle-end", type=values.seconds(0.5, 86400), default=None,
                      help=argparse.SUPPRESS)
    # (the browser and real address the host's web server marked this app's knock with)
    join.add_argument("--via", type=values.printable("mark", 200), default=None,
                      help=argparse.SUPPRESS)
    join.set_defaults(run=_table_command("join"), parser=join)


def _add_rules(command: argparse.ArgumentParser) -> None:
    """The game, and each game's rule options as flags (``--decks``: a field of its options)."""
    from .rules import DEFAULT_GAME, GAMES

    games = "; ".join(f"{name}: {game.title}, {game.description}" for name, game in GAMES.items())
    command.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME,
                         help=f"the game (default {DEFAULT_GAME}). {games}")
    for name, owners in values.option_fields().items():
        choices = list(dict.fromkeys(value for _, field in owners for value in field.values))
        if all(choice.isdigit() for choice in choices):  # ("--rounds {1,2,...,9}")
            choices.sort(key=int)
        said = "; ".join(f"{game.title}: {field.help} (default {field.default})"
                         for game, field in owners)
        command.add_argument(f"--{name}", choices=choices, default=None, help=said)


def _default_table(game: str, players: int) -> list[str]:
    """The tourney's seats unless ``--bots`` names them: the game's default strategy, then
    its first (the plainest) in every other seat."""
    from .bots import DEFAULTS, STRATEGIES

    return [DEFAULTS[game]] + [next(iter(STRATEGIES[game]))] * (players - 1)


def _tourney(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json
    import os

    from . import tourney
    from .rules import RulesError

    players = args.players or (len(args.bots) if args.bots else 4)
    bots: list[str] = args.bots or _default_table(args.game, players)
    if len(bots) > players:
        parser.error(f"--bots names {len(bots)} strategies for {players} players")
    bots = [bots[i % len(bots)] for i in range(players)]
    values.check_strategies(parser, args.game, bots)
    options = values.options(args, parser)
    try:
        options.check_players(players)
    except RulesError as error:
        parser.error(str(error))
    result = tourney.run(
        bots, args.games, options=options, seed=args.seed,
        max_turns=args.max_turns or tourney.MAX_TURNS, game=args.game, matches=args.matches,
        workers=args.workers or os.cpu_count() or 1, progress=values.Progress(sys.stderr),
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.report())
    return 0


def _tables(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from .net import headless

    return asyncio.run(headless.tables(args.timeout, args.json))


#: What adds each command's parser with all its options (listed as in ``_SUMMARY``).
_COMMANDS: dict[str, Callable[[Subcommands], None]] = {
    "play": _add_play, "host": _add_host, "join": _add_join, "tourney": _add_tourney,
    "tables": _add_tables, "verify": cli_record.add_verify, "replay": cli_record.add_replay,
    "stats": cli_record.add_stats,
}


def main(argv: Sequence[str] | None = None) -> int:
    args_given = sys.argv[1:] if argv is None else list(argv)
    chosen = next((arg for arg in args_given if not arg.startswith("-")), None)
    if chosen == "tourney":  # (its progress line is redrawn by a carriage return)
        return _run(argv, chosen)
    from .net.shown import shown_output

    with shown_output():  # (no control character printed reaches the terminal raw)
        return _run(argv, chosen)


def _run(argv: Sequence[str] | None, chosen: str | None) -> int:
    parser = build_parser(chosen if chosen in _COMMANDS else "")
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        # A subcommand's own errors print its own usage ("doubtlan host: error: ...").
        return int(args.run(args, args.parser))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # (the reader went: `doubtlan replay J --text | head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (as Python's docs)
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
