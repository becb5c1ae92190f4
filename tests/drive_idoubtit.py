"""How the app tests play I Doubt It by keys (tests/apps.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from apps import GameDriver, under, wait_for
from textual.pilot import Pilot

from doubtlan.rules.idoubtit import TableView
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.games.idoubtit.hand import Hand
from doubtlan.tui.games.idoubtit.prompt import Prompt
from doubtlan.tui.games.idoubtit.results import DoubtResults


def view_of(app: DoubtApp) -> TableView | None:
    return app.client.mirror.view if app.client else None


class KeyPlayer:
    """Plays the app's seat by keys: lays the cards of the required rank it holds (or one
    other card, a bluff), announces, and in a window doubts every ``doubt_every``-th claim
    and lets the others stand. Counts what it did."""

    def __init__(self, pilot: Pilot[object], app: DoubtApp, doubt_every: int = 3) -> None:
        self.pilot, self.app, self.doubt_every = pilot, app, doubt_every
        self.done = {"lay": 0, "announce": 0, "doubt": 0, "stand": 0}
        self.windows = 0

    def view(self) -> TableView:
        view = view_of(self.app)
        assert view is not None
        return view

    async def play_game(self) -> TableView:
        """Play until the game is won; returns the last view."""
        pilot = self.pilot
        await wait_for(pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while True:
            await wait_for(pilot, lambda: self._needs_me() is not None, "my move")
            need = self._needs_me()
            if need == "over":
                return self.view()
            if need == "turn":
                await self.take_turn()
            else:
                await self.answer()

    async def play_game_until(self, done: Callable[[], object]) -> None:
        """Play by keys until ``done()`` holds (looked at before each move)."""
        pilot = self.pilot
        await wait_for(pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while not done():
            await wait_for(pilot, lambda: done() or self._needs_me() is not None, "my move")
            need = None if done() else self._needs_me()
            if need == "over":
                raise AssertionError("the game ended first")
            if need == "turn":
                await self.take_turn()
            elif need == "window":
                await self.answer()

    def _needs_me(self) -> str | None:
        view = view_of(self.app)
        if view is None or self.app.play is None:
            return None
        if view.winner is not None:
            return "over" if self.app.play.pane == "results" else None
        if self.app.play.pane != "table":
            return None
        if view.my_turn and not view.my_laid:
            return "turn"
        if view.seat in view.awaiting and view.my_answer is None and view.claim is not None:
            return "window"
        return None

    async def take_turn(self) -> None:
        view = self.view()
        true = [card for card in view.hand if card.rank is view.rank]
        cards = true[: view.options.max_claim] or [view.hand[0]]
        hand = self.app.play.query_one(Hand)  # type: ignore[union-attr]
        for card in cards:
            await wait_for(self.pilot, lambda c=card: c in hand.cards, "the card in hand")
            while hand.card != card:
                await self.pilot.press("right")
            await self.pilot.press("enter")
            await wait_for(self.pilot, lambda c=card: c in self.view().my_laid, "the lay")
            self.done["lay"] += 1
        turns = view.decision
        await self.pilot.press("a")
        await wait_for(self.pilot, lambda: self.view().decision > turns, "the claim")
        self.done["announce"] += 1

    async def answer(self) -> None:
        self.windows += 1
        doubt = self.windows % self.doubt_every == 0
        turns = self.view().decision
        await self.pilot.press("d" if doubt else "p")
        await wait_for(
            self.pilot,
            lambda: self.view().my_answer is not None or self.view().decision != turns
            or self.view().claim is None,
            "the answer",
        )
        self.done["doubt" if doubt else "stand"] += 1


def asked(app: DoubtApp) -> bool:
    """True while a claim waits for this app's seat to doubt or let it stand."""
    view = view_of(app)
    return (view is not None and view.claim is not None and view.seat in view.awaiting
            and view.my_answer is None)


class DoubtDriver(GameDriver):
    game = "idoubtit"
    changes: ClassVar[dict[str, object]] = {}
    seed = 1
    hand, prompt, results = Hand, Prompt, DoubtResults
    lobby_rules = "one deck · 30 s to doubt · no turn timer · games until the host stops"
    help_words = ("I Doubt It", "required rank", "announce", "| d |", "| p |")
    challenge = ("d", "doubt", "Doubt (d)")
    stand = ("p", "stand")
    move_button = "Lay "
    option = ("challenge", "open", "decks=1,challenge=open")

    def player(self, pilot: Pilot[object], app: DoubtApp) -> KeyPlayer:
        return KeyPlayer(pilot, app)

    def may_challenge(self, app: DoubtApp) -> bool:
        return asked(app)

    async def to_a_challenge(self, pilot: Pilot[object], app: DoubtApp) -> None:
        await wait_for(pilot, lambda: view_of(app).my_turn, "my turn")  # type: ignore[union-attr]
        await KeyPlayer(pilot, app).take_turn()
        await wait_for(pilot, lambda: asked(app), "a window")

    def check_results(self, results: Any, view: Any, player: Any) -> None:
        # Laid, announced, doubted and let claims stand, all by keys; this seed's game is won.
        assert all(count > 0 for count in player.done.values()), player.done
        assert view.winner == 0
        # The bluff counts are told at the end; each hand's sparkline is drawn.
        assert str(results.rows[0][3]) != "?"
        assert str(results.rows[0][7]).strip()
        under(results, "doubts: right", "right", view.players)


DRIVER = DoubtDriver()
