"""A host that cheats, for the tests only: the real table with the hooks a hostile host would
add, so that the unmodified client (`doubtlan join --bot`, the app) can be shown to catch it.

:class:`Tampering` plays one victim's seat (the player named in ``victim``) by its clocks in
ways the rules' own timeout moves allow but the clocks do not:

- ``instant``: the timeout move in the same batch that starts the victim's turn or window,
  so its client never sees the wait begin;
- ``early``: the wait shown, then its timeout move after ``EARLY`` seconds of the table's
  turn or window time (the victim's own moves are dropped meanwhile);
- ``stand-in``: the victim's turn played by a stand-in while its client is connected;
- ``ignore-seed``: the victim's seed taken in and left out, the deal made without it when
  the wait for seeds is over (one bit of choice for the host);
- ``rush-seed``: the deal made without the victim's seed the moment it comes;
- ``held-pongs``: the victim's pings left unanswered while the seeds come in, and its seed
  then left out (as ``ignore-seed``): its client cannot show the host had it in time;
- ``ping-silence``: the victim's pings never answered, and its moves dropped (its clocks
  run out); once its pings have gone unanswered for :data:`SILENT` seconds, its turns and
  windows are ended after ``EARLY`` seconds (as ``early``), where a client that stops
  timing a silent connection cannot tell. The first deal waits for that silence, so every
  wait of the victim's in the game is one to cut, however long the game or slow the
  machine;
- ``rewrite``: the reveal swaps two cards that a bot of the host's laid in two claims that
  stood, chosen so that no seat's and no spectator's replay shows any other card or count
  (the story of who lied when is rewritten; I Doubt It);
- ``false-mark``: a claim the victim played itself marked as played for it by the host
  (``state.played_for``: the claims list stars it), as if the victim had let it go;
- ``forged-move``: the victim's turn or window answered by the host the moment it begins,
  labelled as the victim's own move (``by`` ``"player"``), as a host that takes a move it
  made for one of its own;
- ``forged-line``: a line the victim never said, relayed and journaled as the victim's.

Each attack is made ``times`` times; then the table plays honestly, so a match ends soon.
Everything else is the real host: :func:`serve` runs it on loopback.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from doubtlan.net.host import Host
from doubtlan.net.journal import Journal
from doubtlan.net.messages import Act, Message, Ping, Reveal, Seed
from doubtlan.net.table import Table, TableConfig
from doubtlan.net.table.base import Conn
from doubtlan.rules import Game, RulesError
from doubtlan.rules.fairness import Played, deal_seed

#: Seconds after which ``early`` plays the victim's turn or closes its window.
EARLY = 0.1
#: Seconds of unanswered pings after which ``ping-silence`` plays the victim's waits short.
SILENT = 6.0
CLOCK_ATTACKS = ("instant", "early", "stand-in", "ping-silence")
SEED_ATTACKS = ("ignore-seed", "rush-seed", "held-pongs")
SIGNED_ATTACKS = ("forged-move", "forged-line")
ATTACKS = CLOCK_ATTACKS + SEED_ATTACKS + SIGNED_ATTACKS + ("rewrite", "false-mark")
#: What ``forged-line`` says in the victim's name.
FORGED_LINE = "I give up, take my cards"


class Tampering(Table):
    """A table whose host forges clock moves for one seat (see the module's docstring)."""

    def __init__(self, config: TableConfig, attack: str, victim: str = "Amy",
                 times: int = 3, journal: Journal | None = None) -> None:
        super().__init__(config, journal)
        assert attack in ATTACKS
        self.attack, self.victim, self.left = attack, victim, times
        #: The forged moves made, each (game, action's number in the game, label).
        self.forged: list[tuple[int, int, str]] = []
        #: When the victim's first ping was left unanswered (``ping-silence``), and whether
        #: the victim's turn and window now running were cut short.
        self.silent_from: float | None = None
        self.turn_cut = self.window_cut = False

    def _victim_seat(self) -> int | None:
        if self.left <= 0:
            return None
        return next((s.number for s in self.seats if s.name == self.victim), None)

    def _forge(self, seat: int, action: Any, by: str) -> None:
        self.forged.append((self.match.games, len(self.played) + 1, by))
        self._apply(seat, action, by)
        self.left -= 1

    def receive(self, conn: int, message: Message, now: float) -> None:
        client = self.conns.get(conn)
        victim = client is not None and client.joined and client.seat == self._victim_seat()
        if victim and isinstance(message, Ping) and (
                self.attack == "ping-silence"
                or self.attack == "held-pongs" and self.state in ("lobby", "seeding")):
            if self.silent_from is None:
                self.silent_from = now
            return  # left unanswered
        super().receive(conn, message, now)

    def _silenced(self, now: float) -> bool:
        """``ping-silence``: the victim's pings have gone unanswered long enough."""
        return self.attack == "ping-silence" and self.silent_from is not None \
            and now - self.silent_from >= SILENT

    def _deal(self, now: float) -> None:
        if self.attack == "ping-silence" and self.state == "seeding" \
                and self._victim_seat() is not None and not self._silenced(now):
            # Held until the victim's pings have gone unanswered long enough (they come
            # every half second while it waits for the deal); tick deals then.
            self._seeding_due = (now if self.silent_from is None else self.silent_from) + SILENT
            return
        super()._deal(now)

    def _close_unseeded(self, now: float) -> None:
        if self.attack in SEED_ATTACKS and self._victim_seat() is not None:
            return  # the victim's connection stays up, its seed out of the deal
        super()._close_unseeded(now)

    def _seed(self, client: Conn, message: Seed, now: float) -> None:
        if self.attack not in SEED_ATTACKS or client.seat != self._victim_seat():
            super()._seed(client, message, now)
            return
        self.forged.append((0, 0, self.attack))
        self.left -= 1
        if self.attack == "rush-seed":
            self._deal(now)  # (the wait for seeds is not over)

    def _act(self, client: Conn, act: Act, now: float) -> None:
        if client.seat == self._victim_seat() and self.attack in ("early", "stand-in",
                                                                  "ping-silence"):
            return  # dropped: its clock is to run out
        before, seat = len(self.played), self._victim_seat()
        super()._act(client, act, now)
        if self.attack == "false-mark" and seat is not None and client.seat == seat \
                and len(self.played) > before and self.game is not None:
            self.played_for.setdefault(seat, set()).add(len(self.game.view(seat).record))
            self.forged.append((self.match.games, len(self.played), "false-mark"))
            self.left -= 1

    def _settle(self, now: float) -> None:
        super()._settle(now)
        seat = self._victim_seat()
        if self.attack == "forged-line" and seat is not None and self.state == "playing":
            self.forged.append((self.match.games, len(self.played), "forged-line"))
            self.left -= 1
            self._said(seat, FORGED_LINE, bot=False)  # (with no signature of the victim's)
            return
        if self.attack not in ("instant", "forged-move"):
            return
        for _ in range(20):  # each round, the victim's wait that just began, ended at once
            game, seat = self.game, self._victim_seat()
            if game is None or seat is None or self.state != "playing" or game.over:
                return
            if game.turn_seat() == seat and self.config.turn_timeout > 0:
                by = "timer"
            elif game.window_key() is not None and seat in game.awaiting():
                by = "window"
            else:
                return
            if self.attack == "forged-move":
                by = "player"
            moves = game.timeout_actions(seat)
            if not moves:
                return
            self._forge(seat, moves[0], by)
            super()._settle(now)

    def _set_clocks(self, game: Game[Any, Any], now: float) -> None:
        turn, window = self._turn_key, self._window_key
        super()._set_clocks(game, now)
        self.turn_cut = self.turn_cut and self._turn_key == turn
        self.window_cut = self.window_cut and self._window_key == window
        seat = self._victim_seat()
        early = self.attack == "early" or self._silenced(now)
        if not (early or self.attack == "stand-in") or seat is None:
            return
        if self._turn_key != turn and self._turn_due is not None and game.turn_seat() == seat:
            self._turn_due = now + (EARLY if early else self.config.turn_timeout)
            self.turn_cut = early
        if early and self._window_key != window \
                and self._window_due is not None and seat in game.awaiting():
            self._window_due, self.window_cut = now + EARLY, True

    def _play_for(self, game: Game[Any, Any]) -> None:
        seat = game.turn_seat()
        if seat is None or seat != self._victim_seat() or self.attack in SEED_ATTACKS \
                or self.attack == "ping-silence" and not self.turn_cut:
            super()._play_for(game)
            return
        for action in game.timeout_actions(seat):
            self._forge(seat, action, "stand-in" if self.attack == "stand-in" else "timer")

    def _reveals(self) -> tuple[Reveal, ...]:
        rewritten = self._rewritten() if self.attack == "rewrite" and self.left > 0 else None
        if rewritten is None:
            return super()._reveals()
        real, self.played = self.played, rewritten
        try:
            return super()._reveals()
        finally:
            self.played = real

    def _rewritten(self) -> list[Played] | None:
        """The game's actions with two of a bot's lays swapped, where every replay stays
        the same but for the cards' seals; None if there are none such."""
        played = self.played
        bots = {s.number for s in self.seats if s.strategy is not None}
        lays = [n for n, p in enumerate(played)
                if p.seat in bots and p.by == "bot" and p.action.startswith("lay ")]
        truth = self._replayed(played)
        for first in lays:
            for second in lays:
                if second <= first or played[first].seat != played[second].seat \
                        or played[first].action == played[second].action:
                    continue
                swapped = list(played)
                swapped[first] = replace(played[first], action=played[second].action)
                swapped[second] = replace(played[second], action=played[first].action)
                seat = played[first].seat  # (the bot's own replay is the host's to see)
                if _but(self._replayed(swapped), seat) == _but(truth, seat):
                    self.forged.append((self.match.games, first + 1, "rewrite"))
                    self.left -= 1
                    return swapped
        return None

    def _replayed(self, played: list[Played]) -> tuple[object, ...] | None:
        """Every seat's and a spectator's events from ``played``, their seals left out."""
        game = self.game
        assert game is not None
        dealt = self.kind(len(self.seats), self.config.options, opener=game.opener,
                          seed=deal_seed(self.secret, self.match.games, self.contributions))
        try:
            for p in played:
                dealt.apply(p.seat, dealt.parse_action(p.action))
        except RulesError:
            return None

        def unsealed(event: object) -> object:
            return replace(event, seal="") if hasattr(event, "seal") else event  # type: ignore[type-var]

        return tuple(tuple(unsealed(e) for e in dealt.log(seat, 0))
                     for seat in (*range(len(self.seats)), None))

    def tick(self, now: float) -> None:
        closing = self._window_due is not None and now >= self._window_due and (
            self.attack != "ping-silence" or self.window_cut)
        seat, before = self._victim_seat(), len(self.played)
        super().tick(now)
        if self.attack in ("early", "ping-silence") and closing and seat is not None and any(
                p.seat == seat and p.by == "window" for p in self.played[before:]):
            self.forged.append((self.match.games, before + 1, "window"))
            self.left -= 1


def _but(replays: tuple[object, ...] | None, seat: int) -> tuple[object, ...] | None:
    return None if replays is None else replays[:seat] + replays[seat + 1:]


async def serve(table: Table) -> Host:
    """Start ``table``'s host on 127.0.0.1 at a free port."""
    host = Host(table, "127.0.0.1", 0)
    await host.start()
    return host


async def join_bot(port: int, name: str = "Amy", *args: str,
                   deadline: float = 60.0) -> tuple[int, str, str]:
    """`doubtlan join --bot random` as its own process: its exit status, stdout, stderr."""
    import sys
    from pathlib import Path

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "doubtlan", "join", f"127.0.0.1:{port}", "--bot", "random",
        "--name", name, *args, cwd=Path(__file__).resolve().parent.parent,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(process.communicate(), deadline)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()
