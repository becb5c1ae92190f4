"""What the table sends to whom: the outbox the host empties, the ``table`` message, each
connection's ``state`` (its own view and the events it may see, once per batch of changes),
snapshots with the history in chunks, welcomes, reveals and goodbyes.

Every seat's view and events come from ``game.view`` and ``game.log``, which strip what the
seat may not see; nothing here builds a view of its own.
"""

from __future__ import annotations

from ...rules import Event, View
from .. import errors
from ..messages import (
    PROTOCOL_VERSION,
    Bye,
    Error,
    History,
    Message,
    Note,
    Reveal,
    SeatInfo,
    State,
    TableInfo,
    Welcome,
)
from .base import Conn, Seat, TableParts

#: The most settled claims or events one message carries (keeps every frame small).
CHUNK = 256
#: The most actions one ``reveal`` carries.
REVEAL_CHUNK = 256


class Sending(TableParts):
    """The table's outbox, and what goes in it for each connection."""

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

    def refuse(self, conn: int, error: errors.WireError) -> None:
        """Answer with ``error``; close the connection after it when the error is fatal."""
        if error.fatal:
            self._send(conn, Bye(error.code, error.message[:200]))
            self.closing.append(conn)
        else:
            self._send(conn, Error(error.code, error.message[:200]))

    def finish(self, code: str = "match_over", message: str = "the match is over") -> None:
        """Say goodbye to every connection and close them all, after the last ``state``."""
        self._changed = True  # whatever happened last is sent before the goodbye
        self.publish()
        for conn in list(self.conns):
            self._send(conn, Bye(code, message))
            self.closing.append(conn)

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
                    None if seat.seed_hash is None else seat.seed_hash.hex(),
                    bool(seat.contribution),
                    seat.program,
                    seat.open,
                    seat.strategy,
                    seat.muted,
                    seat.key if seat.strategy is None else None,
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
            watchers=sum(c.joined and c.seat is None for c in self.conns.values()),
            autostart=config.autostart,
        )

    def _send(self, conn: int, message: Message) -> None:
        self.outbox.append((conn, message))

    def _broadcast_table(self, but: int | None = None) -> None:
        self._journal_seats()
        info = self.info()
        for conn in self.conns.values():
            if conn.joined and conn.id != but:
                self._send(conn.id, info)

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
            else:  # (and one that lost the last game before its end checks what it saw)
                for reveal in self._previous:
                    self._send(client.id, reveal)
        self._resend_talk(client.id)

    def publish(self) -> None:
        """Put in the outbox what changed in the game for every connection, once.

        The host calls this after it has handled everything that arrived together, so that
        several actions in a row reach each client as one ``state``.
        """
        if self._changed:
            self._changed = False
            self._broadcast_states()
        if self._talk_due:
            self._relay_talk()
        if self._reveal_due:
            self._reveal_due = False
            for conn in self.conns.values():
                if conn.joined:
                    self._reveal(conn.id)

    def _reveal(self, conn: int) -> None:
        """Send ``conn`` the game's reveal."""
        for reveal in self._reveals():
            self._send(conn, reveal)

    def _reveals(self) -> tuple[Reveal, ...]:
        """The game's reveal, in parts when it is long."""
        game = self.game
        assert game is not None
        played = tuple(self.played)
        parts, start = [], 0
        while True:
            part = played[start:start + REVEAL_CHUNK]
            complete = start + len(part) == len(played)
            parts.append(Reveal(
                self.match.games, self.secret.hex(),
                tuple(seed.hex() for seed in self.contributions), game.opener, start, part,
                complete))
            if complete:
                return tuple(parts)
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
            conn.game_number, conn.events_sent, conn.record_sent = self.match.games, 0, 0
        view = game.view(conn.seat)
        events = game.log(conn.seat, conn.events_sent)
        if not events and not notes:
            return
        if len(events) > CHUNK or len(view.record) - conn.record_sent > CHUNK:
            self._snapshot(conn, notes)  # too much at once: start it afresh
            return
        self._send_state(conn, view, events, notes)

    def _snapshot(self, conn: Conn, notes: tuple[Note, ...] = ()) -> None:
        """Send ``conn`` the whole game as it may see it, history first when it is long."""
        game = self.game
        assert game is not None
        conn.game_number, conn.events_sent, conn.record_sent = self.match.games, 0, 0
        view = game.view(conn.seat)
        while len(view.record) - conn.record_sent > CHUNK:
            start = conn.record_sent
            chunk: tuple[Event, ...] = view.record[start : start + CHUNK]
            self._send(conn.id, History(self.match.games, start, chunk))
            conn.record_sent += len(chunk)
        conn.events_sent = game.event_count  # a snapshot replaces the events before it
        self._send_state(conn, view, (), notes)

    def _send_state(self, conn: Conn, view: View, events: tuple[Event, ...],
                    notes: tuple[Note, ...]) -> None:
        game = self.game
        assert game is not None
        start, total = conn.record_sent, len(view.record)
        claims = view.record[start:]
        mine = self.played_for.get(conn.seat, ()) if conn.seat is not None else ()
        self._send(conn.id, State(
            self.match.games, start, _with_claims(view, claims), events, notes,
            conn.events_sent, tuple(sorted(mine)[-PLAYED_FOR_MOST:]),
        ))
        conn.events_sent = game.event_count
        conn.record_sent = total


#: The most claims a ``state`` says were played for its seat (the latest: ``Many(2048)``).
PLAYED_FOR_MOST = 2048


def _with_claims(view: View, claims: tuple[Event, ...]) -> View:
    setattr(view, "record", claims)  # noqa: B010  (views are fresh copies for their reader)
    return view
