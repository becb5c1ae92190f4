"""The doubtlan app: ``doubtlan host`` and ``doubtlan join`` on a screen.

The app is a client of the host like any other: even the host's own player joins over
loopback through the protocol, so no screen can show what its seat may not see. The host's
app also holds the table's server (:class:`~doubtlan.net.hosted.HostedTable`) and calls its
lobby commands (seat a bot, change the rules, start, next game), which show nothing.

The client runs in a worker of the app's for as long as the app is at the table. The app is
made of parts: its ways to a table and out of it (seating.py: ``Seating``) and what it does
with each message from the host (following.py: ``Following``), which tells the play screen
what changed as Textual messages (messages.py: ``TableChanged``, ``Heard``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from textual import events, work
from textual.binding import Binding

from ..net import last_name
from ..net.client import Client, ConnectionLost
from ..net.errors import WireError
from ..net.hosted import AdvertiseError, HostedTable, WebError, cannot_listen
from ..net.identity import IdentityError, words
from ..net.journal import JournalError
from ..net.kept import KeptSeats
from ..net.pin import NotTheTable
from ..net.record import Record
from ..net.table import Refused
from ..net.web.session import IDLE_ENDED
from ..rules import DEFAULT_GAME, game_named
from .client_state import ClientState
from .collector import QuietCollector
from .following import Following
from .games import table_type
from .idle import game_on
from .messages import Act, HostCommand, Say
from .screens.discovery import BrowserFactory, zeroconf_browser
from .screens.help import HelpScreen
from .screens.host_keys import HostSide
from .screens.message import ConfirmScreen
from .screens.name import NameScreen
from .screens.play import PlayScreen
from .seating import Seating
from .setup import HostSetup, JoinSetup
from .words import sentence


class DoubtApp(Seating, Following):
    """The game on a screen; ``host`` or ``join`` says which side of the table this is."""

    TITLE = "doubtlan"
    #: The command palette (ctrl+p) showed only on the join screen, and offers nothing a key
    #: does not: off, so that every screen has the same keys.
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = Path(__file__).with_name("doubtlan.tcss")  # absolute: subclasses live elsewhere
    BINDINGS = [
        Binding("question_mark", "help", "Rules & keys"),
        Binding("q", "quit_table", "Quit"),
        Binding("ctrl+q", "quit_table", "Quit", show=False, priority=True),
        Binding("ctrl+c", "quit_table", "Quit", show=False, priority=True),  # (docs/app.md)
    ]

    def __init__(
        self,
        name: str,
        *,
        host: HostSetup | None = None,
        join: JoinSetup | None = None,
        ascii: bool = False,
        clock: Callable[[], float] = time.monotonic,
        retry_for: float = 60.0,
        browser: BrowserFactory | None = None,
        kept: KeptSeats | None = None,
        record: Record | None = None,
    ) -> None:
        super().__init__()
        self.player_name = name
        #: Where a joiner's seats are kept, to be taken back after the program stopped, and
        #: where the games played are recorded (the user's data folder's; None: nowhere).
        self.kept, self.record = kept, record
        self.host_setup, self.join_setup = host, join or JoinSetup()
        self.touch = self.join_setup.touch
        self.ascii, self.clock, self.retry_for = ascii, clock, retry_for
        #: Makes the discovery screen's browser (tests give one that touches no network).
        self.browser = browser or zeroconf_browser
        self.hosted: HostedTable | None = None
        self.client: Client | None = None
        self.seen = ClientState()
        self.play: PlayScreen | None = None
        #: The address the client connects to (for the screens and for reconnecting), and
        #: the key its advert names (None when there is no advert to go by).
        self.address: tuple[str, int] | None = None
        self.expected: bytes | None = None
        #: The host's commitment as the advert of the table picked gives it (docs/fairness.md).
        self.advertised: bytes | None = None
        self._ending, self._bots_to_seat, self._frozen = False, 0, False
        self._collector: QuietCollector | None = None
        self._last_input = 0.0

    @property
    def is_host(self) -> bool:
        return self.host_setup is not None

    # -- starting ----------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self._last_input = self.clock()
        await super().on_event(event)

    def _idle_check(self) -> None:
        """A browser seat's app ends itself once nobody has pressed a key for ``idle_end``
        seconds while no game was being played here (net/web: its process is then gone)."""
        limit = self.join_setup.idle_end
        if limit is not None and not self._ending and self.clock() - self._last_input >= limit \
                and not game_on(self.client.mirror if self.client else None):
            self.run_worker(self.shut_down(IDLE_ENDED), group="quit")

    async def on_mount(self) -> None:
        if self.join_setup.idle_end is not None:
            self._last_input = self.clock()
            self.set_interval(min(self.join_setup.idle_end / 4, 30.0), self._idle_check)
        if self.host_setup is not None:
            self.sub_title = "hosting"
            if self.host_setup.ask_name:
                self.push_screen(NameScreen(self.player_name), self._host_named)
            else:
                self.start_hosting()
        elif self.join_setup.address is not None and self.join_setup.ask_name:
            self.push_screen(NameScreen(self.player_name), self._joiner_named)
        elif self.join_setup.address is not None:
            self._join_address()
        else:
            self.push_screen(self._discovery(), self._chosen)

    def _host_named(self, name: str | None) -> None:
        setup = self.host_setup
        assert setup is not None
        if name:
            self.player_name = name
            if setup.name_table:
                setup.config.name = f"{name}'s table"
        self.start_hosting()

    def _joiner_named(self, name: str | None) -> None:
        self.player_name = name or self.player_name
        self._join_address()

    def _join_address(self) -> None:
        assert self.join_setup.address is not None
        self.connect(self.join_setup.address, self.join_setup.pin,
                     fingerprint=self.join_setup.fingerprint)

    @work(exclusive=True, group="host")
    async def start_hosting(self) -> None:
        setup = self.host_setup
        assert setup is not None
        # The bots sit down after the host's player, who takes the first seat.
        try:
            hosted = HostedTable(setup.config, bind=setup.bind, port=setup.port,
                                 advertising=setup.advertising, journal=setup.journal,
                                 resume=setup.resume, identity=setup.identity,
                                 settings={"autostart": False, "next_game_delay": None},
                                 web=setup.web and replace(setup.web, through=self.player_name))
        except (JournalError, IdentityError) as error:
            self.fail(sentence(str(error)))
            return
        hosted.report = lambda text: self.notify(text, title="Browser seat", severity="error")
        # A resumed table has its seats: the host's player takes the first back.
        first = hosted.table.seats[0]
        token = first.token if hosted.resumed and first.strategy is None else None
        seed = first.contribution if token is not None else None  # its seed, as before
        if token is not None and first.name:
            self.player_name = first.name  # (not the login name: it ends the table so too)
        self._bots_to_seat = 0 if hosted.resumed else setup.bots
        try:
            await hosted.start()
        except OSError as error:
            self.fail(cannot_listen(error, setup.bind, setup.port))
            return
        except (AdvertiseError, WebError) as error:
            self.fail(str(error) if isinstance(error, WebError)
                      else f"Cannot advertise the table on the network: {error}.")
            return
        self.hosted = hosted
        # The host's player joins over loopback when the table listens on every address.
        self.connect((hosted.loopback, hosted.port), hosted.table.config.pin, token=token,
                     seed=seed)

    def join_addresses(self) -> list[str]:
        """HOST:PORT texts that others can type to join this app's table."""
        if self.hosted is None:
            return []
        return [f"{address}:{self.hosted.port}" for address in self.hosted.join_addresses()]

    def connect(self, address: tuple[str, int], pin: str | None,
                token: str | None = None, seed: bytes | None = None,
                fingerprint: bytes | None = None) -> None:
        """Join the table at ``address`` (the screens follow what the host sends); with
        ``token``, take that seat back; with ``fingerprint``, refuse a host presenting
        another key."""
        self.address, self.expected = address, fingerprint
        if not self.join_setup.watch:
            last_name.remember(self.player_name)  # the name the next game starts from
        self.seen = ClientState(address="{}:{}".format(*address))
        self.client = Client(
            address[0], address[1], self.player_name, pin=pin, watch=self.join_setup.watch,
            on_message=self._received, retry_for=self.retry_for,
            on_connection=self._connection, token=token, seed=seed or None,
            fingerprint=fingerprint, commitment=self.advertised, via=self.join_setup.via,
            kept=self.kept,  # (the host's own seat too: its key, for a resumed table)
            check_key=None if self.hosted is not None else self._check_key,  # (its own key)
        )
        self.client.mirror.check_at_once = False  # (checked after the reveal: following.py)
        if self.play is None:
            self.play = PlayScreen(ascii=self.ascii, clock=self.clock, host=self._host_side(),
                                   through=self.join_setup.through)
            self.push_screen(self.play)
        self._play(self.client)

    def _host_side(self) -> HostSide | None:
        """What the host's play screen has besides the game; None for a joiner's."""
        hosted, setup = self.hosted, self.host_setup
        if hosted is None or setup is None:
            return None
        return HostSide(self.join_addresses, hosted.table.config.pin, setup.strategy,
                        local=hosted.local, web=hosted.web_addresses,
                        web_fingerprint=hosted.identity.fingerprint if hosted.offer else None)

    @work(exclusive=True, group="net")
    async def _play(self, client: Client) -> None:
        """Run the connection for as long as the app is at the table."""
        try:
            bye = await client.run()
        except NotTheTable as error:
            if client is self.client and not self._ending:
                self._not_the_table(error)
            return
        except (ConnectionLost, OSError, WireError) as error:
            if client is self.client and not self._ending:
                self.lost(str(error))
            return
        if client is self.client and not self._ending:
            self._said_bye(bye)

    # -- what the player does ------------------------------------------------------------

    async def act(self, text: str) -> None:
        """Send an action of the table's game, in its text form (``"lay 7H"``, ``"doubt"``;
        ``"play T3 4B"``, ``"challenge"``)."""
        client = self.client
        view = client.mirror.view if client else None
        info = client.mirror.table if client else None
        if client is None or view is None or info is None:
            return
        if view.window_key is not None and not view.my_turn and self.seen.window_key:
            self.seen.answered.add(self.seen.window_key)  # (this seat's own answer)
        await client.act(game_named(info.game).parse_action(text), view.decision)

    async def on_act(self, message: Act) -> None:
        await self.act(message.text)

    async def on_say(self, message: Say) -> None:
        if self.client is not None:
            await self.client.say(message.line)

    def on_host_command(self, message: HostCommand) -> None:
        self.command(message.do)

    def command(self, do: Callable[[HostedTable], object]) -> bool:
        """Run one of the host's lobby commands; a refusal is told as a notification."""
        if self.hosted is None:
            return False
        try:
            do(self.hosted)
        except Refused as error:
            self.notify(sentence(str(error)), title="Not done", severity="warning")
            return False
        return True

    @property
    def game(self) -> str:
        """The game played at this app's table (the default game until the table says)."""
        info = self.client.mirror.table if self.client else None
        if info is not None:
            return info.game
        return self.host_setup.config.game if self.host_setup else DEFAULT_GAME

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(table_type(self.game).rules, is_host=self.is_host,
                                        key=words(self.seen.key), client=self.client))

    def action_quit_table(self) -> None:
        if isinstance(self.screen, ConfirmScreen):
            return
        hosted, mine = self.hosted, self.client.mirror.seat if self.client else None
        others = hosted is not None and any(  # (people seated besides this player, or away)
            s.taken and s.strategy is None and s.number != mine for s in hosted.table.seats)
        question = ("End the table for everyone?" if others else "End the table?") \
            if hosted is not None and hosted.table.state != "over" else "Leave the table?" \
            if self.client is not None and self.client.mirror.bye is None else "Quit doubtlan?"

        def then(yes: bool | None) -> None:
            if yes:
                self.run_worker(self.shut_down(), group="quit")

        self.push_screen(ConfirmScreen(question), then)

    async def shut_down(self, code: int = 0) -> None:
        """Leave the table (ending it, for the host) and exit."""
        self._ending = True
        client, hosted = self.client, self.hosted
        if hosted is not None:
            await hosted.close("shutdown", f"{self.player_name} ended the table")
        if client is not None:
            if hosted is None and client.mirror.bye is None and client.connected.is_set():
                await client.leave()
            else:
                await client.close()
        self.exit(code, return_code=code)

    async def on_unmount(self) -> None:
        self._ending = True
        if self.hosted is not None:
            await self.hosted.close("shutdown", f"{self.player_name} ended the table")
        if self.client is not None:
            await self.client.close()
        if self._collector is not None:
            self._collector.stop()
            self._collector = None

