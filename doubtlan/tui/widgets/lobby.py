"""The lobby: the table's name, how to reach it, its key in words, its rules, and its
seats."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from ...bots import level_of
from ...net.identity import colons
from ...net.messages import SeatInfo, TableInfo
from ...rules import game_named
from .qr import QrCode
from .small import compact


def rules_text(info: TableInfo) -> str:
    """The rules and the clocks in a line (the game's own words for its options)."""
    try:
        options = game_named(info.game).options_type.parse(info.rules)
    except ValueError:  # a game or rules this doubtlan cannot read: as they came
        rules = info.rules
    else:
        rules = " · ".join(filter(None, (options.describe(), options.clock(info.window))))
    timer = f"{info.turn_timeout:g} s a turn" if info.turn_timeout else "no turn timer"
    words = game_named(info.game).words
    games = f"{info.games} {words.game if info.games == 1 else words.games}" if info.games \
        else f"{words.games} until the host stops"
    return f"{rules} · {timer} · {games}"


def fewest(info: TableInfo) -> int:
    """The fewest players the table's game and rules are played by (its seats, for rules this
    doubtlan cannot read)."""
    try:
        return int(game_named(info.game).options_type.parse(info.rules).min_players)
    except ValueError:
        return info.players


class Lobby(Vertical):
    DEFAULT_CSS = """
    Lobby { padding: 0 1; }
    Lobby #lobby-top { height: auto; }
    Lobby #lobby-main { width: 1fr; height: auto; }
    Lobby #web-qr { margin-left: 1; }
    Lobby #about { height: auto; margin-bottom: 1; }
    Lobby #seats { height: auto; max-height: 14; }
    Lobby #lobby-hint { margin-top: 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        with Horizontal(id="lobby-top"):
            with Vertical(id="lobby-main"):
                yield Static(id="about")
                yield DataTable(id="seats", cursor_type="row")
            yield QrCode(id="web-qr")
        yield Static(id="lobby-hint")

    #: The seats' columns as drawn (the compact layout has who and how in one), and the
    #: lobby last shown, drawn again for the other layout.
    _narrow: bool | None = None
    _shown: Callable[[], None] | None = None

    def on_resize(self) -> None:
        if self._shown is not None and compact(self) != self._narrow:
            self._shown()

    def _columns(self, narrow: bool) -> None:
        if narrow != self._narrow:
            self._narrow = narrow
            table = self.seats
            table.clear(columns=True)
            table.add_columns(*(("seat", "name", "who") if narrow
                                else ("seat", "name", "who", "")))

    @property
    def seats(self) -> DataTable[object]:
        return self.query_one("#seats", DataTable)

    def show(self, info: TableInfo, me: int | None, *, addresses: list[str],
             pin: str | None, is_host: bool, connected_to: str, key: str = "",
             local: bool = False, web: list[str] | None = None,
             web_fingerprint: bytes | None = None) -> None:
        """``key``: the words of the key the host presented to this client (every screen
        at the table shows the same, so people in one room can compare them); ``local``:
        the table is on this machine only (``doubtlan play``); ``web``: the addresses of
        its browser seats, and ``web_fingerprint`` their certificate's (net/web)."""
        self._shown = lambda: self.show(
            info, me, addresses=addresses, pin=pin, is_host=is_host, connected_to=connected_to,
            key=key, local=local, web=web, web_fingerprint=web_fingerprint)
        about = Text()
        about.append(info.name, style="bold")
        about.append(f"   {info.game_number and 'playing' or 'lobby'}\n", style="dim")
        if is_host:
            _host_reach(about, addresses, pin, local)
        else:
            about.append(f"At {connected_to}", style="dim")
            if info.pin:
                about.append("   🔒 PIN", style="dim")
        _key_and_web(about, key, web, web_fingerprint)
        about.append("\n" + rules_text(info), style="dim")
        self.query_one("#about", Static).update(about)
        self.query_one(QrCode).show(web[0] if web else "")
        taken = self._seats(info, me)
        hint = _host_hint(info, taken) if is_host else _joiner_hint(info, me, taken)
        if info.watchers:
            hint += f" {info.watchers} watching."
        self.query_one("#lobby-hint", Static).update(hint)

    def _seats(self, info: TableInfo, me: int | None) -> int:
        """Draw the seats, the cursor kept on its row; how many are taken."""
        table = self.seats
        row = table.cursor_row
        narrow = compact(self)
        self._columns(narrow)
        table.clear()
        for seat in info.seats:
            if seat.name is None:
                table.add_row(str(seat.seat + 1), Text("empty", style="dim"),
                              *([""] if narrow else ["", ""]))
            else:
                table.add_row(*_seat_row(info, seat, me, narrow))
        table.move_cursor(row=max(0, min(row, len(info.seats) - 1)))
        return sum(seat.name is not None for seat in info.seats)


def _host_reach(about: Text, addresses: list[str], pin: str | None, local: bool) -> None:
    """How others reach the host's table: its addresses (or why none), and its PIN."""
    if local:
        about.append("On this machine only: nobody on the network can see or join "
                     "this table.", style="dim")
    elif addresses:
        about.append("Join by address: ", style="dim")
        about.append(", ".join(addresses), style="bold")
    else:
        about.append("No LAN address: only this machine can join.", style="yellow")
    if pin:
        about.append("   PIN: ", style="dim")
        about.append(pin, style="bold")


def _key_and_web(about: Text, key: str, web: list[str] | None,
                 web_fingerprint: bytes | None) -> None:
    """The host's key in words; the browser seats' addresses and their certificate's
    fingerprint."""
    if key:
        about.append("\nKey: ", style="dim")
        about.append(key, style="bold")
    if web:
        about.append("\nFrom a browser: ", style="dim")
        about.append(", ".join(web), style="bold")
    if web_fingerprint is not None:
        pairs = colons(web_fingerprint)
        about.append("\nIts certificate, SHA-256:\n", style="dim")
        about.append(f"{pairs[:47]}\n{pairs[48:]}", style="dim")


def _seat_row(info: TableInfo, seat: SeatInfo, me: int | None,
              narrow: bool) -> tuple[str | Text, ...]:
    """A taken seat's row: its number, the name, who plays it and how they are."""
    level = (level_of(info.game, seat.strategy) or seat.strategy) if seat.bot else None
    who = f"bot, {level}" if level else "bot" if seat.bot else \
        "program" if seat.program else "human"
    state = "" if seat.bot else ("connected" if seat.connected else "away")
    if seat.muted:  # (docs/talk.md)
        state = f"{state}, muted" if state else "muted"
    name = Text(seat.name or "", style="bold" if seat.seat == me else "")
    if seat.seat == me:
        name.append(" (you)", style="dim")
    if narrow:  # (a bot's level, or how a person is: connected, away)
        return str(seat.seat + 1), name, who if seat.bot or not state else state
    return str(seat.seat + 1), name, who, state


def _host_hint(info: TableInfo, taken: int) -> str:
    """The hint under the host's seats: the seats taken, and the host's keys."""
    least = fewest(info)
    ready = "s starts" if taken >= least else f"s starts once {least} are seated"
    return f"{taken}/{info.players} seated. b seats a bot; up and down select a seat, " \
           "and x removes the bot in it; " \
           f"o sets the rules, {ready}."


def _joiner_hint(info: TableInfo, me: int | None, taken: int) -> str:
    """The hint under a joiner's seats: the seats taken, and when the first game starts."""
    first = game_named(info.game).words.game
    starts = f"The first {first} starts by itself once all {info.players} seats are " \
        "taken." if info.autostart else f"The first {first} starts when the host says so."
    return f"Watching. {starts}" if me is None else f"{taken}/{info.players} seated. {starts}"
