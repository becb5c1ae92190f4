"""The host's keys on the play screen, a part :class:`~doubtlan.tui.screens.play.PlayScreen`
is made of: in the lobby, seat a bot (at a level asked for), remove one and start (the
rules dialog is the play screen's); between games, deal the next and free the seats of the
players away; at any time, mute a player. Each goes to the app as a
:class:`~doubtlan.tui.messages.HostCommand`; what the host's screen has besides is
:class:`HostSide`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.screen import Screen

from ...net.hosted import HostedTable
from ...net.messages import TableInfo
from ...net.mirror import Mirror
from ..messages import HostCommand
from ..widgets.lobby import Lobby
from ..words import listed

#: The host's keys of the lobby, of the results between games, and all of them.
LOBBY_KEYS = ("add_bot", "remove_bot", "options", "start")
BETWEEN_KEYS = ("next_game", "free_seats")
HOST_KEYS = (*LOBBY_KEYS, *BETWEEN_KEYS, "mute")


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


class HostKeys(Screen[None]):
    """The host's lobby commands, by key."""

    #: What the play screen holds (``PlayScreen.__init__`` sets it): the host's side (None
    #: on a joiner's screen), what the client knows of the table, and the pane shown.
    host: HostSide | None
    mirror: Mirror | None
    pane: str

    @property
    def is_host(self) -> bool:
        """Whether this is the host's screen."""
        return self.host is not None

    def host_may(self, action: str, info: TableInfo | None) -> bool:
        """Whether the host's key for ``action`` does something now."""
        if not self.is_host or info is None:
            return False
        if action in LOBBY_KEYS:
            return self.pane == "lobby" and info.state == "lobby"
        if action in BETWEEN_KEYS:
            return info.state == "between" and self.pane == "results" \
                and (action == "next_game" or bool(away_players(info)))
        return True  # (muting: any time)

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


def away_players(info: TableInfo) -> list[str]:
    """The players who are away from their seats (their seats not yet given away)."""
    return [seat.name or "" for seat in info.seats if seat.away and not seat.open]
