"""The table app's side of browser seats: the host's lobby shows the page's address, a QR
code of it and the certificate's fingerprint; a browser seat's app asks the name, says whose
machine it plays through, and ends itself once left idle with no game on."""

from __future__ import annotations

import pytest
from apps import TickingClock, config, wait_for
from textual.widgets import Select, Static

from doubtlan.net.hosted import HostedTable, WebOffer
from doubtlan.net.identity import colons
from doubtlan.net.table import TableConfig
from doubtlan.net.web.session import IDLE_ENDED
from doubtlan.tui.app import DoubtApp, HostSetup, JoinSetup
from doubtlan.tui.idle import game_on
from doubtlan.tui.screens.name import NameScreen
from doubtlan.tui.screens.options import OptionsScreen
from doubtlan.tui.screens.pin import PinScreen
from doubtlan.tui.widgets.qr import MARGIN, QrCode, qr_text

SIZE = (100, 30)


class Clock:
    """An app clock the test moves on by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_the_hosts_lobby_shows_the_pages_address_a_qr_code_and_the_fingerprint() -> None:
    setup = HostSetup(config(name="Web lobby table"), bots=1, strategy="random",
                      bind="127.0.0.1", web=WebOffer(0))
    app = DoubtApp("Amy", host=setup, clock=TickingClock())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby",
                       "the lobby")
        assert app.hosted is not None and app.hosted.web is not None
        web = app.hosted.web
        url = web.url("127.0.0.1")
        assert web.through == "Amy"  # (the pages say whose machine they play through)
        await wait_for(pilot, lambda: url in str(app.play.query_one("#about", Static).render()),
                       "the address in the lobby")
        about = str(app.play.query_one("#about", Static).render())
        pairs = colons(app.hosted.table.fingerprint)
        assert pairs[:47] in about and pairs[48:] in about, about
        qr = app.play.query_one(QrCode)
        assert qr.display and qr.data == url
        # The code: square, two modules a line, with its light margin.
        import segno

        modules = len(list(segno.make(url, error="m", boost_error=False).matrix_iter(
            scale=1, border=MARGIN)))
        lines = qr_text(url).plain.split("\n")
        assert len(lines) == (modules + 1) // 2 and {len(line) for line in lines} == {modules}


async def test_the_rules_dialog_turns_browser_seats_on_and_off() -> None:
    app = DoubtApp("Amy", host=HostSetup(config(name="No web table"), bots=1,
                                         strategy="random", bind="127.0.0.1"),
                   clock=TickingClock())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        assert app.play is not None and app.hosted is not None
        about = lambda: str(app.play.query_one("#about", Static).render())  # noqa: E731
        assert not app.play.query_one(QrCode).display and "browser" not in about()
        for on in (True, False):
            await pilot.press("o")
            await wait_for(pilot, lambda: isinstance(app.screen, OptionsScreen), "the rules")
            app.screen.query_one("#web", Select).value = on
            await pilot.click("#save")
            await wait_for(pilot, lambda on=on: (app.hosted.web is not None) == on  # type: ignore[union-attr,misc]
                           and ("From a browser" in about()) == on, "the lobby to follow")
            assert app.play.query_one(QrCode).display == on


@pytest.fixture
async def table() -> HostedTable:
    hosted = HostedTable(TableConfig(players=3, name="Browser app table", autostart=False),
                         bots=1, strategy="random", bind="127.0.0.1")
    await hosted.start()
    yield hosted  # type: ignore[misc]
    await hosted.close()


async def test_a_browser_seats_app_asks_the_name_and_says_whose_machine(table: HostedTable
                                                                         ) -> None:
    setup = JoinSetup(address=("127.0.0.1", table.port), fingerprint=table.table.fingerprint,
                      ask_name=True, through="Amy")
    app = DoubtApp("", join=setup, clock=TickingClock())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NameScreen), "the name asked")
        assert app.client is None  # (nothing is sent before the name)
        await pilot.press("enter")  # no name: asked again
        assert isinstance(app.screen, NameScreen)
        await pilot.press(*"Zoe", "enter")
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby",
                       "the lobby")
        assert table.table.seats[1].name == "Zoe"
        title = str(app.play.query_one("#titlebar").render())
        assert "you are Zoe · playing through Amy's machine" in title, title


async def test_a_browser_seats_app_ends_itself_when_idle_with_no_game_on(table: HostedTable
                                                                         ) -> None:
    clock = Clock()
    setup = JoinSetup(address=("127.0.0.1", table.port), idle_end=60.0)
    app = DoubtApp("Zoe", join=setup, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        clock.now += 50
        await pilot.press("question_mark")  # a key: the minute starts again
        await pilot.press("escape")
        clock.now += 50
        app._idle_check()
        await pilot.pause()
        assert app.is_running and table.table.seats[1].name == "Zoe"
        clock.now += 11
        app._idle_check()
        await wait_for(pilot, lambda: not app.is_running, "the app to end itself")
    assert app.return_code == IDLE_ENDED
    # It left the table: its seat is free for someone else.
    assert table.table.seats[1].name is None


async def test_a_browser_seat_at_a_table_with_a_pin_is_asked_it() -> None:
    hosted = HostedTable(TableConfig(players=3, name="PIN web table", autostart=False,
                                     pin="4321"), bots=1, strategy="random", bind="127.0.0.1")
    await hosted.start()
    try:
        setup = JoinSetup(address=("127.0.0.1", hosted.port), ask_name=True, through="Amy",
                          fingerprint=hosted.table.fingerprint)
        app = DoubtApp("", join=setup, clock=TickingClock())
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, NameScreen), "the name")
            await pilot.press(*"Zoe", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, PinScreen), "the PIN asked")
            await pilot.press(*"4321", "enter")
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby"
                           and hosted.table.seats[1].name == "Zoe", "Zoe seated")
    finally:
        await hosted.close()


@pytest.mark.parametrize(("state", "on"), [
    ("lobby", False), ("seeding", True), ("playing", True), ("between", True), ("over", False),
])
def test_only_the_lobby_and_the_matchs_end_count_as_idle(state: str, on: bool) -> None:
    """Between two games a player may be away from the keys for a while with a seat to
    come back to: the app never ends itself then, nor while a game is played."""
    from types import SimpleNamespace

    mirror = SimpleNamespace(table=SimpleNamespace(state=state), view=None)
    assert game_on(mirror) is on  # type: ignore[arg-type]
    assert game_on(None) is False


def test_a_hosts_name_that_begins_with_a_dash_reaches_the_page_whole() -> None:
    from doubtlan.cli import build_parser
    from doubtlan.net.identity import make
    from doubtlan.net.web.server import WebSeats

    web = WebSeats(("127.0.0.1", 47474), make(), title="t", through="-Zed")
    args = build_parser().parse_args(web._args(watch=False))
    assert args.through == "-Zed" and args.ask_name and args.address == ("127.0.0.1", 47474)
    assert args.fingerprint == web.fingerprint


def test_a_tabs_app_is_told_its_browser_and_real_address_under_the_tables_key() -> None:
    """(The PIN's limits count a browser seat's knocks by them: tests/test_table.py.)"""
    from doubtlan.cli import build_parser
    from doubtlan.cli_table import join_app
    from doubtlan.net.identity import make
    from doubtlan.net.pin import via_keys, via_mark
    from doubtlan.net.web.server import WebSeats

    key = b"k" * 32
    web = WebSeats(("127.0.0.1", 47474), make(), title="t", via_key=key)
    mark = via_mark(key, "ab" * 16, "192.168.1.30")
    args = build_parser().parse_args(web._args(watch=False, via=mark))
    assert args.via == mark and via_keys(key, args.via) == ("ab" * 16, "192.168.1.30")
    assert join_app(args).join_setup.via == mark
    assert via_keys(b"another key", mark) is None
