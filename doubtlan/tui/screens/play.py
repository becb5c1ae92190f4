"""The screen at the table: the lobby, the game and the results, one after another, all
drawn from what this player's client was sent. The game's own table and results come from
its :class:`~doubtlan.tui.widgets.gametable.GameTable`, picked by ``TableInfo.game``. The
app tells the screen what changed as Textual messages (``TableChanged``, ``Heard``:
tui/messages.py); the host's keys (host_keys.py) send its lobby commands to the app as
:class:`~doubtlan.tui.messages.HostCommand`."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import ContentSwitcher, Static

from ...net.hosted import HostedTable, WebError
from ...net.identity import words
from ...net.messages import TableInfo
from ...net.mirror import Mirror
from ...net.record import Yours
from ...rules import View, game_named
from ..client_state import ClientState
from ..games import table_type
from ..messages import Heard, HostCommand, Say, TableChanged
from ..widgets.gametable import GUARD, GameTable
from ..widgets.keys import KeyLine
from ..widgets.lobby import Lobby
from ..widgets.results import GameResults
from ..widgets.small import SmallNotice, compact
from ..widgets.talk import QUICK, TalkStrip
from ..widgets.titlebar import TitleBar
from ..words import seat_names
from .host_keys import HOST_KEYS, HostKeys, HostSide, away_players

#: Seconds at the start of a window in which a doubt is ignored (a slip of the finger).
DOUBT_GUARD = GUARD


class PlayScreen(HostKeys):
    """Lobby, table or results, as the table's state says."""

    BINDINGS = [
        Binding("b", "add_bot", "Add bot"),
        Binding("x", "remove_bot", "Remove bot"),
        Binding("o", "options", "Options"),
        Binding("s", "start", "Start"),
        Binding("n", "next_game", "Next game"),
        Binding("x", "free_seats", "Free away seats"),
        Binding("t", "talk", "Talk"),
        *(Binding(key, f"say({line!r})", line, show=False) for key, line in QUICK),
        Binding("m", "mute", "Mute", show=False),
        Binding("r", "story", "Story"),
    ]

    def __init__(self, *, ascii: bool = False, clock: Callable[[], float] = time.monotonic,
                 host: HostSide | None = None, through: str | None = None) -> None:
        super().__init__()
        #: Cards in letters rather than suit symbols; the app's clock; the host's side.
        self.ascii, self.clock, self.host = ascii, clock, host
        #: The host's player whose machine runs this app (a browser seat's), or None.
        self.through = through
        self.mirror: Mirror | None = None
        self.seen: ClientState | None = None
        self.pane = "waiting"
        #: The game's table and results, once the table has said which game it plays.
        self.table: GameTable | None = None
        self._ready = False
        #: The turn last told (``GameTable.turn``), None while it is not this seat's.
        self._turn: tuple[int, int] | None = None
        self._mounted = False

    def compose(self) -> ComposeResult:
        yield TitleBar(id="titlebar")
        yield Static("", id="connection")
        with ContentSwitcher(initial="waiting", id="panes"):
            yield Static("Connecting to the table...", id="waiting")
            yield Lobby(id="lobby")
        yield KeyLine()
        yield TalkStrip()
        yield SmallNotice()

    def on_mount(self) -> None:
        self.set_interval(0.1, self._tick)
        self._mounted = True
        if self.mirror is not None and self.seen is not None:
            self.show(self.mirror, self.seen)  # what arrived before the screen was up

    def on_unmount(self) -> None:
        self._mounted = False

    def _set_game(self, game: str) -> GameTable:
        """The table of ``game``, mounted (with its results pane) the first time it is
        asked for."""
        table = self.table
        if table is None or table.game != game:
            panes = self.query_one("#panes", ContentSwitcher)
            for old in panes.query("#table, #results"):
                old.remove()
            table = table_type(game)(ascii=self.ascii, clock=self.clock)
            results = table.make_results()
            table.display = results.display = False
            self.table, self._ready = table, False
            self.run_worker(self._drawn_once_mounted(panes.mount(table, results)),
                            group="table")
        return table

    async def _drawn_once_mounted(self, mounting: Awaitable[object]) -> None:
        await mounting
        self._ready = True
        if self.mirror is not None and self.seen is not None:
            self.show(self.mirror, self.seen)

    # -- drawing -------------------------------------------------------------------------

    def on_table_changed(self, message: TableChanged) -> None:
        self.show(message.mirror, message.seen)

    def show(self, mirror: Mirror, seen: ClientState) -> None:
        """Draw what ``mirror`` knows, and what the app keeps besides (``seen``)."""
        self.mirror, self.seen = mirror, seen
        if not self._mounted:
            return  # on_mount draws it
        info = mirror.table
        if not self._banner(seen) or info is None:
            return
        self.query_one(TitleBar).show(self._title(mirror, info))
        table = self._set_game(info.game)
        pane = self._draw_pane(table, mirror, info, seen)
        table.live = pane == "table" and not seen.reconnecting
        if pane != self.pane:
            self._switch(pane, table)
        self._show_keys()

    def _banner(self, seen: ClientState) -> bool:
        """The banner of a connection lost; False when the screen is being taken down (the
        app is closing)."""
        found = self.query("#connection")
        if not found:
            return False
        connection = found.first(Static)
        if seen.reconnecting:
            connection.update(Text(" Connection lost. Reconnecting... ", style="bold reverse red"))
            connection.display = True
        else:
            connection.display = False
        return True

    def _title(self, mirror: Mirror, info: TableInfo) -> Text:
        """The title bar: the table, who you are there, the game's number."""
        who = "watching" if mirror.seat is None else f"you are {mirror.name}"
        title = Text(f" {info.name}", style="bold")
        narrow = compact(self)  # (a phone's: the table and the game; the lobby says the rest)
        if not narrow:
            # (a table on this machine only, `doubtlan play`, is nobody else's to host)
            host = self.host
            title.append(f" · {who}" + (", hosting" if host and not host.local else ""))
        if self.through and not narrow:  # (the app runs on the host's machine: security.md)
            title.append(f" · playing through {self.through}'s machine", style="italic")
        if info.game_number:
            word = game_named(info.game).words.game
            title.append(f" · {word} {info.game_number}" + (f" of {info.games}" if info.games
                                                             else ""))
        return title

    def _draw_pane(self, table: GameTable, mirror: Mirror, info: TableInfo,
                   seen: ClientState) -> str:
        """Draw the pane the table's state calls for, and name it: the results, the table
        or the lobby."""
        view = mirror.view if self._ready else None  # (else drawn once its widgets are made)
        if view is not None and view.game != table.game:
            view = None  # (a view of another game cannot be drawn by this table)
        if view is None or info.state == "lobby":
            self._lobby(info, mirror.seat, seen)
            return "lobby"
        if view.winner is not None:
            self._results(table, view, mirror, info, seen)
            return "results"
        table.live = not seen.reconnecting  # (the moves it draws as buttons are live)
        table.show(view, info, seen)
        self._turn_notice(table)
        return "table"

    def _results(self, table: GameTable, view: View, mirror: Mirror, info: TableInfo,
                 seen: ClientState) -> None:
        results = self.query_one("#results")
        if isinstance(results, GameResults):
            results.stood_in, results.away = seen.stood_in, away_players(info)
            results.yours = _yours(mirror, seen)
        table.results(results, view, info, seen, is_host=self.is_host,
                      over=info.state == "over" or mirror.bye is not None,
                      verdict=mirror.verdicts.get(mirror.game_number))

    def _lobby(self, info: TableInfo, seat: int | None, seen: ClientState) -> None:
        host = self.host
        self.query_one(Lobby).show(
            info, seat, addresses=host.addresses() if host else [],
            local=host.local if host else False,
            pin=host.pin if host else None, is_host=host is not None,
            connected_to=f"{self.through}'s machine, by its browser seats" if self.through
            else seen.address, key=words(seen.key),
            web=host.web() if host else None,
            web_fingerprint=host.web_fingerprint if host else None,
        )

    def _switch(self, pane: str, table: GameTable) -> None:
        """Show ``pane`` instead of the one shown, and put the focus where it works."""
        self.pane = pane
        if pane != "table":
            self.query_one(TitleBar).tell("")
        self.query_one("#panes", ContentSwitcher).current = pane
        if pane == "lobby":
            self.query_one(Lobby).seats.focus()
        elif pane == "table":
            table.take_focus()
        else:
            self.set_focus(None)

    def _show_keys(self) -> None:
        """The key line: the table's keys that do something now, this screen's, then the
        app's."""
        app = self.app
        keys = self.table.keys() if self.table is not None and self.table.live else []
        bindings = [b for b in self.BINDINGS if isinstance(b, Binding) and b.show
                    and self.check_action(b.action.partition("(")[0], ())]
        bindings += [b for b in app.BINDINGS if isinstance(b, Binding) and b.show]
        self.query_one(KeyLine).show(tuple(keys) + tuple(
            (app.get_key_display(b), self._described(b), b.key) for b in bindings), len(keys))

    def _described(self, binding: Binding) -> str:
        """A key's words, with "game" in the table's game's own word ("Next match")."""
        if self.table is None or binding.action != "next_game":
            return binding.description
        return f"Next {game_named(self.table.game).words.game}"

    def _turn_notice(self, table: GameTable) -> None:
        """Ring once when a turn begins, and say so in the title bar until it ends (the
        first card laid does not end it; a turn that follows your last at once is a new
        one, and rings)."""
        turn = table.turn
        if turn is not None and turn != self._turn:
            self.app.bell()
            self.query_one(TitleBar).tell("Your turn")
        elif turn is None:
            self.query_one(TitleBar).tell("")
        self._turn = turn

    def _tick(self) -> None:
        """Run the table's countdown; end the turn's notice when its time is up."""
        seen, mirror = self.seen, self.mirror
        if seen is None or mirror is None or mirror.table is None:
            return
        now = self.clock()
        if self.table is not None and self.pane == "table":
            self.table.tick(now)
        self.query_one(TalkStrip).tick(now)

    def on_heard(self, message: Heard) -> None:
        """A line just said at the table: on the strip for a few seconds."""
        self.query_one(TalkStrip).heard(message.said, self.clock())

    # -- keys ----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        info = self.mirror.table if self.mirror else None
        if action in HOST_KEYS:
            return self.host_may(action, info)
        if action in ("talk", "say"):
            return self.mirror is not None and self.mirror.seat is not None \
                and info is not None and self.seen is not None and self.seen.connected
        if action == "story":
            return self.pane == "results" and self.table is not None
        return True

    def action_options(self) -> None:
        from .options import OptionsScreen

        def serve(hosted: HostedTable) -> Callable[[bool], object]:
            return lambda on: self.app.run_worker(self._serve_browsers(hosted, on), group="web")

        self.post_message(HostCommand(lambda hosted: self.app.push_screen(
            OptionsScreen(hosted.table.config, hosted.host.configure,
                          web=hosted.web is not None,
                          serve_web=serve(hosted)))))

    async def _serve_browsers(self, hosted: HostedTable, on: bool) -> None:
        """Browser seats on or off, from the rules dialog; the lobby shows where."""
        try:
            await hosted.serve_browsers(on)
        except WebError as error:
            self.notify(str(error), title="Not done", severity="warning")
        if self.mirror is not None and self.seen is not None:
            self.show(self.mirror, self.seen)

    def action_talk(self) -> None:
        from .talk import TalkScreen

        def say(line: str | None) -> None:
            if line:
                self.post_message(Say(line))

        self.app.push_screen(TalkScreen(self.table.TALK_NOTE if self.table else ""), say)

    def action_say(self, line: str) -> None:
        self.post_message(Say(line))

    def action_story(self) -> None:
        """The story of the game just ended, once its deal verified (else why not)."""
        from ..widgets.hand import CardHand
        from .message import MessageScreen
        from .story import StoryScreen

        mirror, table = self.mirror, self.table
        if mirror is None or mirror.table is None or table is None:
            return
        mirror.check()  # (a reveal not yet checked is checked now)
        story = mirror.story(mirror.game_number)
        if isinstance(story, str):
            self.app.push_screen(MessageScreen(
                f"The story is told only of a {game_named(mirror.table.game).words.game} whose "
                f"deal verified: {story}."))
            return
        self.app.push_screen(StoryScreen(story, seat_names(mirror.table),
                                         table.query_one(CardHand).face, me=mirror.seat))


def _yours(mirror: Mirror, seen: ClientState) -> Yours | None:
    """The player's figures in the game drawn, if they are of this game and this match."""
    yours = seen.yours
    if yours is not None and yours.entry.number == mirror.game_number \
            and yours.entry.match == (mirror.commitment or "")[:16]:
        return yours
    return None
