"""Names and messages from the network are shown as they are written: a table, a player or
a host's message may hold ``[``, which Textual would otherwise read as markup ("[/]" alone
stopped the screen that showed it)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Any

from apps import FrozenClock, host_app, join_app, wait_for

from doubtlan.net.discovery import TableAd
from doubtlan.tui.app import DoubtApp, JoinSetup
from doubtlan.tui.screens.key import ChangedKeyScreen
from doubtlan.tui.screens.message import MessageScreen
from doubtlan.tui.screens.talk import MuteScreen

SIZE = (100, 30)
EVIL = "[/] x [b]y"


async def test_a_table_named_like_markup_is_listed_as_named() -> None:
    ad = TableAd(EVIL, 47474, ("192.168.1.20",), 1, "idoubtit", "decks=1,challenge=window",
                 1, 4, "lobby", False)

    @asynccontextmanager
    async def browser(on_change: Callable[[dict[str, TableAd]], object]) -> Any:
        on_change({ad.name: ad})
        yield None

    app = DoubtApp("Ben", join=JoinSetup(), browser=browser)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#tables")
                       and app.screen.query_one("#tables").row_count == 1, "the table")
        table = app.screen.query_one("#tables")
        assert str(table.get_cell_at((0, 0))) == EVIL  # type: ignore[attr-defined]
        # An address typed like markup is refused in a sentence that quotes it.
        await pilot.press("enter")  # (the name as it is: on to the list)
        await pilot.press("slash", *"[/]x:99999", "enter")
        await wait_for(pilot, lambda: "[/]x" in str(app.screen.query_one(
            "#address-error").render()), "the refusal")
        # A table of that name that comes back with another key is asked about by name.
        await app.push_screen(ChangedKeyScreen(EVIL, b"\x02" * 32, b"\x07" * 32))
        await wait_for(pilot, lambda: app.screen.query("#leave"), "the question")
        assert EVIL in str(app.screen.query_one("#message").render())


async def test_a_player_named_like_markup_is_muted_by_name_and_messages_are_text() -> None:
    amy = host_app(players=3, bots=1)
    amy.clock = FrozenClock()
    async with amy.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: amy.hosted is not None and amy.play is not None
                       and amy.play.pane == "lobby", "Amy's lobby")
        assert amy.hosted is not None
        evil = join_app(amy.hosted, name="[/]")
        async with evil.run_test(size=SIZE) as evil_pilot:
            await wait_for(evil_pilot, lambda: evil.play is not None
                           and evil.play.pane == "lobby", "the lobby")
            await wait_for(pilot, lambda: amy.client.mirror.table.seats[2].name == "[/]")  # type: ignore[union-attr]
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(amy.screen, MuteScreen)
                           and amy.screen.query("#mute-seats"), "the mute list")
            await pilot.pause()
            prompt = amy.screen.query_one("#mute-seats").get_option_at_index(1).prompt  # type: ignore[attr-defined]
            assert str(prompt).startswith("[/]")
            await pilot.press("escape")
        amy.notify(f"{EVIL} left", title="Not done")
        await amy.push_screen(MessageScreen(f"The host said: {EVIL}"))
        await pilot.pause()
        assert EVIL in str(amy.screen.query_one("#message").render())
