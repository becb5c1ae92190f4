"""The commands that run without a screen: a headless host, a bot that joins over the
network, a spectator that prints what happens, and the list of tables on the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TextIO

from ..bots import make_bot
from ..rules import GAMES, Event
from ..rules.fairness import Verdict
from . import botclient, known
from .client import Client, ConnectionLost
from .errors import WireError
from .hosted import AdvertiseError, Advertising, HostedTable, WebError, WebOffer
from .identity import IdentityError, colons, words
from .journal import JournalError
from .kept import KeptSeats
from .limits import Limits
from .messages import Message, Reveal, Said, State, Welcome
from .table import TableConfig

log = logging.getLogger(__name__)


async def host(
    config: TableConfig,
    *,
    bots: int,
    strategy: str | None = None,
    bind: str = "0.0.0.0",
    port: int = 0,
    advertising: Advertising | None = None,
    limits: Limits | None = None,
    out: TextIO | None = None,
    journal: Path | None = None,
    resume: Path | None = None,
    web: WebOffer | None = None,
) -> int:
    """Seat ``bots`` bots, wait for the other seats, play the match, print each winner
    (writing ``journal``; or go on with the table of the journal ``resume``); with ``web``,
    seat browsers too (net/web)."""
    out = out or sys.stdout  # (the stdout of the moment: tests capture it)
    try:
        hosted = HostedTable(config, bots=bots, strategy=strategy, bind=bind, port=port,
                             advertising=advertising, limits=limits, journal=journal,
                             resume=resume, settings={"autostart": True, "next_game_delay":
                                                      config.next_game_delay}, web=web)
    except (JournalError, IdentityError) as error:
        print(f"doubtlan: {error}", file=sys.stderr, flush=True)
        return 1
    hosted.report = lambda text: print(f"doubtlan: {text}", file=sys.stderr, flush=True)
    table, server = hosted.table, hosted.host
    config = table.config
    try:
        await hosted.start()
    except AdvertiseError as error:
        print(f"doubtlan: cannot advertise the table: {error}", file=sys.stderr, flush=True)
        return 1
    except WebError as error:
        print(f"doubtlan: {error}", file=sys.stderr, flush=True)
        return 1
    # Everything made so far lives as long as the process: keep the collector off it, so
    # that its full passes stay short while the table serves.
    gc.freeze()
    _announce(hosted, bind, out)
    reported = 0
    #: Who sits in each seat, as last told (a seat given away may change hands).
    seated = {seat.number: seat.name for seat in table.seats if seat.taken}

    def on_change() -> None:
        nonlocal reported
        for seat in table.seats:
            if seat.taken and not seat.open and seated.get(seat.number) != seat.name:
                seated[seat.number] = seat.name
                print(f"{seat.name} took seat {seat.number + 1}", file=out, flush=True)
        while reported < len(table.results):
            winner = table.results[reported]
            reported += 1
            name = "nobody" if winner is None else \
                f"{table.seats[winner].name} (seat {winner + 1})"
            print(f"game {reported}: won by {name}", file=out, flush=True)

    hosted.on_change = on_change
    server.start_when_full()  # a table of bots needs nobody to join
    stop = asyncio.Event()
    with _on_signals(stop.set):
        done = asyncio.create_task(server.serve())
        stopped = asyncio.create_task(stop.wait())
        await asyncio.wait([done, stopped], return_when=asyncio.FIRST_COMPLETED)
        if not stop.is_set() and server.failure is None:
            await _linger(hosted, stopped, out)
        await hosted.close()  # says goodbye to anyone still there; withdraws the advert
        for task in (done, stopped):
            task.cancel()
    on_change()
    if server.failure is not None:  # (the host ended the table: its log says more)
        print(f"doubtlan: {server.failure}", file=sys.stderr, flush=True)
        return 1
    return 0 if table.state == "over" else 1


#: Seconds a headless host whose match is over goes on serving browser seats still open.
WEB_LINGER = 120.0


async def _linger(hosted: HostedTable, stopped: asyncio.Task[bool], out: TextIO) -> None:
    """Browser seats read the results and check the deal as terminals do: once the match is
    over the table stays up for them until they leave (or for :data:`WEB_LINGER` seconds,
    or until ``stopped``)."""
    seats = hosted.web
    if seats is None or not seats.sessions:
        return
    print(f"the match is over: serving the browser seats until they leave (at most "
          f"{WEB_LINGER:g} s)", file=out, flush=True)
    emptied = asyncio.create_task(seats.none_open.wait())
    await asyncio.wait([emptied, stopped], timeout=WEB_LINGER,
                       return_when=asyncio.FIRST_COMPLETED)
    emptied.cancel()


def _announce(hosted: HostedTable, bind: str, out: TextIO) -> None:
    """Say where the table listens, its key, its journal, and how to join it."""
    table = hosted.table
    print(f'table "{table.config.name}" listening on {bind}:{hosted.port}', file=out,
          flush=True)
    print(f"the table's key: {words(table.fingerprint)}", file=out, flush=True)
    if table.journal is not None:
        verb = "resumed from" if hosted.resumed else "journal:"
        print(f"{verb} {table.journal.path}", file=out, flush=True)
    if bind in ("0.0.0.0", "::"):
        pin = " --pin PIN" if table.config.pin is not None else ""  # (the PIN itself unsaid)
        for address in hosted.join_addresses():
            print(f"  join by address: doubtlan join {address}:{hosted.port}{pin}", file=out,
                  flush=True)
    if hosted.web is not None:
        for url in hosted.web_addresses():
            print(f"  a seat from a browser: {url}", file=out, flush=True)
        print(f"the page's certificate, SHA-256: {colons(hosted.web.fingerprint)}", file=out,
              flush=True)
    if hosted.advertised_name is not None:
        print(f'advertised as "{hosted.advertised_name}" on {", ".join(hosted.advertised_at)}',
              file=out, flush=True)
    elif hosted.advertising.enabled:
        print("no network address to advertise on; join by address", file=out, flush=True)


@contextlib.contextmanager
def _on_signals(callback: Callable[[], None]) -> Iterator[None]:
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, callback)
            installed.append(sig)
    try:
        yield
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


#: Seconds a search without a table name goes on after the first table answers, so that
#: other tables (which answer the same query) are heard and "several tables" can be said.
SETTLE = 0.5


@dataclass(frozen=True)
class Found:
    """A table found on the network: the address that answered, and the fingerprint of the
    key its advert names (None when it names none)."""

    address: tuple[str, int]
    fingerprint: bytes | None
    #: The host's commitment its advert gives (None when it gives none).
    commitment: bytes | None = None


async def find(table_name: str | None, timeout: float) -> Found:
    """A table found by discovery (the named one, or the only one).

    Returns as soon as the named table is seen, or, without a name, :data:`SETTLE` seconds
    after the first table is seen; gives up after ``timeout`` seconds.
    """
    from .discovery import Browser, TableAd

    def wanted(tables: dict[str, TableAd]) -> list[TableAd]:
        found = sorted(tables.values(), key=lambda ad: (ad.name.casefold(), ad.name))
        if table_name is None:
            return found
        name = table_name.casefold()
        exact = [t for t in found if t.name.casefold() == name]
        return exact or [t for t in found if t.name.casefold().startswith(name)]

    seen = asyncio.Event()

    def on_change(tables: dict[str, TableAd]) -> None:
        if wanted(tables):
            seen.set()

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    async with Browser(on_change=on_change) as browser:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout_at(deadline):
                await seen.wait()
        if seen.is_set() and table_name is None:
            await asyncio.sleep(max(0.0, min(SETTLE, deadline - loop.time())))
        tables = wanted(browser.tables)
    if not tables:
        wanted_text = f'no table named "{table_name}"' if table_name else "no table"
        raise ConnectionLost(f"{wanted_text} on the network answered within {timeout:g} s")
    if len(tables) > 1:
        names = ", ".join(f'"{t.name}"' for t in tables)
        raise ConnectionLost(f"several tables on the network ({names}); name one with --table")
    found = tables[0]
    address = await _reachable(found.addresses, found.port)
    return Found((address, found.port), found.fingerprint_bytes, found.commitment_bytes)


async def _reachable(addresses: tuple[str, ...], port: int) -> str:
    """The first of a table's advertised addresses that answers (a host on several networks
    advertises them all; not every one need be reachable from here)."""
    for address in addresses:
        try:
            _, writer = await asyncio.wait_for(asyncio.open_connection(address, port), 2.0)
        except (OSError, TimeoutError):
            continue
        writer.close()  # only a look: the client connects for real next
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        return address
    raise ConnectionLost(f"the table is advertised at {', '.join(addresses)} (port {port}), "
                         "but none of them answers from here")


async def join_bot(
    strategy: str,
    address: tuple[str, int],
    *,
    name: str,
    pin: str | None = None,
    fingerprint: bytes | None = None,
    out: TextIO | None = None,
    commitment: bytes | None = None,
    kept: KeptSeats | None = None,
    accept_new_key: bool = False,
) -> int:
    """Play one seat as ``strategy`` until the host ends the match (exit status 0). A host
    that presents a key other than ``fingerprint`` (given), or than a table of its name had
    before (unless ``accept_new_key``: net/known.py), is refused; one whose deals are not
    committed to ``commitment`` (given: its advert's) fails every deal's check. A seat kept
    in ``kept`` for this table and name is taken back (net/kept.py)."""
    out = out or sys.stdout  # (the stdout of the moment: tests capture it)
    client = Client(address[0], address[1], name, pin=pin, fingerprint=fingerprint,
                    commitment=commitment, kept=kept, program=True,
                    check_key=key_checker(accept_new_key))
    bot = make_bot(strategy)
    gc.freeze()  # as the host does: long-lived objects out of the collector's way
    try:
        await botclient.play(client, bot, also=key_teller(client, out, named=True))
    except (ConnectionLost, OSError, WireError, ValueError) as error:  # (a strategy this
        print(f"doubtlan: {error}", file=sys.stderr)                   # game has not)
        return 1
    bye = client.mirror.bye
    if bye is None or bye.code != "match_over":
        reason = bye.message if bye is not None else "the connection ended"
        if bye is not None and bye.code == "wrong_pin" and client.pin is None:
            reason += "; give it with --pin"
        print(f"doubtlan: {reason}", file=sys.stderr)
        return 1
    for game, verdict in sorted(client.mirror.verdicts.items()):
        print(f"{client.mirror.name}: {verdict_line(game, verdict)}", file=out, flush=True)
    print(f"{client.mirror.name}: the match is over", file=out, flush=True)
    return 0 if all(v.ok for v in client.mirror.verdicts.values()) else 1


def describe(event: Event, names: dict[int, str | None]) -> str:
    """A settled claim or the end of a game, in a line for a spectator ("" for the rest):
    the event's game tells it (no two games share a kind of event)."""
    game = _EVENT_GAMES.get(type(event))
    return game.narrate(event, names) if game else ""


#: The game each kind of event belongs to.
_EVENT_GAMES = {kind: game for game in GAMES.values() for kind in game.events}


def verdict_line(game: int, verdict: Verdict) -> str:
    """The check of game ``game``'s deal, in a line (docs/fairness.md)."""
    if not verdict.checked:
        return f"game {game}: deal not checked: " + "; ".join(verdict.notes)
    if verdict.ok:
        return f"game {game}: deal verified" + "".join(f" ({note})" for note in verdict.notes)
    return f"game {game}: the deal did not check out: " + "; ".join(verdict.problems)


async def watch(
    address: tuple[str, int], *, pin: str | None = None, fingerprint: bytes | None = None,
    out: TextIO | None = None, commitment: bytes | None = None,
    accept_new_key: bool = False,
) -> int:
    """Watch a table as a spectator, printing each settled claim, each winner and what the
    players say (a host
    that presents a key other than ``fingerprint``, given, or than a table of its name had
    before, unless ``accept_new_key``, is refused)."""
    out = out or sys.stdout  # (the stdout of the moment: tests capture it)
    client = Client(address[0], address[1], "spectator", pin=pin, watch=True,
                    fingerprint=fingerprint, commitment=commitment,
                    check_key=key_checker(accept_new_key))
    tell_key = key_teller(client, out, named=False)

    def on_message(message: Message) -> None:
        tell_key(message)
        if isinstance(message, State):
            table = client.mirror.table
            names = {s.seat: s.name for s in table.seats} if table else {}
            for event in message.events:
                line = describe(event, names)
                if line:
                    print(line, file=out, flush=True)
        elif isinstance(message, Reveal) and message.complete:
            checked = client.mirror.verdicts.get(message.game_number)
            if checked is not None:
                print(verdict_line(message.game_number, checked), file=out, flush=True)
        elif isinstance(message, Said) and message.fresh:  # (table talk: docs/talk.md)
            print(f"{message.name}{' (bot)' if message.bot else ''} says: {message.line}",
                  file=out, flush=True)

    client.on_message = on_message
    try:
        await client.run()
    except (ConnectionLost, OSError) as error:
        print(f"doubtlan: {error}", file=sys.stderr)
        return 1
    return 0


def key_checker(accept: bool) -> Callable[[str, bytes], None]:
    """A client's ``check_key`` for the command line: a table whose key is not the one a
    table of its name had before is refused (:class:`~doubtlan.net.known.KeyChanged`), or,
    with ``accept`` (``--accept-new-key``), taken, saying so on stderr."""

    def check(name: str, fingerprint: bytes) -> None:
        if known.refuse_changed(name, fingerprint, accept=accept,
                                hint="; if the host made a new key, join with "
                                     "--accept-new-key"):
            print(f"doubtlan: the table {name!r} has a new key, taken as you asked: "
                  f"{words(fingerprint)}", file=sys.stderr, flush=True)

    return check


def key_teller(client: Client, out: TextIO, *, named: bool) -> Callable[[Message], None]:
    """What to give every message of ``client``: at the first welcome it prints the key the
    host presented, in words (``the table's key: WORDS``, after ``NAME: `` when ``named``,
    as a bot's other lines are), so that people can compare it with the host's screen."""
    told = False

    def on_message(message: Message) -> None:
        nonlocal told
        if told or not isinstance(message, Welcome) or not client.fingerprint:
            return
        told = True
        prefix = f"{client.mirror.name}: " if named else ""
        print(f"{prefix}the table's key: {words(client.fingerprint)}", file=out, flush=True)

    return on_message


async def tables(timeout: float, as_json: bool, out: TextIO | None = None) -> int:
    """Print the tables found on the network within ``timeout`` seconds."""
    out = out or sys.stdout  # (the stdout of the moment: tests capture it)
    from .discovery import find_tables

    found = await find_tables(timeout)
    if as_json:
        print(json.dumps([asdict(ad) for ad in found]), file=out, flush=True)
        return 0
    if not found:
        print("no tables found", file=out, flush=True)
    for ad in found:
        lock = " (PIN)" if ad.pin else ""
        where = f"{ad.addresses[0]}:{ad.port}" if ad.addresses else f"port {ad.port}"
        game = GAMES[ad.game].title if ad.game in GAMES else ad.game
        print(
            f"{ad.name}{lock}  {where}  {game}  {ad.taken}/{ad.seats} seats  {ad.state}  "
            f"{ad.rules}",
            file=out,
            flush=True,
        )
    return 0

