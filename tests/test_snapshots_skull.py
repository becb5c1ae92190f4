"""How Skull's table looks (tests/test_snapshots.py says how the pictures are kept the same):
the bidding on your turn with its buttons, the stacks turned after a bid, and the results,
at 80x24 and in the compact layout of a phone (40x30) and a narrow terminal (50x36).

Review them with ``pytest tests/test_snapshots_skull.py --snapshot-update`` after a change of
look.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from apps import TickingClock, wait_for
from drive_skull import SkullKeyPlayer, skull_view
from test_snapshots import (
    IDENTITY,
    FrozenClock,
    PictureApp,
    SnapCompare,
    at_table,
    at_the_results,
    config,
    quiet,
)
from textual.pilot import Pilot

from doubtlan.rules.skull import Options, Phase
from doubtlan.tui.app import DoubtApp, HostSetup

SIZES = [(80, 24), (40, 30), (50, 36)]


def skull_hosting(clock: Callable[[], float] | None = None) -> DoubtApp:
    setup = HostSetup(config(seed=2, game="skull", options=Options()), bots=2,
                      strategy="random", bind="127.0.0.1", identity=IDENTITY)
    return PictureApp("Amy", host=setup, clock=clock or FrozenClock())


async def at_a_bid(pilot: Pilot[Any]) -> DoubtApp:
    """At the table, Amy's discs laid by keys until she may bid, her number raised to 2."""
    app = pilot.app
    assert isinstance(app, DoubtApp)
    await at_table(pilot)
    player = SkullKeyPlayer(pilot, app)
    while True:
        await wait_for(pilot, lambda: skull_view(app).my_turn, "my turn")
        view = skull_view(app)
        if view.phase is not Phase.OPENING:
            break
        await player.take_turn()
    await pilot.press("plus")
    return app


@pytest.mark.parametrize("size", SIZES)
def test_skull_your_turn_to_lay_or_bid(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        quiet(await at_a_bid(pilot))

    assert snap_compare(skull_hosting(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES[:2])
def test_skull_the_results(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        quiet(await at_the_results(pilot, SkullKeyPlayer))

    assert snap_compare(skull_hosting(TickingClock()), terminal_size=size,
                        run_before=run_before)
