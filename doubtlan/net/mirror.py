"""What one seat knows of the table: :class:`Mirror` turns the host's messages into the
seat's current view, checks each game's deal when its reveal comes (docs/fairness.md), and
says when to send the seat's seed. No I/O: the client (net/client.py), the tests, the bot
client and the app share it. Its parts: the seats' keys (net/seatkeys.py) and seeds
(net/seatseeds.py), the times of the host's answers (net/timing.py) and the check of a game
once its reveal is in (net/dealcheck.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..rules import Event, RulesError, View, game_named
from ..rules.fairness import Seen, Verdict, unchecked
from ..rules.story import Story, tell
from .dealcheck import STORIES_KEPT, Case, Kept, RevealParts, check_game, found_after
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
from .seatseeds import SeatSeeds, seed_hash
from .signing import SeatKey
from .timing import Shown, Timings

#: The most lines of table talk kept (the host sends its latest 100 again on a welcome).
TALK_MOST = 500


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
    revealed: dict[int, Kept] = field(default_factory=dict)
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
    _reveal_parts: RevealParts = field(default_factory=RevealParts)
    #: To judge the host's clocks (net/timing.py): this client's hello and pings, what the
    #: host answered, and the game's states as shown, with their times.
    _times: Timings = field(default_factory=Timings)
    #: The seats' seeds as this client saw them, and its own seed's way to the host.
    _seeds: SeatSeeds = field(default_factory=SeatSeeds)
    #: What this client saw of games it lost before their end, until their reveals come.
    _pending: dict[int, tuple[Seen, tuple[Shown, ...]]] = field(default_factory=dict)
    #: This client took, after the match began, a seat another player had (the host gave it
    #: away): the seed in its deals is that player's, not this client's.
    _theirs: bool = False
    #: The host's commitment as the table's advert gave it, before this client joined.
    advertised: str | None = None
    #: What this client saw go wrong before a deal, which fails every check: a commitment
    #: other than the advert's, a seat's seed commitment that changed.
    _broken: str | None = None

    def receive(self, message: Message, now: float | None = None) -> None:
        """Take in ``message``; ``now``, when it came (a monotonic clock, in seconds), to
        check the host's clocks for this seat."""
        if isinstance(message, Welcome):
            self._welcome(message)
        elif isinstance(message, TableInfo):
            before = self.table.state if self.table is not None else None
            self._seeds.seeding(before, message.state, now, self._times.alive,
                                self._times.connection)
            self.table = message
            self._committed(message)
            self._note_keys(message)
        elif isinstance(message, History):
            self._claims_from(message.game_number, message.record_from, message.record)
        elif isinstance(message, State):
            self._state(message, now)
        elif isinstance(message, Pong):
            if (answered := self._times.pong()) is not None:
                self._seeds.answered(answered, self.table)
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

    def _welcome(self, message: Welcome) -> None:
        """The host took this connection in: its seat, and the table as it is now."""
        returning = self.token is not None  # (its hello gave the seat's token)
        self.seat, self.token, self.name = message.seat, message.token, message.name
        self.table = message.table
        self.bye = None
        self._seeds.welcomed()
        self.talk = []  # (the host sends what it kept again)
        # (a game under way, or over: the state that follows is a snapshot of it)
        self._times.welcomed(message.table.state in ("playing", "between", "over"))
        theirs = _seed_of_another(message.table, message.seat, self.seed_hash())
        if theirs and returning and self._broken is None:
            # A seat taken back with its token and seed is this client's own: a host that
            # shows another seed for it would deal with another.
            self._broken = "the table shows another seed for your seat than yours"
        self._theirs = theirs and not returning
        self._committed(message.table)
        self._note_keys(message.table)

    def _state(self, message: State, now: float | None) -> None:
        """The game as the seat sees it now: its view (with every claim so far), the events
        and notes that came with it, kept (and timed, with ``now``)."""
        self._claims_from(message.game_number, message.record_from, message.view.record)
        view = message.view  # decoded just now for this mirror: it may be completed
        if len(self._claims_copy) != len(self._claims):
            self._claims_copy = tuple(self._claims)
        setattr(view, "record", self._claims_copy)  # noqa: B010  (each game's view has it)
        self.view = view
        self.events, self.notes = message.events, message.notes
        self.played_for = frozenset(message.played_for)
        if now is not None:
            self._times.showed(self.seat, self.table, view.version,
                               message.events_from + len(message.events), now)
        if message.events_from != self._events_from + len(self._events):
            self._events_from, self._events = message.events_from, []  # a snapshot
        elif message.events_from == 0 and not self._events:
            self._from_start = True  # this client has the game from its deal on
        self._events.extend(message.events)

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
            self._seeds.sending(self._times.connection, at)
        elif isinstance(message, Hello) and at is not None:
            self._times.hello(at)
            self._seeds.hello()
        elif isinstance(message, Ping) and at is not None and self._times.ping(at):
            self._seeds.pinged(at)

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
            self._pending[current] = (self._seen(), tuple(self._times.shown))
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
        if (wrong := self._seeds.committed(table)) is not None and self._broken is None:
            self._broken = wrong

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
        found_after(self.verdicts, self._forged, max(1, said.game), wrong)
        return False

    def seed_hash(self) -> str | None:
        """SHA-256 of this client's seed, as its hello gives it (None: it has none)."""
        return seed_hash(self.contribution)

    def seed_due(self) -> Seed | None:
        """The seed to send the host now (once per connection): when the table waits for
        the seats' seeds and this seat committed to one."""
        return self._seeds.due(self.table, self.seat, self.contribution)

    def _reveal(self, part: Reveal) -> None:
        """Keep a part of the host's reveal; check the game once it is all here."""
        parts = self._reveal_parts.add(part)
        if parts is None:
            return
        # What this client was shown, as it is now (or was, when it lost the game before its
        # end): the check may come later.
        if part.game_number == self.game_number:
            seen, shown = self._seen(), tuple(self._times.shown)
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
        """Check a game from its reveal's parts (net/dealcheck.py), against what this client
        was shown of it and what it holds now."""
        return check_game(Case(parts, seen, shown, table, self.commitment, self.seeded,
                               self._broken, self._seeds, self.keys, self._forged,
                               self.revealed))

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
                self._pending[old] = (self._seen(to_end=False), tuple(self._times.shown))
                while len(self._pending) > 2:
                    self._never_revealed_one()
            self.game_number, self._claims, self._claims_copy = game, [], ()
            self._events, self._sent, self._reveal_parts.parts = [], [], []
            self._events_from, self._from_start = 0, False
            self._times.shown = []
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
