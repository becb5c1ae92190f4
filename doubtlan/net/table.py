"""The match itself: seats, tokens, clocks, the bot that plays for an absent seat, and who is
sent what.

Nothing here touches a socket or an event loop. The host tells the table about connections,
the messages they send and the time (``now``, in seconds on any steady clock); the table
answers by putting messages in :attr:`Table.outbox` and connections to close in
:attr:`Table.closing`. Every action reaches the game through ``game.apply`` in one
synchronous call, so nothing can slip in between checking an action and applying it. Clocks
are deadlines: the host calls :meth:`Table.tick` when :meth:`Table.next_deadline` comes.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..bots import make_bot
from ..rules import Action, Event, Game, Match, Options, RulesError, View, game_named
from ..rules.fairness import MAX_CONTRIBUTION, Played, SeedChain, deal_seed
from ..rules.seeds import Seed, derive, seed_bytes
from . import errors
from .journal import Journal, JournalError, advance
from .journal import read as read_journal
from .messages import (
    PROTOCOL_VERSION,
    Act,
    Bye,
    Error,
    Hello,
    History,
    Leave,
    Message,
    Note,
    Ping,
    Pong,
    Reveal,
    SeatInfo,
    State,
    TableInfo,
    Welcome,
)

#: The most settled claims or events one message carries (keeps every frame small).
CHUNK = 256
#: The most actions one ``reveal`` carries.
REVEAL_CHUNK = 512
#: Wrong PINs from one address before it must wait, and the longest wait, in seconds.
PIN_TRIES, PIN_LOCK_MAX = 3, 60.0

TableState = Literal["lobby", "playing", "between", "over"]


class Refused(ValueError):
    """The host's own request (seat a bot, change the rules, start) cannot be done now;
    the message says why, in a sentence for the player."""


@dataclass
class TableConfig:
    """How a table is set up (the host's command-line options)."""

    players: int
    #: The game's rule options (each game has its own kind: ``game.options_type``).
    options: Any = field(default_factory=Options)
    name: str = "doubtlan"
    #: Games in the match; 0 plays on until the host stops.
    games: int = 1
    pin: str | None = None
    #: Seconds a challenge window stays open.
    window: float = 10.0
    #: Seconds a player has for a turn before the host plays for them; 0: no limit.
    turn_timeout: float = 60.0
    #: Seconds an absent player's seat waits before a bot plays it.
    grace: float = 15.0
    seed: Seed | None = None
    #: Seconds between two actions of a bot (0: at once; a table with people may slow bots
    #: down so that their play can be followed).
    bot_delay: float = 0.0
    #: Seconds between one game's end and the next game's deal; None: wait for the host.
    next_game_delay: float | None = 0.0
    #: Start the match as soon as every seat is taken.
    autostart: bool = True
    #: The strategy that plays for an absent player.
    stand_in: str = "counter"
    #: The game played at the table (``doubtlan host --game``).
    game: str = "idoubtit"


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
    #: the moment they were chosen for (the game, its turns, its window).
    plan: list[Action] = field(default_factory=list)
    planned: tuple[object, ...] = ()
    #: The last claim (``game.turns``) the bot was asked to call; optional calls are offered
    #: once per claim.
    asked: int = -1
    #: The seed the seat's player added to the match's deals (docs/fairness.md).
    contribution: bytes = b""

    @property
    def taken(self) -> bool:
        return self.name is not None


@dataclass
class Conn:
    id: int
    address: str
    joined: bool = False
    seat: int | None = None
    #: What this connection has been sent of the current game.
    game_number: int = 0
    events_sent: int = 0
    claims_sent: int = 0


class Table:
    """One table: its seats and connections, and the match played at it."""

    def __init__(self, config: TableConfig, journal: Journal | None = None, *,
                 root: bytes | None = None) -> None:
        """``journal``: where every change is written before anyone is told of it;
        ``root``: the secret the deals' chain grows from (a resumed table's)."""
        #: The game played here.
        self.kind: type[Game[Any, Any]] = game_named(config.game)
        if not isinstance(config.options, self.kind.options_type):
            raise RulesError(f"these are not rule options of {self.kind.title}")
        config.options.check_players(config.players)
        self.config = config
        self.seats = [Seat(number) for number in range(config.players)]
        self.conns: dict[int, Conn] = {}
        self.state: TableState = "lobby"
        self.match = Match(config.players, config.options, seed=config.seed, game=self.kind)
        self.game: Game[Any, Any] | None = None
        #: Messages to send, in order: (connection, message).
        self.outbox: list[tuple[int, Message]] = []
        #: Connections to close once what is in the outbox for them has been sent.
        self.closing: list[int] = []
        #: Winners of the games played so far (None: a game stopped without one).
        self.results: list[int | None] = []
        #: Called whenever what the table advertises may have changed.
        self.on_change: Callable[[], None] = lambda: None
        self._notes: list[Note] = []
        self._pin_failures: dict[str, tuple[int, float]] = {}
        self._window_key: tuple[object, ...] | None = None
        self._window_due: float | None = None
        self._turn_key: tuple[int, int, int] | None = None
        self._turn_due: float | None = None
        self._bot_due: float | None = None
        #: The window clock's wait in which a bot's answer was last held back.
        self._held: tuple[object, ...] | None = None
        self._next_game_due: float | None = None
        self._bots_made = 0
        self._changed = False
        #: The host's secrets for the deals, committed to before anyone sits down: drawn
        #: from the table's seed when it has one (a seeded table deals the same every time,
        #: and takes no player's seed), else from the operating system.
        seed = config.seed
        if root is None:
            root = secrets.token_bytes(32) if seed is None else derive(seed_bytes(seed), "chain")
        self.chain = SeedChain(root)
        #: The game being played: its secret, the seats' seeds, and every action so far.
        self.secret = b""
        self.contributions: tuple[bytes, ...] = ()
        self.played: list[Played] = []
        self._reveal_due = False
        self.journal = journal
        self._journaled_seats: dict[str, Any] | None = None
        #: A digest of every event of the game so far (each action's record carries it).
        self._digest = b""
        if journal is not None:
            journal.append({"t": "table", "v": 1, "config": _config_record(config),
                            "root": root})

    # -- what the host asks --------------------------------------------------------------

    @property
    def taken(self) -> int:
        return sum(seat.taken for seat in self.seats)

    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called, if ever."""
        due = [self._window_due, self._turn_due, self._bot_due, self._next_game_due]
        due += [
            seat.away_since + self.config.grace
            for seat in self.seats
            if seat.away_since is not None and seat.bot is None and not seat.gone
        ]
        pending = [d for d in due if d is not None]
        return min(pending) if pending else None

    def take_outbox(self) -> list[tuple[int, Message]]:
        """What to send now (after :meth:`publish`), in order: the journal is on the disk
        first, so nothing anyone is told of can be lost."""
        self.publish()
        if self.journal is not None:
            self.journal.sync()
        out, self.outbox = self.outbox, []
        return out

    def take_closing(self) -> list[int]:
        out, self.closing = self.closing, []
        return out

    # -- connections ----------------------------------------------------------------------

    def connect(self, conn: int, address: str) -> None:
        self.conns[conn] = Conn(conn, address)

    def disconnect(self, conn: int, now: float) -> None:
        """The connection is gone (closed, dropped, silent too long)."""
        gone = self.conns.pop(conn, None)
        if gone is None or gone.seat is None:
            return
        seat = self.seats[gone.seat]
        if seat.conn == conn:
            seat.conn = None
            if not seat.gone:
                seat.away_since = now
            self._broadcast_table()
            self._settle(now)

    def receive(self, conn: int, message: Message, now: float) -> None:
        """Handle one message from a connection. Refusals are answered with ``error``."""
        client = self.conns.get(conn)
        if client is None:
            return
        try:
            if isinstance(message, Hello):
                self._hello(client, message, now)
            elif not client.joined:
                raise errors.NotJoined()
            elif isinstance(message, Act):
                self._act(client, message, now)
            elif isinstance(message, Ping):
                self._send(conn, Pong())
            elif isinstance(message, Pong):
                pass
            elif isinstance(message, Leave):
                self._leave(client, now)
            else:
                raise errors.UnknownMessage(f"a client may not send {message.TYPE!r}")
        except errors.WireError as error:
            self.refuse(conn, error)
        except RulesError as error:
            self._send(conn, Error(error.code, error.message[:200]))

    def refuse(self, conn: int, error: errors.WireError) -> None:
        """Answer with ``error``; close the connection after it when the error is fatal."""
        if error.fatal:
            self._send(conn, Bye(error.code, error.message[:200]))
            self.closing.append(conn)
        else:
            self._send(conn, Error(error.code, error.message[:200]))

    # -- joining --------------------------------------------------------------------------

    def _hello(self, client: Conn, hello: Hello, now: float) -> None:
        if client.joined:
            raise errors.AlreadyJoined()
        if self.state == "over":
            self._send(client.id, Bye("match_over", "the match is over"))
            self.closing.append(client.id)
            return
        if hello.version != PROTOCOL_VERSION:
            raise errors.VersionMismatch(
                f"this host speaks protocol version {PROTOCOL_VERSION}; "
                f"the client speaks version {hello.version}"
            )
        if hello.token is not None:
            self._return(client, hello.token, now)
            return
        self._check_pin(client.address, hello.pin, now)
        _contribution(hello.seed)  # a seed that cannot be read is refused before a seat
        if hello.watch:
            client.joined = True
            self._welcome(client, None)
            return
        seat = next((s for s in self.seats if not s.taken), None)
        if seat is None or self.state != "lobby":
            raise errors.TableFull()
        seat.name = self._unique_name(hello.name)
        seat.token = secrets.token_urlsafe(24)
        seat.contribution = _contribution(hello.seed)
        seat.conn = client.id
        client.joined, client.seat = True, seat.number
        self._welcome(client, seat)
        self._broadcast_table(but=client.id)  # its welcome carries the table
        self.start_when_full(now)

    def _return(self, client: Conn, token: str, now: float) -> None:
        found = None
        for seat in self.seats:  # compare with every seat, in constant time each
            if seat.token is not None and hmac.compare_digest(
                seat.token.encode(), token.encode()
            ):
                found = seat
        if found is None or found.gone:
            raise errors.BadToken()
        if found.conn is not None and found.conn != client.id:
            old = self.conns.get(found.conn)
            if old is not None:
                old.seat = None
                self._send(old.id, Bye("replaced", "the seat was taken back on another connection"))
                self.closing.append(old.id)
        found.conn, found.away_since = client.id, None
        if found.strategy is None:  # the player takes over from the stand-in bot
            found.bot, found.plan = None, []
        client.joined, client.seat = True, found.number
        self._welcome(client, found)
        self._broadcast_table()
        self._settle(now)

    def _check_pin(self, address: str, pin: str | None, now: float) -> None:
        wanted = self.config.pin
        if wanted is None:
            return
        failures, until = self._pin_failures.get(address, (0, 0.0))
        if now < until:
            raise errors.TooManyAttempts(f"too many wrong PINs; try again in {until - now:.0f} s")
        if pin is not None and hmac.compare_digest(pin.encode(), wanted.encode()):
            self._pin_failures.pop(address, None)
            return
        failures += 1
        # Each wrong PIN past the first few doubles the wait before the next try.
        wait = min(PIN_LOCK_MAX, 2.0 ** (failures - PIN_TRIES)) if failures >= PIN_TRIES else 0.0
        self._pin_failures[address] = (failures, now + wait)
        raise errors.WrongPin()

    def _bot(self, strategy: str, seat: int) -> Any:
        """A bot for ``seat``; seeded from the table's seed when it has one, so a seeded
        table plays the same way every time."""
        seed = self.config.seed
        if seed is None:
            return make_bot(strategy, game=self.kind.name)
        self._bots_made += 1
        return make_bot(strategy, derive(seed_bytes(seed), f"bot {seat} {self._bots_made}"),
                        self.kind.name)

    def _unique_name(self, wanted: str) -> str:
        name = " ".join(wanted.split()) or "player"
        taken = {seat.name for seat in self.seats if seat.name}
        if name not in taken:
            return name
        for n in range(2, 100):
            suffix = f" ({n})"
            candidate = f"{name[: 24 - len(suffix)]}{suffix}"
            if candidate not in taken:
                return candidate
        return f"{name[:15]} {secrets.token_hex(4)}"

    def _welcome(self, client: Conn, seat: Seat | None) -> None:
        self._send(
            client.id,
            Welcome(
                PROTOCOL_VERSION,
                None if seat is None else seat.number,
                None if seat is None else seat.token,
                None if seat is None else seat.name,
                self.info(),
            ),
        )
        if self.game is not None:
            self._snapshot(client)
            if self.game.over:  # (one that came back after the game ended checks it too)
                self._reveal(client.id)

    def seat_bot(self, strategy: str, name: str | None = None) -> Seat:
        """Seat a bot of ``strategy`` in the first free seat (before the match starts)."""
        seat = next((s for s in self.seats if not s.taken), None)
        if seat is None or self.state != "lobby":
            raise Refused("every seat is taken" if self.state == "lobby"
                          else "bots can be seated only before the match starts")
        seat.strategy = strategy
        seat.bot = self._bot(strategy, seat.number)
        seat.name = self._unique_name(name or f"{strategy} bot")
        self._broadcast_table()
        return seat

    # -- playing ---------------------------------------------------------------------------

    def remove_bot(self, number: int) -> None:
        """Take the bot in seat ``number`` off the table, or a player who went away (before
        the match starts; the player's token then takes no seat back)."""
        if self.state != "lobby":
            raise Refused("bots can be removed only before the match starts")
        seat = self.seats[number] if 0 <= number < len(self.seats) else None
        away = seat is not None and seat.taken and seat.strategy is None and seat.conn is None
        if seat is None or (seat.strategy is None and not away):
            raise Refused("that seat has no bot (or player who went away) to remove")
        self.seats[number] = Seat(number)
        self._broadcast_table()
        self.on_change()

    def configure(
        self,
        options: Any = None,
        *,
        window: float | None = None,
        turn_timeout: float | None = None,
        players: int | None = None,
    ) -> None:
        """Change the rules, the clocks or the number of seats (before the match starts)."""
        if self.state != "lobby":
            raise Refused("the rules can be changed only before the match starts")
        options = options or self.config.options
        players = players or self.config.players
        if not isinstance(options, self.kind.options_type):
            raise Refused(f"these are not rule options of {self.kind.title}")
        try:
            options.check_players(players)
        except RulesError as error:
            raise Refused(error.message) from None
        if self.taken > players:
            raise Refused(f"{self.taken} are seated; a table for {players} is too small")
        self.config.options = options
        if window is not None:
            self.config.window = window
        if turn_timeout is not None:
            self.config.turn_timeout = turn_timeout
        self._seat_round(players)

    def start_when_full(self, now: float) -> None:
        """Start the match if the table starts by itself and every seat is taken."""
        if self.config.autostart and self.state == "lobby" and self.taken == self.config.players:
            self.start(now)

    def start(self, now: float) -> None:
        """Deal the first game to the seats taken (at least the rules' fewest players).

        Empty seats are removed first, and the players close up round the table.
        """
        least = self.config.options.min_players
        if self.state != "lobby":
            raise Refused("the match has started")
        if self.taken < least:
            raise Refused(f"the match starts once {least} or more are seated")
        if self.taken != self.config.players:
            self._seat_round(self.taken)
        self._deal(now)

    def _seat_round(self, players: int) -> None:
        """Seat the taken seats first, in order, at a table of ``players``; a player whose
        seat number changed is welcomed again with the new one (the same token)."""
        taken = [seat for seat in self.seats if seat.taken]
        moved = [seat for number, seat in enumerate(taken) if seat.number != number]
        for number, seat in enumerate(taken):
            seat.number = number
        self.seats = taken + [Seat(n) for n in range(len(taken), players)]
        self.config.players = players
        self.match = Match(players, self.config.options, seed=self.config.seed, game=self.kind)
        for seat in moved:
            client = self.conns.get(seat.conn) if seat.conn is not None else None
            if client is not None:
                client.seat = seat.number
                self._welcome(client, seat)
        self._broadcast_table()
        self.on_change()

    def next_game(self, now: float) -> None:
        """Deal the next game of the match (after one has ended)."""
        if self.state != "between":
            raise Refused("the next game comes after this one ends")
        self._deal(now)

    def _deal(self, now: float) -> None:
        number = self.match.games + 1
        if number > self.chain.games:
            self.state = "over"  # the commitment covers no more games
            self._broadcast_table()
            self.finish()
            return
        self.secret = self.chain.secret(number)
        seeded = self.config.seed is not None
        self.contributions = tuple(b"" if seeded else seat.contribution for seat in self.seats)
        self.played, self._digest = [], b""
        self.game = self.match.new_game(deal_seed(self.secret, number, self.contributions))
        self.state = "playing"
        if self.journal is not None:
            self.journal.append({"t": "deal", "game": number, "secret": self.secret,
                                 "seeds": list(self.contributions),
                                 "opener": self.game.opener})
        self._next_game_due = None
        for seat in self.seats:
            seat.plan, seat.asked = [], -1
        self._broadcast_table()
        self._settle(now)

    def _act(self, client: Conn, act: Act, now: float) -> None:
        if client.seat is None:
            raise errors.Spectating()
        game = self.game
        if game is None or self.state != "playing":
            raise errors.NotPlaying()
        action = game.parse_action(act.action)
        if act.turn != game.turns:
            raise errors.Stale(f"that was meant for claim {act.turn}; the table is at {game.turns}")
        self._apply(client.seat, action, "player")
        self._settle(now)

    def _leave(self, client: Conn, now: float) -> None:
        if client.seat is not None and self.state == "lobby":
            self.seats[client.seat] = Seat(client.seat)  # nothing to keep: free the seat
            client.seat = None
        elif client.seat is not None:
            seat = self.seats[client.seat]
            seat.gone, seat.conn, seat.away_since = True, None, now
            seat.bot = self._bot(self.config.stand_in, seat.number)
            client.seat = None
        self._send(client.id, Bye("left", "you left the table"))
        self.closing.append(client.id)
        self._broadcast_table()
        self._settle(now)

    def tick(self, now: float) -> None:
        """Let the clocks run: windows close, timers run out, bots take over absent seats."""
        game = self.game
        for seat in self.seats:
            away = seat.away_since
            if away is not None and seat.bot is None and now >= away + self.config.grace:
                seat.bot = self._bot(self.config.stand_in, seat.number)
        if self._next_game_due is not None and now >= self._next_game_due:
            self._next_game_due = None
            if self.state == "between":
                self._deal(now)
                return
        if game is not None and self.state == "playing":
            if self._window_due is not None and now >= self._window_due:
                self._window_due = None
                self._notes.append(Note("window", None))
                key = game.window_key()
                # Silence from every seat the window waits for (the rules say what it means).
                while key is not None and game.window_key() == key and game.awaiting():
                    silent = game.awaiting()[0]
                    silence = game.timeout_actions(silent)
                    if not silence:
                        break
                    for action in silence:
                        self._apply(silent, action, "window")
            if self._turn_due is not None and now >= self._turn_due:
                self._turn_due = None
                self._play_for(game)
        self._settle(now)

    def _play_for(self, game: Game[Any, Any]) -> None:
        """The turn timer ran out: the host plays the turn as the rules say."""
        seat = game.turn_seat()
        if seat is None:
            return
        for action in game.timeout_actions(seat):
            self._apply(seat, action, "timer")
        self._notes.append(Note("timeout", seat))

    def _settle(self, now: float) -> None:
        """After any change: let bots play, set the clocks, end the game if it is won, and
        tell everyone what they may see."""
        game = self.game
        if game is not None and self.state == "playing":
            self._run_bots(game, now)
            if game.over:
                self._end_game(game, now)
            else:
                self._set_clocks(game, now)
        self._changed = True
        self.on_change()

    def _run_bots(self, game: Game[Any, Any], now: float) -> None:
        delay = self.config.bot_delay
        if delay > 0 and self._bot_due is not None and now < self._bot_due:
            return
        self._bot_due = None
        while not game.over:
            acted = self._bot_step(game, now)
            if acted is None:
                return
            if delay > 0 and acted:
                self._bot_due = now + delay  # answers and calls are not held back
                return

    def _bot_step(self, game: Game[Any, Any], now: float) -> bool | None:
        """One action by a bot, if any bot has one to play: whether it was a turn's action
        (not an answer to a window, nor a call); None if no bot played."""
        awaiting = game.awaiting()
        key = game.window_key()
        moment = (self.match.games, game.turns, key)
        for number in game.may_act():
            seat = self.seats[number]
            if seat.bot is None:
                continue
            if seat.plan and seat.planned != moment:
                seat.plan = []  # planned for a moment that has passed (a claim intercepted)
            for _ in range(2):  # a refused action: think again, once, from the table now
                if not seat.plan and not self._plan(game, number, seat, awaiting, moment):
                    break
                if key is not None and number in awaiting and self._hold_answer(game, key, now):
                    return None
                action = seat.plan.pop(0)
                try:
                    self._apply(number, action, "bot" if seat.strategy is not None else
                                "stand-in")
                except RulesError:
                    seat.plan = []  # the table moved on (a call settled the claim)
                    continue
                return key is None and not action.call
        return None

    def _plan(self, game: Game[Any, Any], number: int, seat: Seat,
              awaiting: tuple[int, ...], moment: tuple[object, ...]) -> bool:
        """Ask the bot in ``seat`` what it does now (into ``seat.plan``); whether it does
        anything."""
        stand_in = seat.strategy is None
        if number not in awaiting:  # an optional call: offered once per claim
            if stand_in or seat.asked == game.turns:
                return False  # a stand-in never calls for an absent player
            seat.asked = game.turns
        view = game.view(number)
        if stand_in and game.window_key() is not None:
            # An absent player is silent in windows (I Doubt It: the claim stands).
            seat.plan = list(game.timeout_actions(number))
        elif stand_in:
            seat.plan = list(seat.bot.turn(view))  # its turn; never a call
            self._notes.append(Note("away", number))
        else:
            seat.plan = list(seat.bot.act(view))
        seat.planned = moment
        return bool(seat.plan)

    def _hold_answer(self, game: Game[Any, Any], key: tuple[object, ...], now: float) -> bool:
        """Whether a bot's answer waits (the bot delay, once per wait of the window clock):
        only while a person may act out of turn meanwhile (I Know You Don't: intercept
        ahead of a bot that would pass or accept at once)."""
        delay = self.config.bot_delay
        held = (self.match.games, key)
        if delay <= 0 or self._held == held:
            return False
        awaiting = game.awaiting()
        if not any(self.seats[s].bot is None for s in game.may_act() if s not in awaiting):
            return False
        self._held, self._bot_due = held, now + delay
        return True

    # -- the journal ---------------------------------------------------------------------

    def _journal_seats(self) -> None:
        """Write the seats (and the rules they play by) when they have changed."""
        if self.journal is None:
            return
        config = self.config
        record = {"t": "seats", "players": config.players, "options": config.options.text,
                  "window": config.window, "turn_timeout": config.turn_timeout,
                  "seats": [[s.number, s.name, s.strategy, s.token, s.contribution, s.gone]
                            for s in self.seats]}
        if record != self._journaled_seats:
            self._journaled_seats = record
            self.journal.append(record)

    @classmethod
    def resume(cls, path: Path, now: float, **settings: Any) -> Table:
        """The table whose journal is at ``path``, as it was when the journal was last
        written: seats and tokens, the match and its tally, the game (hands, pile, rank,
        turn, claims), with its clocks started again at ``now``. Its players are away until
        they come back with their tokens. The journal goes on at ``path``. ``settings``
        change how the table runs (``autostart``, ``next_game_delay``: the app's host and
        the headless host differ), not what was played."""
        contents = read_journal(path)
        records = contents.records
        try:
            first = records[0]
            if first["t"] != "table" or first["v"] != 1:
                raise JournalError(f"{path} does not start with a table")
            config = _config_from(first["config"])
            for name, value in settings.items():
                setattr(config, name, value)
            table = cls(config, root=first["root"])
            for record in records[1:]:
                table._restore(record)
        except JournalError:
            raise
        except (IndexError, KeyError, TypeError, ValueError, AttributeError,
                RulesError) as error:
            raise JournalError(f"the journal {path} is damaged ({error!r})") from None
        table.journal = Journal.reopen(path, contents.good)  # before anything new happens
        table._resume_clocks(now)
        return table

    def _restore(self, record: dict[str, Any]) -> None:
        kind = record["t"]
        if kind == "seats":
            if len(record["seats"]) != record["players"]:
                raise JournalError("the journal's seats are not one for each player")
            config = self.config
            config.players = record["players"]
            config.options = self.kind.options_type.parse(record["options"])
            config.window, config.turn_timeout = record["window"], record["turn_timeout"]
            self.seats = []
            for number, name, strategy, token, contribution, gone in record["seats"]:
                seat = Seat(number, name, strategy, token, contribution=contribution, gone=gone)
                if strategy is not None:
                    seat.bot = self._bot(strategy, number)
                elif gone:
                    seat.bot = self._bot(config.stand_in, number)
                self.seats.append(seat)
            if self.game is None:
                self.match = Match(config.players, config.options, seed=config.seed,
                                   game=self.kind)
            self._journaled_seats = record
        elif kind == "deal":
            number = record["game"]
            if number != self.match.games + 1 or record["secret"] != self.chain.secret(number):
                raise JournalError(f"the journal's deal of game {number} is not this table's")
            if self.game is not None:
                self.results.append(self.game.winner)
            self.secret, self.contributions = record["secret"], tuple(record["seeds"])
            self.played, self._digest = [], b""
            self.game = self.match.new_game(deal_seed(self.secret, number, self.contributions))
            if self.game.opener != record["opener"]:
                raise JournalError(f"the journal's game {number} was opened by another seat")
        elif kind == "act":
            game = self.game
            if game is None or record["game"] != self.match.games:
                raise JournalError("the journal has an action outside a game")
            seat, text, by = record["seat"], record["action"], record["by"]
            self._digest = advance(self._digest, game.apply(seat, game.parse_action(text)))
            if record["h"] != self._digest:
                raise JournalError(f"the journal's game {record['game']} went otherwise than "
                                   "it says")
            self.played.append(Played(seat, text, by))
        else:
            raise JournalError(f"the journal has a record this doubtlan does not know: {kind!r}")

    def _resume_clocks(self, now: float) -> None:
        game = self.game
        for seat in self.seats:
            if seat.strategy is None and seat.taken and not seat.gone:
                seat.conn, seat.away_since, seat.bot = None, now, None
        if game is None:
            self.state = "lobby"
        elif game.over:
            self.results.append(game.winner)
            games = self.config.games
            self.state = "over" if games and self.match.games >= games else "between"
            delay = self.config.next_game_delay
            if self.state == "between" and delay is not None:
                # Those who come back within the grace time see the game's end first.
                self._next_game_due = now + max(delay, self.config.grace)
        else:
            self.state = "playing"
        self._settle(now)  # bots whose turn it was play on; the clocks start again

    def _apply(self, seat: int, action: Action, by: str) -> None:
        """The one way the table changes its game: ``game.apply``, and the action kept for
        the game's reveal."""
        game = self.game
        assert game is not None
        events = game.apply(seat, action)
        self.played.append(Played(seat, action.text, by))
        if self.journal is not None:
            self._digest = advance(self._digest, events)
            self.journal.append({"t": "act", "game": self.match.games, "seat": seat,
                                 "action": action.text, "by": by, "h": self._digest})

    def _set_clocks(self, game: Game[Any, Any], now: float) -> None:
        window = game.window_key()
        if window is not None:
            key = (self.match.games, window)
            if self._window_key != key:
                self._window_key, self._window_due = key, now + self.config.window
        else:
            self._window_due = None
        turn = game.turn_seat()
        timeout = self.config.turn_timeout
        if turn is not None and timeout > 0 and self.seats[turn].bot is None:
            turn_key = (self.match.games, game.turns, turn)
            if self._turn_key != turn_key:
                self._turn_key, self._turn_due = turn_key, now + timeout
        else:
            self._turn_due = None

    def _end_game(self, game: Game[Any, Any], now: float) -> None:
        self.results.append(game.winner)
        self._reveal_due = True  # after the last state (see publish)
        self._window_due = self._turn_due = self._bot_due = None
        games = self.config.games
        if games and self.match.games >= games:
            self.state = "over"
            self._broadcast_table()
            self.finish()
            return
        else:
            self.state = "between"
            delay = self.config.next_game_delay
            self._next_game_due = None if delay is None else now + delay
        self._broadcast_table()

    def finish(self, code: str = "match_over", message: str = "the match is over") -> None:
        """Say goodbye to every connection and close them all, after the last ``state``."""
        self._changed = True  # whatever happened last is sent before the goodbye
        self.publish()
        for conn in list(self.conns):
            self._send(conn, Bye(code, message))
            self.closing.append(conn)

    # -- what is sent ----------------------------------------------------------------------

    def info(self) -> TableInfo:
        config = self.config
        return TableInfo(
            name=config.name[:64],
            game=self.kind.name,
            rules=config.options.text,
            players=config.players,
            seats=tuple(
                SeatInfo(
                    seat.number,
                    seat.name,
                    seat.strategy is not None,
                    seat.conn is not None,
                    seat.strategy is None and seat.taken and seat.conn is None,
                )
                for seat in self.seats
            ),
            state=self.state,
            game_number=self.match.games,
            games=config.games,
            tally=tuple(self.match.tally),
            window=config.window,
            turn_timeout=config.turn_timeout,
            pin=config.pin is not None,
            commitment=self.chain.commitment.hex(),
            seeded=config.seed is not None,
        )

    def _send(self, conn: int, message: Message) -> None:
        self.outbox.append((conn, message))

    def _broadcast_table(self, but: int | None = None) -> None:
        self._journal_seats()
        info = self.info()
        for conn in self.conns.values():
            if conn.joined and conn.id != but:
                self._send(conn.id, info)

    def publish(self) -> None:
        """Put in the outbox what changed in the game for every connection, once.

        The host calls this after it has handled everything that arrived together, so that
        several actions in a row reach each client as one ``state``.
        """
        if self._changed:
            self._changed = False
            self._broadcast_states()
        if self._reveal_due:
            self._reveal_due = False
            for conn in self.conns.values():
                if conn.joined:
                    self._reveal(conn.id)

    def _reveal(self, conn: int) -> None:
        """Send ``conn`` the game's reveal, in parts when it is long."""
        game = self.game
        assert game is not None
        played = tuple(self.played)
        start = 0
        while True:
            part = played[start:start + REVEAL_CHUNK]
            complete = start + len(part) == len(played)
            self._send(conn, Reveal(
                self.match.games, self.secret.hex(),
                tuple(seed.hex() for seed in self.contributions), game.opener, start, part,
                complete))
            if complete:
                return
            start += len(part)

    def _broadcast_states(self) -> None:
        notes, self._notes = tuple(self._notes[-64:]), []
        if self.game is None:
            return
        for conn in self.conns.values():
            if conn.joined:
                self._update(conn, notes)

    def _update(self, conn: Conn, notes: tuple[Note, ...]) -> None:
        """Send ``conn`` what changed since its last ``state``: its view, and its events."""
        game = self.game
        assert game is not None
        if conn.game_number != self.match.games:
            # A new game: shown from its deal on (the hand dealt is checked afterwards).
            conn.game_number, conn.events_sent, conn.claims_sent = self.match.games, 0, 0
        view = game.view(conn.seat)
        events = game.log(conn.seat, conn.events_sent)
        if not events and not notes:
            return
        if len(events) > CHUNK or len(view.claims) - conn.claims_sent > CHUNK:
            self._snapshot(conn, notes)  # too much at once: start it afresh
            return
        self._send_state(conn, view, events, notes)

    def _snapshot(self, conn: Conn, notes: tuple[Note, ...] = ()) -> None:
        """Send ``conn`` the whole game as it may see it, history first when it is long."""
        game = self.game
        assert game is not None
        conn.game_number, conn.events_sent, conn.claims_sent = self.match.games, 0, 0
        view = game.view(conn.seat)
        while len(view.claims) - conn.claims_sent > CHUNK:
            start = conn.claims_sent
            chunk: tuple[Event, ...] = view.claims[start : start + CHUNK]
            self._send(conn.id, History(self.match.games, start, chunk))
            conn.claims_sent += len(chunk)
        conn.events_sent = game.event_count  # a snapshot replaces the events before it
        self._send_state(conn, view, (), notes)

    def _send_state(self, conn: Conn, view: View, events: tuple[object, ...],
                    notes: tuple[Note, ...]) -> None:
        game = self.game
        assert game is not None
        start, total = conn.claims_sent, len(view.claims)
        claims = view.claims[start:]
        self._send(conn.id, State(
            self.match.games, start, _with_claims(view, claims), events, notes,  # type: ignore[arg-type]
            conn.events_sent,
        ))
        conn.events_sent = game.event_count
        conn.claims_sent = total


def _config_record(config: TableConfig) -> dict[str, Any]:
    return {
        "players": config.players, "options": config.options.text, "name": config.name,
        "games": config.games, "pin": config.pin, "window": config.window,
        "turn_timeout": config.turn_timeout, "grace": config.grace,
        "seed": None if config.seed is None else seed_bytes(config.seed),
        "bot_delay": config.bot_delay, "next_game_delay": config.next_game_delay,
        "autostart": config.autostart, "stand_in": config.stand_in, "game": config.game,
    }


def _config_from(record: dict[str, Any]) -> TableConfig:
    fields = dict(record)
    if not isinstance(fields.get("options"), str):
        raise ValueError("the table's rules are not a text")
    game = fields.setdefault("game", "idoubtit")  # (journals from before the second game)
    if not isinstance(game, str):
        raise ValueError("the table's game is not a name")
    fields["options"] = game_named(game).options_type.parse(fields["options"])
    config = TableConfig(**fields)
    for name in ("players", "games"):
        if type(getattr(config, name)) is not int:
            raise ValueError(f"the table's {name} is not a number")
    return config


def _with_claims(view: View, claims: tuple[Event, ...]) -> View:
    setattr(view, "claims", claims)  # noqa: B010  (views are fresh copies for their reader)
    return view


def _contribution(seed: str | None) -> bytes:
    """A player's seed for the deals, from its hexadecimal text in ``hello``."""
    if seed is None:
        return b""
    try:
        contribution = bytes.fromhex(seed)
    except ValueError:
        raise errors.BadMessage("hello.seed: not hexadecimal") from None
    if len(contribution) > MAX_CONTRIBUTION:
        raise errors.BadMessage(f"hello.seed: more than {MAX_CONTRIBUTION} bytes")
    return contribution
