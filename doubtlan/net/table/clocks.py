"""The table's clocks, as deadlines: the window clock, the turn clock, the grace time of an
absent player, the bots' delay and the wait before the next game; when the host must next
call :meth:`~Clocks.tick`, and what happens when a deadline passes.

What a clock means belongs to the rules (``window_key``, ``turn_seat``, ``timeout_actions``);
when it runs out belongs here.
"""

from __future__ import annotations

from typing import Any

from ...rules import Game
from ..messages import Note
from .base import TableParts
from .standins import STAND_IN


class Clocks(TableParts):
    """The deadlines of one table, and :meth:`tick`, which lets them run out."""

    def next_deadline(self) -> float | None:
        """When :meth:`tick` must next be called, if ever."""
        due = [self._window_due, self._turn_due, self._bot_due, self._next_game_due,
               self._seeding_due]
        due += [
            seat.away_since + self.config.grace
            for seat in self.seats
            if seat.away_since is not None and seat.bot is None and not seat.gone
        ]
        pending = [d for d in due if d is not None]
        return min(pending) if pending else None

    def _close_unseeded(self, now: float) -> None:
        """A seed that has not come on a connection that is up: the deals go on without it
        only once that connection is closed (a client finds a seed left out of a deal a
        problem when it sent it on a connection that stayed up until the deal:
        docs/fairness.md). Its player comes back as any other, to the game dealt without
        it."""
        for seat in self.seats:
            if seat.seed_hash is not None and not seat.contribution and seat.conn is not None:
                conn = seat.conn
                self.disconnect(conn, now)
                self.closing.append(conn)

    def tick(self, now: float) -> None:
        """Let the clocks run: windows close, timers run out, bots take over absent seats."""
        self.clock = now
        game = self.game
        for seat in self.seats:
            away = seat.away_since
            if away is not None and seat.bot is None and now >= away + self.config.grace:
                seat.bot = STAND_IN
        if self._seeding_ran_out(now) or self._next_game_came(now):
            return
        if game is not None and self.state == "playing":
            if self._window_due is not None and now >= self._window_due:
                self._window_due = None
                self._close_window(game)
            if self._turn_due is not None and now >= self._turn_due:
                self._turn_due = None
                self._play_for(game)
        self._settle(now)

    def _seeding_ran_out(self, now: float) -> bool:
        """The wait for the seats' seeds is over: deal without those missing (True), unless a
        seat whose player is away may still come back with its seed (then wait for it,
        True). False when the table does not wait for seeds now."""
        if self._seeding_due is None or now < self._seeding_due:
            return False
        self._seeding_due = None
        if self.state != "seeding":
            return False
        # A seat whose player is away may come back within the grace time (and send its
        # seed again); the rest of the seeds that did not come are not waited for.
        back_by = [seat.away_since + self.config.grace for seat in self.seats
                   if seat.seed_hash is not None and not seat.contribution
                   and seat.away_since is not None and seat.bot is None]
        if back_by and now < max(back_by):
            self._seeding_due = max(back_by)
            return True
        self._close_unseeded(now)
        self._deal(now)
        return True

    def _next_game_came(self, now: float) -> bool:
        """The wait before the next game is over: deal it (True, when one is due)."""
        if self._next_game_due is None or now < self._next_game_due:
            return False
        self._next_game_due = None
        if self.state != "between":
            return False
        self._deal(now)
        return True

    def _close_window(self, game: Game[Any, Any]) -> None:
        """The window clock ran out: silence from every seat the window waits for (the rules
        say what it means)."""
        self._notes.append(Note("window", None))
        key = game.window_key()
        while key is not None and game.window_key() == key and game.awaiting():
            silent = game.awaiting()[0]
            silence = game.timeout_actions(silent)
            if not silence:
                break
            for action in silence:
                self._apply(silent, action, "window")

    def _play_for(self, game: Game[Any, Any]) -> None:
        """The turn timer ran out: the host plays the turn as the rules say."""
        seat = game.turn_seat()
        if seat is None:
            return
        for action in game.timeout_actions(seat):
            self._apply(seat, action, "timer")
        self._notes.append(Note("timeout", seat))

    def _set_clocks(self, game: Game[Any, Any], now: float) -> None:
        """Start the window and turn clocks for what the game waits for now (a wait already
        running goes on)."""
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
            turn_key = (self.match.games, game.decision, turn)
            if self._turn_key != turn_key:
                self._turn_key, self._turn_due = turn_key, now + timeout
        else:
            self._turn_due = None

    def _stop_clocks(self) -> None:
        """The game is over: nothing waits for anyone."""
        self._window_due = self._turn_due = self._bot_due = None
