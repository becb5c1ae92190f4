"""How the app looks: lobby, discovery list, table, a window's prompt, a reveal, results;
each game's table and results.

The pictures are SVGs under tests/__snapshots__; after a deliberate change of look, review
them with ``pytest tests/test_snapshots.py --snapshot-update`` and commit them. Each game
here is seeded, bots play at once, and the clock is frozen, so a picture is the same on
every run; the hosts present one key, kept in tests/snapshot-host.pem, so the lobby shows the
same words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from apps import DRIVERS, GameDriver, TickingClock, config, drawn, wait_for
from drive_idoubtit import KeyPlayer, asked, view_of
from drive_iknowyoudont import KnowKeyPlayer, know_view
from drive_liarsdeck import LiarKeyPlayer, liar_view
from textual.pilot import Pilot

from doubtlan.net.discovery import TableAd
from doubtlan.net.identity import load_or_make
from doubtlan.rules.iknowyoudont import Pass
from doubtlan.rules.liarsdeck import Lives
from doubtlan.tui.app import DoubtApp, HostSetup, JoinSetup
from doubtlan.tui.games.idoubtit.prompt import Prompt
from doubtlan.tui.screens.key import ChangedKeyScreen
from doubtlan.tui.widgets.history import History
from doubtlan.tui.widgets.players import PlayersPanel

SnapCompare = Callable[..., bool]
#: The hosts' key and certificate: made once (net/identity.py), the same in every picture.
IDENTITY = load_or_make(Path(__file__).with_name("snapshot-host.pem"))


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class PictureApp(DoubtApp):
    """The app with the one thing that differs between machines fixed: its addresses."""

    def join_addresses(self) -> list[str]:
        return ["192.168.1.20:47474"]


def hosting(clock: Callable[[], float] | None = None, bots: int = 2, **changes: Any) -> DoubtApp:
    setup = HostSetup(config(seed=1, **changes), bots=bots, strategy="random",
                      bind="127.0.0.1", identity=IDENTITY)
    return PictureApp("Amy", host=setup, clock=clock or FrozenClock())


async def at_table(pilot: Pilot[Any]) -> None:
    app = pilot.app
    assert isinstance(app, DoubtApp)
    await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
    await wait_for(pilot, lambda: app.client.mirror.table.seats[2].name is not None)  # type: ignore[union-attr]
    await pilot.press("s")
    await wait_for(pilot, lambda: app.play.pane == "table", "the table")  # type: ignore[union-attr]
    await wait_for(pilot, lambda: view_of(app).my_turn, "my turn")  # type: ignore[union-attr]


async def at_a_claim(pilot: Pilot[Any]) -> DoubtApp:
    """At the table, after our first claim, with a bot's claim for us to answer."""
    app = pilot.app
    assert isinstance(app, DoubtApp)
    await at_table(pilot)
    await KeyPlayer(pilot, app).take_turn()
    await wait_for(pilot, lambda: asked(app), "a claim to answer")
    return app


def quiet(app: DoubtApp) -> None:
    """Toasts come and go with time: none in a picture."""
    app.clear_notifications()


async def bots_seated(pilot: Pilot[Any]) -> DoubtApp:
    """Wait until the host's lobby shows its two bots seated."""
    app = pilot.app
    assert isinstance(app, DoubtApp)
    await wait_for(pilot, lambda: app.client and app.client.mirror.table
                   and app.client.mirror.table.seats[2].name is not None, "the bots")
    return app


def test_the_lobby(snap_compare: SnapCompare) -> None:
    assert snap_compare(hosting(pin="4321", players=6), terminal_size=(80, 24),
                        run_before=bots_seated)


def test_the_bot_levels(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = await bots_seated(pilot)
        await pilot.press("b")
        await wait_for(pilot, lambda: app.screen.query("#levels"), "the levels")

    assert snap_compare(hosting(pin="4321", players=6), terminal_size=(80, 24),
                        run_before=run_before)


def test_the_discovery_list(snap_compare: SnapCompare) -> None:
    ads = [
        TableAd("Amy's table", 47474, ("192.168.1.20",), 1, "idoubtit",
                "decks=1,challenge=window", 2, 8, "lobby", False),
        TableAd("Big table", 47474, ("192.168.1.31",), 1, "idoubtit",
                "decks=2,challenge=open", 10, 10, "playing", False),
        TableAd("Office", 5000, ("10.0.0.7",), 1, "idoubtit", "decks=1,challenge=window",
                1, 4, "lobby", True),
    ]

    @asynccontextmanager
    async def browser(on_change: Callable[[dict[str, TableAd]], object]) -> Any:
        on_change({ad.name: ad for ad in ads})
        yield None

    app = DoubtApp("Ben", join=JoinSetup(), browser=browser)

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: pilot.app.screen.query("#tables")
                       and pilot.app.screen.query_one("#tables").row_count == 3)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_a_table_whose_key_changed(snap_compare: SnapCompare) -> None:
    """The question a table of a name joined before asks when it comes back with another
    key: both keys' words side by side, "Don't join" focused."""
    @asynccontextmanager
    async def nobody(on_change: Callable[[dict[str, TableAd]], object]) -> Any:
        yield None  # (no table on the network: the list behind the question is empty)

    app = DoubtApp("Ben", join=JoinSetup(), browser=nobody)

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: pilot.app.screen.query("#tables"))
        await pilot.app.push_screen(ChangedKeyScreen("Office", b"\x02" * 32, b"\x07" * 32))
        await wait_for(pilot, lambda: pilot.app.screen.query("#leave"))

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_table_on_your_turn(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_table(pilot)
        await pilot.press("right", "right")
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(hosting(), terminal_size=size, run_before=run_before)


def test_a_claim_to_doubt_or_let_stand(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        quiet(await at_a_claim(pilot))

    assert snap_compare(hosting(), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_reveal(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    clock = FrozenClock()

    async def run_before(pilot: Pilot[Any]) -> None:
        app = await at_a_claim(pilot)
        assert app.hosted is not None
        app.hosted.table.config.bot_delay = 3600.0  # the next bot lays once, then waits
        clock.now += 1.0  # past the half second in which a doubt is ignored
        await pilot.press("d")
        await wait_for(pilot, lambda: app.seen.notes and app.seen.notes.reveal is not None,  # type: ignore[attr-defined]
                       "the reveal")
        await wait_for(pilot, lambda: view_of(app).laid == 1, "the next lay")  # type: ignore[union-attr]
        quiet(app)

    assert snap_compare(hosting(clock), terminal_size=size, run_before=run_before)


#: The sizes at which the screens that fill with names and figures are looked at: the
#: smallest the app is made for, and a roomy one (nothing cut where there is room).
SIZES = [(80, 24), (120, 40)]


async def at_the_results(pilot: Pilot[Any], player: Any = KeyPlayer) -> DoubtApp:
    """A game played to its end by keys (by ``player``, the game's key player), and its deal
    checked."""
    app = pilot.app
    assert isinstance(app, DoubtApp)
    await at_table(pilot)
    await player(pilot, app).play_game()
    await wait_for(pilot, lambda: app.client.mirror.verdicts, "the deal's check")  # type: ignore[union-attr]
    return app


@pytest.mark.parametrize("size", SIZES)
def test_the_results(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        quiet(await at_the_results(pilot))

    assert snap_compare(hosting(TickingClock()), terminal_size=size, run_before=run_before)


# -- I Know You Don't ---------------------------------------------------------------------


def know_hosting(clock: Callable[[], float] | None = None, rounds: int = 5) -> DoubtApp:
    from doubtlan.rules.iknowyoudont import Options as KnowOptions

    setup = HostSetup(config(seed=5, game="iknowyoudont", options=KnowOptions(rounds=rounds)),
                      bots=2,
                      strategy="random", bind="127.0.0.1", identity=IDENTITY)
    return PictureApp("Amy", host=setup, clock=clock or FrozenClock())


@pytest.mark.parametrize("size", SIZES)
def test_know_the_table_on_your_turn(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_table(pilot)
        await pilot.press("right", "4", "b")
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(know_hosting(), terminal_size=size, run_before=run_before)


def test_know_your_priority(snap_compare: SnapCompare) -> None:
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

    assert snap_compare(know_hosting(), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_know_the_results(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, DoubtApp)
        await at_table(pilot)
        await KnowKeyPlayer(pilot, app).play_game()
        await wait_for(pilot, lambda: app.client.mirror.verdicts, "the deal's check")  # type: ignore[union-attr]
        quiet(app)

    assert snap_compare(know_hosting(TickingClock(), rounds=2), terminal_size=size,
                        run_before=run_before)


async def test_after_a_doubt_your_turn_fits_the_prompt_at_80x24() -> None:
    """Three players at 80x24: Amy doubts the claim of the player before her, and the
    prompt then says what was shown, who takes the pile, and her turn, every line whole."""
    clock = FrozenClock()
    app = hosting(clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_a_claim(pilot)
        while view_of(app).claimer != 2:  # type: ignore[union-attr]
            clock.now += 1.0  # (past the half second in which no answer is taken)
            await pilot.press("p")  # (let the others' claims stand until seat 3 claims)
            await wait_for(pilot, lambda: asked(app) or view_of(app).my_turn,  # type: ignore[union-attr]
                           "a claim to answer, or my turn")
            if view_of(app).my_turn:  # type: ignore[union-attr]
                await KeyPlayer(pilot, app).take_turn()
                await wait_for(pilot, lambda: asked(app), "a claim to answer")
        clock.now += 1.0  # past the half second in which a doubt is ignored
        await pilot.press("d")
        await wait_for(pilot, lambda: view_of(app).my_turn, "my turn after the doubt")  # type: ignore[union-attr]
        prompt = app.play.query_one(Prompt)  # type: ignore[union-attr]
        await wait_for(pilot, lambda: "Your turn" in str(prompt.render()), "the prompt")
        lines = [text.plain.rstrip() for text in prompt.texts]
        assert lines[-1].endswith("then announce (a).") and len(lines) <= prompt.size.height, \
            lines
        assert any(line.startswith("Your turn. Lay 1 to 4 cards as") for line in lines), lines


# -- Liar's Deck --------------------------------------------------------------------------


def liar_hosting(clock: Callable[[], float] | None = None, **changes: Any) -> DoubtApp:
    from doubtlan.rules.liarsdeck import Options as LiarOptions

    setup = HostSetup(config(seed=4, game="liarsdeck", options=LiarOptions(**changes)), bots=2,
                      strategy="random", bind="127.0.0.1", identity=IDENTITY)
    return PictureApp("Amy", host=setup, clock=clock or FrozenClock())


async def at_a_call(pilot: Pilot[Any]) -> None:
    """At the table, Amy's cards put down on each turn until she may call a claim."""
    app = pilot.app
    assert isinstance(app, DoubtApp)
    await at_table(pilot)
    while True:
        await wait_for(pilot, lambda: liar_view(app).my_turn, "my turn")
        view = liar_view(app)
        if view.claimer is not None:
            return
        await pilot.press("enter")
        await wait_for(pilot, lambda v=view: liar_view(app).decision != v.decision, "the put")


@pytest.mark.parametrize("size", SIZES)
def test_liar_a_claim_to_call_with_cards_marked(snap_compare: SnapCompare,
                                                size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await at_a_call(pilot)
        await pilot.press("space", "right", "space")  # two cards marked to put on the claim
        quiet(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(liar_hosting(), terminal_size=size, run_before=run_before)


def test_liar_the_roulette_after_a_call(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, DoubtApp)
        await at_a_call(pilot)
        calls = len(liar_view(app).record)
        await pilot.press("l")
        await wait_for(pilot, lambda: len(liar_view(app).record) > calls, "the call")
        quiet(app)

    assert snap_compare(liar_hosting(lives=Lives.ROULETTE), terminal_size=(80, 24),
                        run_before=run_before)


def test_liar_the_results(snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        quiet(await at_the_results(pilot, LiarKeyPlayer))

    assert snap_compare(liar_hosting(TickingClock()), terminal_size=(80, 24),
                        run_before=run_before)


# -- every game, three bots of one level ------------------------------------------------------


async def claims_from_everyone(pilot: Pilot[Any], clock: FrozenClock,
                               driver: GameDriver) -> DoubtApp:
    """At the table of four, Amy playing by keys and letting every claim stand, until the
    claims list has a claim of each of the three bots and it is Amy's move again."""
    app = pilot.app
    assert isinstance(app, DoubtApp)
    await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
    await wait_for(pilot, lambda: app.client.mirror.table.seats[3].name is not None)  # type: ignore[union-attr]
    await pilot.press("s")
    player = driver.player(pilot, app)
    view = lambda: app.client.mirror.view  # type: ignore[union-attr]  # noqa: E731
    while True:
        await wait_for(pilot, lambda: view() is not None and (
            view().my_turn or driver.may_challenge(app)), "Amy's move")
        if {claim.seat for claim in view().record} >= {1, 2, 3}:
            return app
        clock.now += 1.0  # (past the half second in which no answer is taken)
        before = view()
        if driver.may_challenge(app) and driver.game != "liarsdeck":
            await pilot.press(driver.stand[0])
        else:
            await player.take_turn()
        await wait_for(pilot, lambda b=before: view() is not b, "the move taken")


@pytest.mark.parametrize("game", sorted(DRIVERS))
def test_three_bots_of_one_level_at_80x24(snap_compare: SnapCompare, game: str) -> None:
    """Each bot's name is its own, whole in the players panel and the claims list, and
    its level is beside it in the panel."""
    driver = DRIVERS[game]
    clock = FrozenClock()
    setup = HostSetup(config(players=4, **{"seed": driver.seed, **driver.changes}), bots=3,
                      strategy="counter", bind="127.0.0.1", identity=IDENTITY)

    async def run_before(pilot: Pilot[Any]) -> None:
        app = await claims_from_everyone(pilot, clock, driver)
        quiet(app)
        names = [seat.name for seat in app.client.mirror.table.seats]  # type: ignore[union-attr]
        assert len(set(names)) == 4
        for widget in (PlayersPanel, History):  # (each bot's name whole, in both)
            shown = drawn(app, widget)
            assert all(re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", shown)
                       for name in names[1:]), (names, shown)

    assert snap_compare(PictureApp("Amy", host=setup, clock=clock), terminal_size=(80, 24),
                        run_before=run_before)
