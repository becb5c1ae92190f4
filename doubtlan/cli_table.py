"""What ``doubtlan host``, ``play`` and ``join`` run, once the command line is read
(doubtlan/cli.py). Only the standard library is imported here at start-up: each command
imports what it needs when it runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from . import cli_values as values

if TYPE_CHECKING:
    from .tui.app import DoubtApp


def host(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from .net import headless, hosted

    _quiet_asyncio()
    args.strategy = bot_strategy(args)
    config, player = _table_config(args, parser, strategy=args.strategy,
                                   headless=args.headless, table=args.table)
    advertising = hosted.Advertising(not args.no_advertise, tuple(args.advertise))
    from .net import journal as journals

    resume = _resume(args, parser)
    if args.web is not None and args.web == args.port != 0:
        parser.error(f"--web {args.web} is the table's own port (--port {args.port}), for the "
                     f"players' connections: give the browser seats another, or --web alone "
                     f"for the next one ({args.port + 1})")
    web = None if args.web is None else hosted.WebOffer(
        None if args.web < 0 else args.web,
        through=values.login() if args.headless else None)  # (the app's: its player's)
    journal = None if args.no_journal or resume is not None else (
        args.journal or journals.new_path(config.name))
    if not args.headless:
        return _host_app(config, player, args, strategy=args.strategy,
                         ask_name=args.name is None and resume is None, bind=args.bind,
                         port=args.port, advertising=advertising, journal=journal,
                         resume=resume, web=web)
    try:
        return asyncio.run(headless.host(
            config, bots=args.bots, strategy=args.strategy, bind=args.bind, port=args.port,
            advertising=advertising, journal=journal, resume=resume, web=web,
        ))
    except OSError as error:
        print(f"doubtlan: {hosted.cannot_listen(error, args.bind, args.port)}", file=sys.stderr)
        return 1


def play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from .net import hosted

    _quiet_asyncio()
    strategy = bot_strategy(args)
    counted = args.players is None  # (the bots and the player: said so if they do not fit)
    if counted:
        args.players = args.bots + 1
    config, player = _table_config(args, parser, strategy=strategy, headless=False,
                                   counted=counted)
    # Loopback only, and no advert: nothing of this table reaches the network.
    return _host_app(config, player, args, strategy=strategy, bind=hosted.LOOPBACK, port=0,
                     advertising=hosted.Advertising(enabled=False), journal=args.journal,
                     resume=_resume(args, parser))


def _quiet_asyncio() -> None:
    import logging

    # A peer that vanishes while the host still has frames for it makes asyncio warn, once
    # per frame ("socket.send() raised exception."): the host handles that peer already, and
    # a hostile one could fill the terminal (or the app's screen) with them.
    logging.getLogger("asyncio").setLevel(logging.ERROR)


def bot_strategy(args: argparse.Namespace) -> str:
    """The strategy the bots of ``host`` or ``play`` play: ``--strategy``, else the game's
    at ``--level``, else the game's own (``bots.DEFAULTS``: its medium)."""
    from .bots import DEFAULTS, LEVELS

    return args.strategy or (LEVELS[args.game][args.level] if args.level
                             else DEFAULTS[args.game])


def _table_config(args: argparse.Namespace, parser: argparse.ArgumentParser, *,
                  strategy: str, headless: bool, table: str | None = None,
                  counted: bool = False) -> tuple[Any, str]:
    """The table ``host`` or ``play`` was asked for, checked, and the host player's name
    (``counted``: the seats are the bots and the player, ``play`` without ``--players``)."""
    from .net.table import LEAST_WINDOW, TableConfig

    if args.window < LEAST_WINDOW:
        parser.error(f"--window: at least {LEAST_WINDOW:g} seconds, so that a person has time "
                     "to answer (a screen ignores a call in a window's first half second)")
    options = values.options(args, parser)
    if args.bots:
        values.check_strategies(parser, args.game, [strategy])
    players = _players(args, parser, options, headless=headless, counted=counted)
    player = values.login() if headless else args.name or _name()
    table_name = table or (args.name if headless and args.name else None)
    config = TableConfig(
        players=players, options=options, name=table_name or f"{player}'s table", game=args.game,
        games=args.games if args.games is not None else (1 if headless else 0),
        pin=getattr(args, "pin", None), window=args.window, turn_timeout=args.turn_timeout,
        grace=getattr(args, "grace", TableConfig.grace), seed=args.seed,
        bot_delay=args.bot_delay if args.bot_delay is not None else 0.0 if headless
        else 1.0, bot_talk=not args.quiet_bots,
    )
    return config, player


def _players(args: argparse.Namespace, parser: argparse.ArgumentParser, options: Any, *,
             headless: bool, counted: bool) -> int:
    """The table's seats (``--players``, else 4 headless, else as many as the rules allow),
    checked against the rules and against the bots seated (a table in the app keeps one
    for its player)."""
    from .rules import RulesError

    try:
        players: int = args.players or (4 if headless else options.max_players)
        options.check_players(players)
    except RulesError as error:
        if counted:
            need = str(error).removesuffix(f", not {players}")  # (not the count typed)
            parser.error(f"--bots {args.bots} and you make {players} players, and {need}: "
                         f"give --bots {options.min_players - 1} to {options.max_players - 1}")
        parser.error(str(error))
    # (the seats as the user said them: --players, or the table's own number of them)
    seats = f"--players {players}" if args.players else f"the table's {players} seats"
    if args.bots > players:
        parser.error(f"--bots {args.bots} is more than {seats}")
    if args.bots == players and not headless:
        parser.error(f"--bots {args.bots} leaves no seat for you at {seats}: give --bots "
                     f"{players - 1} or fewer")
    return players


def _resume(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Path | None:
    """The journal ``--resume`` names (the newest, without a path), or None."""
    from .net import journal as journals

    resume: Path | None = args.resume
    try:
        if resume == values.LATEST:
            resume = journals.latest()
    except journals.JournalError as error:
        parser.error(str(error))
    return resume


def _name() -> str:
    """The name a person sits down under when none is given: the last one used on this
    machine, or the login name."""
    from .net.last_name import last_name

    return last_name() or values.login()


def _host_app(config: Any, player: str, args: argparse.Namespace, *, strategy: str,
              ask_name: bool = False, **where: Any) -> int:
    """Run the table app for the host's player, hosting ``config``'s table; with
    ``ask_name``, the app asks the player's name first (and names the table after it
    unless ``--table`` did)."""
    from .net.record import Record
    from .tui.app import DoubtApp
    from .tui.setup import HostSetup

    config.autostart, config.next_game_delay = False, None  # the host says when
    setup = HostSetup(config, bots=args.bots, strategy=strategy, ask_name=ask_name,
                      name_table=ask_name and getattr(args, "table", None) is None, **where)
    return _run_app(DoubtApp(player, host=setup, ascii=args.ascii, record=Record()))


class _App(Protocol):
    def run(self) -> int | None: ...


def _run_app(app: _App) -> int:
    """Run the table app (which prints why the table ended, if it ended badly)."""
    return int(app.run() or 0)


def join(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import asyncio

    from .net import headless
    from .net.client import ConnectionLost
    from .net.kept import KeptSeats
    from .net.pin import NotTheTable

    if args.address and args.table:
        parser.error("give an address or --table, not both")
    if args.fingerprint and not args.address:
        parser.error("--fingerprint holds a table joined by address to its key (a table "
                     "found on the network is held to the key its advert names)")
    if args.bot and args.watch:
        parser.error("--bot plays a seat and --watch takes none: choose one")
    if args.bot is None and not (args.watch and args.headless):
        if args.headless:
            parser.error("--headless joins with --bot STRATEGY or --watch")
        return _join_app(args)

    async def run() -> int:
        # A table found on the network must present the key its advert names.
        found = headless.Found(args.address, args.fingerprint) if args.address else \
            await headless.find(args.table, args.timeout)
        if args.watch:
            return await headless.watch(found.address, pin=args.pin,
                                        fingerprint=found.fingerprint,
                                        commitment=found.commitment,
                                        accept_new_key=args.accept_new_key)
        return await headless.join_bot(args.bot, found.address, name=args.name or values.login(),
                                       pin=args.pin, fingerprint=found.fingerprint,
                                       commitment=found.commitment, kept=KeptSeats(),
                                       accept_new_key=args.accept_new_key)

    try:
        return asyncio.run(run())
    except (ConnectionLost, NotTheTable, RuntimeError, OSError) as error:
        print(f"doubtlan: {error}", file=sys.stderr)
        return 1


def _join_app(args: argparse.Namespace) -> int:
    import asyncio

    from .net import headless
    from .net.client import ConnectionLost

    if args.table:
        try:
            found = asyncio.run(headless.find(args.table, args.timeout))
        except (ConnectionLost, RuntimeError, OSError) as error:
            print(f"doubtlan: {error}", file=sys.stderr)
            return 1
        args.address, args.fingerprint = found.address, found.fingerprint
    return _run_app(join_app(args))


def join_app(args: argparse.Namespace) -> DoubtApp:
    """The table app ``doubtlan join`` runs for ``args`` (a table given by address; a
    browser seat's app in the seats' process is made so too: cli_seats.py)."""
    from .net.kept import KeptSeats
    from .net.record import Record
    from .tui.app import DoubtApp
    from .tui.setup import JoinSetup

    setup = JoinSetup(address=args.address, pin=args.pin, watch=args.watch,
                      accept_new_key=args.accept_new_key, fingerprint=args.fingerprint,
                      ask_name=args.ask_name and not args.watch, through=args.through,
                      named=args.name is not None and not args.ask_name,
                      idle_end=args.idle_end, touch=args.touch, via=args.via)
    if args.ask_name and not args.watch:  # (a browser's own last name, not this login)
        from .net.last_name import last_name

        name = args.name or last_name() or ""
    else:
        name = args.name or _name()
    return DoubtApp(name, join=setup, ascii=args.ascii, kept=KeptSeats(), record=Record())
