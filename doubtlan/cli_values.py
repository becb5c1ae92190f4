"""The values the command line reads, each checked, with a clear error for a bad one: the
rule options and the bots' strategies among them.

Only the standard library is imported here (``address`` imports the parser it needs when it
runs), so ``doubtlan --help`` stays fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {value}")
    return value


def seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def seconds(low: float, high: float) -> Callable[[str], float]:
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


def count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, got {value}")
    return value


def port(text: str) -> int:
    value = count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def printable(what: str, longest: int) -> Callable[[str], str]:
    def parse(text: str) -> str:
        text = text.strip()
        if not 1 <= len(text) <= longest or not text.isprintable():
            raise argparse.ArgumentTypeError(
                f"a {what} is 1 to {longest} printable characters, not {text!r}"
            )
        return text

    return parse


def address(text: str) -> tuple[str, int]:
    """HOST, HOST:PORT, [IPv6] or [IPv6]:PORT."""
    from .net.address import parse_address

    try:
        return parse_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def fingerprint(text: str) -> bytes:
    """A key's SHA-256 fingerprint, as 64 hexadecimal digits (colons allowed)."""
    digits = text.replace(":", "").strip().lower()
    if len(digits) != 64 or any(digit not in "0123456789abcdef" for digit in digits):
        raise argparse.ArgumentTypeError(
            f"expected a SHA-256 fingerprint of 64 hexadecimal digits, got {text!r}")
    return bytes.fromhex(digits)


def games(text: str) -> int:
    value = count(text)
    if value > 1_000_000:
        raise argparse.ArgumentTypeError(f"at most 1000000 games, not {value}")
    return value


def table_name(text: str) -> str:
    name = printable("table name", 40)(text)
    if len(name.encode()) > 59:  # an mDNS label is 63 bytes, with room for a suffix
        raise argparse.ArgumentTypeError(f"the table name {name!r} is too long")
    return name


def lan_address(text: str) -> str:
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


class Progress:
    """A line on a terminal that says how far a long run is (games done, the rate, the time
    left), redrawn at most four times a second, once the run has taken a second; nothing
    when ``out`` is not a terminal (a pipe or a file gets the report alone)."""

    def __init__(self, out: Any, after: float = 1.0) -> None:
        import time

        self.out, self.after, self.clock = out, after, time.monotonic
        self.started = self.drawn = self.clock()
        self.terminal = bool(getattr(out, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if not self.terminal or now - self.started < self.after:
            return
        if done < total and now - self.drawn < 0.25:
            return
        self.drawn = now
        rate = done / (now - self.started)
        left = (total - done) / rate if rate else 0.0
        line = f"{done}/{total} games, {rate:.0f} a second, about {left:.0f} s left"
        end = "\n" if done >= total else ""
        self.out.write(f"\r{line:<60}{end}")
        self.out.flush()


def login() -> str:
    import getpass

    try:
        name = getpass.getuser()
    except Exception:  # no login name in this environment
        name = "player"
    return (name or "player")[:24]


#: ``--resume`` without a path: the newest journal.
LATEST = Path("\0the newest journal")


def option_fields() -> dict[str, list[tuple[Any, Any]]]:
    """Each rule option's name, with the games that have it and their field for it."""
    from .rules import GAMES

    fields: dict[str, list[tuple[Any, Any]]] = {}
    for game in GAMES.values():
        for field in game.options_type.fields:
            fields.setdefault(field.name, []).append((game, field))
    return fields


def options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Any:
    """The rule options the command line gives for ``args.game``; another game's option is
    an error, not ignored."""
    from .rules import RulesError, game_named

    game = game_named(args.game)
    given = {name: getattr(args, name) for name in option_fields()
             if getattr(args, name) is not None}
    own = [field.name for field in game.options_type.fields]
    stray = [name for name in given if name not in own]
    if stray:
        owners = option_fields()[stray[0]]
        takes = f"takes {', '.join('--' + name for name in own)}" if own else "has no options"
        parser.error(f"--{stray[0]} is {owners[0][0].title}'s; {game.title} {takes}")
    try:
        return game.options_type.parse(",".join(f"{k}={v}" for k, v in given.items()))
    except RulesError as error:
        parser.error(str(error))


def check_strategies(parser: argparse.ArgumentParser, game: str, names: Sequence[str]) -> None:
    from .bots import STRATEGIES
    from .rules import game_named

    for name in names:
        if name not in STRATEGIES[game]:
            parser.error(f"the {name} bot does not play {game_named(game).title}; choose from "
                         f"{', '.join(STRATEGIES[game])}")
