"""The table app at an I Know You Don't table, driven by keys and clicks with Pilot against
real hosts on loopback: a card played as declared, priority's answers, an interception, the
Wildcard's question, what the screen shows and the standard deck. What every game's table
does alike (a whole game, the help, the options, the half second...) is in the contract
tests of tests/test_app.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from apps import click_text, drawn, start_match, wait_for
from drive_iknowyoudont import KnowKeyPlayer, know_app, know_view
from textual.pilot import Pilot
from textual.widgets import Select, Static

from doubtlan.net.client import Client
from doubtlan.rules.iknowyoudont import (
    Card,
    Deck,
    Declaration,
    IKnowYouDont,
    Intercept,
    Kind,
    Options,
    Pass,
    Phase,
    Play,
    Played,
    Showdown,
)
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.games.iknowyoudont.centre import Centre
from doubtlan.tui.games.iknowyoudont.hand import KnowHand
from doubtlan.tui.games.iknowyoudont.history import KnowHistory
from doubtlan.tui.games.iknowyoudont.players import KnowPlayers
from doubtlan.tui.games.iknowyoudont.prompt import CHALLENGE, INTERCEPT, PASS, WILD, KnowPrompt
from doubtlan.tui.games.iknowyoudont.scorepad import KnowScorepad
from doubtlan.tui.screens.options import OptionsScreen
from doubtlan.tui.widgets.keys import KeyLine

SIZE = (100, 30)


def played(app: DoubtApp) -> list[Played]:
    """Every card played so far in the host's game, whole (the test looks at the host)."""
    assert app.hosted is not None and app.hosted.table.game is not None
    return [e for e in app.hosted.table.game.state.events if isinstance(e, Played)]


async def test_a_card_is_played_as_declared_by_keys_and_the_screen_shows_the_table() -> None:
    app = know_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: know_view(app).my_turn, "my turn")
        view = know_view(app)
        # Everything public is on the screen: tokens, points, hands, pot, piles, vault.
        players = drawn(app, KnowPlayers)
        assert "hand" in players and "tok" in players and "pts" in players
        assert "Amy (you)" in players and "to play" in players
        centre = drawn(app, Centre)
        assert f"draw {view.draw}" in centre and "pot 0" in centre and "vault 0" in centre
        keys = drawn(app, KeyLine)
        assert "Play" in keys and "Truth" in keys and "Bluff" in keys
        hand = app.play.query_one(KnowHand)  # type: ignore[union-attr]
        await pilot.press("right")
        card = hand.card
        assert card is not None and card == view.hand[1]
        # A level by digit, then one up by arrow, and Bluff: level 5 Bluff.
        await pilot.press("4", "up", "b")
        assert hand.declaration == Declaration(5, Kind.BLUFF)
        lie = "" if card.matches(Declaration(5, Kind.BLUFF)) else ": a bluff"
        assert f"Play {card.label()} as level 5 Bluff{lie} (enter)" in drawn(app, KnowHand)
        await pilot.press("enter")
        await wait_for(pilot, lambda: know_view(app).decision >= 1 or know_view(app).phase
                       is not Phase.PLAYING, "the claim")
        first = played(app)[0]
        assert (first.seat, first.card, first.declaration) == (0, card, Declaration(5, Kind.BLUFF))
        # The claim shows in the claims list once settled, with the names.
        await wait_for(pilot, lambda: know_view(app).record, "the claim settled")
        assert "Amy" in drawn(app, KnowHistory) and "5B" in drawn(app, KnowHistory)


async def test_with_priority_the_keys_pass_and_challenge() -> None:
    app = know_app(seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        player = KnowKeyPlayer(pilot, app)
        answered: list[str] = []
        for key in ("p", "c"):
            while True:
                await wait_for(pilot, lambda: know_view(app).my_turn
                               or know_view(app).can(Pass), "my turn or my priority", 60)
                if know_view(app).my_turn:
                    await player.take_turn()
                    await wait_for(pilot, lambda: not know_view(app).my_turn, "played")
                    continue
                break
            view = know_view(app)
            # The prompt asks, with the answers as buttons; the key line has them too.
            prompt = app.play.query_one(KnowPrompt)  # type: ignore[union-attr]
            assert prompt.answers[:3] == (PASS, (" Accept (a) ", "a", "prompt--quiet"),
                                          CHALLENGE)
            assert "Your priority" in drawn(app, KnowPrompt)
            assert "priority: you" in drawn(app, Centre)
            assert "Challenge" in drawn(app, KeyLine)
            turns = view.decision
            await pilot.press(key)
            answered.append(key)
            if key == "p":
                await wait_for(pilot, lambda t=turns: know_view(app).decision != t
                               or 0 in know_view(app).passed, "the pass")
            else:
                # (the claim waiting is the turns-th: it settles as claims[turns - 1])
                await wait_for(pilot, lambda t=turns: len(know_view(app).record) >= t,
                               "the showdown")
                record = know_view(app).record[turns - 1]
                assert isinstance(record, Showdown) and record.challenger == 0
                assert not record.intercept
        assert answered == ["p", "c"]


@asynccontextmanager
async def two_people(app: DoubtApp, pilot: Pilot[object]) -> AsyncIterator[tuple[Client, Client]]:
    """Ben and Cleo join Amy's table as people (the test plays them), then a bot."""
    await wait_for(pilot, lambda: app.hosted is not None and app.play is not None
                   and app.play.pane == "lobby", "the lobby")
    assert app.hosted is not None
    clients = (Client("127.0.0.1", app.hosted.port, "Ben"),
               Client("127.0.0.1", app.hosted.port, "Cleo"))
    tasks = []
    for client in clients:
        tasks.append(asyncio.create_task(client.run()))
        await wait_for(pilot, lambda c=client: c.connected.is_set(), "seated")
    await pilot.press("b", "enter")  # a bot of this game, at its first level
    try:
        yield clients
    finally:
        for client in clients:
            await client.close()
        for task in tasks:
            task.cancel()


def view_of_client(client: Client) -> object:
    return client.mirror.view


async def test_an_interception_and_the_wildcard_question() -> None:
    app = know_app(bots=0, players=4, seed=WILD_SEED)
    async with app.run_test(size=SIZE) as pilot, two_people(app, pilot) as (ben, cleo):
        await start_match(pilot, app, seated=4)
        await wait_for(pilot, lambda: know_view(app).my_turn, "my turn")
        hand = know_view(app).hand
        assert any(c.kind is Kind.WILDCARD for c in hand), hand
        assert any(c.kind is Kind.INTERCEPTION for c in hand), hand
        lie = next(c for c in hand if c.level is not None)
        # Amy plays a lie: the card one level up of what it is.
        widget = app.play.query_one(KnowHand)  # type: ignore[union-attr]
        while widget.card != lie:
            await pilot.press("right")
        level = lie.level % 6 + 1  # type: ignore[operator]
        await pilot.press(str(level), "y" if lie.kind is Kind.TRUTH else "b", "enter")
        await wait_for(pilot, lambda: know_view(app).phase is Phase.PRIORITY, "priority")
        assert know_view(app).priority == 1  # Ben's: he waits. Cleo intercepts.
        cleo_view = cleo.mirror.view
        assert cleo_view is not None and Card.parse("I") in cleo_view.hand
        await cleo.act(Intercept(), know_view(app).decision)
        await wait_for(pilot, lambda: know_view(app).phase is Phase.DECIDING, "the question")
        prompt = app.play.query_one(KnowPrompt)  # type: ignore[union-attr]
        assert WILD in prompt.answers and "no match" in drawn(app, KnowPrompt)
        assert lie.describe() in drawn(app, KnowPrompt) and "Cleo intercepted" in drawn(
            app, KnowPrompt)
        assert "shown:" in drawn(app, Centre) and "intercepted" in drawn(app, KnowPlayers)
        await click_text(pilot, prompt, WILD[0].strip())  # the button, as w would
        await wait_for(pilot, lambda: know_view(app).record, "the showdown")
        record = know_view(app).record[-1]
        assert isinstance(record, Showdown)
        assert record.wild and record.intercept and record.winner == 0
        assert "A Wildcard made it true" in drawn(app, KnowPrompt)
        # Ben's turn; Cleo holds priority and waits; Amy intercepts with i.
        await wait_for(pilot, lambda: isinstance(view_of_client(ben), type(know_view(app)))
                       and know_view(app).active == 1 and know_view(app).phase is Phase.PLAYING,
                       "Ben's turn")
        ben_view = ben.mirror.view
        assert ben_view is not None
        card = ben_view.hand[0]
        await ben.act(Play(card, Declaration(1, Kind.TRUTH)), ben_view.decision)
        await wait_for(pilot, lambda: know_view(app).can(Intercept), "a chance to intercept")
        assert INTERCEPT in app.play.query_one(KnowPrompt).answers  # type: ignore[union-attr]
        assert "Intercept" in drawn(app, KeyLine)
        await pilot.press("i")
        await wait_for(pilot, lambda: len(know_view(app).record) >= 2
                       or know_view(app).phase is Phase.DECIDING, "the interception")
        view = know_view(app)
        assert view.challenger == 0 if view.phase is Phase.DECIDING else (
            isinstance(view.record[1], Showdown) and view.record[1].challenger == 0
            and view.record[1].intercept)


#: A seed whose deal gives Amy a Wildcard, an Interception and a Truth or Bluff card, and
#: Cleo an Interception.
WILD_SEED = 10


async def test_the_host_chooses_the_standard_deck_and_the_rounds() -> None:
    app = know_app(players=4)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, OptionsScreen), "the options")
        assert not app.screen.query("#decks") and not app.screen.query("#challenge")
        app.screen.query_one("#deck", Select).value = "standard"
        app.screen.query_one("#rounds", Select).value = "3"
        await pilot.click("#save")
        await wait_for(pilot, lambda: not isinstance(app.screen, OptionsScreen), "saved")
        assert app.hosted is not None
        assert app.hosted.table.config.options == Options(Deck.STANDARD, 3)
        await wait_for(pilot, lambda: app.client.mirror.table.rules  # type: ignore[union-attr]
                       == "deck=standard,rounds=3", "the rules told")
        await start_match(pilot, app)
        await wait_for(pilot, lambda: know_view(app).my_turn, "my turn")
        # Levels up to 10: 0 chooses 10; the cards carry their faces.
        await pilot.press("0")
        hand = app.play.query_one(KnowHand)  # type: ignore[union-attr]
        assert hand.level == 10 and "Declare 1 2 3 4 5 6 7 8 9 10" in drawn(app, KnowHand)
        assert all(card.face is not None for card in hand.cards)


def test_a_card_code_round_trips_through_the_play_text() -> None:
    """What the hand sends is what the game reads."""
    for code in ("T3", "B6", "I", "W", "TH", "10H", "KS"):
        card = Card.parse(code)
        action = Play(card, Declaration(3, Kind.TRUTH))
        assert Play.from_args(action.text.split()[1:]) == action


class Passer(KnowKeyPlayer):
    """Plays its turns as the key player does, and never challenges nor intercepts."""

    def _needs_me(self) -> str | None:
        need = super()._needs_me()
        return "p" if need in ("a", "c", "i") and know_view(self.app).can(Pass) else \
            None if need == "i" else need


async def test_the_scorepad_shows_each_round_and_the_end_of_a_round_is_told() -> None:
    app = know_app(seed=3, options=Options(rounds=2), strategy="honest")
    told: list[tuple[str, str]] = []
    notify = app.notify

    def noting(message: str, *, title: str = "", **settings: object) -> None:
        told.append((title, message))
        notify(message, title=title, **settings)  # type: ignore[arg-type]

    app.notify = noting  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: know_view(app).my_turn, "my turn")
        pad = drawn(app, KnowScorepad)
        assert "r1 r2" in pad and "vp" in pad and "Amy" in pad
        assert app.play.query_one(KnowScorepad).border_title == "scorepad · round 1 of 2"  # type: ignore[union-attr]
        assert "round 1 of 2, claim 1/33" in drawn(app, Centre)
        view = await Passer(pilot, app).play_game(lambda view: bool(view.awards))
        assert view.awards and not view.winner  # the first round was scored; on to round 2
        await wait_for(pilot, lambda: "round 2 of 2" in str(
            app.play.query_one(KnowScorepad).border_title), "round 2")  # type: ignore[union-attr]
        first = view.awards[0]
        lines = [text.plain for text in app.play.query_one(KnowScorepad).texts]  # type: ignore[union-attr]
        row = next(line for line in lines if line.startswith("Amy")).split()
        assert row == ["Amy", str(first[0]) if first[0] else "·", str(view.victory[0])]
        assert any(title == "Round 1 is over" and "vp" in message for title, message in told)
        assert "vp" in drawn(app, KnowPlayers)


def test_the_results_say_the_tie_break_only_when_it_chose() -> None:

    from doubtlan.tui.games.iknowyoudont.results import reason_text

    def ended(awards: tuple[int, ...], tokens: list[int]) -> str:
        game = IKnowYouDont.from_hands(["T1 T2", "T1 T2", "B1"])
        game.state.awards, game.state.pad = [awards], [(1, 1, 1)]
        game.state.tokens = tokens
        game._end("tokens")
        return reason_text(game.view(None), {0: "Amy", 1: "Ben", 2: "Cleo"})

    assert "tie-break" not in ended((5, 5, 1), [0, 5, 4])  # Amy, broke, only ties Ben
    assert "Amy lost the last token" in ended((5, 5, 1), [0, 5, 4])
    assert "Tied on victory points: the tie-break chose" in ended((1, 5, 5), [0, 4, 5])


def test_the_results_mark_a_seat_a_bot_stood_in_for() -> None:
    from doubtlan.net.table import Table, TableConfig
    from doubtlan.tui.games.iknowyoudont.results import KnowResults

    table = Table(TableConfig(players=3, game="iknowyoudont", options=Options()))
    game = IKnowYouDont.from_hands(["T1 T2", "T1 T2", "B1"])
    results = KnowResults()
    results.stood_in = frozenset({1})
    names = {0: "Amy", 1: "Ben", 2: "Cleo"}
    assert [results.player(seat, game.view(0), table.info(), names)[0].plain
            for seat in range(3)] == ["Amy (you)", "Ben (a bot stood in)", "Cleo"]


async def test_t_opens_the_talk_and_says_that_truth_is_y() -> None:
    """Truth is y because t is talk: the talk box says so to a player who pressed t for it."""
    from doubtlan.tui.screens.talk import TalkScreen

    app = know_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: know_view(app).my_turn, "my turn")
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TalkScreen), "the talk box")
        note = app.screen.query_one("#talk-note", Static)
        assert "Truth? It is y at the table (t is for talk)" in str(note.render())
        await pilot.press("escape")
