"""The table app at a Liar's Deck table: cards marked and put down by keys and clicks, the
call, what the screen says of each moment (the round, a call's outcome, the one move left,
the roulette), a turn that follows your last at once, and the results. Against real hosts on
loopback, or the table widget drawing a game dealt by hand. What every game's table does
alike (a whole game, the help, the options...) is in the contract tests of
tests/test_app.py."""

from __future__ import annotations

import dataclasses
from typing import Any

from apps import DRIVERS, FrozenClock, click_text, drawn, start_match, wait_for
from drive_liarsdeck import liar_view
from test_app import Alone
from textual.widget import Widget

from doubtlan.net.messages import TableInfo
from doubtlan.net.table import Table, TableConfig
from doubtlan.rules.liarsdeck import (
    LIAR,
    Called,
    Card,
    Down,
    LiarsDeck,
    Lives,
    Options,
    Put,
    Rank,
    TableView,
)
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.client_state import ClientState
from doubtlan.tui.games.liarsdeck.hand import LiarHand
from doubtlan.tui.games.liarsdeck.history import LiarHistory
from doubtlan.tui.games.liarsdeck.players import LiarPlayers
from doubtlan.tui.games.liarsdeck.prompt import LIAR as LIAR_BUTTON
from doubtlan.tui.games.liarsdeck.prompt import LiarPrompt
from doubtlan.tui.games.liarsdeck.results import LiarResults
from doubtlan.tui.games.liarsdeck.round import RoundBox
from doubtlan.tui.games.liarsdeck.table import LiarTable
from doubtlan.tui.widgets.keys import KeyLine
from doubtlan.tui.widgets.titlebar import TitleBar

SIZE = (100, 30)
NAMES = ("Amy", "Ben", "Cleo")


def liar_app(**changes: Any) -> DoubtApp:
    """The host's app at a Liar's Deck table (two `random` bots unless told)."""
    return DRIVERS["liarsdeck"].host_app(**changes)


def downs(app: DoubtApp) -> list[Down]:
    """Every time cards were put down in the host's game, whole (the test looks at the
    host)."""
    assert app.hosted is not None and app.hosted.table.game is not None
    return [e for e in app.hosted.table.game.state.events if isinstance(e, Down)]


async def test_cards_are_marked_and_put_down_by_keys_and_clicks() -> None:
    app = liar_app(seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: liar_view(app).my_turn, "my turn")
        view = liar_view(app)
        assert view.claimer is None  # the round's first turn: nothing to call
        rank = view.rank.plural()
        # The screen: each player's cards and lives, the round and its rank, the keys.
        players = drawn(app, LiarPlayers)
        assert "cards lives" in players and "Amy (you) 5 3 to play" in players
        assert drawn(app, RoundBox) == f"round 1 {rank} and Jokers 0 down"  # (its true cards)
        assert f"Your turn: put 1 to 3 cards down as {rank}." in drawn(app, LiarPrompt)
        keys = drawn(app, KeyLine)
        assert "Mark" in keys and "Put down" in keys and "Liar!" not in keys
        hand = app.play.query_one(LiarHand)  # type: ignore[union-attr]
        assert "Put 1 card down (enter)" in drawn(app, LiarHand)  # (none marked: the cursor's)
        # Space marks the card under the cursor; a click marks the card clicked, or unmarks
        # it; three at most are marked.
        await pilot.press("space", "right", "space")
        assert hand.chosen == [0, 1] and "Put 2 cards down (enter)" in drawn(app, LiarHand)
        column = 1 + 2 * hand._card_width  # (the third card, where the hand draws it)
        await pilot.click(hand, offset=(column, 1))
        assert hand.chosen == [0, 1, 2] and hand.cursor == 2
        await pilot.click(hand, offset=(column, 1))
        assert hand.chosen == [0, 1]
        await pilot.press("right", "space", "right", "space")
        assert sorted(hand.chosen) == [0, 1, 3], "a fourth was marked"
        marked = tuple(view.hand[i] for i in (0, 1, 3))
        # The button puts the marked cards down, as enter does.
        await click_text(pilot, hand, "Put 3 cards down (enter)")
        await wait_for(pilot, lambda: downs(app), "the cards put down")
        assert (downs(app)[0].seat, downs(app)[0].cards) == (0, Put.of(marked).cards)
        await wait_for(pilot, lambda: liar_view(app).decision > view.decision, "the move")
        await wait_for(pilot, lambda: hand.cards == liar_view(app).hand, "the hand drawn")
        assert hand.chosen == []  # (nothing stays marked)


async def test_the_call_turns_the_cards_over_and_the_screen_tells_what_it_cost() -> None:
    app = liar_app(bots=1, players=2, seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app, seated=2)
        while True:  # put a card down on each turn until there is a claim to call
            await wait_for(pilot, lambda: liar_view(app).my_turn, "my turn", 60)
            view = liar_view(app)
            if view.claimer is not None:
                break
            decision = view.decision
            await pilot.press("enter")
            await wait_for(pilot, lambda d=decision: liar_view(app).decision != d, "the put")
        claimer = "Ada"
        said = f"{view.rank.title if view.count == 1 else view.rank.plural()}"
        prompt = app.play.query_one(LiarPrompt)  # type: ignore[union-attr]
        assert prompt.answers == (LIAR_BUTTON,) and "Liar!" in drawn(app, KeyLine)
        assert "Your turn: put cards on them, or call (l)." in drawn(app, LiarPrompt)
        calls = len(view.record)
        await pilot.press("l")
        # (the bot, if it lost, opens the next round at once: then it is Amy's turn again)
        await wait_for(pilot, lambda: len(liar_view(app).record) > calls
                       and liar_view(app).my_turn, "the call, and Amy's turn")
        view = liar_view(app)
        call = view.record[-1]
        assert isinstance(call, Called) and call.caller == 0
        told = drawn(app, LiarPrompt)
        assert f"You called {claimer}'s {call.count} {said}:" in told
        assert ("a lie!" if call.lie else "true!") in told
        loser = "You" if call.loser == 0 else "Ada"
        assert f"{loser} lost a life: 2 left." in told
        # The claims list shows the cards turned over, the verdict and who called.
        history = drawn(app, LiarHistory)
        assert f"{'lie' if call.lie else 'true'}: Amy" in history


async def test_a_turn_that_follows_your_last_at_once_rings_again() -> None:
    """Amy's first card is a lie that the bot calls at once: she loses, and opens the next
    round. Her turn never passed on the screen, but it is a new turn: it rings again."""
    clock = FrozenClock()
    app = liar_app(bots=1, players=2, seed=1)  # (a random bot, which calls this claim)
    app.clock = clock
    bells: list[int] = []
    app.bell = lambda: bells.append(liar_view(app).decision)  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app, seated=2)
        await wait_for(pilot, lambda: liar_view(app).my_turn, "my turn")
        title = app.play.query_one(TitleBar)  # type: ignore[union-attr]
        assert bells == [0] and title.notice == "Your turn"
        await pilot.press("enter")
        await wait_for(pilot, lambda: liar_view(app).round == 2, "the next round")
        call = liar_view(app).record[-1]
        assert isinstance(call, Called) and call.loser == 0 and call.lie
        assert liar_view(app).my_turn and title.notice == "Your turn"
        assert bells == [0, 2]  # (the decisions: the claim, then the round dealt)


class Laid(Alone):
    """One widget by itself, laid out by the app's stylesheet."""

    CSS_PATH = DoubtApp.CSS_PATH


def dealt(hands: list[str], rank: Rank = Rank.QUEEN, **options: Any) -> LiarsDeck:
    return LiarsDeck.from_hands(hands, rank, Options(**options))


def seated(game: LiarsDeck) -> TableInfo:
    """The table of ``game``, Amy, Ben and Cleo in its seats, every one of them there."""
    info = Table(TableConfig(players=game.players, game="liarsdeck",
                             options=game.options)).info()
    return dataclasses.replace(info, seats=tuple(
        dataclasses.replace(seat, name=NAMES[seat.seat], away=False) for seat in info.seats))


async def drawn_table(game: LiarsDeck, seat: int | None = 0) -> dict[type[Widget], str]:
    """What each part of a Liar's Deck table shows of ``game`` to ``seat``."""
    widget = LiarTable()
    app = Laid(widget)
    async with app.run_test(size=SIZE) as pilot:
        widget.live = True
        widget.show(game.view(seat), seated(game), ClientState(game_number=1))
        await pilot.pause()
        return {kind: " ".join(str(widget.query_one(kind).render()).split())
                for kind in (LiarPlayers, RoundBox, LiarPrompt, LiarHand, LiarHistory)}


async def test_the_last_player_with_cards_is_told_to_call() -> None:
    game = dealt(["Q Q Q K K", "A A A J J"])
    for seat, cards in ((0, "Q Q Q"), (1, "A A A"), (0, "K K")):
        game.apply(seat, Put.of([Card.parse(code) for code in cards.split()]))
    shown = await drawn_table(game, seat=1)
    assert "Amy put 2 down as Queens. You alone hold cards: call them (l)." in shown[LiarPrompt]
    assert "must call" in shown[LiarPlayers]
    assert "Put" not in shown[LiarHand]  # (no button: the call is the one move)


async def test_the_roulette_says_the_triggers_pulled_and_the_shot() -> None:
    game = dealt(["Q Q Q K K", "A A A J J", "K K K A A"], lives=Lives.ROULETTE)
    game.apply(0, Put.of([Card.parse("K")]))  # a lie
    game.apply(1, LIAR)
    shown = await drawn_table(game)
    assert "shots" in shown[LiarPlayers] and "Amy (you) 5 1/6" in shown[LiarPlayers]
    pulled = "bang, out." if game.state.lives[0] == 0 else "click."
    assert (f"Ben called your 1 Queen: K a lie! You pulled the trigger: {pulled}"
            in shown[LiarPrompt])
    assert "K lie: Ben" in shown[LiarHistory]


async def test_the_results_give_places_claims_and_calls() -> None:
    game = dealt(["Q Q Q K K", "A A A J J", "K K K A A"], lives=Lives.ONE)
    game.apply(0, Put.of([Card.parse("K")]))  # a lie, called: Amy is out
    game.apply(1, LIAR)
    while not game.over:  # the rest play a true card each, and call every claim
        seat = game.state.active
        view = game.view(seat)
        game.apply(seat, LIAR if view.can(type(LIAR)) else view.legal[0])
    view: TableView = game.view(0)
    results = LiarResults()
    async with Alone(results).run_test(size=SIZE) as pilot:
        results.show(view, seated(game), ClientState(), is_host=True, over=False)
        await pilot.pause()
        text = str(results.render())
    assert "place" in text and "calls: right" in text
    rows = {str(row[0]).split(" ")[0]: [str(cell) for cell in row[1:]] for row in results.rows}
    assert rows["Amy"][1] == "3rd" and rows["Amy"][2] == "0"  # out first, no lives left
    winner = NAMES[view.winner or 0]
    assert rows[winner][1] == "1st" and rows[winner][2] == "1"
    # Every call is someone's right or wrong call, and every lie caught is someone's.
    calls = [claim for claim in view.record if isinstance(claim, Called)]
    assert sum(int(row[5]) + int(row[6]) for row in rows.values()) == len(calls)
    assert sum(int(row[4]) for row in rows.values()) == sum(call.lie for call in calls)
