"""How the app tests play Liar's Deck by keys (tests/apps.py)."""

from __future__ import annotations

from typing import Any, ClassVar

from apps import GameDriver, under, wait_for
from textual.pilot import Pilot

from doubtlan.rules.liarsdeck import Liar, Put
from doubtlan.rules.liarsdeck import Options as LiarOptions
from doubtlan.rules.liarsdeck import TableView as LiarView
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.games.liarsdeck.hand import LiarHand
from doubtlan.tui.games.liarsdeck.prompt import LiarPrompt
from doubtlan.tui.games.liarsdeck.results import LiarResults


def liar_view(app: DoubtApp) -> LiarView:
    view = app.client.mirror.view if app.client else None
    assert isinstance(view, LiarView)
    return view


class LiarKeyPlayer:
    """Plays the app's seat at a Liar's Deck table by keys: on its turn it calls every third
    claim (and whenever it must), else marks the true cards it holds (up to 3, with space)
    and puts them down, or with none puts down the card under the cursor. Counts what it
    did."""

    def __init__(self, pilot: Pilot[object], app: DoubtApp) -> None:
        self.pilot, self.app = pilot, app
        self.done = {"put": 0, "mark": 0, "liar": 0}
        self.turns = 0

    def _needs_me(self) -> str | None:
        view = self.app.client.mirror.view if self.app.client else None
        if not isinstance(view, LiarView) or self.app.play is None:
            return None
        if view.winner is not None:
            return "over" if self.app.play.pane == "results" else None
        return "turn" if self.app.play.pane == "table" and view.my_turn else None

    async def play_game(self) -> LiarView:
        """Play until the game is over and its results shown; returns the last view."""
        pilot = self.pilot
        await wait_for(pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while True:
            await wait_for(pilot, lambda: self._needs_me() is not None, "my move", 60)
            if self._needs_me() == "over":
                return liar_view(self.app)
            await self.take_turn()

    async def take_turn(self) -> None:
        view = liar_view(self.app)
        self.turns += 1
        decision = view.decision
        if view.can(Liar) and (not view.can(Put) or self.turns % 3 == 0):
            await self.pilot.press("l")
            self.done["liar"] += 1
        else:
            hand = self.app.play.query_one(LiarHand)  # type: ignore[union-attr]
            await wait_for(self.pilot, lambda: hand.cards == view.hand, "the hand drawn")
            true = [i for i, card in enumerate(view.hand) if card.matches(view.rank)][:3]
            for index in true:
                await self.pilot.press(*["right"] * ((index - hand.cursor) % len(hand.cards)),
                                       "space")
                self.done["mark"] += 1
            assert sorted(hand.chosen) == true
            await self.pilot.press("enter")
            self.done["put"] += 1
        await wait_for(self.pilot, lambda: liar_view(self.app).decision != decision, "the move")


class LiarDriver(GameDriver):
    game = "liarsdeck"
    changes: ClassVar[dict[str, object]] = {"game": "liarsdeck", "options": LiarOptions()}
    seed = 1
    hand, prompt, results = LiarHand, LiarPrompt, LiarResults
    lobby_rules = "Liar's Deck · one deck · 3 lives · no turn timer · games until the host stops"
    help_words = ("Liar's Deck", "20 cards", "Jokers", "roulette", "last player standing",
                  "| space |", "| l |")
    challenge = ("l", "liar", "Liar! (l)")
    move_button = " down (enter)"
    stand = ("enter", "put")  # (no window: the next player's cards let a claim stand)
    option = ("lives", "roulette", "decks=1,lives=roulette")

    def player(self, pilot: Pilot[object], app: DoubtApp) -> LiarKeyPlayer:
        return LiarKeyPlayer(pilot, app)

    def may_challenge(self, app: DoubtApp) -> bool:
        view = app.client.mirror.view if app.client else None
        return isinstance(view, LiarView) and view.can(Liar)

    async def to_a_challenge(self, pilot: Pilot[object], app: DoubtApp) -> None:
        player = LiarKeyPlayer(pilot, app)
        while not self.may_challenge(app):
            await wait_for(pilot, lambda: liar_view(app).my_turn, "my turn", 60)
            if not self.may_challenge(app):
                await player.take_turn()

    def check_results(self, results: Any, view: Any, player: Any) -> None:
        # Marked and put cards down, and called, all by keys.
        assert all(count > 0 for count in player.done.values()), player.done
        text = str(results.render())
        assert "place" in text and "lives" in text and "calls: right" in text
        under(results, "calls: right", "right", view.players)
        assert str(results.rows[view.winner][2]) == "1st"
        assert sum(int(str(row[5])) for row in results.rows) == sum(  # lies caught
            getattr(claim, "lie", False) for claim in view.record)


DRIVER = LiarDriver()
