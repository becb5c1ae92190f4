"""What the app does with the host's messages, a part :class:`~doubtlan.tui.app.DoubtApp` is
made of. The client calls :meth:`Following._received` with each message, in the app's
network worker, once its mirror has taken it in. The app keeps what the screens draw besides
the mirror (:class:`~doubtlan.tui.client_state.ClientState`), seats the host's bots once
welcomed, checks a game's deal after its reveal, and tells the play screen what changed as
Textual messages (messages.py: ``TableChanged``, ``Heard``), which the screen draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..net.client import Client
from ..net.hosted import HostedTable
from ..net.messages import Error, Message, Reveal, Said, State, TableInfo, Welcome
from ..net.mirror import Mirror
from ..net.record import Record
from .client_state import ClientState
from .collector import COLLECT_AFTER_GAME, QuietCollector, collect_between_games
from .device import DeviceApp
from .games import table_type
from .messages import Heard, TableChanged
from .screens.play import PlayScreen
from .setup import HostSetup, JoinSetup
from .words import sentence

#: Seconds after a game's reveal comes in to check its deal (docs/fairness.md).
CHECK_AFTER_REVEAL = 0.3
#: The messages after which the play screen draws the table again.
DRAWN_AFTER = (Welcome, State, TableInfo, Said)


class Following(DeviceApp):
    """The host's messages taken in, each kind by a step of its own."""

    #: What the app holds (``DoubtApp.__init__`` sets it): its client and what it knows
    #: besides the client's mirror, the play screen, the host's table and setup, the
    #: joiner's setup, the games' record and the app's clock.
    client: Client | None
    seen: ClientState
    play: PlayScreen | None
    hosted: HostedTable | None
    host_setup: HostSetup | None
    join_setup: JoinSetup
    record: Record | None
    clock: Callable[[], float]
    #: Whether the app is ending; the bots to seat once the host's player is welcomed; the
    #: garbage collector kept for between games, once (``join_setup.collector``).
    _ending: bool
    _bots_to_seat: int
    _frozen: bool
    _collector: QuietCollector | None

    if TYPE_CHECKING:
        # What the app does besides following the host (app.py).
        def command(self, do: Callable[[HostedTable], object]) -> bool: ...

    def _received(self, message: Message) -> None:
        """Take in ``message`` from the host (the client's mirror has), and tell the play
        screen what changed."""
        client = self.client
        if client is None:
            return
        if isinstance(message, Welcome):
            self._welcomed(client)
        elif isinstance(message, State):
            self._state(client.mirror, message)
        elif isinstance(message, Error):
            self.notify(sentence(message.message), title="Not done", severity="warning")
        elif isinstance(message, Reveal) and message.complete:
            # The check deals and plays the game again: not in the frame of the last move.
            self.set_timer(CHECK_AFTER_REVEAL, self._check_deal)
        elif isinstance(message, Said) and message.fresh and self.play is not None:
            self.play.post_message(Heard(message))
        if isinstance(message, DRAWN_AFTER):
            self.seen.talk = tuple(client.mirror.talk)
            self._redraw()

    def _welcomed(self, client: Client) -> None:
        """The host welcomed this client: the key it presented; the garbage collector kept
        for between games from the first welcome on; the host's bots seated."""
        self.seen.key = client.fingerprint
        if client.connections == 1 and not self._frozen and not self._ending \
                and self.join_setup.collector:
            self._frozen = True
            self._collector = QuietCollector()
        if self._bots_to_seat and self.hosted is not None:
            bots, self._bots_to_seat = self._bots_to_seat, 0
            strategy = self.host_setup.strategy if self.host_setup else None
            for _ in range(bots):
                self.command(lambda hosted: hosted.host.add_bot(strategy))

    def _state(self, mirror: Mirror, message: State) -> None:
        """A new state of the table: what the screens draw besides the mirror follows it;
        a game that ended lets the garbage collector run while its results are read."""
        if mirror.table is not None and follow(self.seen, mirror, message, self.clock) \
                and self._collector is not None:
            self.set_timer(COLLECT_AFTER_GAME, collect_between_games)

    def _connection(self, up: bool) -> None:
        """The connection came up, or was lost (the client then reconnects by itself)."""
        client = self.client
        gone = client is None or client.mirror.bye is not None  # a goodbye: no retrying
        self.seen.connected, self.seen.reconnecting = up, not up and not self._ending and not gone
        self._redraw()

    def _check_deal(self) -> None:
        if self.client is not None:
            self.client.mirror.check()
            if self.record is not None:  # (this game against the player's average)
                self.seen.yours = self.record.note(self.client.mirror) or self.seen.yours
            self._redraw()

    def _redraw(self) -> None:
        """Tell the play screen to draw the table as the client knows it now."""
        if self.play is not None and self.client is not None and not self._ending:
            self.play.post_message(TableChanged(self.client.mirror, self.seen))


def follow(seen: ClientState, mirror: Mirror, message: State,
           clock: Callable[[], float]) -> bool:
    """Take in what ``seen`` keeps of the state ``message`` (its game, the seats stood in
    for, the events its table notes, when its window was first seen, on ``clock``); True when
    one of its events ended a game."""
    assert mirror.table is not None
    table = table_type(mirror.table.game)
    if message.game_number != seen.game_number:
        seen.game_number, seen.notes = message.game_number, None
        seen.stood_in = frozenset()
    seen.played_for = mirror.played_for
    away = {note.seat for note in message.notes if note.kind == "away"}
    if away - seen.stood_in:
        seen.stood_in |= {seat for seat in away if seat is not None}
    # (every event noted: a list, not any(), which would stop at the first game's end)
    ended = [table.note(event, seen) for event in message.events]
    view = mirror.view
    window = view.window_key if view is not None and view.game == table.game else None
    if window is not None:
        key = (message.game_number, *window)
        if seen.window_key != key:
            seen.window_key, seen.window_since = key, clock()
    return any(ended)
