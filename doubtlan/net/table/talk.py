"""Table talk (docs/talk.md): what seated players say (``say``), checked, held to a rate,
relayed to every connection as ``said`` and journaled; the host's mutes; and the seated
bots' remarks on the claims the whole table saw doubted.

Talk never touches the game: a line is checked and relayed in one call, a refused one costs
an ``error``, and neither waits on anything the game does.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from ...bots.talk import remark
from ...rules import Game
from ...rules.seeds import derive, seed_bytes
from .. import errors, signing
from ..messages import Said, Say
from .base import Conn, TableParts
from .config import Refused

#: A seat may say ``TALK_BURST`` lines at once, then one every ``TALK_EVERY`` seconds.
TALK_BURST, TALK_EVERY = 3.0, 2.0
#: The lines the table keeps, sent again to whoever joins or comes back.
TALK_KEPT = 100
#: Claims settled after a bot's remark before any bot makes another (counted in claims, not
#: seconds, so that a seeded table's bots say the same things every time).
BOT_QUIET = 3


class Talking(TableParts):
    """The table's talk."""

    def _start_talk(self) -> None:
        """Set up the talk's state (``Table.__init__``)."""
        self.talk, self._talk_due = [], []
        seed = self.config.seed
        self._chatter = random.Random(None if seed is None else derive(seed_bytes(seed),
                                                                       "talk"))
        self._told = (0, 0, 0)
        self._bot_said = (0, -BOT_QUIET)

    def _say(self, client: Conn, say: Say, now: float) -> None:
        """A seated player's line: checked, held to the seat's rate, relayed."""
        if client.seat is None:
            raise errors.Spectating("spectators listen: only a seated player talks")
        seat = self.seats[client.seat]
        if seat.muted:
            raise errors.Muted()
        line = " ".join(say.line.split())
        if not line:
            raise errors.BadMessage("say.line: nothing to say")
        tokens, at = seat.talk
        tokens = min(TALK_BURST, tokens + (now - at) / TALK_EVERY)
        if tokens < 1:
            wait = (1 - tokens) * TALK_EVERY
            seat.talk = (tokens, now)
            raise errors.TalkTooFast(f"you are talking too fast: wait {wait:.1f} s")
        seat.talk = (tokens - 1, now)
        if line != say.line:  # (relayed as signed: the client sends it as said)
            raise errors.BadMessage("say.line: spaces at its ends, or two together")
        if say.number <= seat.said:
            raise errors.BadMessage("say.number: not greater than your last line's")
        if not signing.signed(seat.key, signing.say_text(self.signed_for,
                                                         say.number, line), say.sig):
            raise errors.BadSignature("say: not signed with your seat's key")
        seat.said = say.number
        self._said(client.seat, line, bot=False, signed=(say.number, say.sig))

    def _said(self, number: int, line: str, *, bot: bool,
              signed: tuple[int, str | None] = (0, None)) -> None:
        """Relay ``line`` from seat ``number`` to everyone, and keep it (``signed``: its
        number and its player's signature)."""
        seat = self.seats[number]
        game = self.game
        claims = 0 if game is None else len(game.state.records)
        said = Said(number, seat.name or f"seat {number + 1}", line, bot, self.match.games,
                    claims, True, *signed)
        self.talk.append(said)
        del self.talk[:-TALK_KEPT]
        if self.journal is not None:
            record = {"t": "say", "seat": number, "name": said.name, "line": line,
                      "bot": bot, "game": said.game, "claims": claims}
            if not bot:
                record["number"], record["sig"] = signed
            self.journal.append(record)
        self._talk_due.append(said)  # (after the state that shows what it answers)

    def _relay_talk(self) -> None:
        """Send every connection the lines said since the last time (``publish``)."""
        due, self._talk_due = self._talk_due, []
        for said in due:
            for conn in self.conns.values():
                if conn.joined:
                    self._send(conn.id, said)

    def _resend_talk(self, conn: int) -> None:
        """The talk kept, to a connection that has just joined (its history, not news):
        those lines not yet relayed reach it with everyone else's, once."""
        due = {id(said) for said in self._talk_due}
        for said in self.talk:
            if id(said) not in due:
                self._send(conn, dataclasses.replace(said, fresh=False))

    def _talk_resumed(self) -> None:
        """A table resumed from its journal: its bots have looked at every claim settled so
        far, and the quiet after a remark counts from the last one journaled."""
        game, number = self.game, self.match.games
        self._told = (0, 0, 0) if game is None else (
            number, len(game.state.records), game.event_count)
        last = next((s for s in reversed(self.talk) if s.bot and s.game == number), None)
        if last is not None:
            self._bot_said = (number, last.claims)

    def mute(self, number: int, on: bool = True) -> None:
        """The host mutes seat ``number`` (or, with ``on`` false, hears it again)."""
        seat = self.seats[number] if 0 <= number < len(self.seats) else None
        if seat is None or not seat.taken:
            raise Refused("nobody sits there")
        if seat.muted != on:
            seat.muted = on
            self._broadcast_table()  # (and journals it, with the seats)

    def _remarks(self, game: Game[Any, Any]) -> None:
        """The seated bots' remarks on the claims settled since the last look: at most one
        a claim, and none within :data:`BOT_QUIET` claims of the last."""
        number, claims, start = self._told
        if number != self.match.games:
            number, claims, start = self.match.games, 0, 0
        settled = len(game.state.records)
        if settled == claims:
            return
        bots = [seat.number for seat in self.seats if seat.strategy is not None
                and not seat.muted] if self.config.bot_talk else []
        if not bots:
            self._told = (number, settled, game.event_count)
            return
        told = self.kind.tell(game.log(None, start))
        if told:
            start += told[-1].end + 1
        self._told = (number, claims + len(told), start)
        for index, claim in enumerate(told, claims + 1):
            said = remark(claim, bots, self._chatter)
            last_game, last = self._bot_said
            if said is not None and (last_game != number or index - last >= BOT_QUIET):
                self._bot_said = (number, index)
                self._said(*said, bot=True)
