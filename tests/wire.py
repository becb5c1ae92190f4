"""An in-memory host for tests: drives a Table as the real host does, but with no sockets.

Every message in either direction goes through the real codec (encoded to a frame, decoded
back), and every frame sent to a connection is kept, so tests can look at exactly the bytes
a client would have received.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable

from doubtlan.bots import make_bot
from doubtlan.net import protocol
from doubtlan.net.botclient import Decider
from doubtlan.net.messages import PROTOCOL_VERSION, Bye, Hello, Knock, Message, Ping, Proof
from doubtlan.net.mirror import Mirror
from doubtlan.net.pin import ClientExchange, NotTheTable
from doubtlan.net.table import Table, TableConfig


class Harness:
    def __init__(self, config: TableConfig, bots: int = 0, strategy: str = "counter") -> None:
        self.table = Table(config)
        for _ in range(bots):
            self.table.seat_bot(strategy)
        self.now = 0.0
        self.frames: dict[int, list[bytes]] = defaultdict(list)
        #: The frames above, decoded by the real codec (the mirrors complete states' claims
        #: in place, as a client does).
        self.received: dict[int, list[Message]] = defaultdict(list)
        self.inbox: dict[int, list[Message]] = defaultdict(list)
        self.mirrors: dict[int, Mirror] = {}
        self.deciders: dict[int, Decider] = {}
        self.closed: set[int] = set()
        #: Seeds the mirrors would send, sent once the outbox has been read.
        self.pending_seeds: list[tuple[int, Message]] = []
        #: Called before every message reaches the table and before every flush.
        self.observers: list[Callable[[], None]] = []
        self._next = 1

    # -- connections -------------------------------------------------------------------

    def connect(self, address: str = "10.0.0.2") -> int:
        conn, self._next = self._next, self._next + 1
        self.mirrors[conn] = Mirror()
        self.table.connect(conn, address)
        return conn

    def send(self, conn: int, message: Message) -> None:
        message = self.mirrors[conn].signed(message)  # as a client does
        self.mirrors[conn].sending(message, self.now)
        data = protocol.encode(message)
        decoded = protocol.decode(data[protocol.HEADER.size :], "client")
        for observe in self.observers:
            observe()
        self.table.receive(conn, decoded, self.now)
        self.flush()

    def drop(self, conn: int) -> None:
        self.table.disconnect(conn, self.now)
        self.closed.add(conn)
        self.flush()

    def hello(
        self, name: str = "player", *, pin: str | None = None, token: str | None = None,
        watch: bool = False, address: str = "10.0.0.2", bot: str | None = None,
        seed: int = 0, via: str | None = None,
    ) -> int:
        conn = self.connect(address)
        if token is not None:  # the seat's player back: it signs with the seat's key
            self.mirrors[conn].key = next((m.key for m in self.mirrors.values()
                                           if m.token == token), None)
        if bot is not None:
            self.deciders[conn] = Decider(make_bot(bot, seed))
        proof = None
        if pin is not None:  # the PIN's key exchange, as a client makes it (net/pin.py)
            exchange = ClientExchange(pin, self.table.fingerprint)
            self.send(conn, Knock(PROTOCOL_VERSION, exchange.knock(), via))
            answer = self.last(conn, (Proof, Bye))
            if not isinstance(answer, Proof):
                return conn  # refused (too many tries)
            try:
                proof = exchange.answer(answer.half, answer.proof)
            except NotTheTable:  # a wrong PIN: say hello anyway, as a hostile client would
                proof = "00" * 32
        self.send(conn, Hello(PROTOCOL_VERSION, name, proof, token, watch))
        return conn

    def flush(self) -> None:
        for observe in self.observers:
            observe()
        for conn, message in self.table.take_outbox():
            data = protocol.encode(message)
            self.frames[conn].append(data)
            decoded = protocol.decode(data[protocol.HEADER.size :], "host")
            self.received[conn].append(decoded)
            self.inbox[conn].append(decoded)
            self.mirrors[conn].receive(decoded, self.now)
            seed = self.mirrors[conn].seed_due()
            if seed is not None:  # as a client does
                self.pending_seeds.append((conn, seed))
        seeds, self.pending_seeds = self.pending_seeds, []
        for conn, seed in seeds:
            self.send(conn, seed)
            self.send(conn, Ping())
        for conn in self.table.take_closing():
            if conn not in self.closed:
                self.closed.add(conn)
                self.table.disconnect(conn, self.now)
                self.flush()

    # -- time and bots -----------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass, ticking the table at each deadline on the way."""
        end = self.now + seconds
        while True:
            due = self.table.next_deadline()
            if due is None or due > end:
                break
            self.now = max(self.now, due)
            self.ping()
            for observe in self.observers:
                observe()
            self.table.tick(self.now)
            self.flush()
            self.play_bots()
        self.now = end

    def ping(self) -> None:
        """Every seated connection pings the host, as a client does now and then while its
        seat plays (each pong bounds, for its check, when the host's next wait began)."""
        if self.table.state != "playing":
            return
        for conn, mirror in self.mirrors.items():
            if conn not in self.closed and mirror.seat is not None:
                self.send(conn, Ping())

    def play_bots(self, rng: random.Random | None = None, limit: int | None = None) -> int:
        """Let the remote bot clients answer everything they have received (or stop after
        ``limit`` actions); returns how many actions they sent."""
        sent = 0
        progress = True
        while progress and (limit is None or sent < limit):
            progress = False
            conns = list(self.deciders)
            if rng is not None:
                rng.shuffle(conns)
            for conn in conns:
                if conn in self.closed:
                    continue
                pending, self.inbox[conn] = self.inbox[conn], []
                for message in pending:
                    for act in self.deciders[conn].decide(self.mirrors[conn], message):
                        self.send(conn, act)
                        sent += 1
                        progress = True
        return sent

    def last(self, conn: int,
             kind: type[Message] | tuple[type[Message], ...]) -> Message | None:
        found = [m for m in self.inbox[conn] if isinstance(m, kind)]
        return found[-1] if found else None
