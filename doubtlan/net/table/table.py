"""The :class:`Table`: one table, made of its parts (seats, clocks, stand-ins, talk, sending,
replay), and what is its own: the match played at it. Messages from connections come in
through :meth:`Table.receive`; a game is dealt, changed only through ``game.apply`` (in
:meth:`Table._apply`, which also keeps the action for the reveal and the journal), settled
after every change and ended when it is won.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from ...rules import Action, Game, Match, RulesError, game_named
from ...rules.fairness import Played, SeedChain, deal_seed
from ...rules.seeds import derive, seed_bytes
from .. import errors, signing
from ..journal import Journal, advance
from ..messages import (
    Act,
    Error,
    Hello,
    Knock,
    Leave,
    Message,
    Peek,
    Ping,
    Pong,
    Say,
    Seed,
    TableName,
)
from ..timing import SEED_WAIT
from .base import Conn, Seat
from .clocks import Clocks
from .config import Refused, TableConfig, config_record
from .replay import Replaying
from .seats import Seating, contribution_of
from .sending import Sending
from .standins import StandIns
from .talk import Talking


class Table(Seating, Clocks, StandIns, Talking, Sending, Replaying):
    """One table: its seats and connections, and the match played at it."""

    def __init__(self, config: TableConfig, journal: Journal | None = None, *,
                 root: bytes | None = None) -> None:
        """``journal``: where every change is written before anyone is told of it;
        ``root``: the secret the deals' chain grows from (a resumed table's). The state
        set here is described in :class:`~doubtlan.net.table.base.TableParts`."""
        self.kind = game_named(config.game)
        if not isinstance(config.options, self.kind.options_type):
            raise RulesError(f"these are not rule options of {self.kind.title}")
        config.options.check_players(config.players)
        self.config = config
        self.seats = [Seat(number) for number in range(config.players)]
        self.conns = {}
        self.state = "lobby"
        self.match = Match(config.players, config.options, seed=config.seed, game=self.kind)
        self.game = None
        self.outbox, self.closing = [], []
        self.results = []
        self.on_change = lambda: None
        self._notes, self._changed, self._reveal_due = [], False, False
        self._previous = ()
        self._pin_failures = {}
        self._pin_allowances = {False: (0.0, float("-inf")),  # (full at the first knock)
                                True: (0.0, float("-inf"))}
        self.via_key = secrets.token_bytes(32)
        self.fingerprint = b""
        self._window_key = self._window_due = None
        self._turn_key = self._turn_due = None
        self._bot_due = self._next_game_due = self._seeding_due = None
        self._held, self._bots_made = None, 0
        self._start_talk()
        # The host's secrets for the deals, committed to before anyone sits down: drawn
        # from the table's seed when it has one (a seeded table deals the same every time,
        # and takes no player's seed), else from the operating system.
        seed = config.seed
        if root is None:
            root = secrets.token_bytes(32) if seed is None else derive(seed_bytes(seed), "chain")
        self.chain = SeedChain(root)
        #: The match its seats sign their actions and lines for (net/signing.py).
        self.signed_for = self.chain.commitment.hex()
        self.secret, self.contributions, self.played, self._digest = b"", (), [], b""
        self.played_for = {}
        self.journal = journal
        self.clock = 0.0
        self._journaled_seats = None
        if journal is not None:
            journal.append({"t": "table", "v": 1, "config": config_record(config),
                            "root": root})

    def receive(self, conn: int, message: Message, now: float) -> None:
        """Handle one message from a connection. Refusals are answered with ``error``."""
        self.clock = now
        client = self.conns.get(conn)
        if client is None:
            return
        try:
            if isinstance(message, Peek):
                self._send(conn, TableName(self.config.name[:64]))  # (the advert's name)
            elif isinstance(message, Hello):
                self._hello(client, message, now)
            elif isinstance(message, Knock):
                self._knock(client, message, now)
            elif not client.joined:
                raise errors.NotJoined()
            elif isinstance(message, Act):
                self._act(client, message, now)
            elif isinstance(message, Say):
                self._say(client, message, now)
            elif isinstance(message, Seed):
                self._seed(client, message, now)
            elif isinstance(message, Ping):
                # What changed before the ping goes first: a client may then hold that the
                # host's clocks began every wait shown after the pong once it had the ping.
                self.publish()
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

    # -- the match -------------------------------------------------------------------------

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
        self._seed_or_deal(now)

    def _seed_or_deal(self, now: float) -> None:
        """Deal the first game once every seat whose player committed to a seed has sent it
        (or :data:`SEED_WAIT` has passed, and the grace time of a seat whose player is away:
        :meth:`tick`); until then the table is ``seeding``: every seat has committed, so a
        seed sent now cannot be chosen after another's (docs/fairness.md)."""
        if self.config.seed is None and any(
                seat.seed_hash is not None and not seat.contribution for seat in self.seats):
            if self.state != "seeding":
                self.state, self._seeding_due = "seeding", now + SEED_WAIT
                self._broadcast_table()
            return
        self._seeding_due = None
        self._deal(now)

    def _seed(self, client: Conn, message: Seed, now: float) -> None:
        """A seat's seed, checked against the SHA-256 its hello gave."""
        if client.seat is None:
            raise errors.Spectating()
        seat = self.seats[client.seat]
        seed = contribution_of(message.seed, "seed.seed")
        if seat.seed_hash is None or not hmac.compare_digest(
                hashlib.sha256(seed).digest(), seat.seed_hash):
            raise errors.BadMessage("seed: not the seed this seat's hello committed to")
        if seat.contribution == seed:
            return  # (sent again after a reconnect)
        if self.state != "seeding" or seat.contribution:
            raise errors.BadMessage("seed: the table is not waiting for seeds")
        seat.contribution = seed
        self._broadcast_table()  # (and journals it: a resumed table has it)
        self._seed_or_deal(now)

    def next_game(self, now: float) -> None:
        """Deal the next game of the match (after one has ended)."""
        if self.state != "between":
            raise Refused("the next game comes after this one ends")
        self._deal(now)

    def _deal(self, now: float) -> None:
        self.clock = now
        number = self.match.games + 1
        if number > self.chain.games:
            self.state = "over"  # the commitment covers no more games
            self._broadcast_table()
            self.finish()
            return
        if self.game is not None and self.game.over:
            self._previous = self._reveals()
        self.secret = self.chain.secret(number)
        seeded = self.config.seed is not None
        self.contributions = tuple(b"" if seeded else seat.contribution for seat in self.seats)
        self.played, self._digest, self.played_for = [], b"", {}
        self.game = self.match.new_game(deal_seed(self.secret, number, self.contributions))
        self.state = "playing"
        if self.journal is not None:
            self.journal.append({"t": "deal", "game": number, "secret": self.secret,
                                 "seeds": list(self.contributions),
                                 "opener": self.game.opener, "at": round(now, 3)})
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
        if act.turn != game.decision:
            raise errors.Stale(f"that was meant for decision {act.turn}; the table is at "
                               f"{game.decision}")
        text = signing.act_text(self.signed_for, self.match.games, act.turn,
                                action.text)
        if not signing.signed(self.seats[client.seat].key, text, act.sig):
            raise errors.BadSignature(f"act: {action.text!r} is not signed with your seat's "
                                      "key")
        self._apply(client.seat, action, "player", act.sig or "")
        self._settle(now)

    def _settle(self, now: float) -> None:
        """After any change: let bots play, set the clocks, end the game if it is won, and
        tell everyone what they may see."""
        game = self.game
        if game is not None and self.state == "playing":
            self._run_bots(game, now)
            self._remarks(game)
            if game.over:
                self._end_game(game, now)
            else:
                self._set_clocks(game, now)
        self._changed = True
        self.on_change()

    def _apply(self, seat: int, action: Action, by: str, sig: str = "") -> None:
        """The one way the table changes its game: ``game.apply``, and the action kept for
        the game's reveal (with ``sig``, the player's signature, when ``by`` is its
        player)."""
        game = self.game
        assert game is not None
        before = self.played_for_before(game, seat, by)
        events = game.apply(seat, action)
        self.note_played_for(game, seat, before)
        self.played.append(Played(seat, action.text, by, sig))
        if self.journal is not None:
            self._digest = advance(self._digest, events)
            record = {"t": "act", "game": self.match.games, "seat": seat,
                      "action": action.text, "by": by, "h": self._digest,
                      "at": round(self.clock, 3)}
            if sig:
                record["sig"] = sig
            self.journal.append(record)

    def _end_game(self, game: Game[Any, Any], now: float) -> None:
        self.results.append(game.winner)
        self._reveal_due = True  # after the last state (see publish)
        self._stop_clocks()
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
