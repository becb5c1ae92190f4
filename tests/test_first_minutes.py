"""The first ten minutes of a new player, driven with Pilot: nothing plays a move they did
not choose, the keys people expect do what they expect, and the screens say what they mean."""

from __future__ import annotations

from apps import KnowKeyPlayer, drawn, host_app, know_app, know_view, start_match, wait_for
from test_app import fake_browser
from textual.widgets import Static

from doubtlan.rules.iknowyoudont import Card, Kind, true_declaration
from doubtlan.tui.app import DoubtApp, JoinSetup
from doubtlan.tui.games.iknowyoudont.hand import KnowHand
from doubtlan.tui.screens.discovery import DiscoveryScreen
from doubtlan.tui.screens.message import ConfirmScreen
from doubtlan.tui.widgets.small import SmallNotice

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
        await wait_for(pilot, lambda: know_view(app).turns >= 1, "the claim")
        # The next turn starts from the truth again, whatever was declared last.
        player = KnowKeyPlayer(pilot, app)
        await player.play_game(until=lambda view: view.my_turn and view.turns >= 1)
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
        assert "End the table for everyone?" in str(app.screen.query_one("#question",
                                                                          Static).render())
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
        assert str(notice.render()) == ("This terminal is 60x20; doubtlan needs 80x24 or "
                                        "more.\nMake the window larger (ctrl+c quits).")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running, "the app to end")
