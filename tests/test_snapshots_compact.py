"""How the app looks in its compact layout (tui/widgets/small.py), at the smallest screen it
is made for, 40x30 (a phone held upright), and at 50x36 (a narrow terminal split): the
name, the lobby, each game's table on your turn and with a claim to answer, the results,
the story, the help and the talk box. Cards and buttons are three lines tall, for a thumb.

Review them with ``pytest tests/test_snapshots_compact.py --snapshot-update`` after a
change of look (tests/test_snapshots.py says how the pictures are kept the same).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from apps import TickingClock, wait_for
from drive_iknowyoudont import KnowKeyPlayer, know_view
from drive_liarsdeck import LiarKeyPlayer
from test_snapshots import (
    SnapCompare,
    at_a_call,
    at_a_claim,
    at_table,
    at_the_results,
    bots_seated,
    hosting,
    know_hosting,
    liar_hosting,
    quiet,
)
from textual.pilot import Pilot

from doubtlan.net.discovery import TableAd
from doubtlan.rules.iknowyoudont import Pass
from doubtlan.rules.liarsdeck import Lives
from doubtlan.tui.app import DoubtApp, HostSetup, JoinSetup
from doubtlan.tui.screens.help import HelpScreen
from doubtlan.tui.screens.name import NameScreen
from doubtlan.tui.screens.options import OptionsScreen
from doubtlan.tui.screens.story import StoryScreen
from doubtlan.tui.screens.talk import TalkScreen

#: A phone held upright, and a narrow terminal.
SIZES = [(40, 30), (50, 36)]


@pytest.fixture(params=SIZES, ids=["40x30", "50x36"])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param  # type: ignore[no-any-return]


def test_the_name(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    app = hosting()
    assert app.host_setup is not None
    app.host_setup = HostSetup(**{**app.host_setup.__dict__, "ask_name": True})

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, NameScreen), "the name")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_the_discovery_list(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    """(A narrow terminal's `doubtlan join`: the tables found, by a browser that touches no
    network.)"""
    ads = [
        TableAd("Amy's table", 47474, ("192.168.1.20",), 1, "idoubtit",
                "decks=1,challenge=window", 2, 8, "lobby", False),
        TableAd("Office", 5000, ("10.0.0.7",), 1, "liarsdeck", "decks=1,lives=3", 1, 4,
                "lobby", True),
    ]

    @asynccontextmanager
    async def browser(on_change: Callable[[dict[str, TableAd]], object]) -> Any:
        on_change({ad.name: ad for ad in ads})
        yield None

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: pilot.app.screen.query("#tables")
                       and pilot.app.screen.query_one("#tables").row_count == 2)

    assert snap_compare(DoubtApp("Ben", join=JoinSetup(), browser=browser), terminal_size=size,
                        run_before=run_before)


def test_the_rules_dialog(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await bots_seated(pilot)
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, OptionsScreen), "the rules")

    assert snap_compare(hosting(), terminal_size=size, run_before=run_before)


def test_the_lobby(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(hosting(pin="4321", players=6), terminal_size=size,
                        run_before=bots_seated)


def test_the_table_on_your_turn(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_table(pilot)
        await pilot.press("right", "right", "enter")  # (a card laid: the Announce button)
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(hosting(), terminal_size=size, run_before=run_before)


def test_a_claim_to_doubt_or_let_stand(snap_compare: SnapCompare,
                                       size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        quiet(await at_a_claim(pilot))

    assert snap_compare(hosting(), terminal_size=size, run_before=run_before)


def test_the_results(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        quiet(await at_the_results(pilot, LiarKeyPlayer))

    assert snap_compare(liar_hosting(TickingClock()), terminal_size=size,
                        run_before=run_before)


def test_the_story(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = await at_the_results(pilot, LiarKeyPlayer)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, StoryScreen), "the story")
        quiet(app)

    assert snap_compare(liar_hosting(TickingClock(), lives=Lives.ONE), terminal_size=size,
                        run_before=run_before)


def test_the_help(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_table(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help")
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(hosting(), terminal_size=size, run_before=run_before)


def test_the_talk_box(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_table(pilot)
        await pilot.press("t", *"You all lie")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TalkScreen), "the box")
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(hosting(), terminal_size=size, run_before=run_before)


# -- I Know You Don't ---------------------------------------------------------------------


def test_know_the_table_on_your_turn(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_table(pilot)
        await pilot.press("right", "4", "b")
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(know_hosting(), terminal_size=size, run_before=run_before)


def test_know_your_priority(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, DoubtApp)
        await at_table(pilot)
        player = KnowKeyPlayer(pilot, app)
        while not know_view(app).can(Pass):
            if know_view(app).my_turn:
                await player.take_turn()
                await wait_for(pilot, lambda: not know_view(app).my_turn, "played")
            await wait_for(pilot, lambda: know_view(app).my_turn or know_view(app).can(Pass),
                           "my turn or my priority")
        quiet(app)

    assert snap_compare(know_hosting(), terminal_size=size, run_before=run_before)


# -- Liar's Deck --------------------------------------------------------------------------


def test_liar_a_claim_to_call_with_cards_marked(snap_compare: SnapCompare,
                                                size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_a_call(pilot)
        await pilot.press("space", "right", "space")  # two cards marked to put on the claim
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(liar_hosting(), terminal_size=size, run_before=run_before)
