"""Every message of the doubtlan protocol: the one definition of the wire.

docs/protocol.md describes each message and field; tests/test_protocol.py checks that the
document and these classes agree. A message travels as a msgpack map whose ``type`` is the
class's ``TYPE`` and whose other keys are exactly its fields (see :mod:`.codec`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from ..rules import FEWEST_PLAYERS, MOST_PLAYERS, Event, View
from ..rules.fairness import Played
from .codec import Limit, Many, Text

PROTOCOL_VERSION = 16

Name = Annotated[str, Text(1, 24)]
#: One half of the PIN's key exchange (net/pin.py), as hexadecimal text.
Half = Annotated[str, Text(2, 128, hexadecimal=True)]
Token = Annotated[str, Text(16, 64)]
Seat = Annotated[int, Limit(0, 15)]
Seconds = Annotated[float, Limit(0, 3600)]
Version = Annotated[int, Limit(0, 65535)]
#: Bytes written as hexadecimal text: a seed of up to 32 bytes, or a SHA-256 digest.
Hex = Annotated[str, Text(0, 64, hexadecimal=True)]
#: A SHA-256 digest as hexadecimal text.
Digest = Annotated[str, Text(64, 64, hexadecimal=True)]
GameNumber = Annotated[int, Limit(1, 1_000_000)]
#: A game's name in ``rules.GAMES`` (``"idoubtit"``).
GameName = Annotated[str, Text(1, 32)]
#: A line said at the table (``say``, ``said``): printable, at most 80 characters.
LONGEST_LINE = 80
Line = Annotated[str, Text(1, LONGEST_LINE)]
#: A seat's public key (Ed25519, net/signing.py), and a signature by one, as hexadecimal.
PublicKey = Annotated[str, Text(64, 64, hexadecimal=True)]
Signature = Annotated[str, Text(128, 128, hexadecimal=True)]
#: A line's number among its seat's lines (the client's clock, in milliseconds: each line's
#: is greater than the one before).
LineNumber = Annotated[int, Limit(0, 2**53)]


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message."""

    TYPE: ClassVar[str] = ""


# -- client to host ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Peek(Message):
    """What is this table called? Before anything else: the host answers ``name``, so that a
    client can refuse a table whose key is not the one a table of that name had, before it
    says hello (net/known.py)."""

    TYPE = "peek"


@dataclass(frozen=True, slots=True)
class Knock(Message):
    """At a table with a PIN, the first message on a connection: the client's half of the
    PIN's key exchange (net/pin.py, docs/security.md). The PIN itself is never sent."""

    TYPE = "knock"
    version: Version
    half: Half
    #: A browser seat's app: the browser and real address it comes from, as the host's web
    #: server marked them (``pin.via_mark``); the PIN's limits count it by those, not by the
    #: loopback address every browser seat joins from. None for every other client.
    via: Annotated[str, Text(1, 200)] | None = None


@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Take a seat, take one's seat back, or watch: the first message on a connection, or
    the second at a table with a PIN (after ``knock`` and the host's ``proof``).

    ``token`` (from an earlier ``welcome``) takes the same seat back; ``watch`` asks for no
    seat at all. ``proof`` is the client's proof that it knows the table's PIN (the key
    exchange's, hex). ``seed_hash`` is SHA-256 of the client's own random contribution to
    every deal of the match: the seed itself comes later, in ``seed``, once every seat has
    committed to its own (docs/fairness.md).
    """

    TYPE = "hello"
    version: Version
    name: Name
    proof: Hex | None
    token: Token | None
    watch: bool
    seed_hash: Digest | None = None
    #: The seat is played by a program (``doubtlan join --bot``): the lobby says so.
    bot: bool = False
    #: The games this client plays and shows (its ``rules.GAMES``): a table of another game
    #: says so (``unknown_game``) rather than send what the client cannot read. None: not
    #: said (the table takes its game as known).
    games: Annotated[tuple[GameName, ...], Many(64)] | None = None
    #: The public half of the key the client signs the seat's actions and lines with
    #: (net/signing.py); a seat is taken only with one (None: to watch).
    key: PublicKey | None = None


@dataclass(frozen=True, slots=True)
class Seed(Message):
    """The seat's seed, whose SHA-256 its hello gave: sent when the table says ``seeding``
    (every seat has committed to its seed, and the match waits for them)."""

    TYPE = "seed"
    seed: Hex


@dataclass(frozen=True, slots=True)
class Act(Message):
    """Do something at the table. ``turn`` is the view's ``decision`` when the client decided
    (the claims made, in I Doubt It and I Know You Don't); an action decided at an earlier
    one is refused as stale."""

    TYPE = "act"
    turn: Annotated[int, Limit(0, 1_000_000)]
    action: Annotated[str, Text(1, 32)]
    #: The seat's signature over the match, the game, ``turn`` and ``action``
    #: (``signing.act_text``).
    sig: Signature | None = None


@dataclass(frozen=True, slots=True)
class Say(Message):
    """Say something to the table: a quick reaction or a line of one's own (docs/talk.md).
    Only a seated player talks; the host holds each seat to a rate, and refuses a muted
    seat's lines (``talk_too_fast``, ``muted``)."""

    TYPE = "say"
    line: Line
    #: Greater than the number of the seat's line before; the seat's signature over the
    #: match, ``number`` and ``line`` (``signing.say_text``).
    number: LineNumber = 0
    sig: Signature | None = None


@dataclass(frozen=True, slots=True)
class Ping(Message):
    """Are you there? Either side may ask; the answer is ``pong``."""

    TYPE = "ping"


@dataclass(frozen=True, slots=True)
class Pong(Message):
    """Here I am."""

    TYPE = "pong"


@dataclass(frozen=True, slots=True)
class Leave(Message):
    """The player leaves the table for good; a bot plays the seat from now on."""

    TYPE = "leave"


# -- host to client ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as everyone sees it."""

    seat: Seat
    name: Name | None
    bot: bool
    connected: bool
    away: bool
    #: SHA-256 of the seed the seat's player committed to (None: it adds none).
    seed_hash: Digest | None = None
    #: Whether the host has that seed: it goes into every deal of the match.
    seed_in: bool = False
    #: A person's seat played by a program (``join --bot``), as its hello said.
    program: bool = False
    #: A seat the host gave away, its player away: a stand-in plays it until a newcomer
    #: takes it.
    open: bool = False
    #: A seated bot's strategy (``"sharp"``; None for a person's seat).
    strategy: Annotated[str, Text(1, 32)] | None = None
    #: The host muted the seat: the table does not hear it.
    muted: bool = False
    #: The public key the seat's player signs with (None: a bot's seat, or an empty one).
    key: PublicKey | None = None


@dataclass(frozen=True, slots=True)
class TableInfo(Message):
    """The table: its name and rules, its seats, and the match so far."""

    TYPE = "table"
    name: Annotated[str, Text(1, 64)]
    game: GameName
    rules: Annotated[str, Text(1, 64)]
    #: (From the games' rules: ``rules.FEWEST_PLAYERS`` to ``rules.MOST_PLAYERS``.)
    players: Annotated[int, Limit(FEWEST_PLAYERS, MOST_PLAYERS)]
    seats: Annotated[tuple[SeatInfo, ...], Many(16)]
    state: Annotated[str, Text(1, 16)]
    game_number: Annotated[int, Limit(0, 1_000_000)]
    games: Annotated[int, Limit(0, 1_000_000)]
    tally: Annotated[tuple[Annotated[int, Limit(0, 1_000_000)], ...], Many(16)]
    window: Seconds
    turn_timeout: Seconds
    pin: bool
    #: SHA-256 commitment to the host's secrets for the match's deals (docs/fairness.md).
    commitment: Hex
    #: True when the deals come from a fixed seed (``--seed``, for replays): the players'
    #: seeds are not used.
    seeded: bool
    #: How many spectators are watching.
    watchers: Annotated[int, Limit(0, 1_000)] = 0
    #: The first game starts by itself once every seat is taken (a host without a screen,
    #: ``host --headless``); otherwise the host starts it.
    autostart: bool = False


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """You are in. ``seat`` and ``token`` are None for a spectator; keep the token to take
    the seat back after a lost connection."""

    TYPE = "welcome"
    version: Version
    seat: Seat | None
    token: Token | None
    name: Name | None
    table: TableInfo


@dataclass(frozen=True, slots=True)
class Note:
    """Something the table did on a player's behalf: ``kind`` is ``"timeout"`` (the turn
    timer ran out and the host played), ``"away"`` (a bot played for an absent player) or
    ``"window"`` (the window's time ran out; silent players let the claim stand)."""

    kind: Annotated[str, Text(1, 16)]
    seat: Seat | None


@dataclass(frozen=True, slots=True)
class State(Message):
    """The game as the receiver may see it, after ``events`` happened.

    ``view.record`` holds the settled claims from index ``record_from`` on: the receiver keeps
    those it has before that index and replaces the rest. ``events`` are the events since the
    last ``state`` this connection received (redacted for it), ``notes`` what the table did on
    someone's behalf meanwhile.
    """

    TYPE = "state"
    game_number: GameNumber
    record_from: Annotated[int, Limit(0, 1_000_000)]
    view: View
    events: Annotated[tuple[Event, ...], Many(256)]
    notes: Annotated[tuple[Note, ...], Many(64)]
    #: The index of the first of ``events`` in the game's events (a snapshot sends none,
    #: and the number of events so far).
    events_from: Annotated[int, Limit(0, 10_000_000)]
    #: The receiver's own seat only: the claims of this game (their index among the settled
    #: claims, the one in progress included) in which the host played an action in its
    #: name: a stand-in while its player was away, the turn timer, the window's clock.
    played_for: Annotated[tuple[Annotated[int, Limit(0, 1_000_000)], ...], Many(2048)] = ()


@dataclass(frozen=True, slots=True)
class History(Message):
    """Settled claims from index ``record_from`` on, sent before a ``state`` when a game's
    history is too long for one frame."""

    TYPE = "history"
    game_number: GameNumber
    record_from: Annotated[int, Limit(0, 1_000_000)]
    record: Annotated[tuple[Event, ...], Many(256)]


@dataclass(frozen=True, slots=True)
class Reveal(Message):
    """Game ``game_number`` is over: the host's secret it was dealt with, every seat's
    seed, and every action from index ``actions_from`` on, so that each client can deal the
    game again and check it (docs/fairness.md). A long game comes in several parts; the
    last has ``complete`` true."""

    TYPE = "reveal"
    game_number: GameNumber
    secret: Hex
    seeds: Annotated[tuple[Hex, ...], Many(16)]
    opener: Seat
    actions_from: Annotated[int, Limit(0, 10_000_000)]
    actions: Annotated[tuple[Played, ...], Many(512)]
    complete: bool


@dataclass(frozen=True, slots=True)
class Said(Message):
    """Something a seat said at the table, relayed to every connection: ``name`` as the
    seat was called then, ``bot`` for a seated bot's remark. ``game`` and ``claims``: the
    game and how many of its claims were settled when it was said (0, 0 before the first
    deal), so that it stands in the history where it was said. ``fresh`` is false for the
    talk a connection is sent again when it joins or comes back (shown in the history
    only)."""

    TYPE = "said"
    seat: Seat
    name: Name
    line: Line
    bot: bool
    game: Annotated[int, Limit(0, 1_000_000)]
    claims: Annotated[int, Limit(0, 1_000_000)]
    fresh: bool = True
    #: The line's number and its seat's signature, as its ``say`` gave them (0 and None for
    #: a bot's remark).
    number: LineNumber = 0
    sig: Signature | None = None


@dataclass(frozen=True, slots=True)
class TableName(Message):
    """The answer to ``peek``: the table's name (which its advert tells everyone too)."""

    TYPE = "name"
    name: Annotated[str, Text(1, 64)]


@dataclass(frozen=True, slots=True)
class Proof(Message):
    """The host's answer to a ``knock``: its half of the PIN's key exchange and its proof
    that it knows the PIN. A client says ``hello`` only once the proof holds."""

    TYPE = "proof"
    half: Half
    proof: Hex


@dataclass(frozen=True, slots=True)
class Error(Message):
    """A refusal: ``code`` is stable (docs/protocol.md lists them), ``message`` is for people.
    Nothing changed at the table."""

    TYPE = "error"
    code: Annotated[str, Text(1, 32)]
    message: Annotated[str, Text(0, 200)]


@dataclass(frozen=True, slots=True)
class Bye(Message):
    """The host closes the connection: ``code`` says why (``match_over``, ``shutdown``,
    ``replaced``, or an error code)."""

    TYPE = "bye"
    code: Annotated[str, Text(1, 32)]
    message: Annotated[str, Text(0, 200)]


#: What a client may send.
CLIENT_MESSAGES: tuple[type[Message], ...] = (
    Peek, Knock, Hello, Seed, Act, Say, Ping, Pong, Leave,
)
#: What the host may send.
HOST_MESSAGES: tuple[type[Message], ...] = (
    TableName, Proof, Welcome, TableInfo, State, History, Reveal, Said, Error, Bye, Ping,
    Pong,
)
