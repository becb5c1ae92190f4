"""What ``doubtlan host`` and ``doubtlan join`` ask of the app (doubtlan/cli_table.py makes
them from the command line)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..net.hosted import Advertising, WebOffer
from ..net.identity import Identity
from ..net.table import TableConfig


@dataclass
class HostSetup:
    """What ``doubtlan host`` was asked for."""

    config: TableConfig
    bots: int = 0
    #: The bots' strategy (None: the game's own, ``bots.DEFAULTS``).
    strategy: str | None = None
    bind: str = "0.0.0.0"
    port: int = 0
    advertising: Advertising = field(default_factory=lambda: Advertising(enabled=False))
    #: A new journal to write, or one to resume the table of (docs/journal.md).
    journal: Path | None = None
    resume: Path | None = None
    #: The key and certificate the table presents (default: the host's own, kept in the
    #: user's data folder).
    identity: Identity | None = None
    #: Browser seats (``--web``): the page names the host's player as the machine's owner.
    web: WebOffer | None = None
    #: Ask the host's player's name first (no ``--name``), and name the table after it.
    ask_name: bool = False
    name_table: bool = False


@dataclass
class JoinSetup:
    """What ``doubtlan join`` was asked for: an address, or none to look on the network;
    with ``fingerprint`` (the table was found by name), the key the table must present."""

    address: tuple[str, int] | None = None
    pin: str | None = None
    watch: bool = False
    fingerprint: bytes | None = None
    #: Take a key other than the one this table's name had before without asking.
    accept_new_key: bool = False
    #: Ask the player's name on the screen before joining (a browser seat's app).
    ask_name: bool = False
    #: The player's name was given (``join --name``): the table list, not the name field,
    #: takes the keys first.
    named: bool = False
    #: The host's player, whose machine runs this app (a browser seat's): the title says so.
    through: str | None = None
    #: Seconds with no key pressed and no game being played after which the app ends
    #: itself (a browser seat's: net/web); None: never.
    idle_end: float | None = None
    #: A touch screen: cards and buttons three lines tall, in either layout (``--touch``).
    touch: bool = False
    #: The browser and real address the host's web server marked a browser seat's app with
    #: (``knock.via``: the PIN's limits count its knocks by them).
    via: str | None = None
    #: Keep the collector's full passes for between games (tui/collector.py); not one app
    #: among others in the seats' process (cli_seats.py), whose collector is the process's.
    collector: bool = True
