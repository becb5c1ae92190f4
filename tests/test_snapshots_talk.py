"""How table talk and the story of a game look at 80x24 (docs/talk.md, docs/story.md): a
quick word and a line of one's own at the table, the talk box, the host's mute list, and the
story of a game at its first claim, at a claim someone doubted, and at its end. Review them
with ``pytest tests/test_snapshots_talk.py --snapshot-update`` after a change of look."""

from __future__ import annotations

from typing import Any

import pytest
from apps import TickingClock, wait_for
from drive_liarsdeck import LiarKeyPlayer
from test_snapshots import (
    SnapCompare,
    at_table,
    at_the_results,
    bots_seated,
    hosting,
    liar_hosting,
    quiet,
)
from textual.pilot import Pilot

from doubtlan.rules.liarsdeck import Lives
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.screens.story import StoryScreen
from doubtlan.tui.screens.talk import MuteScreen, TalkScreen
from doubtlan.tui.widgets.talk import TalkStrip

SIZE = (80, 24)


def heard(app: DoubtApp, count: int) -> bool:
    return app.client is not None and len(app.client.mirror.talk) == count


def test_talk_at_the_table(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, DoubtApp)
        await at_table(pilot)
        await pilot.press("g")
        await wait_for(pilot, lambda: heard(app, 1), "the quick word")
        await pilot.press("t", *"Ben never bluffs. Never.", "enter")
        await wait_for(pilot, lambda: heard(app, 2), "the line")
        await wait_for(pilot, lambda: app.play.query_one(TalkStrip).more == 1, "the strip")  # type: ignore[union-attr]
        quiet(app)

    assert snap_compare(hosting(), terminal_size=SIZE, run_before=run_before)


def test_the_talk_box(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        await at_table(pilot)
        await pilot.press("t", *"You all lie")
        await wait_for(pilot, lambda: isinstance(app.screen, TalkScreen), "the box")
        quiet(app)  # type: ignore[arg-type]

    assert snap_compare(hosting(), terminal_size=SIZE, run_before=run_before)


def test_the_hosts_mute_list(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = await bots_seated(pilot)
        assert app.hosted is not None
        app.hosted.host.mute(1)
        await wait_for(pilot, lambda: app.client.mirror.table.seats[1].muted, "the mute")  # type: ignore[union-attr]
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MuteScreen)
                       and app.screen.query("#mute-seats"), "the list")

    assert snap_compare(hosting(players=4), terminal_size=SIZE, run_before=run_before)


@pytest.mark.parametrize("step", ["first", "doubted", "end"])
def test_the_story_of_a_game(snap_compare: SnapCompare, step: str) -> None:
    """A short game (Liar's Deck, one life each) told."""
    async def run_before(pilot: Pilot[Any]) -> None:
        app = await at_the_results(pilot, LiarKeyPlayer)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, StoryScreen), "the story")
        screen = app.screen
        assert isinstance(screen, StoryScreen)
        if step == "doubted":
            doubted = next(i for i, s in enumerate(screen.story.steps)
                           if s.told.by is not None and s.told.held is False)
            await pilot.press(*["right"] * doubted)
            assert screen.index == doubted
        elif step == "end":
            await pilot.press("end")
        quiet(app)

    assert snap_compare(liar_hosting(TickingClock(), lives=Lives.ONE), terminal_size=SIZE,
                        run_before=run_before)
