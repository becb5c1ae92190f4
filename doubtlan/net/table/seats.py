"""The seats and who sits in them: connections coming and going, joining (PIN, name, seed,
token), coming back with a token, leaving. :class:`Seating` is made of two parts of its own
too: the names (names.py) and the host's changes, such as bots seated and removed and the
rules changed before the match starts (arranging.py)."""

from __future__ import annotations

import hmac
import math
import secrets

from ...rules.fairness import MAX_CONTRIBUTION
from .. import errors, pin, signing
from ..address import counted_as, is_loopback
from ..messages import PROTOCOL_VERSION, Bye, Hello, Knock, Proof
from ..pin import HostExchange
from .arranging import Arranging
from .base import Conn, Seat
from .standins import STAND_IN

#: Wrong PINs from one address before it must wait, and the longest wait, in seconds.
PIN_TRIES, PIN_LOCK_MAX = 3, 60.0
#: Wrong PINs the whole table takes from addresses (and browsers) that have given a wrong
#: one before, from any number of them: a burst of TABLE_PIN_BURST, then one every
#: TABLE_PIN_EVERY seconds. 10,000 guesses (every 4-digit PIN) then take more than a day
#: (10,000 x 9 s = 25 hours). A knock from an address (an IPv6 /64) and browser with no
#: wrong PIN to its name draws on an allowance of its own (NEW_PIN_BURST, then one every
#: NEW_PIN_EVERY seconds), so that wrong PINs from the addresses that keep knocking never
#: keep a newcomer with the right PIN out: each address has one such try until it proves
#: the PIN, so many addresses add at most one guess each.
TABLE_PIN_BURST, TABLE_PIN_EVERY = 10, 9.0
NEW_PIN_BURST, NEW_PIN_EVERY = 64, 1.0
#: The addresses and browsers with wrong PINs the table remembers (the oldest forgotten
#: first).
PIN_KEYS_KEPT = 4096


class Seating(Arranging):
    """The table's seats, its connections, and the way in: PIN, names, tokens."""

    # -- connections ----------------------------------------------------------------------

    def connect(self, conn: int, address: str) -> None:
        self.conns[conn] = Conn(conn, address)

    def disconnect(self, conn: int, now: float) -> None:
        """The connection is gone (closed, dropped, silent too long)."""
        self.clock = now
        gone = self.conns.pop(conn, None)
        if gone is not None and gone.joined and gone.seat is None:
            self._broadcast_table()  # a spectator fewer
        if gone is None or gone.seat is None:
            return
        seat = self.seats[gone.seat]
        if seat.conn == conn:
            seat.conn = None
            if not seat.gone:
                seat.away_since = now
            self._broadcast_table()
            self._settle(now)

    # -- joining --------------------------------------------------------------------------

    def _hello(self, client: Conn, hello: Hello, now: float) -> None:
        if client.joined:
            raise errors.AlreadyJoined()
        if self.state == "over":
            self._send(client.id, Bye("match_over", "the match is over"))
            self.closing.append(client.id)
            return
        _check_version(hello.version)
        if hello.games is not None and self.kind.name not in hello.games:
            raise errors.UnknownGame(f"that table plays {self.kind.title}, a game this "
                                     "doubtlan does not know: a newer doubtlan plays it")
        exchange, client.exchange = client.exchange, None
        if hello.token is not None:
            self._return(client, hello.token, _seat_key(hello.key), now, hello.bot)
            return
        self._check_pin(client, exchange, hello.proof)
        seed_hash = _seed_hash(hello.seed_hash)  # refused before a seat when it does not read
        key = None if hello.watch else _seat_key(hello.key)
        if hello.watch:
            watching = sum(c.joined and c.seat is None for c in self.conns.values())
            if watching >= self.config.watchers:
                raise errors.TooManyConnections("the table has as many spectators as it takes")
            client.joined = True
            self._welcome(client, None)
            self._broadcast_table(but=client.id)  # (how many watch)
            return
        if self.state != "lobby":
            self._take_open(client, hello, key, now)
            return
        seat = next((s for s in self.seats if not s.taken), None)
        if seat is None:
            raise errors.TableFull()
        self._make_way(hello.name)
        self._not_alike(hello.name, seat)
        seat.name = self._unique_name(hello.name)
        seat.token = secrets.token_urlsafe(24)
        seat.contribution, seat.seed_hash = b"", seed_hash
        seat.key, seat.said = key, 0
        seat.conn, seat.program = client.id, hello.bot
        client.joined, client.seat = True, seat.number
        self._welcome(client, seat)
        self._broadcast_table(but=client.id)  # its welcome carries the table
        self.start_when_full(now)

    def _take_open(self, client: Conn, hello: Hello, key: str | None, now: float) -> None:
        """A newcomer, once the match has begun, takes a seat the host gave away
        (:meth:`open_seats`) from the stand-in playing it: its hand, its place and its
        tally. The seed that seat's first player committed to stays in the deals (a seed is
        committed before the first deal, docs/fairness.md), so the newcomer's is not used."""
        wanted = " ".join(hello.name.split())  # (a player back under their own name: theirs)
        free = [s for s in self.seats if s.open]
        seat = next((s for s in free if s.name == wanted), free[0] if free else None)
        if seat is None:
            raise errors.TableFull()
        self._not_alike(hello.name, seat)
        seat.name = None
        seat.name = self._unique_name(hello.name)
        seat.token = secrets.token_urlsafe(24)
        seat.gone, seat.muted = False, False  # (a newcomer: the mute was another's)
        seat.key, seat.said = key, 0  # (it signs with its own key from now on)
        self._seat_player(client, seat, hello.bot, now)

    def _seat_player(self, client: Conn, seat: Seat, program: bool, now: float) -> None:
        """``client`` plays ``seat`` from now on, taking over from the stand-in that played
        it while no one did."""
        seat.conn, seat.away_since, seat.program = client.id, None, program
        if seat.strategy is None:  # a person's seat: the player takes over from the stand-in
            if seat.bot is not None and self._turn_key is not None \
                    and self._turn_key[2] == seat.number:
                self._turn_key = None  # the rest of a turn it began gets a fresh turn clock
            seat.bot, seat.plan = None, []
        client.joined, client.seat = True, seat.number
        self._welcome(client, seat)
        self._broadcast_table()
        self._settle(now)

    def _return(self, client: Conn, token: str, key: str, now: float,
                program: bool = False) -> None:
        found = None
        for seat in self.seats:  # compare with every seat, in constant time each
            if seat.token is not None and hmac.compare_digest(
                seat.token.encode(), token.encode()
            ):
                found = seat
        if found is None or found.gone:
            raise errors.BadToken()
        if found.key is None:  # (a seat from a journal written before seats signed)
            found.key = key
        elif found.key != key:  # another key would let anyone sign in the player's name
            raise errors.BadToken("the seat is taken back with the key it was taken with; "
                                  "this is another: join afresh")
        if found.conn is not None and found.conn != client.id:
            old = self.conns.get(found.conn)
            if old is not None:
                old.seat = None
                self._send(old.id, Bye("replaced", "the seat was taken back on another connection"))
                self.closing.append(old.id)
        self._seat_player(client, found, program, now)

    def _knock(self, client: Conn, knock: Knock, now: float) -> None:
        """The client's half of the PIN's key exchange: each knock is one try at the PIN,
        counted now (and forgotten once the hello proves the PIN), so that a client that
        knocks and goes counts as much as one that proves a wrong PIN."""
        if client.joined or client.exchange is not None:
            raise errors.AlreadyJoined()
        _check_version(knock.version)
        wanted = self.config.pin
        if wanted is None:
            raise errors.NoPin()
        keys = self._pin_keys(client, knock.via)
        known = [self._pin_failures[key] for key in keys if key in self._pin_failures]
        until = max((until for _, until in known), default=0.0)
        if now < until:
            raise errors.TooManyAttempts(
                f"too many wrong PINs; try again in {_seconds(until - now)}")
        # The table's own allowances, whoever knocks (one for those with a wrong PIN to
        # their name, one for the rest): refilled with time, spent by every knock and given
        # back when the hello proves the PIN.
        new = not known
        burst, every = (NEW_PIN_BURST, NEW_PIN_EVERY) if new else (TABLE_PIN_BURST,
                                                                   TABLE_PIN_EVERY)
        allowance, checked = self._pin_allowances[new]
        allowance = min(burst, allowance + (now - checked) / every)
        if allowance < 1:
            self._pin_allowances[new] = (allowance, now)
            wait = (1 - allowance) * every
            raise errors.TooManyAttempts(
                f"too many wrong PINs at this table; try again in {_seconds(wait)}")
        self._pin_allowances[new] = (allowance - 1, now)
        for key in keys:  # (a wrong PIN until the hello proves it)
            failures = self._pin_failures.pop(key, (0, 0.0))[0] + 1
            # Each wrong PIN past the first few doubles the wait before the next try.
            wait = min(PIN_LOCK_MAX, 2.0 ** (failures - PIN_TRIES)) \
                if failures >= PIN_TRIES else 0.0
            self._pin_failures[key] = (failures, now + wait)
        while len(self._pin_failures) > PIN_KEYS_KEPT:
            del self._pin_failures[next(iter(self._pin_failures))]
        client.pin_keys, client.pin_new = keys, new
        try:
            exchange = HostExchange(wanted, self.fingerprint, knock.half)
        except ValueError:
            raise errors.WrongPin("the PIN's key exchange could not be read") from None
        client.exchange = exchange
        self._send(client.id, Proof(exchange.half, exchange.proof))

    def _check_pin(self, client: Conn, exchange: HostExchange | None,
                   proof: str | None) -> None:
        """At a table with a PIN, the hello must prove it, after a knock."""
        if self.config.pin is None:
            return
        if exchange is None:
            raise errors.WrongPin("this table has a PIN, and none was given")
        if not exchange.proved(proof):
            raise errors.WrongPin()  # (the knock counted the try)
        for key in client.pin_keys:  # (new again)
            self._pin_failures.pop(key, None)
        burst = NEW_PIN_BURST if client.pin_new else TABLE_PIN_BURST
        allowance, checked = self._pin_allowances[client.pin_new]
        self._pin_allowances[client.pin_new] = (min(burst, allowance + 1), checked)

    def _pin_keys(self, client: Conn, via: str | None) -> tuple[str, ...]:
        """What the PIN's limits count a knock by: its address; for a browser seat's app
        (over loopback, marked by the host's web server: ``knock.via``), its browser and its
        real address instead."""
        if via is None:
            return (counted_as(client.address),)
        found = pin.via_keys(self.via_key, via) if is_loopback(client.address) else None
        if found is None:
            raise errors.BadMessage("knock.via: not a mark of this table's browser seats")
        browser, address = found
        return (counted_as(address), f"browser {browser}")

    def _leave(self, client: Conn, now: float) -> None:
        if client.seat is not None and self.state == "lobby":
            self.seats[client.seat] = Seat(client.seat)  # nothing to keep: free the seat
            client.seat = None
        elif client.seat is not None:
            seat = self.seats[client.seat]
            seat.gone, seat.conn, seat.away_since = True, None, now
            seat.bot = STAND_IN
            client.seat = None
        self._send(client.id, Bye("left", "you left the table"))
        self.closing.append(client.id)
        self._broadcast_table()
        self._settle(now)



def _check_version(version: int) -> None:
    if version < PROTOCOL_VERSION:
        raise errors.VersionMismatch(
            f"this table needs a newer doubtlan: it speaks protocol version "
            f"{PROTOCOL_VERSION}, yours speaks {version} (since version 13 every seat signs "
            "its moves and words); update doubtlan to join")
    if version != PROTOCOL_VERSION:
        raise errors.VersionMismatch(f"this host speaks protocol version {PROTOCOL_VERSION}; "
                                     f"the client speaks version {version}: the host needs "
                                     "a newer doubtlan")


def _seat_key(key: str | None) -> str:
    """The public key a hello that takes a seat gives (net/signing.py)."""
    if key is None:
        raise errors.BadMessage("hello.key: a seat is taken with the key its player signs "
                                "with")
    if not signing.readable(key):
        raise errors.BadMessage("hello.key: not an Ed25519 public key")
    return key.lower()


def contribution_of(seed: str, field: str) -> bytes:
    """A player's seed for the deals (1 to 32 bytes), from its hexadecimal text."""
    try:
        contribution = bytes.fromhex(seed)
    except ValueError:
        raise errors.BadMessage(f"{field}: not hexadecimal") from None
    if not 0 < len(contribution) <= MAX_CONTRIBUTION:
        raise errors.BadMessage(f"{field}: 1 to {MAX_CONTRIBUTION} bytes")
    return contribution


def _seed_hash(text: str | None) -> bytes | None:
    """The SHA-256 a hello commits its seat's seed to (None: no seed)."""
    if text is None:
        return None
    try:  # the codec lets through hexadecimal digits only; bytes.fromhex skips spaces
        digest = bytes.fromhex(text)
    except ValueError:
        raise errors.BadMessage("hello.seed_hash: not hexadecimal") from None
    if len(digest) != 32:
        raise errors.BadMessage("hello.seed_hash: not a SHA-256 digest")
    return digest


def _seconds(wait: float) -> str:
    """A wait, for people: whole seconds rounded up ("1 s", never "0 s")."""
    return f"{max(1, math.ceil(wait))} s"
