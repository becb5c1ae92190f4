"""What one seat knows of the table: :class:`Mirror` turns the host's messages into the
seat's current view, checks each game's deal when its reveal comes (docs/fairness.md), and
says when to send the seat's seed. No I/O: the client (net/client.py), the tests, the bot
client and the app share it.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..rules import Event, RulesError, View, game_named
from ..rules.fairness import Disclosure, Played, Seen, Verdict, unchecked, verify
from ..rules.story import Story, tell
from .messages import (
    Act,
    Bye,
    Error,
    Hello,
    History,
    Message,
    Note,
    Ping,
    Pong,
    Reveal,
    Said,
    Seed,
    State,
    TableInfo,
    Welcome,
)
from .seatkeys import SeatKeys
from .signing import SeatKey
from .timing import UNANSWERED, Shown, judge, seed_problem

#: Pings a connection may leave unanswered and still time the host's clocks (past that the
#: pongs cannot be matched to their pings for sure: the rest of the connection is not timed).
PINGS_OPEN = 64
#: The most states of one game whose times are kept (the game's clocks judged as far).
SHOWN_MOST = 50_000
#: The most lines of table talk kept (the host sends its latest 100 again on a welcome).
TALK_MOST = 500
#: The latest verified games whose reveals are kept for their stories.
STORIES_KEPT = 3


@dataclass
class Mirror:
    """What one connection knows of the table, rebuilt from the host's messages."""

    seat: int | None = None
    token: str | None = None
    name: str | None = None
    table: TableInfo | None = None
    game_number: int = 0
    #: The seat's view of the current game, with every settled claim.
    view: View | None = None
    #: The events and notes of the last ``state`` received.
    events: tuple[object, ...] = ()
    notes: tuple[Note, ...] = ()
    #: The claims of this game in which the host played for this seat (``State.played_for``).
    played_for: frozenset[int] = frozenset()
    #: The table's talk: every line heard since the last welcome (the host sends the talk
    #: it keeps again with each welcome), the latest :data:`TALK_MOST`.
    talk: list[Said] = field(default_factory=list)
    #: The last refusal, and why the host closed the connection (None while open).
    error: Error | None = None
    bye: Bye | None = None
    #: The seed this client adds to the match's deals (sent in its hello).
    contribution: bytes | None = None
    #: The seats' keys as shown, and this client's own (net/seatkeys.py), and what the host
    #: relayed in a player's name that the player did not sign, by game (each a problem of
    #: that game's check).
    keys: SeatKeys = field(default_factory=SeatKeys)
    _forged: dict[int, list[str]] = field(default_factory=dict)
    #: Each game's check against the host's reveal (docs/fairness.md), by game number.
    verdicts: dict[int, Verdict] = field(default_factory=dict)
    #: The reveals of the latest games whose deal verified, with the table's game, players
    #: and rules then: what their stories are told from (:meth:`story`).
    revealed: dict[int, tuple[str, int, Any, Disclosure]] = field(default_factory=dict)
    #: The host's commitment (and whether it deals from a fixed seed) as first seen: they
    #: may not change while this client plays.
    commitment: str | None = None
    seeded: bool | None = None
    #: Check each game as soon as its reveal is in; if False, :meth:`check` does it when
    #: asked (the app, which keeps the work out of the frame that shows the results).
    check_at_once: bool = True
    _unchecked: dict[int, Callable[[], Verdict]] = field(default_factory=dict)
    _from_start: bool = False
    _claims: list[Event] = field(default_factory=list)
    _claims_copy: tuple[Event, ...] = ()
    #: For the current game: the events shown since the last fresh picture of it, the
    #: actions sent, and the reveal's parts received.
    _events: list[Event] = field(default_factory=list)
    _events_from: int = 0
    _sent: list[str] = field(default_factory=list)
    _revealed: list[Reveal] = field(default_factory=list)
    #: To judge the host's clocks (net/timing.py): the connections welcomed so far, when
    #: this client said hello and sent the pings not yet answered, the send time of the
    #: last message the host has answered on this connection, and the game's states as
    #: shown, with their times.
    _connection: int = 0
    _hello_at: float | None = None
    _pings: deque[float] = field(default_factory=deque)
    _alive: float | None = None
    #: Pongs can no longer be matched to pings on this connection (until the next hello).
    _untimed: bool = False
    _shown: list[Shown] = field(default_factory=list)
    #: Until the first ``state`` after a ``welcome`` to a game under way (a snapshot).
    _fresh: bool = False
    #: Whether the host's deals must hold this seat's seed: the send time of the first ping
    #: after the seed (or whether the next ping is that one), whether the host answered it
    #: while it still waited for seeds; and when the table began to wait for seeds (what
    #: this client can prove of it) and at most how long it waited before the first deal.
    _seed_ping: float | None = None
    _seed_next: bool = False
    _seed_delivered: bool = False
    _seeding_from: float | None = None
    _seeding_waited: float | None = None
    #: The connection the seed went on, and the one the first deal was shown on.
    _seed_on: int | None = None
    _dealt_on: int | None = None
    #: What this client saw of games it lost before their end, until their reveals come.
    _pending: dict[int, tuple[Seen, tuple[Shown, ...]]] = field(default_factory=dict)
    #: The game whose reveal's parts are being received.
    _revealing: int = 0
    #: Each seat's seed commitment as this client first saw it once the match began (none
    #: before), whether one changed after, and whether its seed went on this connection.
    _seed_hashes: tuple[str | None, ...] = ()
    #: This client took, after the match began, a seat another player had (the host gave it
    #: away): the seed in its deals is that player's, not this client's.
    _theirs: bool = False
    _seed_sent: bool = False
    #: The seats whose seed the table has said the host has (it keeps them all match long).
    _seeds_in: set[int] = field(default_factory=set)
    #: The host's commitment as the table's advert gave it, before this client joined.
    advertised: str | None = None
    #: What this client saw go wrong before a deal, which fails every check: a commitment
    #: other than the advert's, a seat's seed commitment that changed.
    _broken: str | None = None

    def receive(self, message: Message, now: float | None = None) -> None:
        """Take in ``message``; ``now``, when it came (a monotonic clock, in seconds), to
        check the host's clocks for this seat."""
        if isinstance(message, Welcome):
            returning = self.token is not None  # (its hello gave the seat's token)
            self.seat, self.token, self.name = message.seat, message.token, message.name
            self.table = message.table
            self.bye, self._seed_sent = None, False
            self.talk = []  # (the host sends what it kept again)
            self._connection += 1
            # (a game under way, or over: the state that follows is a snapshot of it)
            self._fresh = message.table.state in ("playing", "between", "over")
            self._seeding_from = None  # (seeding shown now began before this connection)
            self._alive = self._hello_at  # (it answers the hello)
            theirs = _seed_of_another(message.table, message.seat, self.seed_hash())
            if theirs and returning and self._broken is None:
                # A seat taken back with its token and seed is this client's own: a host that
                # shows another seed for it would deal with another.
                self._broken = "the table shows another seed for your seat than yours"
            self._theirs = theirs and not returning
            self._committed(message.table)
            self._note_keys(message.table)
        elif isinstance(message, TableInfo):
            self._seeding(message, now)
            self.table = message
            self._committed(message)
            self._note_keys(message)
        elif isinstance(message, History):
            self._claims_from(message.game_number, message.claims_from, message.claims)
        elif isinstance(message, State):
            self._claims_from(message.game_number, message.claims_from, message.view.claims)
            view = message.view  # decoded just now for this mirror: it may be completed
            if len(self._claims_copy) != len(self._claims):
                self._claims_copy = tuple(self._claims)
            setattr(view, "claims", self._claims_copy)  # noqa: B010  (each game's view has it)
            self.view = view
            self.events, self.notes = message.events, message.notes
            self.played_for = frozenset(message.played_for)
            if now is not None:
                self._time(message, view, now)
            if message.events_from != self._events_from + len(self._events):
                self._events_from, self._events = message.events_from, []  # a snapshot
            elif message.events_from == 0 and not self._events:
                self._from_start = True  # this client has the game from its deal on
            self._events.extend(message.events)
        elif isinstance(message, Pong):
            if self._pings and not self._untimed:
                self._alive = self._pings.popleft()
                if self._seed_ping is not None and self._alive == self._seed_ping \
                        and self.table is not None \
                        and self.table.state == "seeding":
                    self._seed_delivered = True
        elif isinstance(message, Reveal):
            self._reveal(message)
        elif isinstance(message, Said):
            if self._heard_said(message):
                self.talk.append(message)
                del self.talk[:-TALK_MOST]
        elif isinstance(message, Error):
            self.error = message
        elif isinstance(message, Bye):
            self.bye = message
            if message.code == "match_over":
                self._never_revealed()

    @property
    def key(self) -> SeatKey | None:
        """The key this client signs its seat's actions and lines with."""
        return self.keys.key

    @key.setter
    def key(self, key: SeatKey | None) -> None:
        self.keys.key = key

    def signed(self, message: Message, clock: float | None = None) -> Message:
        """``message`` as this client sends it, signed with the seat's key (``clock``: the
        wall clock, in seconds, numbers a line)."""
        return self.keys.sign(message, self.commitment, self.game_number, clock)

    def sending(self, message: Message, at: float | None = None) -> None:
        """This client is about to send ``message`` (``at``: now, on the clock ``receive``
        is given): its actions are checked against the reveal, its hello and pings time the
        host's clocks."""
        if isinstance(message, Act):
            self._sent.append(message.action)
        elif isinstance(message, Seed):
            self._seed_on = self._connection
        if isinstance(message, Act) or at is None:
            return
        if isinstance(message, Hello):
            self._hello_at, self._alive, self._seed_ping, self._seed_next = at, None, None, False
            self._pings.clear()
            self._untimed = False
        elif isinstance(message, Seed):
            self._seed_next = True
        elif isinstance(message, Ping) and self._alive is not None:
            if len(self._pings) < PINGS_OPEN:
                self._pings.append(at)
                if self._seed_next:
                    self._seed_ping, self._seed_next = at, False
            else:  # too many unanswered to match pongs to pings: nothing more is timed
                self._untimed = True

    def _seeding(self, table: TableInfo, now: float | None) -> None:
        """Time the table's wait for seeds, from what this connection showed of it."""
        before = self.table.state if self.table is not None else None
        if before == "seeding" and table.state == "playing" and self._dealt_on is None:
            self._dealt_on = self._connection
        if now is None or self._alive is None:
            return
        if table.state == "seeding" and before != "seeding":
            self._seeding_from = self._alive
        elif before == "seeding" and table.state == "playing" and self._seeding_from is not None \
                and self._seeding_waited is None:
            self._seeding_waited = now - self._seeding_from

    def _time(self, message: State, view: View, now: float) -> None:
        """Keep when ``message`` came and what it showed of this seat's waits."""
        alive, fresh, self._fresh = self._alive, self._fresh, False
        if self.seat is None or alive is None or len(self._shown) >= SHOWN_MOST:
            return
        table, seat = self.table, self.seat
        unmeasured = self._untimed or bool(self._pings) and now - self._pings[0] > UNANSWERED
        away = table is not None and 0 <= seat < len(table.seats) and table.seats[seat].away
        self._shown.append(Shown(
            self._connection, fresh, view.version, message.events_from + len(message.events), now,
            alive, unmeasured, away))

    def _seen(self, to_end: bool = True) -> Seen:
        """What this client was shown of the current game, as it is now."""
        return Seen(self.seat, None if self._theirs else self.contribution,
                    tuple(self._claims), self._events_from, tuple(self._events), tuple(self._sent),
                    self.view.hand if self.view is not None and self.seat is not None
                    else None, self._from_start, to_end, self.played_for)

    def _never_revealed(self) -> None:
        """The games this client saw whose reveal never came (the match is over): not
        checked."""
        current = self.game_number
        if current and current not in self.verdicts and current not in self._unchecked \
                and (self._events or self._claims):
            self._pending[current] = (self._seen(), tuple(self._shown))
        for game in sorted(self._pending):
            self.verdicts[game] = unchecked("the host never sent this game's reveal")
        self._pending.clear()

    def _never_revealed_one(self) -> None:
        game = min(self._pending)
        del self._pending[game]
        self.verdicts[game] = unchecked("the host never sent this game's reveal")

    def _committed(self, table: TableInfo) -> None:
        if self.commitment is None:
            self.commitment = table.commitment
            if self.advertised and table.commitment != self.advertised:
                self._broken = "the host's commitment is not the one its advert gave"
        if self.seeded is None:
            self.seeded = table.seeded
        if table.state == "lobby":
            return
        for info in table.seats:
            if info.seed_in:
                self._seeds_in.add(info.seat)
            elif info.seat in self._seeds_in and self._broken is None:
                self._broken = f"seat {info.seat + 1}'s seed left the deals after it went in"
        hashes = tuple(seat.seed_hash for seat in table.seats)
        if not self._seed_hashes:
            self._seed_hashes = hashes
        elif hashes != self._seed_hashes and self._broken is None:
            seat = next((i for i, (a, b) in enumerate(zip(hashes, self._seed_hashes,
                                                          strict=False)) if a != b), 0)
            self._broken = (f"the seed seat {seat + 1} committed to changed after the match "
                            "began")

    def _note_keys(self, table: TableInfo) -> None:
        wrong = self.keys.note(table, self.seat)
        if wrong is not None and self._broken is None:
            self._broken = wrong

    def _heard_said(self, said: Said) -> bool:
        """Whether ``said`` is a line to hear (net/seatkeys.py); anything else is a problem
        of the game it was said in, and is not heard."""
        wrong = self.keys.hear(said, self.table, self.commitment)
        if wrong is None:
            return True
        game = max(1, said.game)
        verdict = self.verdicts.get(game)
        if verdict is not None:
            self.verdicts[game] = dataclasses.replace(verdict,
                                                      problems=verdict.problems + (wrong,))
        else:
            self._forged.setdefault(game, []).append(wrong)
        return False

    def seed_hash(self) -> str | None:
        """SHA-256 of this client's seed, as its hello gives it (None: it has none)."""
        if not self.contribution:
            return None
        return hashlib.sha256(self.contribution).hexdigest()

    def seed_due(self) -> Seed | None:
        """The seed to send the host now (once per connection): when the table waits for
        the seats' seeds and this seat committed to one."""
        table, seat = self.table, self.seat
        if self._seed_sent or table is None or seat is None or table.state != "seeding" \
                or not self.contribution or not 0 <= seat < len(table.seats) \
                or table.seats[seat].seed_hash != self.seed_hash():
            return None
        self._seed_sent = True
        return Seed(self.contribution.hex())

    def _reveal(self, part: Reveal) -> None:
        """Keep a part of the host's reveal; check the game once it is all here."""
        if part.game_number != self._revealing or part.actions_from != sum(
                len(p.actions) for p in self._revealed):
            self._revealed = []  # a part out of place: wait for a whole reveal
            if part.actions_from != 0:
                return
        if not self._revealed:
            self._revealing = part.game_number
        self._revealed.append(part)
        if part.complete:
            parts, self._revealed = self._revealed, []
            # What this client was shown, as it is now (or was, when it lost the game before
            # its end): the check may come later.
            if part.game_number == self.game_number:
                seen, shown = self._seen(), tuple(self._shown)
            elif part.game_number in self._pending:
                seen, shown = self._pending.pop(part.game_number)
            else:
                return  # a game this client never saw
            table = self.table
            self._unchecked[part.game_number] = lambda: self._check(parts, seen, shown, table)
            if self.check_at_once:
                self.check()

    def check(self) -> None:
        """Check every game whose reveal is in and not yet checked (into ``verdicts``)."""
        for game, check in list(self._unchecked.items()):
            del self._unchecked[game]
            try:
                self.verdicts[game] = check()
            except (RulesError, ValueError, IndexError, TypeError) as error:
                # (a host that gave this client a seat the game does not have, say)
                self.verdicts[game] = Verdict((f"the host's reveal cannot be checked: "
                                               f"{error}",))

    def _check(self, parts: list[Reveal], seen: Seen, shown: tuple[Shown, ...],
               table: TableInfo | None) -> Verdict:
        first = parts[0]
        if table is None:
            return Verdict(("the host revealed a game this client did not see",))
        if table.commitment != self.commitment or table.seeded != self.seeded:
            return Verdict(("the host changed its commitment after you joined",))
        try:
            revealed = Disclosure(
                first.game_number, bytes.fromhex(first.secret),
                tuple(bytes.fromhex(seed) for seed in first.seeds), first.opener,
                tuple(played for part in parts for played in part.actions))
            commitment = bytes.fromhex(self.commitment or "")
            options = game_named(table.game).options_type.parse(table.rules)
        except (ValueError, RulesError) as error:
            return Verdict((f"the host's reveal cannot be read: {error}",))
        bots = tuple(s.seat for s in table.seats if s.bot)
        if self._broken is not None:
            return Verdict((self._broken,))
        try:
            hashes = tuple(None if h is None else bytes.fromhex(h) for h in self._seed_hashes)
        except ValueError:
            return Verdict(("the seats' seed commitments cannot be read",))
        match, game = self.commitment or "", first.game_number

        def signed(played: Played, decision: int) -> str | None:
            return self.keys.unsigned(played, decision, match, game)

        verdict = verify(revealed, commitment=commitment, players=table.players,
                         options=options, seen=seen, seeded=bool(self.seeded), bots=bots,
                         game=table.game, seed_hashes=hashes, seeds_in=self._seeds_in,
                         signed=signed)
        forged = tuple(self._forged.pop(game, ()))
        if forged:
            verdict = dataclasses.replace(verdict, problems=forged + verdict.problems)
        if verdict.ok and seen.to_end:
            self.revealed[first.game_number] = (table.game, table.players, options, revealed)
            for old in sorted(self.revealed)[:-STORIES_KEPT]:
                del self.revealed[old]
        seat = seen.seat
        if seat is None or not verdict.marks:
            return verdict
        clocks = judge(shown, revealed.actions, seat, verdict.marks, verdict.waits,
                       table.turn_timeout, table.window)
        notes = verdict.notes
        if seen.contribution and not self.seeded and not revealed.contributions[seat]:
            left_out = seed_problem(self._seed_delivered, self._seeding_waited,
                                    self._seed_on is not None and self._seed_on == self._dealt_on)
            if left_out is not None:
                clocks.append(left_out)
                notes = tuple(n for n in notes if not n.startswith("your seed did not"))
        return Verdict(tuple(clocks) + verdict.problems, notes, verdict.checked,
                       verdict.marks)

    def story(self, game: int) -> Story | str:
        """The story of game ``game`` (rules/story.py), told only when its deal verified;
        otherwise why not, in a sentence."""
        verdict = self.verdicts.get(game)
        if verdict is None:
            return ("the deal of this game is not checked yet" if game in self._unchecked
                    or game == self.game_number else "this game's reveal has not come")
        if not verdict.checked:
            return f"its deal could not be checked: {verdict.notes[0]}"
        if not verdict.ok:
            return f"its deal did not verify: {verdict.problems[0]}"
        kept = self.revealed.get(game)
        if kept is None:
            return (f"only a game seen to its end is told, and the latest {STORIES_KEPT} of "
                    "them are kept")
        name, players, options, revealed = kept
        return tell(game_named(name), players, options, revealed)

    def _claims_from(self, game: int, start: int, claims: tuple[Event, ...]) -> None:
        if game != self.game_number:
            old = self.game_number
            if old and old not in self.verdicts and old not in self._unchecked and (
                    self._events or self._claims):
                # Its reveal may come yet.
                self._pending[old] = (self._seen(to_end=False), tuple(self._shown))
                while len(self._pending) > 2:
                    self._never_revealed_one()
            self.game_number, self._claims, self._claims_copy = game, [], ()
            self._events, self._sent, self._revealed = [], [], []
            self._events_from, self._from_start = 0, False
            self._shown = []
        if start < len(self._claims):
            del self._claims[start:]
            self._claims_copy = ()
        if len(self._claims) == start:
            self._claims.extend(claims)


def _seed_of_another(table: TableInfo, seat: int | None, mine: str | None) -> bool:
    """Whether ``seat``, as a welcome shows it, is one whose seed another player committed
    to: a seat given away once the match began (its seed stays in the deals)."""
    if seat is None or table.state in ("lobby", "seeding") or not 0 <= seat < len(table.seats):
        return False
    return table.seats[seat].seed_hash != mine
