"""What every part of the table shares: its seats (:class:`Seat`), the connections it knows
(:class:`Conn`), and :class:`TableParts`, which names the state the parts read and write and
the few methods one part calls in another.

:class:`~doubtlan.net.table.Table` is made of one part per job (seats, clocks, stand-ins,
talk, sending, replay), each a class in its own module that the table inherits. They work on one
table, so they share its state; it is declared here once, with its type, and set in
``Table.__init__``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...rules import Action, Game, Match
from ...rules.fairness import Played, SeedChain, mark_after, mark_before
from ..journal import Journal
from ..messages import Message, Note, Reveal, Said
from ..pin import HostExchange
from .config import TableConfig, TableState


@dataclass
class Seat:
    number: int
    name: str | None = None
    #: A seated bot's strategy; None for a person's seat.
    strategy: str | None = None
    token: str | None = None
    #: The connection playing this seat now.
    conn: int | None = None
    #: When this seat's player went away (None while present); ``gone`` once they left.
    away_since: float | None = None
    gone: bool = False
    #: The bot playing the seat now: the seated bot, or a stand-in for an absent player.
    bot: Any = None
    #: Actions the bot has chosen and not yet played (its turn, one card at a time), and
    #: the moment they were chosen for (the game, its decision, its window).
    plan: list[Action] = field(default_factory=list)
    planned: tuple[object, ...] = ()
    #: The last decision (``game.decision``) the bot was asked to call at; optional calls are
    #: offered once per decision.
    asked: int = -1
    #: The seed the seat's player added to the match's deals (docs/fairness.md), once
    #: sent; SHA-256 of it, as its hello committed (None: it adds none).
    contribution: bytes = b""
    seed_hash: bytes | None = None
    #: The seat's player is a program (``join --bot``), as its last hello said.
    program: bool = False
    #: The host muted the seat; its talk allowance (lines in hand, when last counted).
    muted: bool = False
    talk: tuple[float, float] = (3.0, float("-inf"))
    #: The public key its player signs with, as the hello that took the seat gave it
    #: (net/signing.py; None for a bot's seat), and the number of the seat's last line.
    key: str | None = None
    said: int = 0

    @property
    def taken(self) -> bool:
        return self.name is not None

    @property
    def open(self) -> bool:
        """A person's seat the host gave away (between games, its player away): a stand-in
        plays it until a newcomer takes it. Its token is gone, so its player's no longer takes
        it back."""
        return self.taken and self.strategy is None and self.token is None


@dataclass
class Conn:
    id: int
    address: str
    joined: bool = False
    #: The PIN's key exchange this connection knocked with (net/pin.py), until its hello;
    #: what the PIN's limits counted the knock by, and whether from their allowance for new
    #: addresses.
    exchange: HostExchange | None = None
    pin_keys: tuple[str, ...] = ()
    pin_new: bool = False
    seat: int | None = None
    #: What this connection has been sent of the current game.
    game_number: int = 0
    events_sent: int = 0
    record_sent: int = 0


class TableParts:
    """The table's state, as every part sees it (``Table.__init__`` sets it all)."""

    #: The game played here, and how the table is set up.
    kind: type[Game[Any, Any]]
    config: TableConfig
    seats: list[Seat]
    conns: dict[int, Conn]
    state: TableState
    match: Match
    game: Game[Any, Any] | None
    #: Messages to send, in order: (connection, message); connections to close after them.
    outbox: list[tuple[int, Message]]
    closing: list[int]
    #: Winners of the games played so far (None: a game stopped without one).
    results: list[int | None]
    #: Called whenever what the table advertises may have changed.
    on_change: Callable[[], None]
    #: What the table did on someone's behalf since the last ``state``; whether the game
    #: changed since then; whether the game's reveal is to be sent.
    _notes: list[Note]
    _changed: bool
    _reveal_due: bool
    #: The last game's reveal, while the next is played: sent to whoever comes back in it.
    _previous: tuple[Reveal, ...]
    #: The deals: the chain of the host's secrets, and the game being played (its secret,
    #: the seats' seeds, every action so far, and a digest of its events).
    chain: SeedChain
    signed_for: str
    secret: bytes
    contributions: tuple[bytes, ...]
    played: list[Played]
    #: For each seat, the claims (their index among the game's settled claims) in which the
    #: host played an action in its name (``HOST_PLAYED``): each seat's ``state`` says its own.
    played_for: dict[int, set[int]]
    _digest: bytes
    #: Where every change is written before anyone is told of it; the seats last written.
    journal: Journal | None
    #: The host's clock (seconds, any base) when the table was last called: the times its
    #: journal gives its deals and actions (docs/journal.md).
    clock: float
    _journaled_seats: dict[str, Any] | None
    #: Wrong PINs by address and by browser (every key that has knocked, oldest first): how
    #: many, and until when the next try must wait.
    _pin_failures: dict[str, tuple[int, float]]
    #: The table's allowances of PIN tries, and when each was last counted: for knocks from
    #: keys that have knocked before (False), and from new ones (True).
    _pin_allowances: dict[bool, tuple[float, float]]
    #: The secret the host's web server marks its browser seats' knocks with (net/pin.py).
    via_key: bytes
    #: The fingerprint of the certificate the host presents (b"" without TLS): the PIN's
    #: key exchange is bound to it (net/pin.py).
    fingerprint: bytes
    #: The clocks: each wait's key (so it is not started again) and when it runs out.
    _window_key: tuple[object, ...] | None
    _window_due: float | None
    _turn_key: tuple[int, int, int] | None
    _turn_due: float | None
    _bot_due: float | None
    #: While the table waits for the seats' seeds: when it deals without those missing.
    _seeding_due: float | None
    _next_game_due: float | None
    #: The window clock's wait in which a bot's answer was last held back; bots made so far.
    _held: tuple[object, ...] | None
    _bots_made: int
    #: The talk kept (the latest lines), the lines to relay at the next ``publish``, what
    #: picks the bots' remarks, the claims the bots have looked at (game, claims, the next
    #: event), and when a bot last said something.
    talk: list[Said]
    _talk_due: list[Said]
    _chatter: Any
    _told: tuple[int, int, int]
    _bot_said: tuple[int, int]

    if TYPE_CHECKING:
        # How a table is made (table.py), and what one part calls in another (each is
        # defined in the module named).
        def __init__(self, config: TableConfig, journal: Journal | None = None, *,
                     root: bytes | None = None) -> None: ...

        # table.py
        def start_when_full(self, now: float) -> None: ...
        def _settle(self, now: float) -> None: ...
        def _apply(self, seat: int, action: Action, by: str, sig: str = "") -> None: ...
        def _deal(self, now: float) -> None: ...

        # standins.py
        def _bot(self, strategy: str, seat: int) -> Any: ...

        # seats.py
        def disconnect(self, conn: int, now: float) -> None: ...

        # talk.py
        def _relay_talk(self) -> None: ...
        def _resend_talk(self, conn: int) -> None: ...
        def _remarks(self, game: Any) -> None: ...
        def _talk_resumed(self) -> None: ...

        # sending.py
        def _send(self, conn: int, message: Message) -> None: ...
        def _broadcast_table(self, but: int | None = None) -> None: ...
        def _welcome(self, client: Conn, seat: Seat | None) -> None: ...
        def _reveals(self) -> tuple[Reveal, ...]: ...

        # replay.py
        def _journal_seats(self) -> None: ...

    def played_for_before(self, game: Any, seat: int, by: str) -> tuple[int, bool] | None:
        """Before the host applies an action it played in ``seat``'s name: what
        :func:`~doubtlan.rules.fairness.mark_before` keeps (None: the seat played it)."""
        return mark_before(game, seat, by)

    def note_played_for(self, game: Any, seat: int, before: tuple[int, bool] | None) -> None:
        """After it: mark the claim the action was part of (``mark_after``), which every
        client checks against the game's reveal."""
        claim = mark_after(game, seat, before)
        if claim is not None:
            self.played_for.setdefault(seat, set()).add(claim)
