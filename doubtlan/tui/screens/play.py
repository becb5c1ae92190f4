"""The screen at the table: the lobby, the game and the results, one after another, all
drawn from what this player's client was sent. The game's own table and results come from
its :class:`~doubtlan.tui.widgets.gametable.GameTable`, picked by ``TableInfo.game``. The
host's lobby commands go to the app as :class:`~doubtlan.tui.messages.HostCommand`."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Static

from ...net.hosted import HostedTable, WebError
from ...net.identity import words
from ...net.messages import Message, Said, TableInfo
from ...net.mirror import Mirror
from ...rules import game_named
from ..client_state import ClientState
from ..games import table_type
from ..messages import HostCommand, Say
from ..widgets.gametable import GUARD, GameTable
from ..widgets.keys import KeyLine
from ..widgets.lobby import Lobby
from ..widgets.results import GameResults
from ..widgets.small import SmallNotice, compact
from ..widgets.talk import QUICK, TalkStrip
from ..widgets.titlebar import TitleBar
from ..words import listed, seat_names

#: Seconds at the start of a window in which a doubt is ignored (a slip of the finger).
DOUBT_GUARD = GUARD


@dataclass(frozen=True)
class HostSide:
    """What the host's screen has that a joiner's has not."""

    #: HOST:PORT texts that others can type to join (asked for when the lobby is drawn).
    addresses: Callable[[], list[str]]
    pin: str | None = None
    #: The strategy the host's bots were seated with (``--strategy``).
    strategy: str | None = None
    #: The table listens on this machine only (``doubtlan play``): nobody else can join.
    local: bool = False
    #: The addresses of the table's browser seats (net/web), and their certificate's
    #: fingerprint (None: no browser seats offered).
    web: Callable[[], list[str]] = list
    web_fingerprint: bytes | None = None


class PlayScreen(Screen[None]):
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

    @property
    def is_host(self) -> bool:
        return self.host is not None

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

    def show(self, mirror: Mirror, seen: ClientState, message: Message | None = None) -> None:
        """Draw what ``mirror`` knows (called after every message from the host)."""
        self.mirror, self.seen = mirror, seen
        if not self._mounted:
            return  # on_mount draws it
        info, view = mirror.table, mirror.view
        found = self.query("#connection")
        if not found:
            return  # the screen is being taken down (the app is closing)
        connection = found.first(Static)
        if seen.reconnecting:
            connection.update(Text(" Connection lost. Reconnecting... ", style="bold reverse red"))
            connection.display = True
        else:
            connection.display = False
        if info is None:
            return
        seat = mirror.seat
        who = "watching" if seat is None else f"you are {mirror.name}"
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
        self.query_one(TitleBar).show(title)
        table = self._set_game(info.game)
        if not self._ready:
            view = None  # its widgets are being made: drawn once they are
        if view is not None and view.game != table.game:
            view = None  # (a view of another game cannot be drawn by this table)
        if view is not None and view.winner is not None and info.state != "lobby":
            pane = "results"
            results = self.query_one("#results")
            if isinstance(results, GameResults):
                results.stood_in, results.away = seen.stood_in, _away(info)
                yours = seen.yours
                results.yours = yours if yours is not None and yours.entry.number == \
                    mirror.game_number and yours.entry.match == (mirror.commitment or "")[:16] \
                    else None
            table.results(
                self.query_one("#results"), view, info, seen, is_host=self.is_host,
                over=info.state == "over" or mirror.bye is not None,
                verdict=mirror.verdicts.get(mirror.game_number),
            )
        elif view is not None and info.state != "lobby":
            pane = "table"
            table.live = not seen.reconnecting  # (the moves it draws as buttons are live)
            table.show(view, info, seen)
            self._turn_notice(table)
        else:
            pane = "lobby"
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
        table.live = pane == "table" and not seen.reconnecting
        if pane != self.pane:
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
        self._show_keys()

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

    def heard(self, said: Said) -> None:
        """A line just said at the table: on the strip for a few seconds."""
        self.query_one(TalkStrip).heard(said, self.clock())

    # -- the host's keys -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        info = self.mirror.table if self.mirror else None
        lobby = self.pane == "lobby" and self.is_host and info is not None \
            and info.state == "lobby"
        if action in ("add_bot", "remove_bot", "options", "start"):
            return lobby
        if action in ("talk", "say"):
            return self.mirror is not None and self.mirror.seat is not None \
                and info is not None and self.seen is not None and self.seen.connected
        if action == "mute":
            return self.is_host and info is not None
        if action == "story":
            return self.pane == "results" and self.table is not None
        if action in ("next_game", "free_seats"):
            return self.is_host and info is not None and info.state == "between" \
                and self.pane == "results" and (action == "next_game" or bool(_away(info)))
        return True

    def action_add_bot(self) -> None:
        """Ask the level of the bot to seat (the level of the host's ``--strategy`` first,
        else medium), then seat it."""
        from ...bots import LEVELS, STRATEGIES, level_of
        from .levels import LevelScreen

        info = self.mirror.table if self.mirror else None
        if info is None:
            return
        levels = LEVELS.get(info.game, {})
        chosen = level_of(info.game, self.host.strategy if self.host else None) or "medium"

        def seat(strategy: str | None) -> None:
            if strategy is not None:
                self.post_message(HostCommand(lambda hosted: hosted.host.add_bot(strategy)))

        strategies = STRATEGIES.get(info.game, {})
        abouts = {name: bot.about for name, bot in strategies.items()}
        self.app.push_screen(LevelScreen(levels, abouts, chosen), seat)

    def action_remove_bot(self) -> None:
        info = self.mirror.table if self.mirror else None
        row = self.query_one(Lobby).seats.cursor_row
        if info is None or not 0 <= row < len(info.seats) or not info.seats[row].bot:
            self.notify("Select a bot's seat to remove it.", severity="warning")
            return
        self.post_message(HostCommand(lambda hosted: hosted.host.remove_bot(row)))

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
            self.show(self.mirror, self.seen, None)

    def action_talk(self) -> None:
        from .talk import TalkScreen

        def say(line: str | None) -> None:
            if line:
                self.post_message(Say(line))

        self.app.push_screen(TalkScreen(self.table.TALK_NOTE if self.table else ""), say)

    def action_say(self, line: str) -> None:
        self.post_message(Say(line))

    def action_mute(self) -> None:
        from .talk import MuteScreen

        info = self.mirror.table if self.mirror else None
        if info is None:
            return

        def mute(choice: tuple[int, bool] | None) -> None:
            if choice is not None:
                seat, on = choice
                self.post_message(HostCommand(lambda hosted: hosted.host.mute(seat, on)))

        self.app.push_screen(MuteScreen(info, self.mirror.seat if self.mirror else None), mute)

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

    def action_start(self) -> None:
        self.post_message(HostCommand(lambda hosted: hosted.host.start_match()))

    def action_next_game(self) -> None:
        self.post_message(HostCommand(lambda hosted: hosted.host.next_game()))

    def action_free_seats(self) -> None:
        def free(hosted: HostedTable) -> None:
            names = hosted.host.open_seats(keep=0)  # (the host's player sits in seat 1)
            whose = f"{listed(names)}'s seat" if len(names) == 1 \
                else f"the seats of {listed(names)}"
            self.notify(f"A newcomer may take {whose} now; a bot plays it until then.",
                        title="Seats free")

        self.post_message(HostCommand(free))


def _away(info: TableInfo) -> list[str]:
    """The players who are away from their seats (their seats not yet given away)."""
    return [seat.name or "" for seat in info.seats if seat.away and not seat.open]

