"""The ``doubtlan`` command.

Only the standard library is imported at start-up; each subcommand imports what it needs
when it runs, so ``doubtlan --help`` stays fast.
"""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from . import __version__
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


def _window_help() -> str:
    from .rules import GAMES

    return "seconds on the window clock: " + "; ".join(
        f"{game.window_label} ({game.title})" for game in GAMES.values())


def _strategies(text: str) -> list[str]:
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
#: ``--resume`` without a path: the newest journal.
LATEST = Path("\0the newest journal")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Bluffing card games for the people on your network, in a terminal: I "
        "Doubt It (Cheat, BS) and I Know You Don't.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    tourney = commands.add_parser(
        "tourney",
        help="play bot-only games in this process and report each strategy's win rate",
        description=(
            "Play bot-only games (of I Doubt It unless --game) in this process, with no "
            "network. The opening seat moves round the table from game to game. Prints each "
            "strategy's win rate with a 95% interval, games per second and turns (claims) "
            "per game."
        ),
    )
    tourney.add_argument(
        "--players", type=values.positive, default=None,
        help="seats at the table (default: one per strategy named in --bots, or 4)",
    )
    tourney.add_argument(
        "--bots", type=_strategies, default=None, metavar="S1,S2,...",
        help=f"a strategy for each seat in order: {', '.join(_strategy_names())}; a shorter list "
        "is repeated round the table (default: counter, then random in every other seat)",
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
        help="stop a game after N claims and count it unfinished (default 2000)",
    )
    tourney.add_argument("--json", action="store_true", help="print one JSON object")
    tourney.set_defaults(run=_tourney, parser=tourney)
    _add_host(commands)
    _add_join(commands)
    tables = commands.add_parser(
        "tables", help="list the tables on the network and exit",
        description="Look for doubtlan tables on the local network (mDNS) and list them.",
    )
    tables.add_argument("--timeout", type=values.seconds(0.1, 60), default=3.0,
                        help="seconds to look (default 3)")
    tables.add_argument("--json", action="store_true", help="print one JSON list")
    tables.set_defaults(run=_tables, parser=tables)
    verify = commands.add_parser(
        "verify", help="check a host's journal: its deals and games",
        description="Check a journal written by `doubtlan host`: every deal came from the "
        "secret the table committed to and the players' seeds, and every game's actions "
        "follow the rules (docs/journal.md, docs/fairness.md). Exits 1 on any mismatch.",
    )
    verify.add_argument("journal", type=Path, metavar="JOURNAL", help="the journal file")
    verify.set_defaults(run=_verify, parser=verify)
    return parser


def _add_host(commands: Subcommands) -> None:
    host = commands.add_parser(
        "host", help="host a table on this network and play at it",
        description="Host a table: start the game server, advertise it on the network, seat "
        "bots, and play in the table app. With --headless nobody sits for the host: it waits "
        "for the seats, plays the match and prints each winner.",
    )
    host.add_argument("--headless", action="store_true",
                      help="no screen: wait for the seats, play the match, print each winner")
    host.add_argument("--players", type=values.positive, default=None,
                      help="seats at the table (default: 4 with --headless; otherwise as many "
                      "as the rules allow, and s starts the match once 3 are seated)")
    host.add_argument("--bots", type=values.count, default=0,
                      help="seats to fill with bots (default 0)")
    host.add_argument("--strategy", default="counter", choices=_strategy_names(),
                      help="the bots' strategy (default counter"
                      + "".join(f"; {only}" for only in [_strategies_only()] if only) + ")")
    host.add_argument("--games", type=values.games, default=None,
                      help="games in the match; 0 plays on until stopped (default: 1 with "
                      "--headless, otherwise 0)")
    host.add_argument("--seed", type=values.seed, default=None, help="seed for the deals")
    host.add_argument("--name", type=values.printable("name", 24), default=None,
                      help="your name at the table (default: your login name); with "
                      "--headless, where nobody sits for the host, the table's name")
    host.add_argument("--table", type=values.table_name, default=None, metavar="NAME",
                      help="the table's name (default: NAME's table)")
    host.add_argument("--bot-delay", type=values.seconds(0, 60), default=None, metavar="SECONDS",
                      help="seconds between two moves of a bot, so that people can follow "
                      "(default: 1, or 0 with --headless)")
    host.add_argument("--ascii", action="store_true",
                      help="write suits as letters (C D H S), for terminals without symbols")
    host.add_argument("--port", type=values.port, default=DEFAULT_PORT,
                      help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)")
    host.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                      help="address to listen on (default: all)")
    host.add_argument("--pin", type=values.printable("PIN", 64), default=None,
                      help="players must give this PIN to join")
    _add_rules(host)
    host.add_argument("--window", type=values.seconds(0.1, 3600), default=10.0,
                      help=f"{_window_help()} (default 10)")
    host.add_argument("--turn-timeout", type=values.seconds(0, 3600), default=60.0,
                      help="seconds for a turn before the host plays for the player; 0: none "
                      "(default 60)")
    host.add_argument("--grace", type=values.seconds(0, 3600), default=15.0,
                      help="seconds an absent player's seat waits before a bot plays it "
                      "(default 15)")
    kept = host.add_mutually_exclusive_group()
    kept.add_argument("--journal", type=Path, default=None, metavar="PATH",
                      help="write the table's journal here (default: a new file in "
                      "~/.local/share/doubtlan/journals, or $XDG_DATA_HOME/doubtlan/journals)")
    kept.add_argument("--no-journal", action="store_true",
                      help="keep no journal (the table cannot be resumed)")
    kept.add_argument("--resume", nargs="?", type=Path, const=LATEST, default=None,
                      metavar="PATH",
                      help="go on with the table of this journal (default: the newest) after "
                      "a crash; its rules, seats and match come from the journal")
    where = host.add_mutually_exclusive_group()
    where.add_argument("--advertise", action="append", type=values.lan_address, metavar="ADDR",
                       default=[],
                       help="advertise the table on this address (repeatable; default: every "
                       "LAN address)")
    where.add_argument("--no-advertise", action="store_true",
                       help="a private table: no multicast at all; join it by address")
    host.set_defaults(run=_host, parser=host)


def _add_join(commands: Subcommands) -> None:
    join = commands.add_parser(
        "join", help="join a table on this network",
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
                      help="your name at the table (default: your login name)")
    join.add_argument("--pin", type=values.printable("PIN", 64), default=None,
                      help="the table's PIN")
    join.add_argument("--timeout", type=values.seconds(0.1, 120), default=10.0,
                      help="seconds to look for the table on the network (default 10)")
    join.set_defaults(run=_join, parser=join)


def _add_rules(command: argparse.ArgumentParser) -> None:
    """The game, and each game's rule options as flags (``--decks``: a field of its options)."""
    from .rules import DEFAULT_GAME, GAMES

    games = "; ".join(f"{name}: {game.title}, {game.description}" for name, game in GAMES.items())
    command.add_argument("--game", choices=list(GAMES), default=DEFAULT_GAME,
                         help=f"the game (default {DEFAULT_GAME}). {games}")
    for name, owners in _option_fields().items():
        values = list(dict.fromkeys(value for _, field in owners for value in field.values))
        said = "; ".join(f"{game.title}: {field.help} (default {field.default})"
                         for game, field in owners)
        command.add_argument(f"--{name}", choices=values, default=None, help=said)


def _option_fields() -> dict[str, list[tuple[Any, Any]]]:
    """Each rule option's name, with the games that have it and their field for it."""
    from .rules import GAMES

    fields: dict[str, list[tuple[Any, Any]]] = {}
    for game in GAMES.values():
        for field in game.options_type.fields:
            fields.setdefault(field.name, []).append((game, field))
    return fields


def _options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Any:
    """The rule options the command line gives for ``args.game``; another game's option is
    an error, not ignored."""
    from .rules import RulesError, game_named

    game = game_named(args.game)
    given = {name: getattr(args, name) for name in _option_fields()
             if getattr(args, name) is not None}
    own = [field.name for field in game.options_type.fields]
    stray = [name for name in given if name not in own]
    if stray:
        owners = _option_fields()[stray[0]]
        takes = f"takes {', '.join('--' + name for name in own)}" if own else "has no options"
        parser.error(f"--{stray[0]} is {owners[0][0].title}'s; {game.title} {takes}")
    try:
        return game.options_type.parse(",".join(f"{k}={v}" for k, v in given.items()))
    except RulesError as error:
        parser.error(str(error))


def _check_strategies(parser: argparse.ArgumentParser, game: str, names: Sequence[str]) -> None:
    from .bots import STRATEGIES
    from .rules import game_named

    for name in names:
        if name not in STRATEGIES[game]:
            parser.error(f"the {name} bot does not play {game_named(game).title}; choose from "
                         f"{', '.join(STRATEGIES[game])}")


def _tourney(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import json

    from . import tourney
    from .rules import RulesError

    players = args.players or (len(args.bots) if args.bots else 4)
    bots: list[str] = args.bots or ["counter"] + ["random"] * (players - 1)
    if len(bots) > players:
        parser.error(f"--bots names {len(bots)} strategies for {players} players")
    bots = [bots[i % len(bots)] for i in range(players)]
    _check_strategies(parser, args.game, bots)
    options = _options(args, parser)
    try:
        options.check_players(players)
    except RulesError as error:
        parser.error(str(error))
    result = tourney.run(
        bots, args.games, options=options, seed=args.seed,
        max_turns=args.max_turns or tourney.MAX_TURNS, game=args.game, matches=args.matches,
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.report())
    return 0


def _host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio
    import logging

    from .net import headless, hosted

    # A peer that vanishes while the host still has frames for it makes asyncio warn, once
    # per frame ("socket.send() raised exception."): the host handles that peer already, and
    # a hostile one could fill the terminal (or the app's screen) with them.
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    from .net.table import LEAST_WINDOW, TableConfig
    from .rules import RulesError

    if args.window < LEAST_WINDOW:
        parser.error(f"--window: at least {LEAST_WINDOW:g} seconds, so that a person has time "
                     "to answer (a screen ignores a call in a window's first half second)")

    options = _options(args, parser)
    if args.bots:
        _check_strategies(parser, args.game, [args.strategy])
    try:
        players = args.players or (4 if args.headless else options.max_players)
        options.check_players(players)
    except RulesError as error:
        parser.error(str(error))
    if args.bots > players:
        parser.error(f"--bots {args.bots} is more than --players {players}")
    if args.bots == players and not args.headless:
        parser.error(f"--bots {args.bots} leaves no seat for you at --players {players}")
    player = args.name if args.name and not args.headless else values.login()
    table_name = args.table or (args.name if args.headless and args.name else None)
    config = TableConfig(
        players=players, options=options, name=table_name or f"{player}'s table", game=args.game,
        games=args.games if args.games is not None else (1 if args.headless else 0),
        pin=args.pin, window=args.window, turn_timeout=args.turn_timeout, grace=args.grace,
        seed=args.seed,
        bot_delay=args.bot_delay if args.bot_delay is not None else 0.0 if args.headless
        else 1.0,
    )
    advertising = hosted.Advertising(not args.no_advertise, tuple(args.advertise))
    from .net import journal as journals

    resume: Path | None = args.resume
    try:
        if resume == LATEST:
            resume = journals.latest()
    except journals.JournalError as error:
        parser.error(str(error))
    journal = None if args.no_journal or resume is not None else (
        args.journal or journals.new_path(config.name))
    if not args.headless:
        from .tui.app import DoubtApp, HostSetup

        config.autostart, config.next_game_delay = False, None  # the host says when
        setup = HostSetup(config, bots=args.bots, strategy=args.strategy, bind=args.bind,
                          port=args.port, advertising=advertising, journal=journal,
                          resume=resume)
        return _run_app(DoubtApp(player, host=setup, ascii=args.ascii))
    try:
        return asyncio.run(headless.host(
            config, bots=args.bots, strategy=args.strategy, bind=args.bind, port=args.port,
            advertising=advertising, journal=journal, resume=resume,
        ))
    except OSError as error:
        hint = "; choose another with --port (0 picks a free one)" \
            if error.errno == errno.EADDRINUSE else ""
        print(f"doubtlan: cannot host on {args.bind}:{args.port}: {error.strerror or error}"
              f"{hint}", file=sys.stderr)
        return 1


class _App(Protocol):
    def run(self) -> int | None: ...


def _run_app(app: _App) -> int:
    """Run the table app (which prints why the table ended, if it ended badly)."""
    return int(app.run() or 0)


def _join(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from .net import headless
    from .net.client import ConnectionLost
    from .net.kept import KeptSeats
    from .net.pin import NotTheTable

    if args.address and args.table:
        parser.error("give an address or --table, not both")
    if args.bot and args.watch:
        parser.error("--bot plays a seat and --watch takes none: choose one")
    if args.bot is None and not (args.watch and args.headless):
        if args.headless:
            parser.error("--headless joins with --bot STRATEGY or --watch")
        return _join_app(args)

    async def run() -> int:
        # A table found on the network must present the key its advert names.
        found = headless.Found(args.address, None) if args.address else \
            await headless.find(args.table, args.timeout)
        if args.watch:
            return await headless.watch(found.address, pin=args.pin,
                                        fingerprint=found.fingerprint,
                                        commitment=found.commitment)
        return await headless.join_bot(args.bot, found.address, name=args.name or values.login(),
                                       pin=args.pin, fingerprint=found.fingerprint,
                                       commitment=found.commitment, kept=KeptSeats())

    try:
        return asyncio.run(run())
    except (ConnectionLost, NotTheTable, RuntimeError, OSError) as error:
        print(f"doubtlan: {error}", file=sys.stderr)
        return 1


def _join_app(args: argparse.Namespace) -> int:
    import asyncio

    from .net import headless
    from .net.client import ConnectionLost
    from .net.kept import KeptSeats
    from .tui.app import DoubtApp, JoinSetup

    setup = JoinSetup(address=args.address, pin=args.pin, watch=args.watch)
    if args.table:
        try:
            found = asyncio.run(headless.find(args.table, args.timeout))
        except (ConnectionLost, RuntimeError, OSError) as error:
            print(f"doubtlan: {error}", file=sys.stderr)
            return 1
        setup.address, setup.fingerprint = found.address, found.fingerprint
    return _run_app(DoubtApp(args.name or values.login(), join=setup, ascii=args.ascii,
                             kept=KeptSeats()))


def _tables(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from .net import headless

    return asyncio.run(headless.tables(args.timeout, args.json))


def _verify(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from .net.journal import JournalError, verify

    try:
        lines, problems = verify(args.journal)
    except JournalError as error:
        print(f"doubtlan: {error}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    for problem in problems:
        print(f"MISMATCH: {problem}")
    print("journal verified" if not problems else f"{len(problems)} mismatches")
    return 1 if problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
