"""``doubtlan join`` without an address: the tables on the network, live, and a field for
typing an address by hand."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from ...net.address import parse_address
from ...net.discovery import TableAd
from ...net.kept import KeptSeats
from ...net.last_name import LONGEST, valid
from ...rules import GAMES
from ..widgets.small import SmallNotice
from ..words import sentence

LOCK = "🔒"
#: The list's columns.
COLUMNS = ("table", "address", "seats", "state", "game")
ASCII_LOCK = "(PIN)"
#: Seconds with no table found before the screen says what to check: a table on the same
#: network answers within a second or two.
HINT_AFTER = 6.0
#: What to check when no table shows up (README.md, "If nobody sees your table").
NOTHING_FOUND = (
    "No table found yet. If a table is open, press / and type the address its host's lobby "
    "shows (such as 192.168.1.20:47474). Tables stay hidden when the network keeps machines "
    "apart (guest or office Wi-Fi), when a firewall blocks doubtlan's port (TCP 47474) or "
    "multicast DNS (UDP 5353), or across a VPN: README.md, \"If nobody sees your table\"."
)

#: Given a callback for the tables seen, returns an async context manager that calls it
#: whenever the tables on the network change, while it is open.
OnTables = Callable[[dict[str, TableAd]], object]
BrowserFactory = Callable[[OnTables], AbstractAsyncContextManager[object]]


def zeroconf_browser(on_change: OnTables) -> AbstractAsyncContextManager[object]:
    """The tables advertised on the network (mDNS)."""
    from ...net.discovery import Browser

    return Browser(on_change=on_change)


@dataclass(frozen=True)
class Choice:
    """The table picked: where it is, whether it needs a PIN, and the fingerprint of the key
    its advert names (None for an address typed, or an advert that names none)."""

    address: tuple[str, int]
    pin_needed: bool = False
    fingerprint: bytes | None = None
    #: The host's commitment its advert gives (docs/fairness.md).
    commitment: bytes | None = None
    #: The name the player will sit down under (None: the app's, unchanged).
    name: str | None = None


class DiscoveryScreen(Screen[Choice]):
    """Pick a table: Enter on a row joins it; or type HOST[:PORT] and Enter. The screen
    ends with the :class:`Choice`."""

    BINDINGS = [
        Binding("enter", "join_selected", "Join", show=True, priority=False),
        Binding("slash", "type_address", "Type an address"),
        Binding("escape", "leave_address", "Back to the list"),
    ]

    def __init__(self, browser: BrowserFactory = zeroconf_browser, *, ascii: bool = False,
                 watch: bool = False, kept: KeptSeats | None = None,
                 name: str | None = None, named: bool = False) -> None:
        super().__init__()
        #: The name was given (``join --name``): the keys go to the list first.
        self.named = named
        #: The seats this user holds under ``name`` (a table where one is kept says "your
        #: seat": joining under that name takes it back).
        self.kept, self.player_name = kept, name
        #: Follows the tables on the network (tests give one that touches no network);
        #: locks in letters; ``watch``: the player joins to watch, so a table playing will do.
        self.browser, self.ascii, self.watching = browser, ascii, watch
        self.tables: list[TableAd] = []
        #: True once HINT_AFTER seconds have passed (a table found or not).
        self.waited = False

    def compose(self) -> ComposeResult:
        yield Static(" doubtlan · join a table", classes="titlebar")
        with Vertical(id="discovery"):
            with Horizontal(id="name-row"):
                yield Static("Your name:", classes="label")
                yield Input(value=self.player_name or "", max_length=LONGEST, id="name")
            yield Static("", id="name-error", classes="error")
            yield Static("Tables on this network", classes="title")
            yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
            yield Static("Looking for tables...", id="looking")
            with Horizontal(id="by-address"):
                yield Static("Or join by address:", classes="label")
                yield Input(placeholder="HOST[:PORT], then Enter", id="address")
            yield Static("", id="address-error", classes="error")
        yield Footer()
        yield SmallNotice()

    def on_mount(self) -> None:
        # The name first, chosen whole: typing replaces it, Enter or Tab keeps it and goes
        # on to the list; a name given on the command line is kept, and the list is first.
        self.query_one("#tables" if self.named else "#name").focus()
        self.show_tables({})
        self.browse()
        self.set_timer(HINT_AFTER, self._waited)

    def _waited(self) -> None:
        self.waited = True
        if not self.tables:
            self._looking().update(NOTHING_FOUND)

    def _looking(self) -> Static:
        return self.query_one("#looking", Static)

    @work(exclusive=True, group="browse")
    async def browse(self) -> None:
        """Follow the tables on the network while this screen is open."""
        import asyncio

        self.query_one("#looking", Static).update(
            "Looking for tables... (they appear here as they start)")
        try:
            async with self.browser(self.show_tables):
                await asyncio.Event().wait()  # until the screen goes, which cancels this
        except (RuntimeError, OSError, ValueError) as error:
            with contextlib.suppress(Exception):
                self.query_one("#looking", Static).update(Text(
                    f"Cannot look for tables on this network ({error}). Type an address."))

    def show_tables(self, tables: dict[str, TableAd]) -> None:
        found = sorted(tables.values(), key=lambda ad: (ad.name.casefold(), ad.name))
        widget = self.query_one("#tables", DataTable)
        row = widget.cursor_row
        chosen = self.tables[row].name if 0 <= row < len(self.tables) else None
        rows = [self._row(ad) for ad in found]
        # The columns are as wide as their words, set here: a column left to size itself
        # waits for the table's idle moment, and a busy machine once showed every column
        # cut to its heading's width ("playi" for "playing, your seat").
        widget.clear(columns=True)
        for at, heading in enumerate(COLUMNS):
            widest = max((cell_len(cells[at]) for cells in rows), default=0)
            widget.add_column(heading, width=max(cell_len(heading), widest))
        for cells in rows:
            widget.add_row(*map(Text, cells))  # (text from the network, never markup)
        self.tables = found
        if found:  # the cursor stays on the table it was on, wherever it moved to
            names = [ad.name for ad in found]
            row = names.index(chosen) if chosen in names else min(row, len(found) - 1)
            widget.move_cursor(row=row)
        self._say_found()

    def _say_found(self) -> None:
        """Under the list: how many tables, and what Enter does from where the focus is."""
        count = len(self.tables)
        if not count:
            self._looking().update(NOTHING_FOUND if self.waited else "Looking for tables...")
            return
        tables = f"{count} table{'s' if count > 1 else ''}"
        if self.focused is self.query_one("#name", Input):
            self._looking().update(Text(f"{tables}: Enter keeps your name and goes to the "
                                        "list, where Enter joins the one selected."))
        else:
            self._looking().update(Text(f"{tables}: Enter joins the one selected."))

    def on_descendant_focus(self) -> None:
        self._say_found()

    def _row(self, ad: TableAd) -> tuple[str, ...]:
        lock = ASCII_LOCK if self.ascii else LOCK
        name = f"{ad.name} {lock}" if ad.pin else ad.name
        where = f"{ad.addresses[0]}:{ad.port}" if ad.addresses else f"port {ad.port}"
        return (name, where, f"{ad.taken}/{ad.seats}", self._state(ad), _rules(ad.game, ad.rules))

    def action_join_selected(self) -> None:
        focused = self.focused
        if isinstance(focused, Input):
            return  # the input's own Enter handles it
        widget = self.query_one("#tables", DataTable)
        if not self.tables or widget.cursor_row < 0:
            self.notify("No table selected. Wait for one, or type an address.")
            return
        self.join(self.tables[min(widget.cursor_row, len(self.tables) - 1)])

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self.tables):
            self.join(self.tables[event.cursor_row])

    def action_type_address(self) -> None:
        self.query_one("#address", Input).focus()

    def action_leave_address(self) -> None:
        """Escape in the address field: back to the list (where q quits again)."""
        self.query_one("#tables", DataTable).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_address":  # (shown in the footer only while typing)
            return isinstance(self.focused, Input)
        if action == "type_address":  # (while typing, / is a character)
            return not isinstance(self.focused, Input)
        return True

    def chosen_name(self) -> str | None:
        """The name typed, if it is one (else the screen says why, and None)."""
        name = self.query_one("#name", Input).value.strip()
        error = self.query_one("#name-error", Static)
        if not valid(name):
            error.update(Text(f"Type your name first: 1 to {LONGEST} letters, digits or signs."))
            self.query_one("#name", Input).focus()
            return None
        error.update("")
        return name

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "name":  # "your seat" is the seat kept under the name typed
            self.player_name = event.value.strip()
            self.show_tables({ad.name: ad for ad in self.tables})

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "name":
            if self.chosen_name() is not None:
                self.query_one("#tables", DataTable).focus()
            return
        error = self.query_one("#address-error", Static)
        try:
            address = parse_address(event.value)
        except ValueError as problem:
            error.update(Text(sentence(str(problem))))  # (it quotes what was typed)
            return
        error.update("")
        self.leave_for(Choice(address))

    def _mine(self, ad: TableAd) -> bool:
        """Whether this user holds a seat at the table's match (kept: net/kept.py)."""
        return self.kept is not None and bool(ad.fingerprint) \
            and self.kept.holds(ad.fingerprint, ad.commitment, self.player_name)

    def _state(self, ad: TableAd) -> str:
        if self._mine(ad):
            return f"{ad.state}, your seat"
        if ad.state == "playing" and ad.taken < ad.seats:
            return "playing, a seat free"  # the host gave away an away player's seat
        return ad.state

    def join(self, ad: TableAd) -> None:
        free = ad.state == "lobby" or (ad.state == "playing" and ad.taken < ad.seats)
        if not free and not self.watching and not self._mine(ad):
            self.notify(f"{ad.name} is {ad.state} with every seat taken. Watch it "
                        "(join --watch), or ask the host to free a seat whose player is away "
                        "(x, in the lobby or between games).", severity="warning")
            return
        # A seat kept here goes back without the PIN: its token proves it (the PIN is asked
        # again only if the table no longer knows the seat).
        self.leave_for(Choice((ad.addresses[0], ad.port), ad.pin and not self._mine(ad),
                              ad.fingerprint_bytes, ad.commitment_bytes))

    def leave_for(self, choice: Choice) -> None:
        name = self.chosen_name()
        if name is not None and self.is_current:  # once: a second Enter does nothing
            self.dismiss(dataclasses.replace(choice, name=name))


def _rules(game: str, text: str) -> str:
    """The game a table plays and its rules, in a few words (they fit 80 columns)."""
    known = GAMES.get(game)
    if known is None:
        return f"{game} (not known here)"  # a newer doubtlan's game
    try:
        return f"{known.title}, {known.options_type.parse(text).brief()}"
    except ValueError:
        return f"{known.title}, {text}"  # rules this doubtlan cannot read: as they came
