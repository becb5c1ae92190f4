"""The host's clocks as one seat can judge them (docs/fairness.md, step 5), from what this
client can prove: the times it sent and received, never the host's word.

A move the host played in this seat's name (the turn timer, a window's time, a stand-in) must
be explained by a wait this client was shown, of its full length. The client knows two
things for sure. The host began the wait after it had read every ping it answered before the
``state`` that first showed the wait (a pong follows every change the host made before it
read the ping), so after this client sent the last of them. And it played the move before
the ``state`` that showed the move reached this client. Any delay the network adds only
makes that span look longer, so an honest host is never accused on a bad link; a move that
no delay can explain is a problem. No I/O, no clock of its own: the mirror (net/mirror.py)
gives the times, which :class:`Timings` keeps and :func:`judge` judges.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules.fairness import Played
from .messages import TableInfo

#: Seconds allowed for two machines' clocks (their rates and resolution): nothing else.
SLACK = 0.05
#: Seconds a ping may go unanswered before what the host shows cannot be timed: an honest
#: host answers each ping as it reads it, so only a link that holds the pings (or a host
#: that holds the pongs) longer makes it so. A wait that began then, ended by the host's
#: clock for this seat, is a problem unless the table showed the seat away.
UNANSWERED = 4.0
#: Seconds a host waits for the seats' seeds before it deals without those missing (longer
#: while a seat's player is away and may come back).
SEED_WAIT = 5.0
#: Pings a connection may leave unanswered and still time the host's clocks (past that the
#: pongs cannot be matched to their pings for sure: the rest of the connection is not timed).
PINGS_OPEN = 64
#: The most states of one game whose times are kept (the game's clocks judged as far).
SHOWN_MOST = 50_000


@dataclass(frozen=True, slots=True)
class Shown:
    """One ``state`` this seat's client was shown, and when."""

    #: Which of the client's connections it came on, and whether it was the first a
    #: connection showed of a game under way (what it shows began before: not timed).
    connection: int
    fresh: bool
    #: The actions the game had applied (``view.version``), and its events so far.
    version: int
    events_to: int
    #: When it came, and the send time of the last ping the host had answered before it
    #: (or of the hello): the host's clocks had read that much of this client by then.
    at: float
    alive: float
    #: When it came, the oldest ping not yet answered had been sent more than
    #: :data:`UNANSWERED` seconds before (or too many were unanswered to tell): what it
    #: showed begin cannot be timed. ``away``: the table showed this seat away then.
    unmeasured: bool = False
    away: bool = False


@dataclass
class Timings:
    """What one client timed of the host, connection after connection: when it said hello
    and sent the pings not yet answered, what the host has answered, and each ``state`` of
    the current game as shown (:attr:`shown`, what :func:`judge` judges by)."""

    #: The connections welcomed so far.
    connection: int = 0
    #: When this client said hello, the send times of the pings not yet answered, and the
    #: send time of the last message the host has answered on this connection.
    hello_at: float | None = None
    pings: deque[float] = field(default_factory=deque)
    alive: float | None = None
    #: Pongs can no longer be matched to pings on this connection (until the next hello).
    untimed: bool = False
    #: The game's states as shown, with their times.
    shown: list[Shown] = field(default_factory=list)
    #: Until the first ``state`` after a ``welcome`` to a game under way (a snapshot).
    fresh: bool = False

    def hello(self, at: float) -> None:
        """A hello sent at ``at``: a connection's times begin again."""
        self.hello_at, self.alive = at, None
        self.pings.clear()
        self.untimed = False

    def welcomed(self, under_way: bool) -> None:
        """The host welcomed this client (it answers the hello), to a game ``under_way``
        or not."""
        self.connection += 1
        self.fresh = under_way
        self.alive = self.hello_at

    def ping(self, at: float) -> bool:
        """A ping sent at ``at``; whether it is timed (its pong can be matched to it)."""
        if self.alive is None:
            return False
        if len(self.pings) < PINGS_OPEN:
            self.pings.append(at)
            return True
        self.untimed = True  # too many unanswered to match pongs to pings: nothing more is timed
        return False

    def pong(self) -> float | None:
        """A pong: the send time of the ping it answers, or None when pongs are not timed."""
        if not self.pings or self.untimed:
            return None
        self.alive = self.pings.popleft()
        return self.alive

    def showed(self, seat: int | None, table: TableInfo | None, version: int, events_to: int,
               now: float) -> None:
        """Keep when a ``state`` came (``now``) and what it showed of ``seat``'s waits: the
        game's ``version`` and its events up to ``events_to``."""
        alive, fresh, self.fresh = self.alive, self.fresh, False
        if seat is None or alive is None or len(self.shown) >= SHOWN_MOST:
            return
        unmeasured = self.untimed or bool(self.pings) and now - self.pings[0] > UNANSWERED
        away = table is not None and 0 <= seat < len(table.seats) and table.seats[seat].away
        self.shown.append(Shown(self.connection, fresh, version, events_to, now, alive,
                                unmeasured, away))


def judge(shown: Sequence[Shown], actions: Sequence[Played], seat: int, marks: Sequence[int],
          waits: Sequence[tuple[int | None, object]], turn_timeout: float,
          window: float) -> list[str]:
    """What the host's clocks did to ``seat`` that no delay explains, each a sentence.
    ``marks[n]``, ``waits[n]``: the game's events after its first ``n`` actions, and the
    seat's turn and the window's key then (the replay's: a state's count of actions must
    match its events, and what it waited on is the rules', not what the host showed)."""
    if (miscounted := _miscounted(shown, marks)) is not None:
        return [miscounted]
    clocks = _Clocks(shown, waits, turn_timeout, window)
    problems: list[str] = []
    for number, played in enumerate(actions):
        if played.seat != seat or played.by not in ("timer", "window", "stand-in"):
            continue
        if (problem := clocks.played(number, played)) is not None:
            problems.append(problem)
    return problems


def _miscounted(shown: Sequence[Shown], marks: Sequence[int]) -> str | None:
    """Why a state's count of actions does not match the events it came with, or None."""
    for state in shown:
        if not 0 <= state.version < len(marks) or marks[state.version] != state.events_to:
            return (f"a state said {state.version} actions had been played, but the events "
                    "it came with do not match that many")
    return None


@dataclass(frozen=True, slots=True)
class _Clocks:
    """What the host's clocks are judged by for one seat: the states it was shown, what it
    waited on after each count of actions (``waits``, the replay's), and the table's times."""

    shown: Sequence[Shown]
    waits: Sequence[tuple[int | None, object]]
    turn_timeout: float
    window: float

    def played(self, number: int, played: Played) -> str | None:
        """Why the host cannot have played action ``number`` (from 0) for the seat when it
        did, by its clock or a stand-in; None when nothing is wrong, or it cannot be timed."""
        came = self._came(number)
        if came is None:
            return None
        shown = self.shown
        before = shown[came - 1] if came and shown[came - 1].connection == \
            shown[came].connection else None
        if played.by == "stand-in":
            return (f"a stand-in played {played.action!r} for you (action {number + 1}) while "
                    "you were connected")
        turn = played.by == "timer"
        key = None if before is None else self.waits[before.version][0 if turn else 1]
        if before is None or key is None:
            return _unshown(played, turn)
        begun = self._begun(came, before, turn, key)
        if begun is None:
            return None
        if shown[begun].unmeasured:
            return _unanswered(played, turn)
        return self._short(came, begun, turn)

    def _came(self, number: int) -> int | None:
        """The state that first showed action ``number`` played, when it was shown live
        (not as a connection came back): None, not timed."""
        came = next((i for i, state in enumerate(self.shown) if state.version > number), None)
        if came is None or self.shown[came].fresh:
            return None  # not shown live, or shown as a connection came back: not timed
        return came

    def _begun(self, came: int, before: Shown, turn: bool, key: object) -> int | None:
        """The state that first showed the wait (``key``, the turn's or the window's) the
        action ended, on its connection; None when that wait cannot be timed."""
        shown = self.shown
        begun = next(i for i, state in enumerate(shown[:came])
                     if state.connection == before.connection
                     and self.waits[state.version][0 if turn else 1] == key)
        if shown[begun].fresh:
            return None  # already running when this connection first showed the game
        if any(state.away for state in shown[begun:came + 1]):
            return None  # the table said the seat was away: its clocks played for an absent one
        return begun

    def _short(self, came: int, begun: int, turn: bool) -> str | None:
        """Why the wait from state ``begun`` to state ``came`` is shorter than the table's,
        at the most it can have been, or None."""
        waited = self.shown[came].at - self.shown[begun].alive
        limit = self.turn_timeout if turn else self.window
        if waited < limit - SLACK:
            return (f"the host's turn timer played for you after at most {waited:.1f} s of "
                    f"your {limit:g} s" if turn else f"the host closed a window on you after "
                    f"at most {waited:.1f} s of its {limit:g} s")
        return None


def _unshown(played: Played, turn: bool) -> str:
    """The host's clock ended a wait (a turn, or a window) it had not shown the seat."""
    if turn:
        return (f"the host's turn timer played {played.action!r} for you before it showed "
                "you your turn")
    return "the host closed a window on you that it had not shown you"


def _unanswered(played: Played, turn: bool) -> str:
    """The host's clock ended a wait it showed while it left the seat's pings unanswered."""
    if turn:
        return (f"the host's turn timer played {played.action!r} for you after a turn it "
                f"showed while it left your pings unanswered for more than {UNANSWERED:g} s")
    return ("the host closed a window on you that it showed while it left your pings "
            f"unanswered for more than {UNANSWERED:g} s")


def seed_problem(delivered: bool, waited: float | None, stayed_up: bool = False) -> str | None:
    """Why a deal made without this seat's seed is the host's doing, or None.
    ``delivered``: the host answered a ping sent after the seed while it still waited for
    seeds (so it had read the seed); ``waited``: at most how long the host can have waited
    for seeds before it dealt, as this client measured it (None: it cannot tell);
    ``stayed_up``: the seed went on a connection that stayed up until the deal (an honest
    host closes a connection whose seed has not come before it deals without it)."""
    if stayed_up:
        return ("you sent your seed on a connection that stayed up until the deal, but the "
                "deal was made without it")
    if delivered:
        return ("your seed reached the host while it waited for seeds (it answered the ping "
                "you sent after it), but the deal was made without it")
    if waited is not None and waited < SEED_WAIT - SLACK:
        return (f"the host dealt without your seed after at most {waited:.1f} s of the "
                f"{SEED_WAIT:g} s it waits for seeds")
    return None
