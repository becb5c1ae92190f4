"""How the app finds its way to a table and what it does when the table is gone, a part
:class:`~doubtlan.tui.app.DoubtApp` is made of: the list of tables found on the network,
the PIN asked for, a table whose key has changed, a host that cannot prove it is the table,
the host's goodbye, and a table lost (back to the list, or the app ends)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..net import known
from ..net.client import Client
from ..net.hosted import HostedTable
from ..net.kept import KeptSeats
from ..net.messages import Bye
from ..net.pin import NotTheTable
from .device import DeviceApp
from .screens.discovery import BrowserFactory, Choice, DiscoveryScreen
from .screens.key import ChangedKeyScreen
from .screens.message import MessageScreen
from .screens.pin import PinScreen
from .screens.play import PlayScreen
from .setup import JoinSetup
from .widgets.small import COMPACT_CLASS
from .words import goodbye, sentence


class Seating(DeviceApp):
    """The ways to a table, and out when it is gone."""

    #: What the app holds (``DoubtApp.__init__`` sets it): the player's name, the joiner's
    #: setup, the seats kept, the discovery's browser, cards in letters or not, the host's
    #: table, the client and the play screen; the address joined, the key it must present
    #: and the commitment its advert gave.
    player_name: str
    join_setup: JoinSetup
    kept: KeptSeats | None
    browser: BrowserFactory
    ascii: bool
    hosted: HostedTable | None
    client: Client | None
    play: PlayScreen | None
    address: tuple[str, int] | None
    expected: bytes | None
    advertised: bytes | None

    if TYPE_CHECKING:
        # What the app does besides finding its table (app.py, following.py).
        def connect(self, address: tuple[str, int], pin: str | None,
                    token: str | None = None, seed: bytes | None = None,
                    fingerprint: bytes | None = None) -> None: ...
        def _redraw(self) -> None: ...

    def _discovery(self) -> DiscoveryScreen:
        setup = self.join_setup
        return DiscoveryScreen(self.browser, ascii=self.ascii, watch=setup.watch,
                               kept=self.kept, name=self.player_name, named=setup.named)

    def _chosen(self, choice: Choice | None) -> None:
        """The discovery screen's choice: join that table (asking for its PIN first), which
        must present the key its advert names."""
        if choice is None:
            return
        if choice.name:
            self.player_name = choice.name
        self.advertised = choice.commitment
        if choice.pin_needed and not self.join_setup.pin:
            self.ask_pin(choice.address, choice.fingerprint)
        else:
            self.connect(choice.address, self.join_setup.pin, fingerprint=choice.fingerprint)

    def ask_pin(self, address: tuple[str, int], fingerprint: bytes | None = None) -> None:
        def then(pin: str | None) -> None:  # (no PIN: back to the list, or the end)
            if pin:
                self.connect(address, pin, fingerprint=fingerprint)
            elif self.join_setup.address is None:
                self.push_screen(self._discovery(), self._chosen)
            else:
                self.exit(1, return_code=1, message="No PIN given.")

        self.push_screen(PinScreen(), then)

    def _check_key(self, table: str, fingerprint: bytes) -> None:
        """Refuse a table of a name whose key was another the last time this user joined it
        (net/known.py): :meth:`_not_the_table` asks the player then."""
        known.refuse_changed(table, fingerprint, accept=self.join_setup.accept_new_key)

    def _changed_key(self, error: known.KeyChanged) -> None:
        """Ask the player about a table's new key; join again only if they say so."""
        address, pin = self.address, self.client.pin if self.client is not None else None

        def answered(join: bool | None) -> None:
            if join and address is not None:
                known.remember(error.name, error.fingerprint)
                self.connect(address, pin, fingerprint=error.fingerprint)
            else:
                self.lost(f"You did not join {error.name!r}: its key has changed")

        self.push_screen(ChangedKeyScreen(error.name, error.remembered, error.fingerprint),
                         answered)

    def _not_the_table(self, error: NotTheTable) -> None:
        """The host could not prove it is the table it claims to be. When a wrong PIN looks
        the same, the player may type the PIN again; otherwise the table is gone."""
        if isinstance(error, known.KeyChanged):
            self._changed_key(error)
            return
        text = sentence(str(error))
        address, expected = self.address, self.expected
        if error.pin_may_be_wrong and address is not None and self.hosted is None:
            self.push_screen(MessageScreen(text), lambda _: self.ask_pin(address, expected))
        else:
            self.lost(text)

    def _said_bye(self, bye: Bye | None) -> None:
        if bye is None:
            self.lost("The connection to the table ended.")
        elif bye.code == "match_over":
            self._redraw()
            if not self.has_class(COMPACT_CLASS) and not self.touch:  # (no toast on a phone)
                self.notify("Play at this table is over. Press q to leave.", title="The end")
        elif bye.code == "left":
            self.exit(0)
        elif bye.code == "wrong_pin" and self.address is not None and self.hosted is None:
            self.notify(goodbye(bye), severity="warning")
            self.ask_pin(self.address, self.expected)
        else:
            self.lost(goodbye(bye))

    def lost(self, text: str) -> None:
        """The table is gone for this player: say why, then back to the list or out."""
        text = sentence(text)
        if self.hosted is None and self.join_setup.address is None:
            self.client, self.play = None, None
            self.run_worker(self.back_to_discovery(text), group="screens")
        else:
            self.fail(text)

    async def back_to_discovery(self, text: str) -> None:
        """Back to the list of tables, with ``text`` on top."""
        while len(self.screen_stack) > 1:
            await self.pop_screen()
        await self.push_screen(self._discovery(), self._chosen)
        await self.push_screen(MessageScreen(text))

    def fail(self, text: str) -> None:
        """Show ``text``; the app ends once it is read."""
        self.push_screen(MessageScreen(text, then_quit=True))
