"""The table and its journal, read back: the ``seats`` record (written whenever the seats
change, read when the table resumes) and :meth:`~Replaying.resume`, the table a journal
holds, its games played again with the journal's :class:`~doubtlan.net.journal.Replay`
(the one ``doubtlan verify`` uses) and its clocks started again.

The journal's other records are written where they happen: the ``table`` record by
``Table.__init__``, ``deal`` by the deal, ``act`` by ``Table._apply``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Self

from ...rules import Match, RulesError
from ...rules.fairness import Played
from ..journal import Journal, JournalError, Replay
from ..messages import Said
from ..protocol import CODEC
from .base import Seat, TableParts
from .config import config_from
from .standins import STAND_IN
from .talk import TALK_KEPT


class Replaying(TableParts):
    """Writes the seats to the journal, and resumes a table from its journal."""

    def _journal_seats(self) -> None:
        """Write the seats (and the rules they play by) when they have changed."""
        if self.journal is None:
            return
        config = self.config
        record = {"t": "seats", "players": config.players, "options": config.options.text,
                  "window": config.window, "turn_timeout": config.turn_timeout,
                  "seats": [[s.number, s.name, s.strategy, s.token, s.contribution, s.gone,
                             s.seed_hash, s.muted, s.key] for s in self.seats]}
        if record != self._journaled_seats:
            self._journaled_seats = record
            self.journal.append(record)

    @classmethod
    def resume(cls, path: Path, now: float, **settings: Any) -> Self:
        """The table whose journal is at ``path``, as it was when the journal was last
        written: seats and tokens, the match and its tally, the game (hands, pile, rank,
        turn, claims), with its clocks started again at ``now``. Its players are away until
        they come back with their tokens. The journal goes on at ``path``. ``settings``
        change how the table runs (``autostart``, ``next_game_delay``: the app's host and
        the headless host differ), not what was played."""
        journal, contents = Journal.open(path)  # locked: no second host resumes it
        records = contents.records
        try:
            first = records[0]
            if first["t"] != "table" or first["v"] != 1:
                raise JournalError(f"{path} does not start with a table")
            config = config_from(first["config"])
            for name, value in settings.items():
                setattr(config, name, value)
            table = cls(config, root=first["root"])
            replay = Replay(table.kind, config.players, config.options)
            for record in records[1:]:
                table._restore(replay, record)
            # The game as the journal left it.
            table.secret, table.contributions = replay.secret, replay.seeds
            table._digest = replay.digest
            journal.cut(contents.good)  # a torn last write goes, before anything new happens
        except BaseException as error:
            journal.close(closed=False)  # as it was (unless cutting it failed): nothing added
            if isinstance(error, (IndexError, KeyError, TypeError, ValueError,
                                  AttributeError, RulesError)):  # (BadMessage: a ValueError)
                raise JournalError(f"the journal {path} is damaged ({error!r}); it is left "
                                   "as it is") from None
            raise
        table.journal = journal
        journal.append({"t": "resumed"})  # (the times after it are on another clock)
        table.clock = now
        table._talk_resumed()
        table._resume_clocks(now)
        return table

    def _restore(self, replay: Replay, record: dict[str, Any]) -> None:
        """Play ``record`` again, checked against this table: a fault is a JournalError."""
        kind = record["t"]
        if kind == "seats":
            self._restore_seats(replay, record)
        elif kind == "deal":
            self._restore_deal(replay, record)
        elif kind == "act":
            self._restore_act(replay, record)
        elif kind == "say":
            self._restore_said(record)
        elif kind not in ("closed", "resumed"):  # (a table closed, and resumed after)
            raise JournalError(f"the journal has a record this doubtlan does not know: {kind!r}")

    def _restore_seats(self, replay: Replay, record: dict[str, Any]) -> None:
        """A ``seats`` record: the players, rules, clocks and seats from now on (and the
        match, before its first game)."""
        if len(record["seats"]) != record["players"]:
            raise JournalError("the journal's seats are not one for each player")
        replay.seats(record)
        config = self.config
        config.players, config.options = replay.players, replay.options
        config.window, config.turn_timeout = record["window"], record["turn_timeout"]
        said, self.seats = {seat.key: seat.said for seat in self.seats}, []
        for row in record["seats"]:
            self.seats.append(self._restored_seat(row, said))
        if self.game is None:
            self.match = Match(config.players, config.options, seed=config.seed,
                               game=self.kind)
        self._journaled_seats = record

    def _restored_seat(self, row: list[Any], said: dict[str | None, int]) -> Seat:
        """One seat of a ``seats`` record; ``said``: the number of the last line each key
        said, as the seats before it had it."""
        # (a journal from before talk has no mutes)
        number, name, strategy, token, contribution, gone, seed_hash = row[:7]
        seat = Seat(number, name, strategy, token, contribution=contribution, gone=gone,
                    seed_hash=seed_hash, muted=bool(row[7]) if len(row) > 7 else False)
        if len(row) > 8:  # (a journal from before seats signed has no keys)
            seat.key = row[8]
            seat.said = said.get(seat.key, 0) if seat.key else 0
        if strategy is not None:
            seat.bot = self._bot(strategy, number)
        elif gone:
            seat.bot = STAND_IN
        return seat

    def _restore_deal(self, replay: Replay, record: dict[str, Any]) -> None:
        """A ``deal`` record: the match's next game, dealt from this table's secret."""
        number = record["game"]
        if number != self.match.games + 1 or record["secret"] != self.chain.secret(number):
            raise JournalError(f"the journal's deal of game {number} is not this table's")
        if self.game is not None:
            self.results.append(self.game.winner)
        self.played, self.played_for = [], {}
        self.game = replay.deal(record, self.match)
        if self.game.opener != record["opener"]:
            raise JournalError(f"the journal's game {number} was opened by another seat")

    def _restore_act(self, replay: Replay, record: dict[str, Any]) -> None:
        """An ``act`` record: applied to the game, which must go as the record's digest says."""
        if self.game is None or record["game"] != self.match.games:
            raise JournalError("the journal has an action outside a game")
        seat, text, by = record["seat"], record["action"], record["by"]
        before = self.played_for_before(self.game, seat, by)
        replay.act(record)
        self.note_played_for(self.game, seat, before)
        if record["h"] != replay.digest:
            raise JournalError(f"the journal's game {record['game']} went otherwise than "
                               "it says")
        self.played.append(Played(seat, text, by, record.get("sig", "")))

    def _restore_said(self, record: dict[str, Any]) -> None:
        """A ``say`` record: the line back in the table's talk, and the seat's count of
        lines said."""
        said = CODEC.decode({"type": Said.TYPE, **{key: record[key] for key in (
            "seat", "name", "line", "bot", "game", "claims")}, "fresh": True,
            "number": record.get("number", 0), "sig": record.get("sig")}, Said)
        if not said.bot and 0 <= said.seat < len(self.seats):
            self.seats[said.seat].said = max(self.seats[said.seat].said, said.number)
        self.talk.append(said)
        del self.talk[:-TALK_KEPT]

    def _resume_clocks(self, now: float) -> None:
        game = self.game
        for seat in self.seats:
            if seat.strategy is None and seat.taken and not seat.gone:
                seat.conn, seat.away_since, seat.bot = None, now, None
        if game is None:  # (stopped in the lobby, or while the seats' seeds came in)
            self.state = "lobby"
            self.start_when_full(now)
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
