"""The table app, driven by key presses and clicks with Pilot, against real hosts on
loopback (no advertising; discovery is given a browser that touches no network).

First what every game's table does alike (the contract: each test runs once per game of
``rules.GAMES``, driven by that game's driver in tests/apps.py); then I Doubt It's own
tests; then the app around the table (lobby, joining, discovery, errors, quitting), tried
at an I Doubt It table. tests/test_app_iknowyoudont.py has I Know You Don't's own tests."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from apps import (
    DRIVERS,
    FrozenClock,
    TickingClock,
    acts_of,
    at_a_challenge,
    click_text,
    config,
    drawn,
    host_app,
    join_app,
    place_of,
    start_match,
    wait_for,
)
from drive_idoubtit import KeyPlayer, asked, view_of
from games import WINDOWED
from rich.text import Text
from textual.app import App, ComposeResult
from textual.events import MouseScrollUp
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Input, Label, Markdown, OptionList, Select, Static

from doubtlan.net import known
from doubtlan.net.client import Client
from doubtlan.net.discovery import TableAd
from doubtlan.net.hosted import HostedTable
from doubtlan.net.identity import words
from doubtlan.net.kept import Kept, KeptSeats
from doubtlan.net.table import LEAST_WINDOW
from doubtlan.rules import GAMES, Card, ChallengeMode, Claim, Rank, game_named
from doubtlan.rules.idoubtit import Resolved
from doubtlan.tui.app import DoubtApp, HostSetup, JoinSetup
from doubtlan.tui.collector import FULL_PASSES_OFF, QuietCollector
from doubtlan.tui.games.idoubtit.hand import Hand
from doubtlan.tui.games.idoubtit.history import DoubtHistory
from doubtlan.tui.games.idoubtit.prompt import DOUBT, STAND, Prompt
from doubtlan.tui.games.idoubtit.results import DoubtResults
from doubtlan.tui.screens.discovery import Choice, DiscoveryScreen
from doubtlan.tui.screens.help import HelpScreen
from doubtlan.tui.screens.key import ChangedKeyScreen
from doubtlan.tui.screens.levels import LevelScreen
from doubtlan.tui.screens.message import ConfirmScreen, MessageScreen
from doubtlan.tui.screens.options import OptionsScreen
from doubtlan.tui.widgets.keys import KeyLine
from doubtlan.tui.widgets.lines import clickable
from doubtlan.tui.widgets.lobby import Lobby
from doubtlan.tui.widgets.small import SmallNotice
from doubtlan.tui.widgets.titlebar import TitleBar

SIZE = (100, 30)


def answered(app: DoubtApp, turns: int) -> bool:
    """True once this seat's answer to claim ``turns`` is in (or the table moved on)."""
    view = view_of(app)
    return view is not None and (view.decision != turns or view.my_answer is not None)

def text_of(app: DoubtApp, selector: str) -> str:
    """The plain text a Static shows."""
    return str(app.screen.query_one(selector, Static).render())

class Alone(App[None]):
    """One widget by itself, to look at it closely."""

    def __init__(self, widget: Widget) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget

def results_text(app: DoubtApp) -> str:
    assert app.play is not None
    return str(app.play.query_one(DoubtResults).title)

@asynccontextmanager
async def hosted_table(**changes: object) -> AsyncIterator[HostedTable]:
    """A headless table on loopback, for join apps to join."""
    bots = int(changes.pop("bots", 2))  # type: ignore[call-overload]
    settings: dict[str, object] = {"autostart": True, "next_game_delay": 0.0, "games": 1}
    settings.update(changes)
    hosted = HostedTable(config(**settings), bots=bots, strategy="random", bind="127.0.0.1")
    await hosted.start()
    try:
        yield hosted
    finally:
        await hosted.close()


# -- every game's table (the contract) --------------------------------------------------------


def test_every_game_has_a_driver() -> None:
    """Each game's own tests file says how the app tests play it (tests/drive_NAME.py)."""
    assert {name: DRIVERS[name].game for name in GAMES} == {name: name for name in GAMES}


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_by_keys_reaches_the_results_and_the_host_deals_the_next(
        game: str) -> None:
    driver = DRIVERS[game]
    app = driver.host_app(seed=driver.seed)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        player = driver.player(pilot, app)
        view = await player.play_game()
        assert view.winner is not None
        results = app.play.query_one(driver.results)  # type: ignore[union-attr]
        text = str(results.render())
        assert ("You win!" in text) == (view.winner == 0) == ("You win!" in str(results.title))
        assert len(results.rows) == view.players and "Amy (you)" in text
        driver.check_results(results, view, player)
        # The app checked the deal against the host's reveal, and says so.
        await wait_for(pilot, lambda: 1 in app.client.mirror.verdicts, "the check")  # type: ignore[union-attr]
        await wait_for(pilot, lambda: str(results.deal).startswith("Deal verified"), "told")
        assert "fixed seed" in str(results.deal) and "Deal verified" in str(results.render())
        word = game_named(game).words.game  # (I Know You Don't's "match", everywhere)
        assert f"n deals the next {word} " in text and f"Next {word}" in drawn(app, KeyLine)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.play.pane == "table", "the next game")  # type: ignore[union-attr]
        second = view_of(app)
        assert second is not None and second.opener == 1  # the first move is one seat on
        assert app.client is not None and app.client.mirror.table is not None
        assert app.client.mirror.table.tally[view.winner] == 1
        hand = app.play.query_one(driver.hand)  # type: ignore[union-attr]
        await wait_for(pilot, lambda: hand.cards, "the new hand")  # type: ignore[attr-defined]
        assert hand.cursor == 0  # type: ignore[attr-defined]  # on its first card, as game 1


@pytest.mark.parametrize("game", WINDOWED)
async def test_a_challenge_in_the_first_half_second_of_its_clock_is_ignored(game: str) -> None:
    driver = DRIVERS[game]
    key, action, button = driver.challenge
    async with at_a_challenge(driver) as (pilot, app, clock, sent):
        assert button in drawn(app, driver.prompt)
        turns = app.client.mirror.view.decision  # type: ignore[union-attr]
        await pilot.press(key)
        assert action not in sent and driver.may_challenge(app)
        clock.now += 0.6
        await pilot.press(key)
        assert sent[-1] == action
        await wait_for(pilot, lambda: app.client.mirror.view.decision != turns  # type: ignore[union-attr]
                       or not driver.may_challenge(app), "the challenge")


@pytest.mark.parametrize("game", GAMES)
async def test_the_lobby_and_the_help_tell_the_games_rules_and_keys(game: str) -> None:
    driver = DRIVERS[game]
    app = driver.host_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        assert app.play is not None
        assert driver.lobby_rules in str(app.play.query_one("#about").render())
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        rules = app.screen.rules  # type: ignore[attr-defined]
        for words in driver.help_words:
            assert words in rules, words
        for other in set(GAMES) - {game}:
            assert game_named(other).title not in rules
        how = str(app.screen.query_one(".help-how", Static).render())
        assert "scroll this help" in how and "Escape, ? or q closes it" in how
        least = game_named(game).options_type().min_players  # (the host's keys: its rules')
        assert app.screen.fewest == least  # type: ignore[attr-defined]
        word = game_named(game).words.game  # (the help says the game's own: "the next match")
        source = app.screen.query_one(Markdown).source
        assert f"deal the first {word} ({least} or more seated)" in source
        assert f"deal the next {word} |" in source
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed")


@pytest.mark.parametrize("game", GAMES)
async def test_the_options_dialog_offers_the_games_own_options(game: str) -> None:
    driver = DRIVERS[game]
    rules = game_named(game)
    fields = rules.options_type.fields
    app = driver.host_app(players=4)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, OptionsScreen), "the options")
        # A Select for each of the game's options (and no other but the browser seats'), on
        # its value now.
        assert {select.id for select in app.screen.query(Select)} == \
            {f.name for f in fields} | {"web"}
        assert app.screen.query_one("#web", Select).value is False
        labels = [str(label.render()) for label in app.screen.query(Label)]
        for field in fields:
            assert field.label in labels
            assert app.screen.query_one(f"#{field.name}", Select).value == field.default
        # The window's seconds, for a game that has a window clock.
        windowed = rules.window_label is not None
        assert (rules.window_label or "").capitalize() in labels if windowed \
            else not app.screen.query("#window")
        # The seats the chosen rules allow, and numbers only.
        most = rules.options_type().max_players
        app.screen.query_one("#players", Input).value = str(most + 1)
        await pilot.click("#save")
        least = rules.options_type().min_players
        assert text_of(app, "#options-error") == f"Seats: {least} to {most}."
        seats = app.screen.query_one("#players", Input)
        seats.value = "abc"
        seats.focus()
        await pilot.press("enter")  # Enter in a field saves, as the button does
        assert "type a number" in text_of(app, "#options-error")
        seats.value = "3"
        if windowed:
            window = app.screen.query_one("#window", Input)
            window.value = "1"  # the command line's least window too: time to read and answer
            await pilot.press("enter")
            assert text_of(app, "#options-error").endswith(f": {LEAST_WINDOW:g} to 3600.")
            window.value = "5"
        name, value, told = driver.option
        app.screen.query_one(f"#{name}", Select).value = value
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, OptionsScreen), "saved")
        assert app.hosted is not None
        assert app.hosted.table.config.options == rules.options_type.parse(told)
        await wait_for(pilot, lambda: app.client.mirror.table.rules == told,  # type: ignore[union-attr]
                       "the rules told")
        info = app.client.mirror.table  # type: ignore[union-attr]
        assert info.players == 3 and (info.window == 5.0 or not windowed)


@pytest.mark.parametrize("game", GAMES)
async def test_a_spectator_sees_the_table_and_no_cards(game: str) -> None:
    driver = DRIVERS[game]
    async with hosted_table(bots=3, bot_delay=0.05, games=0, **driver.changes) as hosted:
        hosted.host.start_when_full()  # three bots: nobody else to wait for
        app = join_app(hosted, watch=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "table")
            view = app.client.mirror.view  # type: ignore[union-attr]
            assert view is not None and view.seat is None and view.hand == ()
            hand = app.play.query_one(driver.hand)  # type: ignore[union-attr]
            assert f"Watching: nobody's {hand.HOLDS[1]}" in str(hand.render())  # type: ignore[attr-defined]
            assert "Your hand" not in str(hand.render())


@pytest.mark.parametrize("game", GAMES)
async def test_your_turn_rings_the_bell_and_is_told_in_the_title_bar_until_it_ends(
        game: str) -> None:
    clock = FrozenClock()
    driver = DRIVERS[game]
    # (The bots take their time: the turn is seen to pass to them, not to come straight back.)
    app = driver.host_app(seed=driver.seed, bot_delay=0.05)
    app.clock = clock
    bells: list[float] = []
    app.bell = lambda: bells.append(clock.now)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: app.client.mirror.view.my_turn, "my turn")  # type: ignore[union-attr]
        title = app.play.query_one(TitleBar)  # type: ignore[union-attr]
        await wait_for(pilot, lambda: title.notice == "Your turn", "the notice")
        rang = clock.now
        assert bells == [rang] and "Your turn" in str(title.render())
        clock.now += 30.0
        await pilot.pause(0.2)  # two ticks of the screen's clock: still told
        assert title.notice == "Your turn"
        # Every notice from now on (the bots may hand the turn back within a frame or two:
        # the notice is seen to go with the turn, not waited for).
        told: list[str] = []
        tell = title.tell
        title.tell = lambda notice: (told.append(notice), tell(notice))[1]  # type: ignore[method-assign]
        await driver.player(pilot, app).take_turn()  # (the first card does not end it)
        await wait_for(pilot, lambda: "" in told, "the notice to go with the turn")
        assert told[0] == ""  # (the first card did not end it: the move did)
        # Once a turn: a bell for each turn told (one that comes back is a new one).
        assert bells[0] == rang and len(bells) == 1 + told.count("Your turn")


# -- I Doubt It's table ------------------------------------------------------------------


async def test_the_host_can_lose_and_sees_who_won() -> None:
    app = host_app(seed=LOSING_SEED, strategy="counter")
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        view = await KeyPlayer(pilot, app).play_game()
        assert view.winner not in (None, 0)
        assert "wins." in results_text(app) and "You win" not in results_text(app)


LOSING_SEED = 1


async def test_clicks_do_what_keys_do() -> None:
    app = host_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: view_of(app).my_turn, "my turn")  # type: ignore[union-attr]
        hand = app.play.query_one(Hand)  # type: ignore[union-attr]
        second = hand.cards[1]
        sent = acts_of(app)
        await click_text(pilot, hand, second.label())  # picks the card: a tap lays nothing
        await wait_for(pilot, lambda: hand.card == second, "the card picked")
        await pilot.pause()
        assert sent == [] and not view_of(app).my_laid  # type: ignore[union-attr]
        await click_text(pilot, hand, f"Lay {second.label()} (enter)")  # the button lays it
        await wait_for(pilot, lambda: second in view_of(app).my_laid, "the lay")  # type: ignore[union-attr]
        assert second not in hand.cards and sent == [f"lay {second.code}"]
        await click_text(pilot, hand, "Announce (a)")
        await wait_for(pilot, lambda: view_of(app).decision >= 1, "the claim")  # type: ignore[union-attr]
        # A bot's claim asks us: the button lets it stand.
        await wait_for(pilot, lambda: asked(app), "a window")
        turns = view_of(app).decision  # type: ignore[union-attr]
        prompt = app.play.query_one(Prompt)  # type: ignore[union-attr]
        assert prompt.answers == (DOUBT, STAND)
        await click_text(pilot, prompt, "Let it stand (p)")
        await wait_for(pilot, lambda: answered(app, turns), "the answer")


@pytest.mark.parametrize("ascii", [False, True])
async def test_cards_are_drawn_with_suits_or_letters(ascii: bool) -> None:
    app = host_app(seed=1)
    app.ascii = ascii
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        hand = app.play.query_one(Hand)  # type: ignore[union-attr]
        cards = str(hand.render()).splitlines()[1].split()
        assert cards == [card.label(ascii) for card in hand.cards[:len(cards)]]
        assert all(card[-1] in ("CDHS" if ascii else "♣♦♥♠") for card in cards)


async def test_the_claims_list_shows_the_newest_and_scrolls_back_with_the_wheel() -> None:
    def claim(number: int) -> Resolved:
        return Resolved(seat=number % 3, claim=Claim(1 + number % 4, Rank.ACE), shown=None,
                        doubter=None, honest=None, taker=None, taken=0, next_rank=Rank.TWO)

    names = {0: "Amy", 1: "Ben", 2: "Clara"}
    app = Alone(DoubtHistory(id="history"))
    async with app.run_test(size=(32, 12)) as pilot:
        history = app.query_one(DoubtHistory)
        claims = tuple(claim(n) for n in range(30))
        history.show(1, claims, names)
        await pilot.pause()
        shown = str(history.render()).splitlines()
        assert history.room == 9 and len(shown) == 10  # the header and the newest nine
        assert shown[-1].split() == ["Clara", "2", "A", "stood"]  # claim 29
        for _ in range(2):
            history.post_message(MouseScrollUp(history, 1, 1, 0, -1, 0, False, False, False))
        await pilot.pause()
        assert history.back == 2 and history.border_subtitle == "2 newer below"
        back = str(history.render()).splitlines()
        # The header, then claims 19 to 27 (shown were 21 to 29).
        assert back[0] == shown[0] and len(back) == 10 and back[3:] == shown[1:8]
        # A new claim keeps a reader who scrolled back on the same lines.
        history.show(1, (*claims, claim(30)), names)
        assert str(history.render()).splitlines() == back and history.back == 3
        # A new game starts the list again, at the newest.
        history.show(2, claims[:2], names)
        assert history.back == 0 and len(str(history.render()).splitlines()) == 3
        assert history.border_subtitle == ""


async def test_names_in_the_claims_list_are_as_wide_as_the_list_allows() -> None:
    names = {0: "Amy", 1: "counter bot", 2: "counter bot (2)"}
    claim = Resolved(seat=1, claim=Claim(1, Rank.ACE), shown=None, doubter=None, honest=None,
                     taker=None, taken=0, next_rank=Rank.TWO)
    app = Alone(DoubtHistory(id="history"))
    async with app.run_test(size=(36, 6)) as pilot:  # the list of a 120-column screen
        history = app.query_one(DoubtHistory)
        history.show(1, (claim,), names)
        await pilot.pause()
        assert history.name_width == 12
        assert str(history.render()).splitlines()[1].split()[:2] == ["counter", "bot"]
        await pilot.resize_terminal(32, 6)  # 80 or 100 columns: narrower names
        await pilot.pause()
        assert history.name_width == 8
        assert str(history.render()).splitlines()[1].split()[0] == "counter"


def test_names_in_the_claims_list_are_short_and_told_apart() -> None:
    from doubtlan.tui.widgets.history import short_names

    names = {0: "Amy", 1: "counter bot", 2: "counter bot (2)", 3: "Bartholomew"}
    assert short_names(names) == {0: "Amy", 1: "counte", 2: "cou(2)", 3: "Bartho"}
    assert short_names({0: "Amy", 1: "Amy (2)"}) == {0: "Amy", 1: "Amy(2)"}  # (its number whole)
    assert short_names({0: "Alexander", 1: "Alexandra"}) == {0: "Alexa1", 1: "Alexa2"}
    # The players panel's: a cut ends in "…", each seat in its own width.
    assert short_names({0: "Bartholomew", 1: "Amy", 2: "Bartholomeo"}, {0: 6, 1: 2, 2: 8},
                       ellipsis=True) == {0: "Barth…", 1: "A…", 2: "Barthol…"}
    assert short_names({0: "Bartholomew", 1: "Bartholomeo"}, 6, ellipsis=True) == \
        {0: "Barth1", 1: "Barth2"}


async def test_the_countdown_starts_full_and_follows_the_time_left() -> None:
    app = Alone(Prompt())
    async with app.run_test(size=(40, 9)) as pilot:
        prompt = app.query_one(Prompt)

        def bar() -> str:
            return str(prompt.render()).splitlines()[-2]

        prompt.say("Bob claims three 7s", (DOUBT, STAND), ask=True)
        prompt.countdown(10, 10)
        await pilot.pause()
        width = prompt.size.width
        assert prompt.texts[-2].plain == "━" * width
        assert [(span.start, span.end) for span in prompt.texts[-2].spans] == [(0, width)]
        prompt.countdown(5, 10)
        await pilot.pause()
        assert prompt.texts[-2].spans[0].end == round(width / 2)  # the part still to run
        prompt.say("Ben claims one 2", (DOUBT,))  # no window: no bar
        prompt.say("Cy claims two 4s", (DOUBT, STAND), ask=True)  # a new window: full again
        assert prompt.texts[-2].spans[0].end == width
        assert bar() == "━" * width


async def test_a_new_theme_redraws_the_hand_in_its_colours() -> None:
    app = Alone(Hand())
    async with app.run_test(size=(40, 6)) as pilot:
        hand = app.query_one(Hand)
        hand.show(tuple(Card.parse(code) for code in ("AS", "7H", "KD")))
        await pilot.pause()

        def cursor_colour() -> object:
            return hand.render_line(1)._segments[0].style.bgcolor  # type: ignore[union-attr]

        before = cursor_colour()
        app.theme = "gruvbox"
        await pilot.pause()
        assert cursor_colour() != before
        assert hand.texts[1].spans[0].style == hand.get_component_rich_style("hand--cursor") \
            + clickable("pick(0, 'AS')")


async def test_a_click_picks_the_card_clicked_among_cards_alike() -> None:
    hand = Hand()
    app = Alone(hand)
    async with app.run_test(size=(40, 6)) as pilot:
        hand.show(tuple(Card.parse(code) for code in ("AS", "7H", "AS")))
        await pilot.pause()
        x, y = place_of(hand, "7♥")  # (the second ace is after it)
        await pilot.click(hand, offset=(x + 5, y))
        assert hand.cursor == 2  # the second ace, not the first
        hand.show(tuple(Card.parse(code) for code in ("7H", "AS")))  # changed under the mouse
        hand.action_pick(2, "AS")  # (the click drawn before: the ace is at 1 now)
        assert hand.cursor == 1


# -- the lobby -------------------------------------------------------------------------------


async def test_the_host_seats_and_removes_bots_sets_the_rules_and_starts() -> None:
    app = host_app(bots=1, players=8)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        info = lambda: app.client.mirror.table  # type: ignore[union-attr]  # noqa: E731
        await wait_for(pilot, lambda: info().seats[1].name == "Ada", "the bot")
        assert "Amy (you)" in str(app.play.query_one(Lobby).seats.get_row_at(0)[1])  # type: ignore[union-attr]
        hint = app.play.query_one("#lobby-hint")  # type: ignore[union-attr]
        assert "s starts once 3 are seated" in str(hint.render())  # (I Doubt It's fewest)
        await pilot.press("s")  # two seated: not yet
        await wait_for(pilot, lambda: app._notifications, "a notification")
        assert any("3 or more" in n.message for n in app._notifications)
        app.clear_notifications()  # (a toast could sit on the buttons clicked below)
        assert info().state == "lobby"
        await pilot.press("b")  # asks how strong: easy (the level of its --strategy), medium, hard
        await wait_for(pilot, lambda: isinstance(app.screen, LevelScreen), "the levels")
        levels = app.screen.query_one("#levels", OptionList)
        assert [levels.get_option_at_index(i).id for i in range(levels.option_count)] == \
            ["easy", "medium", "hard"]
        assert levels.highlighted == 0  # (host_app seats random bots: easy)
        await pilot.press("escape")  # changed its mind: no bot
        assert not isinstance(app.screen, LevelScreen) and info().seats[2].name is None
        await pilot.press("b")
        await wait_for(pilot, lambda: isinstance(app.screen, LevelScreen), "the levels")
        await pilot.press("down", "down", "enter")  # hard
        await wait_for(pilot, lambda: info().seats[2].name is not None, "a second bot")
        assert info().seats[2].strategy == "hard"
        lobby = app.play.query_one(Lobby)  # type: ignore[union-attr]
        await wait_for(pilot, lambda: lobby.seats.row_count > 2
                       and str(lobby.seats.get_row_at(2)[2]) == "bot, hard", "its level shown")
        await pilot.press("down")  # select the first bot's seat
        await pilot.press("x")
        await wait_for(pilot, lambda: info().seats[1].name is None, "the bot removed")
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, OptionsScreen), "the options")
        app.screen.query_one("#decks", Select).value = "2"
        app.screen.query_one("#challenge", Select).value = "open"
        app.screen.query_one("#players", Input).value = "10"
        app.screen.query_one("#window", Input).value = "abc"
        await pilot.click("#save")
        assert "type a number" in text_of(app, "#options-error")
        window = app.screen.query_one("#window", Input)
        window.value = "5"
        window.focus()
        await pilot.press("enter")  # Enter in a field saves, as the button does
        await wait_for(pilot, lambda: info().rules == "decks=2,challenge=open", "new rules")
        assert (info().players, info().window) == (10, 5.0)
        await pilot.press("b", "enter")
        await wait_for(pilot, lambda: sum(s.name is not None for s in info().seats) == 3)
        await pilot.press("s")
        await wait_for(pilot, lambda: app.play.pane == "table", "the table")  # type: ignore[union-attr]
        view = view_of(app)
        assert view is not None and view.players == 3
        assert view.options.challenge is ChallengeMode.OPEN


# -- joining ---------------------------------------------------------------------------------


async def test_a_join_app_plays_a_headless_hosts_match_to_the_end() -> None:
    async with hosted_table() as hosted:
        app = join_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            view = await KeyPlayer(pilot, app).play_game()
            assert view.winner is not None and view.seat == 2
            await wait_for(pilot, lambda: app.client.mirror.bye is not None, "the end")  # type: ignore[union-attr]
            results = app.play.query_one(DoubtResults)  # type: ignore[union-attr]
            await wait_for(pilot, lambda: "Play at this table is over" in results.hint, "over")

async def test_a_headless_hosts_lobby_says_its_first_game_starts_by_itself() -> None:
    async with hosted_table(players=4) as hosted:
        app = join_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
            hint = app.play.query_one("#lobby-hint", Static)  # type: ignore[union-attr]
            await wait_for(pilot, lambda: "3/4 seated" in str(hint.render()), "the lobby")
            assert "The first game starts by itself once all 4 seats are taken." in \
                str(hint.render())


async def test_a_dropped_connection_is_shown_and_comes_back_by_itself() -> None:
    async with hosted_table() as hosted:
        app = join_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "table")
            client, play = app.client, app.play
            assert client is not None and play is not None
            banner = play.query_one("#connection", Static)
            shown: list[str] = []  # the banner's text at every redraw while it is up
            draw = play.show

            def spying_show(*args: object) -> None:
                draw(*args)  # type: ignore[arg-type]
                if banner.display:
                    shown.append(str(banner.render()))

            play.show = spying_show  # type: ignore[method-assign]
            hand, seat = view_of(app).hand, client.mirror.seat  # type: ignore[union-attr]
            hosted.table.config.bot_delay = 1.0  # the game waits while we look
            client.drop()
            await wait_for(pilot, lambda: client.connections == 2, "the reconnect")
            await wait_for(pilot, lambda: not app.seen.reconnecting, "the banner gone")
            assert shown and "Reconnecting" in shown[0]
            assert not banner.display
            assert client.mirror.seat == seat
            view = view_of(app)
            assert view is not None and set(hand) <= set(view.hand) | set(view.my_laid) | set(
                view.my_pile)

def fake_browser(*ads: TableAd) -> Callable[[Callable[[dict[str, TableAd]], object]], object]:
    """A browser that 'finds' ``ads`` at once and touches no network."""

    @asynccontextmanager
    async def browse(on_change: Callable[[dict[str, TableAd]], object]) -> AsyncIterator[None]:
        on_change({ad.name: ad for ad in ads})
        yield None

    return browse

def ad_for(hosted: HostedTable, pin: bool = False, fingerprint: str | None = None) -> TableAd:
    return TableAd(name="Amy's table", port=hosted.port, addresses=("127.0.0.1",), version=1,
                   game="idoubtit", rules="decks=1,challenge=window", taken=2, seats=3,
                   state="lobby", pin=pin,
                   fingerprint=hosted.table.fingerprint.hex() if fingerprint is None
                   else fingerprint)

async def test_the_discovery_screen_lists_tables_and_joins_one_with_its_pin() -> None:
    async with hosted_table(pin="4321") as hosted:
        app = DoubtApp("Ben", join=JoinSetup(), clock=TickingClock(),
                       browser=fake_browser(ad_for(hosted, pin=True)))  # type: ignore[arg-type]
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.screen.query("#tables"), "the list")
            tables = app.screen.query_one("#tables", DataTable)
            await wait_for(pilot, lambda: tables.row_count == 1, "a table listed")
            assert "🔒" in str(tables.get_row_at(0)[0])
            assert str(tables.get_row_at(0)[4]) == "I Doubt It, 1 deck"
            await pilot.press("enter")  # (the name as it is: on to the list)
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen.query("#pin"), "the PIN prompt")
            # Wrong: the host's proof of the PIN fails, as it would for a host that does not
            # know it (docs/security.md). Told so, then asked again.
            await pilot.press(*"1234", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen)
                           and app.screen.query("#message"), "the news")
            assert text_of(app, "#message") == (
                "Wrong PIN, or not the real table: the host could not prove it knows the PIN "
                "given; check it with the host.")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.screen.query("#pin"), "the PIN prompt again")
            await pilot.press(*"4321", "enter")
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "table")
            assert app.client is not None and app.client.mirror.seat == 2

async def test_a_table_whose_key_is_not_its_adverts_is_refused_with_a_sentence() -> None:
    async with hosted_table() as hosted:
        app = DoubtApp("Ben", join=JoinSetup(), clock=TickingClock(),
                       browser=fake_browser(ad_for(hosted, fingerprint="ab" * 32)))  # type: ignore[arg-type]
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.screen.query("#tables")
                           and app.screen.query_one("#tables", DataTable).row_count == 1,
                           "the table listed")
            await pilot.press("enter", "enter")  # (the name as it is, then the table)
            await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen)
                           and app.screen.query("#message"), "the news")
            assert text_of(app, "#message") == (
                "This is not the table it claims to be: its key is not the one its advert "
                "names.")
            await pilot.press("enter")  # back to the list, nobody seated
            await wait_for(pilot, lambda: app.screen.query("#tables"), "the list again")
            assert app.client is None
            assert all(seat.name is None or seat.bot for seat in hosted.table.seats)


async def test_the_lobby_and_the_help_show_the_key_the_table_presented() -> None:
    """The host's screen and a joiner's show the same words: each the key its own client
    was shown (the host's own client joins over loopback too)."""
    amy = host_app(players=4)
    async with amy.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: amy.hosted is not None and amy.play is not None
                       and amy.play.pane == "lobby", "Amy's lobby")
        assert amy.hosted is not None
        key = words(amy.hosted.table.fingerprint)
        assert len(key.split()) == 6
        await wait_for(pilot, lambda: f"Key: {key}" in text_of(amy, "#about"), "the key")
        ben = join_app(amy.hosted)
        async with ben.run_test(size=SIZE) as ben_pilot:
            await wait_for(ben_pilot, lambda: ben.play is not None and ben.play.pane == "lobby"
                           and "Key:" in text_of(ben, "#about"), "Ben's lobby")
            assert f"Key: {key}" in text_of(ben, "#about")
            assert not isinstance(ben.screen, MessageScreen)  # the same key as last time
            await ben_pilot.press("question_mark")
            await wait_for(ben_pilot, lambda: isinstance(ben.screen, HelpScreen), "the help")
            assert ben.screen.key == key  # type: ignore[attr-defined]
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(amy.screen, HelpScreen), "Amy's help")
        assert amy.screen.key == key  # type: ignore[attr-defined]


async def test_a_key_that_changed_is_asked_about_and_not_joined_by_default() -> None:
    before = b"\x02" * 32
    name = "Table of the changed key"
    known.check(name, before)  # as if joined before, with that key
    async with hosted_table(name=name) as hosted:
        new = hosted.table.fingerprint
        app = join_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ChangedKeyScreen)
                           and app.screen.query("#now"), "the question")
            assert text_of(app, "#then") == f"When you last joined\n{words(before)}"
            assert text_of(app, "#now") == f"Now\n{words(new)}"
            assert app.focused is not None and app.focused.id == "leave"  # "Don't join"
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen)
                           and app.screen.query("#message"), "why")
            assert "did not join" in text_of(app, "#message")
        assert hosted.table.taken == 2  # (the bots: Ben never sat down)
        assert known.check(name, new).verdict == "changed"  # the old key is still the one
        app = join_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, ChangedKeyScreen)
                           and app.screen.query("#join"), "the question again")
            await pilot.click("#join")
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "table"
                           and app.screen is app.play, "the table")
            assert app.client is not None and app.client.mirror.seat == 2
        assert known.check(name, new).verdict == "same"


async def listed(pilot: Pilot[Any], app: DoubtApp, column: int,
                 count: int = 2) -> dict[str, str]:
    """Each table the discovery list shows (``count``), by name: what ``column`` says of it."""
    await wait_for(pilot, lambda: app.screen.query("#tables"), "the list")
    tables = app.screen.query_one("#tables", DataTable)
    await wait_for(pilot, lambda: tables.row_count == count, "every table listed")
    return {str(tables.get_row_at(row)[0]): str(tables.get_row_at(row)[column])
            for row in range(count)}


async def test_the_discovery_list_names_each_tables_game() -> None:
    know = TableAd(name="Second game", port=1, addresses=("127.0.0.1",), version=3,
                   game="iknowyoudont", rules="deck=standard", taken=1, seats=4,
                   state="lobby", pin=False)
    other = dataclasses.replace(know, name="Newer", game="poker", rules="x=1")
    app = DoubtApp("Ben", join=JoinSetup(), browser=fake_browser(know, other))  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        games = await listed(pilot, app, column=4)
        assert games == {"Second game": "I Know You Don't, standard, 5 rounds",
                         "Newer": "poker (not known here)"}

async def test_the_discovery_list_says_where_a_seat_of_yours_is_kept(tmp_path: Path) -> None:
    """A table whose match holds a seat this user's program left (net/kept.py) says "your
    seat", and may be joined though it is playing: the seat is taken back. So may one whose
    host freed an away player's seat (the advert counts it free)."""
    playing = TableAd(name="Amy's table", port=1, addresses=("127.0.0.1",), version=8,
                      game="idoubtit", rules="decks=1,challenge=window", taken=3, seats=3,
                      state="playing", pin=False, fingerprint="ab" * 32, commitment="cd" * 32)
    other = dataclasses.replace(playing, name="Zed's table", commitment="ef" * 32)
    free = dataclasses.replace(other, name="Cy's table", taken=2)
    kept = KeptSeats(tmp_path / "seats.json")
    kept.keep(Kept("ab" * 32, "Ben", "cd" * 32, "t" * 32, "11" * 16, "Amy's table"))
    kept.keep(Kept("ab" * 32, "Dee", "ef" * 32, "t" * 32, "11" * 16, "Zed's table"))  # not Ben's
    app = DoubtApp("Ben", join=JoinSetup(), browser=fake_browser(playing, other, free),  # type: ignore[arg-type]
                   kept=kept)
    async with app.run_test(size=SIZE) as pilot:
        states = await listed(pilot, app, column=3, count=3)
        assert states == {"Amy's table": "playing, your seat", "Zed's table": "playing",
                          "Cy's table": "playing, a seat free"}
        screen = app.screen
        assert isinstance(screen, DiscoveryScreen)
        chosen: list[Choice] = []
        screen.leave_for = chosen.append  # type: ignore[method-assign]
        screen.join(other)  # not a lobby, no seat of Ben's: refused, with a sentence
        screen.join(playing)
        screen.join(free)
        assert [choice.address for choice in chosen] == [("127.0.0.1", 1)] * 2


async def test_a_typed_address_that_nobody_answers_is_a_plain_sentence() -> None:
    app = DoubtApp("Ben", join=JoinSetup(), browser=fake_browser())  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#address"), "the address field")
        app.screen.query_one("#address", Input).value = "nowhere:99999"
        await pilot.click("#address")
        await pilot.press("enter")
        assert "A port is 1 to 65535" in text_of(app, "#address-error")
        with socket_nobody_listens_on() as port:
            app.screen.query_one("#address", Input).value = f"127.0.0.1:{port}"
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen)
                           and app.screen.query("#message"), "an error", timeout=15)
        assert f"Cannot reach a table at 127.0.0.1:{port}" in text_of(app, "#message")
        assert "Traceback" not in text_of(app, "#message")

async def test_the_join_screen_takes_the_name_typed_first() -> None:
    """Issue 42: the name is what a player types first. It starts chosen whole, so typing
    replaces the login name, and Enter keeps it and goes on to the list."""
    app = DoubtApp("root", join=JoinSetup(), browser=fake_browser())  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#name"), "the name field")
        name = app.screen.query_one("#name", Input)
        await wait_for(pilot, lambda: app.screen.focused is name, "the name focused")
        await pilot.press(*"Ben")
        assert name.value == "Ben"
        await pilot.press("enter")
        assert isinstance(app.screen.focused, DataTable)  # on to the list of tables
        assert isinstance(app.screen, DiscoveryScreen) and app.screen.player_name == "Ben"


async def test_a_name_given_on_the_command_line_leaves_the_keys_to_the_list() -> None:
    app = DoubtApp("Ben", join=JoinSetup(named=True), browser=fake_browser())  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#tables"), "the list")
        await wait_for(pilot, lambda: isinstance(app.screen.focused, DataTable), "the list")
        assert app.screen.query_one("#name", Input).value == "Ben"


async def test_escape_leaves_the_address_field_and_q_then_quits() -> None:
    app = DoubtApp("Ben", join=JoinSetup(), browser=fake_browser())  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.query("#address"), "the address field")
        await pilot.press("tab")  # (from the name to the list)
        await pilot.press("slash", "q")  # in the field, q is a letter of a host's name
        field = app.screen.query_one("#address", Input)
        assert field.value == "q" and app.screen.focused is field
        await pilot.press("escape")
        assert not isinstance(app.screen.focused, Input)  # back at the list of tables
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "Quit doubtlan?")


class socket_nobody_listens_on:  # noqa: N801 (used as a context manager)
    """A loopback port that was free a moment ago (bound, then closed)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        pass

async def test_when_the_host_ends_the_table_the_player_is_told() -> None:
    async with hosted_table(games=0, bot_delay=1.0) as hosted:
        app = join_app(hosted)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "table")
            await hosted.close("shutdown", "Amy ended the table")
            await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen)
                           and app.screen.query("#message"), "the news")
            assert text_of(app, "#message") == "The table has ended: Amy ended the table."

async def test_joining_by_address_asks_for_the_pin_when_it_is_needed() -> None:
    async with hosted_table(pin="4321") as hosted:
        app = join_app(hosted)  # no --pin
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.screen.query("#pin"), "the PIN prompt")
            await pilot.press(*"4321", "enter")
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "table")
            assert app.client is not None and app.client.mirror.seat == 2


# -- everywhere ------------------------------------------------------------------------------


async def test_between_games_the_host_frees_an_away_players_seat_for_a_newcomer() -> None:
    driver = DRIVERS["idoubtit"]
    app = driver.host_app(bots=1, grace=0.5, seed=driver.seed)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.hosted is not None and app.play is not None)
        assert app.hosted is not None and app.play is not None
        ben = Client("127.0.0.1", app.hosted.port, "Ben")
        running = asyncio.create_task(ben.run())
        await wait_for(pilot, lambda: ben.connected.is_set(), "Ben seated")
        await start_match(pilot, app)
        await ben.close()  # Ben's program dies: a stand-in plays his seat
        await asyncio.wait_for(running, 10)
        await driver.player(pilot, app).play_game()
        results = app.play.query_one(driver.results)
        hint = "x frees Ben's seat for a newcomer"
        await wait_for(pilot, lambda: hint in str(results.render()), "the hint")
        await pilot.press("x")
        info = lambda: app.client.mirror.table  # type: ignore[union-attr]  # noqa: E731
        await wait_for(pilot, lambda: info().seats[2].open, "Ben's seat free")
        assert hint not in str(results.render())  # (nobody else is away)
        assert app.hosted.table.taken == 2
        dee = Client("127.0.0.1", app.hosted.port, "Dee")
        joining = asyncio.create_task(dee.run())
        await wait_for(pilot, lambda: dee.connected.is_set(), "Dee seated")
        assert dee.mirror.seat == 2 and info().seats[2].name == "Dee"
        await pilot.press("n")
        await wait_for(pilot, lambda: app.play.pane == "table", "the next game")  # type: ignore[union-attr]
        await dee.close()
        await asyncio.wait_for(joining, 10)


async def test_the_host_quitting_asks_first_then_ends_the_table_for_everyone() -> None:
    app = host_app(players=4)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.hosted is not None and app.play is not None)
        assert app.hosted is not None
        ben = Client("127.0.0.1", app.hosted.port, "Ben")
        running = asyncio.create_task(ben.run())
        await wait_for(pilot, lambda: ben.connected.is_set(), "Ben seated")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmScreen) and ben.mirror.bye is None
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        bye = await asyncio.wait_for(running, 10)
        assert bye is not None and (bye.code, bye.message) == ("shutdown", "Amy ended the table")
    assert app.return_code == 0

def test_the_collector_keeps_its_full_passes_for_between_games_and_is_put_back() -> None:
    before = gc.get_threshold()
    collector = QuietCollector()
    try:
        assert gc.get_freeze_count() > 0
        if sys.version_info < (3, 14):  # (3.14's collector has no third threshold)
            assert gc.get_threshold() == (*before[:2], FULL_PASSES_OFF)
    finally:
        collector.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0

async def test_wide_names_keep_the_turn_notice_on_screen() -> None:
    app = Alone(TitleBar())
    async with app.run_test(size=(40, 3)) as pilot:
        title = app.query_one(TitleBar)
        title.show(Text(" 日本語のテーブル · you are 太郎 · game 12 of 20"))
        title.tell("Your turn")
        await pilot.pause()
        line = title.texts[0]
        assert line.cell_len == title.size.width and line.plain.endswith(" Your turn ")

async def test_the_hosts_app_resumes_its_table_from_the_journal(tmp_path: Path) -> None:
    journal, kept = tmp_path / "amy.journal", KeptSeats(tmp_path / "seats.json")
    first = DoubtApp("Amy", host=HostSetup(config(), bots=2, strategy="random",
                                           bind="127.0.0.1", journal=journal),
                     clock=TickingClock(), kept=kept)  # (the seat's key is kept there)
    async with first.run_test(size=SIZE) as pilot:
        await start_match(pilot, first)
        await wait_for(pilot, lambda: view_of(first).my_turn, "my turn")  # type: ignore[union-attr]
        await KeyPlayer(pilot, first).take_turn()
        then = view_of(first)
        assert then is not None and then.decision >= 1
        hand, claims = then.hand, len(then.record)
    # The first app is gone (its table with it); the second goes on from the journal.
    second = DoubtApp("root", host=HostSetup(config(), bind="127.0.0.1", resume=journal),
                      clock=TickingClock(), kept=kept)  # (no --name: the login name)
    async with second.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: second.play is not None and second.play.pane == "table"
                       and view_of(second) is not None, "the table again")
        now = view_of(second)
        assert now is not None and now.seat == 0 and now.decision >= then.decision
        assert len(now.record) >= claims
        assert now.decision > then.decision or now.hand == hand  # the same game, going on
        assert second.hosted is not None and second.hosted.resumed
        assert len(second.hosted.table.seats) == 3  # the bots too, from the journal
        assert second.player_name == "Amy"  # the seat's name: it ends the table as Amy


async def test_a_terminal_too_small_for_the_screens_is_told_so() -> None:
    app = DoubtApp("Ben", join=JoinSetup(), browser=fake_browser())  # type: ignore[arg-type]
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: app.screen.query(SmallNotice), "the notice")
        notice = app.screen.query_one(SmallNotice)
        await wait_for(pilot, lambda: notice.display, "the notice shown")
        assert "This terminal is 60x20; doubtlan needs 80x24, or 40x30 for its narrow " \
            "layout" in str(notice.render())
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not notice.display, "the notice gone")


async def test_a_table_renamed_by_its_advert_is_called_so_in_its_lobby(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Another "Zed's table" was on the network: the advert takes "Zed's table-2", and the
    lobby on the host's own screen says that name (an advertiser that touches no network
    stands in for zeroconf's)."""
    from doubtlan.net import discovery
    from doubtlan.net.hosted import Advertising

    class Taken:
        def __init__(self, ad: TableAd) -> None:
            self.ad = ad

        async def start(self) -> str:
            return f"{self.ad.name}-2"

        async def update(self, ad: TableAd) -> None:
            pass

        async def close(self) -> None:
            pass

    monkeypatch.setattr(discovery, "Advertiser", Taken)
    setup = HostSetup(config(name="Zed's table"), bind="127.0.0.1",
                      advertising=Advertising(True, ("127.0.0.1",)))
    app = DoubtApp("Zed", host=setup, clock=TickingClock())
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby",
                       "the lobby")
        await wait_for(pilot, lambda: "Zed's table-2" in str(
            app.play.query_one("#about").render()), "the advert's name")  # type: ignore[union-attr]
