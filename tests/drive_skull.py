"""How the app tests play Skull by keys (tests/apps.py)."""

from __future__ import annotations

from typing import Any, ClassVar

from apps import GameDriver, wait_for
from textual.pilot import Pilot

from doubtlan.rules.skull import SKULL, Bid, Options, Pass, Phase, TableView, Turn
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.games.skull.hand import DiscHand
from doubtlan.tui.games.skull.prompt import SkullPrompt
from doubtlan.tui.games.skull.results import SkullResults


def skull_view(app: DoubtApp) -> TableView:
    view = app.client.mirror.view if app.client else None
    assert isinstance(view, TableView)
    return view


class SkullKeyPlayer:
    """Plays the app's seat at a Skull table by keys: lays its Flowers first (enter on the
    disc under the cursor, moved past the Skull); once it has two discs laid (or none left to
    lay), opens the bidding at one more than its stack (``+`` then ``b``), so that it turns
    another player's stack too; raises with ``b`` while the bid is at most its stack, else
    passes with ``p``; and turns the first stack it may with its number. Counts what it did."""

    def __init__(self, pilot: Pilot[object], app: DoubtApp) -> None:
        self.pilot, self.app = pilot, app
        self.done = {"lay": 0, "bid": 0, "pass": 0, "turn": 0}

    def _needs_me(self) -> str | None:
        view = self.app.client.mirror.view if self.app.client else None
        if not isinstance(view, TableView) or self.app.play is None:
            return None
        if view.winner is not None:
            return "over" if self.app.play.pane == "results" else None
        return "turn" if self.app.play.pane == "table" and view.my_turn else None

    async def play_game(self) -> TableView:
        """Play until the game is over and its results shown; returns the last view."""
        await wait_for(self.pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while True:
            await wait_for(self.pilot, lambda: self._needs_me() is not None, "my move", 60)
            if self._needs_me() == "over":
                return skull_view(self.app)
            await self.take_turn()

    async def take_turn(self) -> None:
        view = skull_view(self.app)
        version = view.version
        if view.phase is Phase.TURNING:
            seat = next(move.seat for move in view.legal if isinstance(move, Turn))
            await self.pilot.press(str(seat + 1))
            self.done["turn"] += 1
        elif view.phase is Phase.BIDDING:
            if view.can(Bid) and view.bid <= len(view.stack):
                await self.pilot.press("b")  # (the least raise)
                self.done["bid"] += 1
            else:
                await self.pilot.press("p")
                self.done["pass"] += 1
        elif view.can(Bid) and (len(view.stack) >= 2 or not view.hand):
            await self.pilot.press(*["plus"] * min(len(view.stack), view.on_table - 1), "b")
            self.done["bid"] += 1
        else:
            hand = self.app.play.query_one(DiscHand)  # type: ignore[union-attr]
            await wait_for(self.pilot, lambda: hand.cards == view.hand, "the discs drawn")
            while hand.card is SKULL and len(set(hand.cards)) > 1:
                await self.pilot.press("right")
            await self.pilot.press("enter")
            self.done["lay"] += 1
        await wait_for(self.pilot, lambda: skull_view(self.app).version != version, "the move")


class SkullDriver(GameDriver):
    game = "skull"
    changes: ClassVar[dict[str, object]] = {"game": "skull", "options": Options()}
    seed = 1
    hand, prompt, results = DiscHand, SkullPrompt, SkullResults
    lobby_rules = "Skull · 2 bids to win · no turn timer · games until the host stops"
    help_words = ("Skull", "Flowers", "stack", "bid", "| b |", "| p |")
    challenge = ("p", "pass", "Pass (p)")
    stand = ("p", "pass")  # (in the bidding: let the bid stand, as far as Amy goes)
    option = ("points", "3", "points=3")
    move_button = "Lay "

    def player(self, pilot: Pilot[object], app: DoubtApp) -> SkullKeyPlayer:
        return SkullKeyPlayer(pilot, app)

    def may_challenge(self, app: DoubtApp) -> bool:
        view = app.client.mirror.view if app.client else None
        return isinstance(view, TableView) and view.can(Pass)

    async def to_a_challenge(self, pilot: Pilot[object], app: DoubtApp) -> None:
        player = SkullKeyPlayer(pilot, app)
        while not self.may_challenge(app):
            await wait_for(pilot, lambda: skull_view(app).my_turn, "my turn", 60)
            if not self.may_challenge(app):
                await player.take_turn()

    def check_results(self, results: Any, view: Any, player: Any) -> None:
        assert all(count > 0 for count in player.done.values()), player.done
        text = str(results.render())
        assert "discs" in text and "made" in text and "failed" in text


DRIVER = SkullDriver()
