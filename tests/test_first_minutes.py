"""The first ten minutes of a new player, driven with Pilot: nothing plays a move they did
not choose, the keys people expect do what they expect, and the screens say what they mean."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from apps import DRIVERS, TickingClock, at_a_challenge, drawn, host_app, start_match, wait_for
from drive_idoubtit import KeyPlayer, asked, view_of
from drive_iknowyoudont import KnowKeyPlayer, know_app, know_view
from games import WINDOWED
from test_app import ad_for, fake_browser, hosted_table, listed
from textual.widgets import DataTable, Input, Static

from doubtlan import cli_table
from doubtlan.cli import main
from doubtlan.net.client import Client
from doubtlan.net.kept import KeptSeats
from doubtlan.net.last_name import last_name, remember
from doubtlan.rules import LetStand, Options
from doubtlan.rules.iknowyoudont import Card, Kind, true_declaration
from doubtlan.tui.app import DoubtApp, JoinSetup
from doubtlan.tui.games.idoubtit.hand import Hand
from doubtlan.tui.games.idoubtit.history import DoubtHistory
from doubtlan.tui.games.idoubtit.players import Players
from doubtlan.tui.games.idoubtit.prompt import Prompt
from doubtlan.tui.games.iknowyoudont.hand import KnowHand
from doubtlan.tui.screens.discovery import DiscoveryScreen
from doubtlan.tui.screens.message import ConfirmScreen
from doubtlan.tui.screens.name import NameScreen
from doubtlan.tui.screens.pin import PinScreen
from doubtlan.tui.widgets.small import SmallNotice
from doubtlan.tui.widgets.titlebar import TitleBar

SIZE = (100, 30)


def button(app: object) -> str:
    """The Play button's words, as the hand draws them."""
    text = drawn(app, KnowHand)  # type: ignore[arg-type]
    start = text.index(" Play ") if " Play " in text else text.index("Play ")
    return text[start:].strip()


def short(card: Card) -> str:
    return f"{card.kind.value}{card.level or ''}"


async def test_the_declaration_is_the_cards_truth_until_the_player_chooses_one() -> None:
    """I Know You Don't: each turn, and at each move of the cursor until the player changes
    it, the declaration is the selected card's true one; a lie says so on the button."""
    app = know_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: know_view(app).my_turn, "my turn")
        view = know_view(app)
        top = view.options.max_level
        hand = app.play.query_one(KnowHand)  # type: ignore[union-attr]
        await wait_for(pilot, lambda: hand.cards == view.hand, "the hand drawn")
        for _ in view.hand:  # every card, the cursor moved onto it
            card = hand.card
            assert card is not None
            truth = true_declaration(card, top)
            assert hand.declaration == truth
            lie = ": a bluff" if card.kind is Kind.INTERCEPTION else ""
            assert button(app) == f"Play {short(card)} as {truth.describe()}{lie} (enter)"
            await pilot.press("right")
        # A declaration chosen is kept as the cursor moves, and a lie is marked as one.
        while (card := hand.card) is None or card.level is None:
            await pilot.press("right")
        other = card.level % top + 1
        await pilot.press(str(other % 10))
        assert button(app) == (f"Play {short(card)} as level {other} {card.kind.title}: "
                               "a bluff (enter)")
        await pilot.press("right")
        assert hand.declaration.level == other
        await pilot.press("left", "enter")
        await wait_for(pilot, lambda: know_view(app).decision >= 1, "the claim")
        # The next turn starts from the truth again, whatever was declared last.
        player = KnowKeyPlayer(pilot, app)
        await player.play_game(until=lambda view: view.my_turn and view.decision >= 1)
        view = know_view(app)
        await wait_for(pilot, lambda: hand.cards == view.hand and hand.playing, "my turn again")
        card = hand.card
        assert card is not None and hand.declaration == true_declaration(card, top)
        assert not hand.chosen


# -- ctrl+c -----------------------------------------------------------------------------------


async def test_ctrl_c_asks_before_ending_the_table_as_q_does() -> None:
    app = host_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        # (nobody but bots at the table: nobody else's table to end, and no "hosting")
        assert "End the table?" in str(app.screen.query_one("#question", Static).render())
        assert "hosting" not in drawn(app, TitleBar)
        await pilot.press("n")  # no: the game goes on
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "back")
        assert app.play is not None and app.play.pane == "table" and app.is_running


async def test_ctrl_c_asks_on_the_join_list_and_over_the_too_small_notice() -> None:
    app = DoubtApp("Ben", join=JoinSetup(), browser=fake_browser())  # type: ignore[arg-type]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, DiscoveryScreen), "the list")
        await pilot.press("slash")  # even in the address field, where ctrl+c would copy
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, DiscoveryScreen), "the list")
        await pilot.resize_terminal(60, 20)
        notice = app.screen.query_one(SmallNotice)
        await wait_for(pilot, lambda: notice.display, "the notice")
        assert str(notice.render()) == ("This terminal is 60x20; doubtlan needs 80x24, or "
                                        "40x30 for its narrow layout.\nMake the window "
                                        "larger (ctrl+c quits).")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")


# -- the half second --------------------------------------------------------------------------


@pytest.mark.parametrize("game", WINDOWED)
async def test_an_answer_in_the_first_half_second_is_not_taken_and_says_so(game: str) -> None:
    """Keys pressed as the prompt opens: neither a doubt nor a let-stand counts, each says
    "too soon", and the first answer taken is the one pressed after the half second."""
    driver = DRIVERS[game]
    key, action, _ = driver.challenge
    stand_key, stand = driver.stand
    async with at_a_challenge(driver) as (pilot, app, clock, sent):
        app.clear_notifications()
        answered = len(sent)
        await pilot.press(key, stand_key, key)
        assert sent[answered:] == [] and driver.may_challenge(app)
        said = [n.message for n in app._notifications]
        assert said == ["Too soon after the claim to be meant: press again."] * 3
        clock.now += 0.6
        await pilot.press(stand_key)
        assert sent[answered:] == [stand]


# -- a kept seat ------------------------------------------------------------------------------


async def test_a_kept_seat_at_a_pin_table_goes_back_without_the_pin(tmp_path: Path) -> None:
    """The list says "playing, your seat": Enter takes the seat back with its hand, and
    asks no PIN (the seat's token proves it)."""
    kept = KeptSeats(tmp_path / "seats.json")
    async with hosted_table(pin="4321", bots=2, players=3, window=30.0) as hosted:
        first = DoubtApp("Ben", join=JoinSetup(address=("127.0.0.1", hosted.port), pin="4321"),
                         clock=TickingClock(), kept=kept)
        async with first.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: first.play is not None and first.play.pane == "table",
                           "the table")
            seat, hand = view_of(first).seat, view_of(first).hand  # type: ignore[union-attr]
        # (the program stopped without leaving: the seat is kept, and away)
        ad = dataclasses.replace(ad_for(hosted, pin=True), state="playing", taken=3,
                                 commitment=hosted.table.chain.commitment.hex())
        again = DoubtApp("Ben", join=JoinSetup(), clock=TickingClock(), kept=kept,
                         browser=fake_browser(ad))  # type: ignore[arg-type]
        async with again.run_test(size=SIZE) as pilot:
            states = await listed(pilot, again, column=3, count=1)
            assert states == {"Amy's table 🔒": "playing, your seat"}
            await pilot.press("enter", "enter")  # (the name as it is, then the table)
            await wait_for(pilot, lambda: isinstance(again.screen, PinScreen)
                           or again.play is not None and again.play.pane == "table",
                           "the table, or a question")
            assert not isinstance(again.screen, PinScreen)
            back = view_of(again)
            assert back is not None and back.seat == seat
            assert back.hand == hand or back.decision > 0  # (bots may have played since)


# -- a name of one's own ----------------------------------------------------------------------


def command_app(monkeypatch: pytest.MonkeyPatch, *argv: str) -> DoubtApp:
    """The app ``doubtlan ARGV`` runs (not yet running)."""
    apps: list[DoubtApp] = []
    monkeypatch.setattr(cli_table, "_run_app", lambda app: apps.append(app) or 0)
    assert main(list(argv)) == 0
    (app,) = apps
    return app


async def test_the_join_screen_asks_a_name_starting_from_the_last_one(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    remember("Cy")
    async with hosted_table(bots=1, players=3) as hosted:
        app = command_app(monkeypatch, "join")
        app.browser = fake_browser(ad_for(hosted))  # type: ignore[assignment]
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, DiscoveryScreen), "the list")
            field = app.screen.query_one("#name", Input)
            assert field.value == "Cy"
            field.value = ""
            await pilot.press("enter")  # no name: the screen says so, and joins nothing
            assert "Type your name first" in str(app.screen.query_one("#name-error",
                                                                      Static).render())
            assert isinstance(app.screen, DiscoveryScreen)
            field.value = "Dee"
            app.screen.query_one("#tables", DataTable).focus()
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.client is not None and app.client.mirror.table
                           is not None and app.client.mirror.seat is not None, "a seat")
            info = app.client.mirror.table  # type: ignore[union-attr]
            assert info.seats[app.client.mirror.seat].name == "Dee"  # type: ignore[union-attr,index]
    assert last_name() == "Dee"


async def test_the_host_is_asked_a_name_and_the_table_is_called_after_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    remember("Cy")
    app = command_app(monkeypatch, "host", "--bind", "127.0.0.1", "--port", "0",
                      "--no-advertise", "--no-journal")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NameScreen), "the question")
        field = app.screen.query_one("#name", Input)
        assert field.value == "Cy"
        field.value = "Zoe"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby",
                       "the lobby")
        await wait_for(pilot, lambda: app.client is not None and app.client.mirror.table
                       is not None and app.client.mirror.seat == 0, "the host's seat")
        info = app.client.mirror.table  # type: ignore[union-attr]
        assert info.name == "Zoe's table" and info.seats[0].name == "Zoe"  # type: ignore[union-attr]
    assert last_name() == "Zoe"


# -- help and keys ----------------------------------------------------------------------------


async def test_the_lobby_says_how_to_pick_the_bot_that_x_removes() -> None:
    app = host_app(bots=2)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby"
                       and seated(app) == 3, "the bots seated")
        hint = str(app.play.query_one("#lobby-hint", Static).render())  # type: ignore[union-attr]
        assert "up and down select a seat, and x removes the bot in it" in hint
        await pilot.press("down", "down", "x")  # the third seat: the second bot
        await wait_for(pilot, lambda: seated(app) == 2, "the bot removed")


def seated(app: DoubtApp) -> int:
    mirror = app.client.mirror if app.client else None
    return sum(seat.name is not None for seat in mirror.table.seats) \
        if mirror and mirror.table else 0


async def test_home_end_and_up_down_move_in_a_hand_of_several_rows() -> None:
    app = host_app(bots=2, options=Options(decks=2))  # 34 or 35 cards: three rows at 80
    async with app.run_test(size=(80, 24)) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: view_of(app) is not None and view_of(app).my_turn,  # type: ignore[union-attr]
                       "my turn")
        hand = app.play.query_one(Hand)  # type: ignore[union-attr]
        held = len(hand.cards)
        await pilot.press("end")
        assert hand.cursor == held - 1
        await pilot.press("home")
        assert hand.cursor == 0
        await pilot.press("down")
        columns = hand.cursor
        assert 1 < columns < held  # one row down: a row's worth of cards along
        await pilot.press("down", "down", "down")
        assert hand.cursor == held - 1 or hand.cursor // columns == held // columns
        await pilot.press("up")
        assert hand.cursor < held - 1
        await pilot.press("home", "up")
        assert hand.cursor == 0  # (nowhere above the first row)


async def test_home_and_end_move_in_an_i_know_you_dont_hand() -> None:
    app = know_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: know_view(app).my_turn, "my turn")
        hand = app.play.query_one(KnowHand)  # type: ignore[union-attr]
        await wait_for(pilot, lambda: hand.cards == know_view(app).hand, "the hand drawn")
        await pilot.press("end")
        assert hand.cursor == len(hand.cards) - 1
        await pilot.press("home")
        assert hand.cursor == 0


def test_the_help_lists_the_commands_people_start_with_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    order = [out.index(f"    {command} ") for command in
             ("play", "host", "join", "tourney", "tables", "verify")]
    assert order == sorted(order)


def test_numbered_choices_are_in_order_and_tourney_bots_explains_a_number(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["host", "--help"])
    assert "--rounds {1,2,3,4,5,6,7,8,9}" in capsys.readouterr().out.replace("\n", " ")
    with pytest.raises(SystemExit) as stop:
        main(["tourney", "--bots", "3"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "tourney's --bots names a strategy for each seat" in err
    assert "for 3 seats, give --players 3" in err


# -- what was played for you ------------------------------------------------------------------


async def test_an_away_player_is_away_first_and_bot_plays_only_once_a_bot_does() -> None:
    app = host_app(bots=1, grace=60.0)  # a long grace: nobody plays for Ben yet
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.hosted is not None and app.play is not None)
        assert app.hosted is not None and app.play is not None
        ben = Client("127.0.0.1", app.hosted.port, "Ben")
        running = asyncio.create_task(ben.run())
        await wait_for(pilot, lambda: ben.connected.is_set(), "Ben seated")
        await start_match(pilot, app)
        await ben.close()  # Ben's program dies
        await asyncio.wait_for(running, 10)
        players = app.play.query_one(Players)
        await wait_for(pilot, lambda: "away" in drawn(app, Players), "Ben away")
        assert "Ben" in drawn(app, Players) and "bot plays" not in drawn(app, Players)
        # Once the stand-in plays his seat (the grace over), the panel says so; windows
        # wait for Ben no longer than 2 s meanwhile.
        app.hosted.table.config.grace, app.hosted.table.config.window = 0.0, 2.0
        seat = next(s.seat for s in app.client.mirror.table.seats  # type: ignore[union-attr]
                    if s.name == "Ben")
        await KeyPlayer(pilot, app).play_game_until(lambda: seat in app.seen.stood_in)
        await wait_for(pilot, lambda: "away, bot plays" in drawn(app, Players), "bot plays")
        assert players is app.play.query_one(Players)


async def test_an_answer_this_app_did_not_give_is_not_called_yours() -> None:
    """The table shows this seat's answer to a claim: "you let it stand" only when this
    app gave it; one played for the seat otherwise says so."""
    app = host_app(bots=1)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.hosted is not None and app.play is not None)
        assert app.hosted is not None and app.play is not None
        ben = Client("127.0.0.1", app.hosted.port, "Ben")  # answers nothing: windows wait
        running = asyncio.create_task(ben.run())
        await wait_for(pilot, lambda: ben.connected.is_set(), "Ben seated")
        await start_match(pilot, app)
        app.hosted.table.config.window = 3.0  # (Ben answers nothing: no window waits long)
        player = KeyPlayer(pilot, app)
        await player.play_game_until(lambda: asked(app))
        prompt = app.play.query_one(Prompt)
        client = app.client
        assert client is not None
        view = view_of(app)
        assert view is not None
        await client.act(LetStand(), view.decision)  # (not through the app's keys)
        await wait_for(pilot, lambda: view_of(app).my_answer is not None, "the answer")  # type: ignore[union-attr]
        await wait_for(pilot, lambda: "for you" in str(prompt.render()), "the prompt")
        assert "you let it stand" not in str(prompt.render())
        await ben.close()
        await asyncio.wait_for(running, 10)


async def test_the_claims_list_stars_the_claims_the_host_played_for_you() -> None:
    """Amy lets the turn timer play her turn and the window's clock answer for her: the
    host says so (``state.played_for``), and her claims list stars those claims."""
    app = host_app(bots=2, turn_timeout=1.0, window=2.0)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        history = app.play.query_one(DoubtHistory)  # type: ignore[union-attr]
        # Amy opens and does nothing: the timer lays and announces for her; the bots'
        # claims then wait for her answer until the window's time runs out.
        await wait_for(pilot, lambda: len(view_of(app).record) >= 3,  # type: ignore[union-attr]
                       "three claims settled", timeout=30)
        mirror = app.client.mirror  # type: ignore[union-attr]
        await wait_for(pilot, lambda: {0, 1, 2} <= mirror.played_for, "the host's word")

        def starred() -> list[str]:
            return [line.plain for line in history.lines if line.plain.startswith("*")]

        await wait_for(pilot, lambda: len(starred()) >= 3, "the claims starred")
        assert starred()[0].startswith("*Amy")
        assert "* played for you" in str(history.border_subtitle)


def test_in_open_calls_a_stand_ins_claim_is_starred_not_the_one_its_card_settled() -> None:
    """With open calls a turn's first card settles the claim before it: the claim the host
    played for an away seat is the one the seat made, never its neighbour's."""
    from wire import Harness

    from doubtlan.net.table import TableConfig
    from doubtlan.rules.idoubtit import ChallengeMode

    config = TableConfig(players=3, games=1, seed=5, grace=0.0, turn_timeout=0.0,
                         window=2.0, options=Options(challenge=ChallengeMode.OPEN))
    h = Harness(config, bots=2, strategy="random")
    ben = h.hello("Ben")
    h.play_bots()
    h.drop(ben)  # away: a stand-in plays his turns from now on
    for _ in range(400):
        if h.table.game is None or h.table.game.over:
            break
        h.advance(1.0)
    game = h.table.game
    assert game is not None
    claims = game.view(None).record
    starred = h.table.played_for.get(2, set())
    # Ben's own claims, made by the stand-in; and the game's last claim, which the rules
    # answer in a window even with open calls, answered for him.
    own = {i for i in starred if i < len(claims) - 1}
    assert own and all(claims[i].seat == 2 for i in own), \
        (sorted(starred), [(i, c.seat) for i, c in enumerate(claims)])


def test_on_macos_the_data_an_earlier_doubtlan_kept_is_copied_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs
    import platformdirs.macos

    from doubtlan.net import folder

    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)
    monkeypatch.setattr(folder.sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_DATA_HOME")
    old = tmp_path / ".local" / "share" / "doubtlan"
    (old / "journals").mkdir(parents=True)
    (old / "host.pem").write_text("the host's key")
    (old / "journals" / "a.journal").write_text("a journal")
    home = folder.doubtlan_folder()
    assert home == tmp_path / "Library" / "Application Support" / "doubtlan"
    folder.private_folder(home)
    assert (home / "host.pem").read_text() == "the host's key"
    assert (home / "journals" / "a.journal").read_text() == "a journal"
    assert (old / "host.pem").exists()  # (left for an earlier doubtlan)
