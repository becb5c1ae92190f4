"""The ``doubtlan`` command.

Only the standard library is imported at start-up; each subcommand imports what it needs
when it runs, so ``doubtlan --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import __version__

PROG = "doubtlan"


#: The games, by their names on the command line (doubtlan.rules.GAMES, without importing it).
GAMES = ("idoubtit", "iknowyoudont")
#: Every bot strategy of any game (each game's own are checked once the game is known).
STRATEGY_NAMES = ("random", "honest", "counter")


def _strategies(text: str) -> list[str]:
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in STRATEGY_NAMES]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot strategy {unknown[0]!r}; choose from {', '.join(STRATEGY_NAMES)}"
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


#: The port a host listens on unless told otherwise (as in doubtlan.net.address).
DEFAULT_PORT = 47474
#: ``--resume`` without a path: the newest journal.
LATEST = Path("\0the newest journal")


def _seconds(low: float, high: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number of seconds, got {text!r}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected {low:g} to {high:g} seconds, got {text}")
        return value

    return parse


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value


def _port(text: str) -> int:
    value = _count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def _text(what: str, longest: int) -> Callable[[str], str]:
    def parse(text: str) -> str:
        text = text.strip()
        if not 1 <= len(text) <= longest or not text.isprintable():
            raise argparse.ArgumentTypeError(
                f"a {what} is 1 to {longest} printable characters, not {text!r}"
            )
        return text

    return parse


def _address(text: str) -> tuple[str, int]:
    """HOST, HOST:PORT, [IPv6] or [IPv6]:PORT."""
    from .net.address import parse_address

    try:
        return parse_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _games(text: str) -> int:
    value = _count(text)
    if value > 1_000_000:
        raise argparse.ArgumentTypeError(f"at most 1000000 games, not {value}")
    return value


def _table_name(text: str) -> str:
    name = _text("table name", 40)(text)
    if len(name.encode()) > 59:  # an mDNS label is 63 bytes, with room for a suffix
        raise argparse.ArgumentTypeError(f"the table name {name!r} is too long")
    return name


def _lan_address(text: str) -> str:
    import ipaddress

    try:
        address = ipaddress.IPv4Address(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an IPv4 address, got {text!r}") from None
    if address.is_loopback or address.is_unspecified or address.is_multicast:
        raise argparse.ArgumentTypeError(
            f"{address} cannot be reached from other machines; give this machine's LAN address"
        )
    return str(address)


def _login() -> str:
    import getpass

    try:
        name = getpass.getuser()
    except Exception:  # no login name in this environment
        name = "player"
    return (name or "player")[:24]


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
    _add_rules(tourney)
    tourney.add_argument(
        "--challenge", choices=("window", "open"), default=None,
        help="how claims are challenged (default window; see docs/rules.md)",
    )
    tourney.add_argument(
        "--max-turns", type=_positive, default=None, metavar="N",
        help="stop a game after N claims and count it unfinished (default 2000)",
    )
    tourney.add_argument("--json", action="store_true", help="print one JSON object")
    tourney.set_defaults(run=_tourney)
    _add_host(commands)
    _add_join(commands)
    tables = commands.add_parser(
        "tables", help="list the tables on the network and exit",
        description="Look for doubtlan tables on the local network (mDNS) and list them.",
    )
    tables.add_argument("--timeout", type=_seconds(0.1, 60), default=3.0,
                        help="seconds to look (default 3)")
    tables.add_argument("--json", action="store_true", help="print one JSON list")
    tables.set_defaults(run=_tables)
    verify = commands.add_parser(
        "verify", help="check a host's journal: its deals and games",
        description="Check a journal written by `doubtlan host`: every deal came from the "
        "secret the table committed to and the players' seeds, and every game's actions "
        "follow the rules (docs/journal.md, docs/fairness.md). Exits 1 on any mismatch.",
    )
    verify.add_argument("journal", type=Path, metavar="JOURNAL", help="the journal file")
    verify.set_defaults(run=_verify)
    return parser


def _add_host(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    host = commands.add_parser(
        "host", help="host a table on this network and play at it",
        description="Host a table: start the game server, advertise it on the network, seat "
        "bots, and play in the table app. With --headless nobody sits for the host: it waits "
        "for the seats, plays the match and prints each winner.",
    )
    host.add_argument("--headless", action="store_true",
                      help="no screen: wait for the seats, play the match, print each winner")
    host.add_argument("--players", type=_positive, default=None,
                      help="seats at the table (default: 4 with --headless; otherwise as many "
                      "as the rules allow, and s starts the match once 3 are seated)")
    host.add_argument("--bots", type=_count, default=0, help="seats to fill with bots (default 0)")
    host.add_argument("--strategy", default="counter", choices=STRATEGY_NAMES,
                      help="the bots' strategy (default counter; honest plays I Doubt It only)")
    host.add_argument("--games", type=_games, default=None,
                      help="games in the match; 0 plays on until stopped (default: 1 with "
                      "--headless, otherwise 0)")
    host.add_argument("--seed", type=_seed, default=None, help="seed for the deals")
    host.add_argument("--name", type=_text("name", 24), default=None,
                      help="your name at the table (default: your login name); with "
                      "--headless, where nobody sits for the host, the table's name")
    host.add_argument("--table", type=_table_name, default=None, metavar="NAME",
                      help="the table's name (default: NAME's table)")
    host.add_argument("--bot-delay", type=_seconds(0, 60), default=None, metavar="SECONDS",
                      help="seconds between two moves of a bot, so that people can follow "
                      "(default: 1, or 0 with --headless)")
    host.add_argument("--ascii", action="store_true",
                      help="write suits as letters (C D H S), for terminals without symbols")
    host.add_argument("--port", type=_port, default=DEFAULT_PORT,
                      help=f"TCP port (default {DEFAULT_PORT}; 0 picks a free one)")
    host.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                      help="address to listen on (default: all)")
    host.add_argument("--pin", type=_text("PIN", 16), default=None,
                      help="players must give this PIN to join")
    _add_rules(host)
    host.add_argument("--challenge", choices=("window", "open"), default=None,
                      help="I Doubt It: how claims are challenged (default window)")
    host.add_argument("--window", type=_seconds(0.1, 3600), default=10.0,
                      help="seconds a challenge window stays open (default 10)")
    host.add_argument("--turn-timeout", type=_seconds(0, 3600), default=60.0,
                      help="seconds for a turn before the host plays for the player; 0: none "
                      "(default 60)")
    host.add_argument("--grace", type=_seconds(0, 3600), default=15.0,
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
    where.add_argument("--advertise", action="append", type=_lan_address, metavar="ADDR",
                       default=[],
                       help="advertise the table on this address (repeatable; default: every "
                       "LAN address)")
    where.add_argument("--no-advertise", action="store_true",
                       help="a private table: no multicast at all; join it by address")
    host.set_defaults(run=_host)


def _add_join(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    join = commands.add_parser(
        "join", help="join a table on this network",
        description="Join a table at HOST[:PORT], or pick one of the tables found on the "
        "network. With --bot a bot plays the seat; with --watch you watch without a seat.",
    )
    join.add_argument("address", nargs="?", type=_address, metavar="HOST[:PORT]",
                      help=f"the host's address (default port {DEFAULT_PORT}); without it, the "
                      "table is found on the network")
    join.add_argument("--table", type=_text("table name", 64), default=None,
                      help="join the table of this name found on the network")
    join.add_argument("--bot", choices=STRATEGY_NAMES, default=None,
                      help="let a bot of this strategy play the seat (no screen; honest plays "
                      "I Doubt It only)")
    join.add_argument("--watch", action="store_true", help="watch without a seat")
    join.add_argument("--headless", action="store_true",
                      help="with --watch: no screen, print one line per claim")
    join.add_argument("--ascii", action="store_true",
                      help="write suits as letters (C D H S), for terminals without symbols")
    join.add_argument("--name", type=_text("name", 24), default=None,
                      help="your name at the table (default: your login name)")
    join.add_argument("--pin", type=_text("PIN", 16), default=None, help="the table's PIN")
    join.add_argument("--timeout", type=_seconds(0.1, 120), default=10.0,
                      help="seconds to look for the table on the network (default 10)")
    join.set_defaults(run=_join)


def _add_rules(command: argparse.ArgumentParser) -> None:
    """The game and its rule options (each game has its own)."""
    command.add_argument("--game", choices=GAMES, default="idoubtit",
                         help="the game: idoubtit (I Doubt It, the default) or iknowyoudont "
                         "(I Know You Don't)")
    command.add_argument("--decks", type=int, choices=(1, 2), default=None,
                         help="I Doubt It: decks in play (default 1)")
    command.add_argument("--deck", choices=("own", "standard"), default=None,
                         help="I Know You Don't: its own 54 cards, or a standard 52-card deck "
                         "(default own)")


def _options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Any:
    """The rule options the command line gives for ``args.game``."""
    from .rules import Challenge, Options, RulesError
    from .rules import iknowyoudont as know

    try:
        if args.game == "iknowyoudont":
            if args.decks is not None or args.challenge is not None:
                parser.error("--decks and --challenge are I Doubt It's; I Know You Don't "
                             "takes --deck")
            return know.Options(know.Deck(args.deck or "own"))
        if args.deck is not None:
            parser.error("--deck is I Know You Don't's; I Doubt It takes --decks")
        return Options(decks=args.decks or 1, challenge=Challenge(args.challenge or "window"))
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
        max_turns=args.max_turns or tourney.MAX_TURNS, game=args.game,
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.report())
    return 0


def _host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from .net import headless, hosted
    from .net.table import TableConfig
    from .rules import RulesError

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
    player = args.name if args.name and not args.headless else _login()
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
        print(f"doubtlan: cannot host on {args.bind}:{args.port}: {error.strerror or error}",
              file=sys.stderr)
        return 1


def _run_app(app: object) -> int:
    """Run the table app (which prints why the table ended, if it ended badly)."""
    return int(app.run() or 0)  # type: ignore[attr-defined]


def _join(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from .net import headless
    from .net.client import ConnectionLost

    if args.address and args.table:
        parser.error("give an address or --table, not both")
    if args.bot and args.watch:
        parser.error("--bot plays a seat and --watch takes none: choose one")
    if args.bot is None and not (args.watch and args.headless):
        if args.headless:
            parser.error("--headless joins with --bot STRATEGY or --watch")
        return _join_app(args)

    async def run() -> int:
        address = args.address or await headless.find(args.table, args.timeout)
        if args.watch:
            return await headless.watch(address, pin=args.pin)
        return await headless.join_bot(args.bot, address, name=args.name or _login(),
                                       pin=args.pin)

    try:
        return asyncio.run(run())
    except (ConnectionLost, RuntimeError, OSError) as error:
        print(f"doubtlan: {error}", file=sys.stderr)
        return 1


def _join_app(args: argparse.Namespace) -> int:
    import asyncio

    from .net import headless
    from .net.client import ConnectionLost
    from .tui.app import DoubtApp, JoinSetup

    address = args.address
    if args.table:
        try:
            address = asyncio.run(headless.find(args.table, args.timeout))
        except (ConnectionLost, RuntimeError, OSError) as error:
            print(f"doubtlan: {error}", file=sys.stderr)
            return 1
    setup = JoinSetup(address=address, pin=args.pin, watch=args.watch)
    return _run_app(DoubtApp(args.name or _login(), join=setup, ascii=args.ascii))


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
        return int(args.run(args, parser))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
