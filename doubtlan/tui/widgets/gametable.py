"""What the play screen asks of a game's table, whichever game it is.

A table plays one game (``TableInfo.game``). Each game has its own table widget, a
subclass of :class:`GameTable` in its folder under ``tui/games``, which draws that game's
view, holds that game's keys and says what the app should follow in that game's events;
the play screen only picks the class (``tui.games.table_type``) and hands it what the host
sent. A table asks the app to send an action with an :class:`~doubtlan.tui.messages.Act`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from ...net.messages import TableInfo
from ...rules import Event, game_named
from ...rules.fairness import Verdict
from ..client_state import ClientState
from ..messages import Act
from ..words import seat_names
from .hand import CardHand
from .history import History
from .players import PlayersPanel
from .prompt import TablePrompt
from .results import GameResults

#: A key as the line of keys draws it: the key as shown, what it does, the key a click presses.
KeyEntry = tuple[str, str, str]


#: The keys that move along the hand, as every game's table binds them (its BINDINGS).
HAND_KEYS = [
    Binding("left", "move(-1)", "Card", show=False),
    Binding("right", "move(1)", "Card", show=False),
    Binding("home", "move_to(0)", "First card", show=False),
    Binding("end", "move_to(-1)", "Last card", show=False),
]


class GameTable(Widget):
    """One game's table pane (``id="table"``) and what goes with it. A game composes it from
    the shared widgets (a players panel, a prompt, a hand, a record of play) and its own:
    by default (:meth:`compose`) the players, the prompt (with what the game sets beside it)
    and the hand on the left, what the game shows there and its record of play on the
    right; a game may compose otherwise, and what it leaves out is not drawn."""

    DEFAULT_CSS = """
    GameTable { width: 1fr; height: 1fr; layout: horizontal; overflow: hidden hidden; }
    GameTable #middle { height: 7; }
    """
    #: Every game's keys along its hand; a game's own BINDINGS add to them (Textual merges
    #: a class's bindings with its bases').
    BINDINGS: ClassVar[list[BindingType]] = [*HAND_KEYS]

    #: The game's name on the wire (``TableInfo.game``).
    game: ClassVar[str]
    #: The help screen's rules and keys for this game (markdown), ending with the table of
    #: its keys, to which the help adds the app's own (``?``, ``q``).
    rules: ClassVar[str]
    #: The game's players panel, prompt and hand, and its results pane.
    PLAYERS: ClassVar[type[PlayersPanel]]
    PROMPT: ClassVar[type[TablePrompt]]
    HAND: ClassVar[type[CardHand]]
    RESULTS: ClassVar[type[GameResults]]
    #: The game's claims list, and its own widgets beside the prompt and above the claims.
    HISTORY: ClassVar[type[History]]
    BESIDE: ClassVar[tuple[type[Widget], ...]] = ()
    ABOVE: ClassVar[tuple[type[Widget], ...]] = ()
    #: Said atop the talk dialog (``t``), for a player who pressed ``t`` for a key of the
    #: game's own that is not ``t`` (I Know You Don't's Truth is ``y``).
    TALK_NOTE: ClassVar[str] = ""

    def __init__(self, ascii: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(id="table")
        #: Cards in letters rather than suit symbols; the app's clock (for the countdown).
        self.ascii, self.clock = ascii, clock
        #: What was drawn last, and whether the keys are live (at the table, connected).
        self.view: Any = None
        self.info: TableInfo | None = None
        self.seen: ClientState | None = None
        #: The game last drawn (a new one starts the hand's cursor on its first card).
        self._drawn_game = 0
        self.live = False

    def compose(self) -> ComposeResult:
        with Vertical(id="left"):
            yield self.PLAYERS(self.ascii)
            yield self.middle(self.PROMPT())
            yield self.HAND(ascii=self.ascii)
        yield self.side()

    def middle(self, prompt: TablePrompt) -> Widget:
        """The prompt, and the game's widgets beside it (:attr:`BESIDE`)."""
        if not self.BESIDE:
            return prompt
        return Horizontal(*(kind(classes="beside") for kind in self.BESIDE), prompt,
                          id="middle")

    def side(self) -> Widget:
        """The right-hand side: the claims (``id="history"``), under the game's widgets
        there (:attr:`ABOVE`)."""
        history = self.HISTORY(id="history", called=game_named(self.game).words.claims)
        if not self.ABOVE:
            return history
        return Vertical(*(kind(classes="above") for kind in self.ABOVE), history, id="right")

    def seated(self) -> bool:
        """At the table, connected, with a seat, in a game still played: the keys that make
        a move ready (mark a card, choose a level) work then, before the turn comes."""
        view = self.view
        return self.live and view is not None and view.seat is not None \
            and bool(view.awaiting)

    def names(self) -> dict[int, str]:
        """Each seat's name, as the table calls it."""
        return seat_names(self.info) if self.info else {}

    # -- what the play screen calls ---------------------------------------------------------

    def show(self, view: Any, info: TableInfo, seen: ClientState) -> None:
        """Draw ``view`` (this game's view); called after every message from the host: the
        players and the claims (a new game's hand from its first card), then the rest, as
        the game draws it (:meth:`draw`)."""
        self.view, self.info, self.seen = view, info, seen
        for players in self.query(PlayersPanel):
            players.show(view, info, seen.stood_in)
        for history in self.query(History):
            history.show(seen.game_number, view.record, self.names(), seen.played_for,
                         seen.talk)
        if self.new_game(seen):
            for hand in self.query(CardHand):
                hand.deal()
        self.draw(view, info, seen)

    def draw(self, view: Any, info: TableInfo, seen: ClientState) -> None:
        """Draw the rest of ``view``: the hand, the prompt and what the game shows besides."""
        raise NotImplementedError

    @property
    def my_turn(self) -> bool:
        """True while it is this seat's turn."""
        return bool(self.view is not None and self.view.my_turn)

    @property
    def turn(self) -> tuple[int, int] | None:
        """This seat's turn now, as the game and the decision it is (None while it is not
        this seat's): the screen rings and tells it once a turn."""
        seen = self.seen
        if seen is None or not self.my_turn:
            return None
        return seen.game_number, self.view.decision

    def keys(self) -> list[KeyEntry]:
        """This table's keys that do something now, for the line of keys."""
        return []

    def tick(self, now: float) -> None:
        """Ten times a second: run the prompt's countdown, if it is asking."""
        seen, info = self.seen, self.info
        for prompt in self.query(TablePrompt):
            if seen is not None and info is not None and prompt.asking:
                total = info.window
                prompt.countdown(total - (now - seen.window_since), total)

    def take_focus(self) -> None:
        """Focus the part of the table that the keys work on (its hand, if it has one)."""
        for hand in self.query(CardHand):
            hand.focus()
            return

    def results(self, results: Widget, view: Any, info: TableInfo, seen: ClientState, *,
                is_host: bool, over: bool, verdict: Verdict | None) -> None:
        """Draw the game's end in ``results`` (the pane :meth:`make_results` made)."""
        assert isinstance(results, GameResults)
        results.show(view, info, seen, is_host=is_host, over=over, verdict=verdict)

    def make_results(self) -> GameResults:
        """The results pane of this game (``id="results"``): its :attr:`RESULTS`."""
        return self.RESULTS(ascii=self.ascii, id="results")

    # -- what the app follows in this game's events ---------------------------------------

    #: The kind of event that ends one of this game's games (the results show then).
    ENDED: ClassVar[type[Event] | None] = None

    @classmethod
    def note(cls, event: Event, seen: ClientState) -> bool:
        """Keep in ``seen.notes`` (of this table's own type) what the screens need of
        ``event``; True when it ends a game (by default: it is an :attr:`ENDED`)."""
        return cls.ENDED is not None and isinstance(event, cls.ENDED)

    # -- for the keys ---------------------------------------------------------------------

    def new_game(self, seen: ClientState) -> bool:
        """Whether this draw is the first of a game (of another game than the last drawn)."""
        first = seen.game_number != self._drawn_game
        self._drawn_game = seen.game_number
        return first

    #: The table's actions that make a move ready (they work while :meth:`seated`), and
    #: those that make a move, each with the kind of move (they work while it is legal).
    READY: ClassVar[tuple[str, ...]] = ()
    MOVES: ClassVar[dict[str, type[Any]]] = {}
    #: The actions whose parameters are the move's own (Skull's ``turn(2)`` is the move
    #: ``Turn(2)``), each with the move it makes of them: they work while that very move is
    #: legal.
    MADE: ClassVar[dict[str, Callable[..., Any]]] = {}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.READY:
            return self.seated()
        made = self.MADE.get(action)
        if made is not None:
            return self.legal(made(*parameters))
        kind = self.MOVES.get(action)
        return True if kind is None else self.can(kind)

    def legal(self, move: Any) -> bool:
        """The keys' check of a move with its parameters: at the table, connected, and
        ``move`` itself legal now."""
        view = self.view
        return self.live and view is not None and move in view.legal

    def can(self, kind: type[Any]) -> bool:
        """The keys' check: at the table, connected, and ``kind`` legal now."""
        view = self.view
        return self.live and view is not None and view.can(kind)

    def action_move(self, step: int) -> None:
        self.query_one(CardHand).move(step)

    def action_move_to(self, index: int) -> None:
        self.query_one(CardHand).move_to(index)

    def action_move_row(self, rows: int) -> None:
        self.query_one(CardHand).move_row(rows)

    def act(self, text: str) -> None:
        """Ask the app to send the action ``text`` (in the game's text form)."""
        self.post_message(Act(text))

    def too_soon(self) -> bool:
        """True within the half second after the clock started: a key pressed then was
        meant for what was there before (a slip of the finger)."""
        seen = self.seen
        return seen is not None and self.clock() - seen.window_since < GUARD

    def guarded(self) -> bool:
        """True (and the player told so) when an answer comes too soon to be taken: every
        answer alike, so that the first one taken is the one pressed after the guard, and
        none is dropped without a word."""
        if not self.too_soon():
            return False
        self.notify(f"Too soon after the {game_named(self.game).words.claim} to be meant: "
                    "press again.", title="Not taken", severity="warning", timeout=3)
        return True


#: Seconds at the start of a window in which a doubt (or challenge) is ignored.
GUARD = 0.5
