"""What one client knows of the seats' seeds (docs/fairness.md): each seat's seed commitment
as shown once the match began, the seats whose seed the table said the host has, and what
this client can prove of its own seed's way to the host (when it was sent and answered, and
how long the host waited for seeds before it dealt). No I/O: the mirror (net/mirror.py)
holds one, and tells it what was sent and received, and when.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .messages import Seed, TableInfo
from .timing import seed_problem


def seed_hash(contribution: bytes | None) -> str | None:
    """SHA-256 of a client's seed, as its hello gives it (None: it has none)."""
    if not contribution:
        return None
    return hashlib.sha256(contribution).hexdigest()


@dataclass
class SeatSeeds:
    """The seats' seeds as one client saw them, and its own seed's way to the host."""

    #: Each seat's seed commitment as this client first saw it once the match began (none
    #: before).
    hashes: tuple[str | None, ...] = ()
    #: The seats whose seed the table has said the host has (it keeps them all match long).
    seeds_in: set[int] = field(default_factory=set)
    #: Whether this client's seed went on this connection.
    sent: bool = False
    #: Whether the host's deals must hold this seat's seed: the send time of the first ping
    #: after the seed (or whether the next ping is that one), whether the host answered it
    #: while it still waited for seeds; and when the table began to wait for seeds (what
    #: this client can prove of it) and at most how long it waited before the first deal.
    ping: float | None = None
    ping_next: bool = False
    delivered: bool = False
    seeding_from: float | None = None
    waited: float | None = None
    #: The connection the seed went on, and the one the first deal was shown on.
    on: int | None = None
    dealt_on: int | None = None

    def welcomed(self) -> None:
        """A new connection: its seed is still to send."""
        self.sent = False
        self.seeding_from = None  # (seeding shown now began before this connection)

    def hello(self) -> None:
        """A hello sent: the pings after the seed are to come on this connection."""
        self.ping, self.ping_next = None, False

    def sending(self, connection: int, at: float | None) -> None:
        """The seed sent on ``connection`` (``at``: when, if timed): the next ping follows
        it."""
        self.on = connection
        if at is not None:
            self.ping_next = True

    def pinged(self, at: float) -> None:
        """A ping timed at ``at``: the one after the seed, when it is the first since."""
        if self.ping_next:
            self.ping, self.ping_next = at, False

    def answered(self, ping: float, table: TableInfo | None) -> None:
        """The host answered the ping sent at ``ping``: it had read the seed before it,
        when that is the ping after the seed and the table still waits for seeds."""
        if self.ping is not None and ping == self.ping and table is not None \
                and table.state == "seeding":
            self.delivered = True

    def seeding(self, before: str | None, after: str, now: float | None,
                alive: float | None, connection: int) -> None:
        """Time the table's wait for seeds, from what this connection showed of it: the
        table's state went from ``before`` to ``after`` (``now``); ``alive``: the send time
        of the last message the host had answered on this connection."""
        if before == "seeding" and after == "playing" and self.dealt_on is None:
            self.dealt_on = connection
        if now is None or alive is None:
            return
        if after == "seeding" and before != "seeding":
            self.seeding_from = alive
        elif before == "seeding" and after == "playing" and self.seeding_from is not None \
                and self.waited is None:
            self.waited = now - self.seeding_from

    def committed(self, table: TableInfo) -> str | None:
        """Keep the seeds the table says the host has and the seats' commitments, as
        ``table`` shows them once the match began; why they break every deal (a seed that
        left the deals, a commitment that changed), the first found, or None."""
        if table.state == "lobby":
            return None
        wrong: str | None = None
        for info in table.seats:
            if info.seed_in:
                self.seeds_in.add(info.seat)
            elif info.seat in self.seeds_in and wrong is None:
                wrong = f"seat {info.seat + 1}'s seed left the deals after it went in"
        hashes = tuple(seat.seed_hash for seat in table.seats)
        if not self.hashes:
            self.hashes = hashes
        elif hashes != self.hashes and wrong is None:
            seat = next((i for i, (a, b) in enumerate(zip(hashes, self.hashes,
                                                          strict=False)) if a != b), 0)
            wrong = f"the seed seat {seat + 1} committed to changed after the match began"
        return wrong

    def due(self, table: TableInfo | None, seat: int | None,
            contribution: bytes | None) -> Seed | None:
        """The seed to send the host now (once per connection): when the table waits for
        the seats' seeds and ``seat`` committed to ``contribution``."""
        if self.sent or table is None or seat is None or table.state != "seeding" \
                or not contribution or not 0 <= seat < len(table.seats) \
                or table.seats[seat].seed_hash != seed_hash(contribution):
            return None
        self.sent = True
        return Seed(contribution.hex())

    def commitments(self) -> tuple[bytes | None, ...]:
        """The seats' seed commitments, as bytes (a ValueError: one does not read)."""
        return tuple(None if h is None else bytes.fromhex(h) for h in self.hashes)

    def left_out(self) -> str | None:
        """Why a deal made without this client's seed is the host's doing, or None
        (net/timing.py)."""
        return seed_problem(self.delivered, self.waited,
                            self.on is not None and self.on == self.dealt_on)
