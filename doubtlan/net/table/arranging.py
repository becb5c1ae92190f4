"""The host's own changes to its table: bots seated and removed, the seats of players who
are away given to newcomers, the table renamed; the rules, clocks and number of seats changed
before the match starts (the players then close up round the table)."""

from __future__ import annotations

from typing import Any

from ...bots import DEFAULTS
from ...rules import Match, RulesError
from .base import Seat
from .config import LEAST_WINDOW, Refused
from .names import Naming
from .standins import STAND_IN


class Arranging(Naming):
    """What the host changes at its table besides the match: each change refused
    (:class:`Refused`) when it cannot be made now."""

    @property
    def taken(self) -> int:
        """Seats with someone in them (a seat given away to a newcomer is not)."""
        return sum(seat.taken and not seat.open for seat in self.seats)

    def rename(self, name: str) -> None:
        """Call the table ``name`` from now on (the advert took another: a table of that
        name was on the network already), so that its lobby says what its advert says."""
        self.config.name = name[:64]
        self._broadcast_table()

    def seat_bot(self, strategy: str | None = None, name: str | None = None) -> Seat:
        """Seat a bot of ``strategy`` (the game's own unless told: ``bots.DEFAULTS``) in the
        first free seat (before the match starts)."""
        strategy = strategy or DEFAULTS[self.config.game]
        seat = next((s for s in self.seats if not s.taken), None)
        if seat is None or self.state != "lobby":
            raise Refused("every seat is taken" if self.state == "lobby"
                          else "bots can be seated only before the match starts")
        seat.strategy = strategy
        seat.bot = self._bot(strategy, seat.number)
        seat.name = self._unique_name(name) if name else self._bot_name()
        self._broadcast_table()
        return seat

    def open_seats(self, keep: int | None = None) -> list[str]:
        """Give the seats whose players are away to newcomers (between games): a stand-in
        plays each at once, until someone new takes it, and the away player's token no
        longer takes it back (coming back, they are a newcomer too, and take their own seat
        if it is still free). Seat ``keep`` (the host's own player's) is never given away.
        Returns the names of those seats."""
        if self.state != "between":
            raise Refused("away seats can be given to newcomers between games")
        away = [seat for seat in self.seats if seat.taken and seat.strategy is None
                and seat.conn is None and not seat.open and seat.number != keep]
        if not away:
            raise Refused("no player is away")
        for seat in away:
            seat.token = None
            seat.bot = seat.bot or STAND_IN  # (even within the grace time: nobody comes back)
        self._broadcast_table()
        self.on_change()
        return [seat.name or "" for seat in away]

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
            if window < LEAST_WINDOW:
                raise Refused(f"the window clock is {LEAST_WINDOW:g} seconds at least, so "
                              "that a person has time to answer")
            self.config.window = window
        if turn_timeout is not None:
            self.config.turn_timeout = turn_timeout
        self._seat_round(players)

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
