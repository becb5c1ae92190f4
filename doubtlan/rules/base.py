"""What every game at a doubtlan table has in common.

A game is a set of seats numbered from 0, clockwise. It changes in one public way:
:meth:`Game.apply`, an action by a seat, which is checked first and either raises an
:class:`~doubtlan.rules.errors.IllegalAction` (changing nothing) or applies the action, bumps
:attr:`Game.version` and returns the events it caused. What a seat may see is made in one
place per game: :meth:`Game.view` and :meth:`Game.log` both go through it.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .errors import BadOptions, GameOver, MalformedAction, NoSuchSeat, UnknownAction
from .kinds import Action, Event, record, word
from .seeds import Seed
from .told import Told, verdict
from .view import View

__all__ = ["Action", "Event", "Game", "Misplay", "View", "check_seat", "head", "record",
           "redactor", "word"]
from .words import Words

OptionsT = TypeVar("OptionsT")
ViewT = TypeVar("ViewT", bound=View)


class Game(abc.ABC, Generic[OptionsT, ViewT]):
    """The interface every game offers to bots, the host and the tourney."""

    #: Short name used on the command line and on the wire, such as ``"idoubtit"``.
    name: ClassVar[str]
    #: The game's name for people, such as ``"I Doubt It"``.
    title: ClassVar[str]
    #: The game in one line, for a list of games (``doubtlan host --help``).
    description: ClassVar[str]
    #: What the window clock (the host's ``--window``) gives a player: ``"seconds to doubt"``;
    #: None for a game that has none (its claims wait for nobody's answer but the next
    #: player's turn): the command line, the host's dialog and the lobby leave it out.
    window_label: ClassVar[str | None] = None
    #: What the seat that opens a game is called in a refusal.
    opener_called: ClassVar[str] = "the opener"
    #: What the game calls its things (one game, a challenge, a bluff), for the screens
    #: every game shares.
    words: ClassVar[Words] = Words()
    #: Every action kind of this game, by its text name (no two games share a kind).
    actions: ClassVar[dict[str, type[Action]]]
    _kinds: ClassVar[frozenset[type[Action]]] = frozenset()
    #: Every kind of event the game records (no two games share a kind).
    events: ClassVar[tuple[type[Event], ...]]
    #: The game's rule options (with ``parse``, ``text``, ``check_players``,
    #: ``min_players``), and its view: the two types a game is written with,
    #: ``class IDoubtIt(Game[Options, TableView])``.
    options_type: ClassVar[type[Any]]
    view_type: ClassVar[type[View]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if getattr(base, "__origin__", None) is Game:
                cls.options_type, cls.view_type = base.__args__
        if "actions" in cls.__dict__:
            cls._kinds = frozenset(cls.actions.values())

    players: int
    options: OptionsT
    opener: int

    @abc.abstractmethod
    def __init__(self, players: int, options: OptionsT | None = None, *,
                 seed: Seed | None = None, opener: int = 0) -> None:
        """Deal a game for ``players`` seats, shuffled with ``seed``, opened by ``opener``."""

    #: The whole state, secrets included (each game's own ``State``, with at least
    #: ``players``, ``options``, ``opener``, ``version``, ``turns``, ``winner``, ``events``
    #: and ``records``, the settled claims): for the table's owner and tests.
    state: Any

    @property
    def version(self) -> int:
        """How many actions have been applied: every accepted action bumps it by one."""
        return self.state.version  # type: ignore[no-any-return]

    @property
    @abc.abstractmethod
    def over(self) -> bool:
        """True once the game has a winner."""

    @property
    def winner(self) -> int | None:
        """The winning seat, once there is one."""
        return self.state.winner  # type: ignore[no-any-return]

    @property
    def event_count(self) -> int:
        """How many events the game has recorded (the length of the full :meth:`log`)."""
        return len(self.state.events)

    @property
    def turns(self) -> int:
        """How many turns have been played (how many claims were made)."""
        return self.state.turns  # type: ignore[no-any-return]

    @property
    def decision(self) -> int:
        """Counts the points at which the game asks its seats for a new decision: an action
        decided for an earlier one is stale (the host refuses it), and the turn clock starts
        again at each. By default the turns taken (:attr:`turns`); a game where a decision
        can come without a turn keeps its own count (:class:`~.turns.OneAtATime`: the
        version)."""
        return self.turns

    def apply(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Check and apply ``action`` by ``seat``; return the full events it caused.

        Raises an :class:`~doubtlan.rules.errors.IllegalAction` and changes nothing when the
        action is not allowed. The events returned are unredacted: only the table's owner
        (the host) may hold them. Seats get theirs from :meth:`log`.
        """
        self.check(seat, action)
        events = self.state.events
        start = len(events)
        self._do(seat, action)
        self.state.version += 1
        return tuple(events[start:])

    def advance(self, seat: int, action: Action, *, legal: bool = False) -> None:
        """:meth:`apply` for play in this process (the tourney), where nothing reads the
        events: they are not gathered. ``legal``: the action was taken from the ``legal``
        list of a view of this very moment (so it is not checked again). The host never
        calls this: every action from a connection goes through :meth:`apply`."""
        if not legal:
            self.check(seat, action)
        self._do(seat, action)
        self.state.version += 1

    def play_out(
        self, players: Sequence[Callable[[ViewT], Sequence[Action]]], max_turns: int
    ) -> int | None:
        """A fast path for the tourney (never the host's): play on until the game is over
        or ``max_turns`` turns were taken, asking ``players[seat](view)`` for each decision
        in the order the rules settle them, checked as :meth:`check` would; how many answers
        were played, a :class:`Misplay` for a refused one, or None for a game without one
        (then step through it with :meth:`advance`)."""
        return None

    @abc.abstractmethod
    def _do(self, seat: int, action: Action) -> None:
        """Apply an action :meth:`check` accepted (never one it refused)."""

    def check(self, seat: int, action: Action) -> None:
        """Raise the error :meth:`apply` would raise for this action, or return None.

        Every game refuses in one order: the seat, what the action is (a kind of this
        game's, well formed), the game's end, then what the game's rules say of this move
        now (:meth:`check_move`)."""
        check_seat(self.players, seat)
        if type(action) not in self._kinds:
            raise UnknownAction(f"{self.title} has no action {action!r}")
        malformed = action.malformed()
        if malformed is not None:
            raise MalformedAction(malformed)
        if self.over:
            raise GameOver()
        self.check_move(seat, action)

    @abc.abstractmethod
    def check_move(self, seat: int, action: Action) -> None:
        """Raise the error the rules give for this well-formed action of this game by
        ``seat`` now, in a game not over; or return None when it is allowed."""


    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self.check(seat, action)
        except ValueError:
            return False
        return True

    @abc.abstractmethod
    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now (identical copies of a card count once).

        Raises :class:`~doubtlan.rules.errors.NoSuchSeat` for a seat not at the table."""

    @abc.abstractmethod
    def call_order(self, seats: Iterable[int]) -> tuple[int, ...]:
        """Order actions that reached the table together, as the rules settle ties."""

    @abc.abstractmethod
    def awaiting(self) -> tuple[int, ...]:
        """The seats the game is waiting for: it cannot go on until one of them acts."""

    @abc.abstractmethod
    def may_act(self) -> tuple[int, ...]:
        """Every seat with a legal action now: :meth:`awaiting` plus optional callers."""

    def ending(self) -> str | None:
        """How the game ended, in a word its rule book uses (I Doubt It: ``"out"`` or
        ``"stalemate"``); None while it goes on."""
        return None

    def could_call(self) -> tuple[int, ...]:
        """The seats not awaited that the rules let call now if their hands allow it, from
        public facts alone (never from a hand): the host decides from these, not from
        :meth:`may_act`, whether a bot's answer waits for a person who might call (a
        decision whose timing everyone sees). None by default."""
        return ()

    def window_key(self) -> tuple[object, ...] | None:
        """While the game waits for answers on the window clock (the host's ``--window``),
        a key that changes when that clock must start again; None otherwise, and always for
        a game without a window clock (:attr:`window_label` None)."""
        return None

    @abc.abstractmethod
    def turn_seat(self) -> int | None:
        """The seat on the turn clock (the host's ``--turn-timeout``), if any."""

    @abc.abstractmethod
    def timeout_actions(self, seat: int) -> tuple[Action, ...]:
        """What the host plays for ``seat`` when its time runs out: on the turn clock, a
        turn; on the window clock, silence (each rule book says what silence means)."""

    def view(self, seat: int | None) -> ViewT:
        """What ``seat`` may see now; ``None`` is a spectator, who sees public facts only:
        the facts every seat shares (:meth:`shared`), then the seat's own (:meth:`own`), or
        the view's :attr:`~View.unseen` for a spectator."""
        if seat is not None:
            check_seat(self.players, seat)
        view_type: Any = self.view_type
        if seat is None:
            return view_type(None, *self.shared(), *view_type.unseen.values())  # type: ignore[no-any-return]
        return view_type(seat, *self.shared(), *self.own(seat))  # type: ignore[no-any-return]

    def own(self, seat: int) -> tuple[object, ...]:
        """What only ``seat`` sees now, in the order of its view's :attr:`~View.unseen`
        fields (its hand first, what it may do last)."""
        raise NotImplementedError

    def public_facts(self, claims: tuple[Event, ...]) -> dict[str, object]:
        """What every seat sees alike now, by the view's field names, from after ``turns``
        on (the record of play, ``claims``, among them): :meth:`public` puts them in
        order."""
        raise NotImplementedError

    #: The facts every seat sees alike at one version (-1: none made yet), and the settled
    #: claims, one tuple that every view shares (:meth:`shared`).
    _public: tuple[int, tuple[object, ...]] = (-1, ())
    _settled: tuple[Event, ...] = ()

    def public(self, claims: tuple[Event, ...]) -> tuple[object, ...]:
        """What every seat sees alike now, in the order of the view's fields (from
        ``players`` on, :func:`head` first), ``claims`` (the settled claims) among them:
        :meth:`public_facts` in order. (A game may build the tuple itself, for speed.)"""
        state = self.state
        facts = self.public_facts(claims)
        facts.update(players=state.players, options=state.options, opener=state.opener,
                     version=state.version, decision=self.decision)
        return self.view_type.ordered(facts)

    def shared(self) -> tuple[object, ...]:
        """:meth:`public`, made once a version and shared by every seat's view (a view is
        built for every decision; the settled claims, public, are copied once each)."""
        state = self.state
        version, public = self._public
        if version != state.version:
            records = state.records
            if len(self._settled) != len(records):
                self._settled = tuple(records)
            public = self.public(self._settled)
            self._public = (state.version, public)
        return public

    def log(self, seat: int | None, start: int = 0) -> tuple[Event, ...]:
        """The events from index ``start`` on, redacted for ``seat`` by the view's one place
        (:meth:`redact`)."""
        if seat is not None:
            check_seat(self.players, seat)
        redact = self.redact
        return tuple(redact(event, seat) for event in self.state.events[start:])

    #: ``redact(event, seat)``: ``event`` as ``seat`` may see it (None: a spectator), the
    #: game's view module's rule (:func:`redactor` makes one; a game sets it as a
    #: ``staticmethod``).
    redact: ClassVar[staticmethod[[Event, int | None], Event]]

    #: ``tell(events)``: each claim settled in ``events`` (a game's events from its deal, or
    #: from just after a settled claim), told as far as they show it: the game's own events
    #: show the cards laid, a spectator's do not (rules/story.py). The game's told module's
    #: reading, set as a ``staticmethod``.
    tell: ClassVar[staticmethod[[Sequence[Event]], tuple[Told, ...]]]

    @classmethod
    def rules_for(cls, players: int, options: OptionsT | None, opener: int) -> OptionsT:
        """The rules a game of ``players`` seats, opened by ``opener``, is dealt with: the
        ``options`` given or the defaults, checked against the table (:class:`BadOptions`
        otherwise)."""
        rules: Any = options or cls.options_type()
        rules.check_players(players)
        if type(opener) is not int or not 0 <= opener < players:
            raise BadOptions(f"{cls.opener_called} must be a seat from 0 to {players - 1}, "
                             f"not {opener!r}")
        return rules  # type: ignore[no-any-return]

    @classmethod
    def verdict(cls, told: Told, names: Mapping[int, str]) -> tuple[str, str]:
        """Whether what ``told`` says held, and how it was decided, in words for the story
        ("a lie", "Ben doubted, and was right"): a claim others may challenge, by default."""
        return verdict(told, names, cls.words)

    @classmethod
    def narrate(cls, event: Event, names: dict[int, str | None]) -> str:
        """A settled claim or the end of a game in a line for people (a spectator without a
        screen); "" for the events that are not told. ``names`` names the seats."""
        return ""

    @classmethod
    def parse_action(cls, text: str) -> Action:
        """Read an action's text form, such as ``"lay QS"`` or ``"doubt"``."""
        if not isinstance(text, str) or not text.split():
            raise MalformedAction(f"not an action: {text!r}")
        kind, *args = text.split()
        action_type = cls.actions.get(kind.lower())
        if action_type is None:
            raise MalformedAction(f"{cls.name} has no action {kind!r}")
        return action_type.from_args(args)


class Misplay(Exception):
    """A player of :meth:`Game.play_out` chose an action the rules refuse (``action``),
    or nothing (``action`` None) when it had to act."""

    def __init__(self, seat: int, action: Action | None, reason: str) -> None:
        super().__init__(f"seat {seat + 1}: {reason}")
        self.seat, self.action, self.reason = seat, action, reason


def head(state: Any) -> tuple[object, ...]:
    """View's fields that every seat sees alike (``players``, ``options``, ``opener``,
    ``version``, ``turns``), from a game's state: the first of its public facts."""
    return state.players, state.options, state.opener, state.version, state.turns


def redactor(public: Iterable[type[Event]],
             mine: dict[type[Event], Callable[[Any], Event]] | None = None,
             each: dict[type[Event], Callable[[Any, int | None], Event]] | None = None,
             ) -> Callable[[Event, int | None], Event]:
    """A game's rule of what each seat sees of each kind of event: the ``public`` kinds
    whole; a kind of ``mine`` whole by the event's own ``seat``, and as ``mine[kind](event)``
    makes it by everyone else; a kind of ``each`` as ``each[kind](event, seat)`` makes it
    (a deal: each seat its own hand). A kind in none of them is refused (``TypeError``),
    until someone decides what it shows."""
    shown, own, by_seat = frozenset(public), dict(mine or {}), dict(each or {})

    def redact(event: Event, seat: int | None) -> Event:
        kind = type(event)
        hide = own.get(kind)
        if hide is not None:
            return event if event.seat == seat else hide(event)  # type: ignore[attr-defined]
        made = by_seat.get(kind)
        if made is not None:
            return made(event, seat)
        if kind in shown:
            return event
        raise TypeError(f"no redaction rule for {kind.__name__}")

    return redact


def check_seat(players: int, seat: Any) -> None:
    """Raise :class:`NoSuchSeat` unless ``seat`` is a seat number at a table of ``players``."""
    if type(seat) is not int or not 0 <= seat < players:
        raise NoSuchSeat(f"there is no seat {seat!r} at a table of {players}")
